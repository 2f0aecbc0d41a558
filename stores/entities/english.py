"""Group discovered English names into people: `M. Morrel` is Morrel, `Edmond` is Edmond Dantès.

Surnames are shared by families (Morrel is the shipowner and his son Maximilian), so the rules
only merge where the text leaves no choice:
- a male or neutral title merges into the bare name (M. de Villefort, Baron Danglars → Danglars);
  a female title stays apart (Madame Danglars is not Danglars);
- a first name merges into the one full name that starts with it (Albert → Albert de Morcerf);
- a surname merges into the one full name that ends with it, unless a frequent titled form
  shows the surname also names an older relative on its own (M. Morrel → no merge);
- a titled form joins the one longer form under the same title (Lady Catherine → Lady Catherine
  de Bourgh), and a title before a first name used more often alone joins it (Miss Elizabeth →
  Elizabeth) unless that name takes a title itself (Miss Darcy is not Mr. Darcy);
- a pet name and its given name, both used alone, are one person (Lizzy, Eliza → Elizabeth);
- a first name known alone, written with a family's name, gains that form (Jane Bennet → Jane).
"""

from __future__ import annotations

from collections import Counter

from stores.lang.en import DESCRIBERS as _DESCRIBERS
from stores.lang.en import NAME_TITLES, PARTICLES, PET_NAMES

_MALE_TITLES = frozenset(t for t, gender in NAME_TITLES.items() if gender == "m")
_FEMALE_TITLES = frozenset(t for t, gender in NAME_TITLES.items() if gender == "f")
_PARTICLES = frozenset(PARTICLES)


def _split(name: str) -> tuple[str, list[str]]:
    words = name.split()
    if len(words) > 1 and (words[0] in _MALE_TITLES or words[0] in _FEMALE_TITLES):
        return words[0], words[1:]
    return "", words


def _bare(words: list[str]) -> str:
    """The name without leading particles: ["de", "Villefort"] → "Villefort"."""
    while words and words[0] in _PARTICLES:
        words = words[1:]
    return " ".join(words)


def _bare_surname(words: list[str]) -> str:
    """The surname of a full name: Albert de Morcerf → Morcerf."""
    return _bare(words[1:]) if len(words) > 1 else ""


def group_english_names(counts: Counter[str], min_count: int) -> list[tuple[str, list[str], bool]]:
    """(canonical name, aliases, is a person) for the names seen at least `min_count` times.

    A name becomes a person when a title or a first name ties it to one; other frequent
    capitalised names (Paris, Marseilles) stay as plain entities.
    """
    kept = {name: count for name, count in counts.items() if count >= min_count}
    titles_of = {name for name in kept if _split(name)[0]}
    full_names = [n for n in kept if n not in titles_of and len(n.split()) > 1
                  and n.split()[0] not in _DESCRIBERS and n.split()[0] not in _PARTICLES]
    groups: dict[str, list[str]] = {name: [] for name in kept if name not in titles_of}
    person: set[str] = set()
    for full in full_names:
        first = full.split()[0]
        if first in groups and sum(1 for f in full_names if f.split()[0] == first) == 1:
            _move(groups, first, full)
            person.add(full)
    male_surnames = {_bare(_split(n)[1]) for n in titles_of if _split(n)[0] in _MALE_TITLES}
    for full in full_names:
        surname = _bare_surname(full.split())
        owners = [f for f in full_names if _bare_surname(f.split()) == surname]
        # Only a person's name lends its surname: the first word must be a first name seen
        # on its own (Edmond Dantès yes, Café de Paris no).
        first_name = full.split()[0] in kept
        if (first_name and surname in groups and len(owners) == 1
                and surname not in male_surnames):
            _move(groups, surname, full)
            person.add(full)
    for titled in sorted(titles_of, key=lambda n: -kept[n]):
        title, rest = _split(titled)
        bare = _bare(rest)
        target = _owner(groups, bare) if title in _MALE_TITLES else None
        if target is not None:
            groups[target].append(titled)
            person.add(target)
        else:
            groups.setdefault(titled, [])
            if not _family_plural(bare, groups):  # the Miss Bennets are the sisters
                person.add(titled)
    _fold_titled(groups, kept)
    _fold_first_names(groups, kept)
    _add_family_names(groups, counts)
    return [(name, aliases, name in person) for name, aliases in groups.items()]


