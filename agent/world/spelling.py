"""Names of a world spelled like one it does not know, to offer in an error ("did you mean
'Captain Benwick'?" for Captain Benwik)."""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence

from stores.lang.text import fold_latin

SPELLED_LIKE = 0.8
"""How alike a name must be spelled to be offered for a name the world does not know (difflib's
ratio: Benwik and Benwick 0.92; Anne and Jane 0.75, not offered)."""


def spelled_like(name: str, entities: Mapping[str, Sequence[str]]) -> list[str]:
    """Up to three names or aliases of `entities` (canonical name → aliases) spelled like
    `name`, letter case and accents aside, the closest first."""
    forms = {fold_latin(f).casefold(): f for n, aliases in entities.items() for f in (n, *aliases)}
    found = difflib.get_close_matches(fold_latin(name).casefold(), list(forms), n=3,
                                      cutoff=SPELLED_LIKE)
    return [forms[f] for f in found]
