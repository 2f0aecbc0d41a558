"""The gender a person's names say by their titles or endings (韩夫人, Miss Vance, Mr. Shen)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from stores.lang import en, has_han, zh

Gender = Literal["m", "f", ""]
_RANKS = frozenset(rank.lower() for rank in en.SERVICE_RANKS)


def person_gender(names: Iterable[str]) -> Gender:
    """A person's gender by their names: their titles' (`title_gender`), else the common given
    name the first of them opens with (Anne, of "In her low deck-chair Anne was …"; Jenny)."""
    names = list(names)
    if titled := title_gender(names):
        return titled
    given = en.given_gender(names[0].split()[0]) if names and names[0].split() else ""
    return "m" if given == "m" else "f" if given == "f" else ""


def title_gender(names: Iterable[str]) -> Gender:
    """The gender the names' titles or suffixes say (韩夫人, Miss Vance, Mr. Shen), if more of
    them say it than the other; '' when none does."""
    votes = {"m": 0, "f": 0}
    ranked = 0  # a rank (Captain, General) says a man only where no title says a woman
    for name in names:
        words = name.lower().split()
        if len(words) >= 2 and words[0] in en.FEMALE_TITLE_WORDS:
            votes["f"] += 1
        elif len(words) >= 2 and words[0] in _RANKS:
            ranked += 1
        elif len(words) >= 2 and words[0] in en.MALE_TITLE_WORDS:
            votes["m"] += 1
        elif has_han(name[-1:]) and len(name) >= 2:
            if name.endswith(zh.FEMALE_NAME_ENDINGS):
                votes["f"] += 1
            elif name.endswith(zh.MALE_NAME_ENDINGS):
                votes["m"] += 1
    if not votes["f"]:
        votes["m"] += ranked  # Captain Maren Vell is Lady Maren Thorne: a woman who commands
    if votes["f"] > votes["m"]:
        return "f"
    return "m" if votes["m"] > votes["f"] else ""