def _family_plural(bare: str, groups: dict[str, list[str]]) -> bool:
    """Whether a name is a family's name made plural (Bennets, Lucases): several people."""
    last = {name.split()[-1] for name in _names(groups) if name != bare}
    return any(bare == family + ending for family in last for ending in ("s", "es"))


def _names(groups: dict[str, list[str]]) -> set[str]:
    """Every name the groups hold: canonical names and aliases."""
    return {name for canonical, aliases in groups.items() for name in (canonical, *aliases)}


def _fold_titled(groups: dict[str, list[str]], kept: dict[str, int]) -> None:
    """Titled forms of one person: a shorter form whose only longer form under the same title
    starts with it (Lady Catherine → Lady Catherine de Bourgh; Sir William → Sir William
    Lucas), the same name in another case (Miss De Bourgh → Miss de Bourgh), and a title
    before a first name that is more often used alone (Miss Elizabeth, Miss Elizabeth Bennet
    → Elizabeth)."""
    titled = [n for n in list(groups) if _split(n)[0]]
    for name in sorted(titled, key=len):
        if name not in groups:
            continue
        title, rest = _split(name)
        longer = [n for n in groups if n != name and _split(n)[0] == title
                  and " ".join(_split(n)[1]).startswith(" ".join(rest) + " ")]
        same = [n for n in groups if n != name and n.lower() == name.lower()
                and kept.get(n, 0) >= kept.get(name, 0)]
        first = rest[0] if rest[0] not in _PARTICLES else ""
        if len(longer) == 1:
            _move(groups, name, longer[0])
        elif same:
            _move(groups, name, same[0])
        elif first in groups and kept.get(first, 0) > kept.get(name, 0) and len(rest) <= 2 \
                and not any(_split(alias)[0] for alias in groups[first]):
            # a name that takes a title itself (Mr. Darcy) is a surname: Miss Darcy is his sister
            _move(groups, name, first)


def _fold_first_names(groups: dict[str, list[str]], kept: dict[str, int]) -> None:
    """A pet name and the given name it is formed from, both used alone as names, are one
    person: Lizzy and Eliza → Elizabeth. The rarer form joins the commoner (Catherine, used
    alone ten times in Pride and Prejudice, joins Kitty)."""
    for pet, formal in PET_NAMES.items():
        if pet in groups and formal in groups:
            rare, common = sorted((pet, formal), key=lambda n: kept.get(n, 0))
            _move(groups, rare, common)



def _add_family_names(groups: dict[str, list[str]], counts: Counter[str]) -> None:
    """A first name known alone, written once or more with the family's name, is the same
    person: Jane Bennet and Miss Lydia Bennet (once or twice in Pride and Prejudice, where the
    sisters are Jane and Lydia) join Jane and Lydia, with the untitled form, so a question
    naming "Lydia Bennet" means Lydia, not Lydia and Mr. Bennet."""
    known = _names(groups)
    families = {name.split()[-1] for name in known if len(name.split()) > 1} | {
        name for name in groups if len(name.split()) == 1}
    for name in counts:
        _, words = _split(name)  # Miss Lydia Bennet: Lydia Bennet, under a title
        if len(words) == 2 and words[0] in groups and words[1] in families \
                and words[1] != words[0]:
            for form in dict.fromkeys((name, " ".join(words))):
                if form not in known:
                    groups[words[0]].append(form)
                    known.add(form)


def _move(groups: dict[str, list[str]], alias: str, target: str) -> None:
    if alias == target or target not in groups or alias not in groups:
        return
    groups[target].extend([alias, *groups.pop(alias)])


def _owner(groups: dict[str, list[str]], name: str) -> str | None:
    if name in groups:
        return name
    for canonical, aliases in groups.items():
        if name in aliases:
            return canonical
    return None
