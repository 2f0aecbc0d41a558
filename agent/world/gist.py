"""A timeline row's one line: the sentence of a passage that names the entity, or calls them by
their title with "the" or by a word for what they are to someone."""

from __future__ import annotations

import re
from collections.abc import Sequence

from stores.entities.definite_titles import definite_forms
from stores.lang import clip, shown
from stores.lang.text import sentences


def gist(text: str, names: Sequence[str], kin: Sequence[str] = (), width: int = 80) -> str:
    """The first sentence that names the entity, else the first that calls them by their
    title with "the" (the general: stores/entities/definite_titles.py), else by a word for
    what they are to someone (`kin`: his father), trimmed to one line."""
    found = [s.text for s in sentences(text, "quote")]
    titles = definite_forms(names)
    called = re.compile(rf"\b(?:{'|'.join(map(re.escape, kin))})\b", re.I) if kin else None
    chosen = next((s for s in found if any(n in s for n in names)), None) or next(
        (s for s in found if any(t in s.lower() for t in titles)), None) or next(
        (s for s in found if called is not None and called.search(s)),
        found[0] if found else text)
    # cut at a clause or a space, never inside a word ("and two arro…": a newcomer's export),
    # and the speech it opened closed (其人曰：“吾姓关名羽…” read unclosed in an export)
    return shown(chosen if len(chosen) <= width else clip(chosen, width - 1))
