"""Which man of a family a surname written alone names, read from the names written around it:
the father's "Mr. Morland" took bare "Morland", which is his son James's in every use (a
newcomer's trial on Northanger Abbey read 'Catherine's father is merged with her brother')."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Set

from stores.entities.english_forms import (
    FEMALE_TITLES,
    MALE_TITLES,
    Groups,
    bare_surname,
    is_full,
    split_title,
)

NEAR_SURNAME = 1500
"""How many characters either side of a surname written alone the family's names are looked
for: a scene's talk, where a speaker's "Morland" and the name of the one meant stand together."""


def release_surnames_of_another(g: Groups, text: str, women: set[str]) -> None:
    """A surname alone leaves the person whose group holds it when it is another man's of the
    family (`another_mans`); it becomes a name of its own, not that man's: which son a speaker
    means changes with the speaker (Tilney is Henry in ch. 3–11, his brother in Isabella's
    mouth)."""
    if not text:
        return
    leading = name_openers(g.names())
    families = family_men(g.groups, women)
    for owner in [n for n in list(g.groups) if n in g.person]:
        for surname in [f for f in (owner, *g.groups[owner]) if len(f.split()) == 1]:
            if another_mans(surname, _forms(g, owner), families, text, leading):
                _release(g, owner, surname)
                break


def another_mans(surname: str, own: set[str], families: dict[str, set[str]], text: str,
                 leading: set[str]) -> bool:
    """The surname written alone is another man's than the person of the `own` names: a man of
    the family known by his full name (one of `families`: full name → its forms) is written
    near it more often than any of the person's other names are. Bare "Morland" stands beside
    James (in 16 of its 36 uses) more than beside the father's "Mr. Morland" (10), bare
    "Tilney" beside Henry (19) more than beside "General Tilney" (5); bare "Knightley" stays Mr.
    Knightley's (55 against John Knightley's 19). `leading`: the words that open a longer name
    (`name_openers`)."""
    rivals = [forms for name, forms in families.items()
              if name not in own and bare_surname(name.split()) == surname]
    if not rivals:
        return False
    uses = _alone(surname, text, leading)
    mine = _near(uses, len(surname), text, own - {surname})
    return any(_near(uses, len(surname), text, forms - {surname}) > mine for forms in rivals)


_SURNAME_AFTER = re.compile(r" [A-Z]")
FAMILY_DOMINANCE = 2.5
"""A first name written alone that several full names start with is the one's whose surname
stands near it at least this many times as often as any other's (`first_name_holder`)."""


def first_name_holder(first: str, fulls: Iterable[str], text: str) -> str | None:
    """Which of the full names starting with `first` the first name written alone names: the one
    whose surname is written within NEAR_SURNAME characters of it FAMILY_DOMINANCE times as often
    as any other's, or None. Persuasion's bare "Charles" stands near "Musgrove" 85 times and near
    "Hayter" 32 (Charles Musgrove, not his cousin Charles Hayter), Sense and Sensibility's "John"
    near "Dashwood" 9 times, "Willoughby" 3, "Middleton" 2 (Sir John is never bare "John");
    Northanger Abbey's "John" near "Thorpe" 15 times and "Morland" 14 (there is no John Morland,
    so no rival) but Catherine's brother is James."""
    surnames = {full: bare_surname(full.split()) for full in fulls}
    if len(set(surnames.values())) < 2 or not all(surnames.values()):
        return None
    titles = set(MALE_TITLES) | set(FEMALE_TITLES)  # Sir John, Mr. John Knightley
    uses = [at for at in _alone(first, text, titles)
            if not _SURNAME_AFTER.match(text, at + len(first))]  # not John Dashwood
    near = {full: _near(uses, len(first), text, {surname})
            for full, surname in surnames.items()}
    best, *others = sorted(near, key=lambda f: -near[f])
    rival = max(near[other] for other in others)
    return best if near[best] > 0 and near[best] >= FAMILY_DOMINANCE * rival else None


def _release(g: Groups, owner: str, surname: str) -> None:
    """The surname becomes a group of its own, a person; the owner keeps its other names."""
    if owner == surname:
        rest = g.groups[owner]
        if not rest:
            return
        g.rename(owner, rest[0])
        owner = rest[0]
    g.groups[owner].remove(surname)
    g.groups[surname] = []
    g.person.add(surname)


def _forms(g: Groups, person: str) -> set[str]:
    return {person, *g.groups.get(person, [])}


def family_men(groups: Mapping[str, Iterable[str]], women: Set[str] = frozenset()
               ) -> dict[str, set[str]]:
    """Full name → all its forms, for each name group known by a full name that is no woman's:
    none of its forms under a woman's title, nor a first name written after Miss (`women`)."""
    found = {}
    for name, aliases in groups.items():
        forms = {name, *aliases}
        if is_full(name) and not any(split_title(f)[0] in FEMALE_TITLES or (
                is_full(f) and f.split()[0] in women) for f in forms):
            found[name] = forms
    return found


def name_openers(names: Iterable[str]) -> set[str]:
    """Words that open a longer name (titles, first names): a surname after one is no surname
    written alone (Mr. Morland, James Morland)."""
    return set(MALE_TITLES) | set(FEMALE_TITLES) | {
        n.split()[0] for n in names if len(n.split()) > 1}


def _alone(surname: str, text: str, leading: set[str]) -> list[int]:
    """Where the text writes the surname with no title or first name before it."""
    found = []
    for match in re.finditer(rf"\b{re.escape(surname)}\b", text):
        before = text[max(0, match.start() - 20):match.start()].split()
        if not (before and before[-1] in leading and text[match.start() - 1] == " "):
            found.append(match.start())
    return found


def _near(uses: Iterable[int], length: int, text: str, forms: set[str]) -> int:
    """How many of the uses have one of the forms within NEAR_SURNAME characters."""
    if not forms:
        return 0
    pattern = re.compile(r"\b(?:" + "|".join(re.escape(f) for f in sorted(forms, key=len,
                                                                         reverse=True)) + r")\b")
    return sum(1 for at in uses if pattern.search(
        text[max(0, at - NEAR_SURNAME):at] + " " + text[at + length:at + length + NEAR_SURNAME]))
