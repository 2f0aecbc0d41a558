"""The shapes of English names that the grouping of names into people reads (stores/entities/
english.py, english_titles.py): a title and the rest (M. Morrel), a name without its particles
(de Villefort → Villefort), a full name of a first name and a surname, a title held of a place
(the Count of Monte Cristo), and the groups of names being built.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from stores.lang.en import DESCRIBERS as _DESCRIBERS
from stores.lang.en import (
    NAME_TITLES,
    PARTICLES,
    PLACE_HEADS,
    PLACE_TAILS,
    PLACE_TITLES,
    UNMARRIED_TITLES,
    given_gender,
)
from stores.lang.en import NOT_NAMES as _NOT_NAMES
from stores.lang.gender import title_gender

MALE_TITLES = frozenset(t for t, gender in NAME_TITLES.items() if gender == "m")
FEMALE_TITLES = frozenset(t for t, gender in NAME_TITLES.items() if gender == "f")
UNMARRIED = frozenset(UNMARRIED_TITLES)
PARTICLE_WORDS = frozenset(PARTICLES)
OF_PLACE = re.compile(r"^(?P<title>" + "|".join(PLACE_TITLES) + r") (?:of|de|d’|d') (?P<place>.+)$")


def split_title(name: str) -> tuple[str, list[str]]:
    words = name.split()
    if len(words) > 1 and (words[0] in MALE_TITLES or words[0] in FEMALE_TITLES):
        return words[0], words[1:]
    return "", words


def bare_name(words: list[str]) -> str:
    """The name without leading particles: ["de", "Villefort"] → "Villefort"."""
    while words and words[0] in PARTICLE_WORDS:
        words = words[1:]
    return " ".join(words)


def bare_surname(words: list[str]) -> str:
    """The surname of a full name: Albert de Morcerf → Morcerf; the last name after the middle
    ones (William Walter Elliot → Elliot, not "Walter Elliot": his father is Sir Walter Elliot)."""
    rest = bare_name(words[1:]).split() if len(words) > 1 else []
    return rest[-1] if rest else ""


def called_apart(man: str, titled_surname: str, seen: Mapping[str, int]) -> bool:
    """The text writes the man's title with his full name at least as often as with his surname
    alone (`titled_surname`, Mr. Churchill): it tells him apart from the one "Mr. Churchill"
    means, another man of the family (Mr. Frank Churchill, 47 times in Emma; Mr. Churchill, 21,
    is his uncle). One whom the surname alone names (Mr. Tilney, 38; Mr. Henry Tilney, 2) is
    not called apart."""
    title, rest = split_title(titled_surname)
    return (len(rest) == 1 and is_full(man) and man.split()[-1] == rest[0]
            and seen.get(f"{title} {man}", 0) >= max(2, seen.get(titled_surname, 0)))


def is_full(name: str) -> bool:
    """An untitled name of a first name and a surname (Edmond Dantès, Albert de Morcerf)."""
    words = name.split()
    return (not split_title(name)[0] and len(words) > 1 and words[0][0].isupper()
            and words[0] not in _DESCRIBERS
            and words[0] not in PARTICLE_WORDS and words[0] not in _NOT_NAMES
            and words[0] not in PLACE_HEADS and words[-1] not in PLACE_TAILS
            and not OF_PLACE.match(name))


def another_given_name(words: Iterable[str], forms: Iterable[str]) -> bool:
    """One of `words`, written around a person's name (Henry, of "Henry Dashwood"), is a first
    name other than theirs: their `forms` give them one (John Dashwood) and it is not it. A
    person the text names by title and surname alone takes any (Gérard de Villefort is M. de
    Villefort) but one of the other gender's (Fanny Harville is no Captain Harville, whose card
    `lore card "Fanny Harville"` showed: a newcomer's trial on Persuasion)."""
    forms, words = list(forms), list(words)
    sex = title_gender(forms)
    if sex and any(given_gender(w) not in ("", sex) for w in words):
        return True
    given = {f.split()[0] for f in forms if is_full(f)}
    return bool(given) and any(w[:1].isupper() and w not in given and w not in PARTICLE_WORDS
                               and w not in MALE_TITLES and w not in FEMALE_TITLES for w in words)


@dataclass
class Groups:
    """Canonical name → aliases, with who is known to be a person."""

    groups: dict[str, list[str]] = field(default_factory=dict)
    person: set[str] = field(default_factory=set)
    heads: dict[str, str] = field(default_factory=dict)
    """A family's name that is no name of its own (Martin: only Mr. Martin is written) → the
    one man of the family its titled forms name (Robert Martin)."""
    styled: set[str] = field(default_factory=set)
    """Groups that are a place's name used as a person's, by the title held of it (Monte
    Cristo, by the Count of Monte Cristo)."""

    def owner(self, name: str) -> str | None:
        if name in self.groups:
            return name
        for canonical, aliases in self.groups.items():
            if name in aliases:
                return canonical
        return None

    def move(self, alias: str, target: str) -> None:
        """`alias` (a canonical name) and its aliases join `target`."""
        if alias == target or target not in self.groups or alias not in self.groups:
            return
        self.groups[target].extend([alias, *self.groups.pop(alias)])
        if alias in self.person:
            self.person.discard(alias)
            self.person.add(target)

    def rename(self, old: str, new: str) -> None:
        """The group of `old` is named `new`, keeping `old` as an alias."""
        aliases = [a for a in self.groups.pop(old) if a != new]
        self.groups[new] = [old, *aliases]
        if old in self.person:
            self.person.discard(old)
            self.person.add(new)

    def names(self) -> set[str]:
        return {n for canonical, aliases in self.groups.items() for n in (canonical, *aliases)}


def first_words(names) -> Counter[str]:
    return Counter(n.split()[0] for n in names)
