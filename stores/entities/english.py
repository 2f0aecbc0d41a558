"""Group discovered English names into people: `M. Morrel` is Morrel, `Edmond` is Edmond Dantès.

Surnames are shared by families (Morrel is the shipowner and his son Maximilian), so the rules
only merge where the text leaves no choice:
- a male or neutral title merges into the bare name (M. de Villefort, Baron Danglars → Danglars);
  a female title stays apart (Madame Danglars is not Danglars);
- a first name merges into the one full name that starts with it (Albert → Albert de Morcerf);
- a surname merges into the one full name that ends with it, unless a frequent titled form
  shows the surname also names an older relative on its own (M. Morrel → no merge).
"""

from __future__ import annotations

from collections import Counter

_MALE_TITLES = frozenset({"M.", "MM.", "Mr.", "Dr.", "St.", "Monsieur", "Signor", "Sir", "Lord",
                          "Captain", "Colonel", "Baron", "Count", "Abbé", "Father"})
_FEMALE_TITLES = frozenset({"Mrs.", "Ms.", "Mme.", "Mlle.", "Madame", "Mademoiselle", "Signora",
                            "Lady", "Miss", "Baroness", "Countess"})
_PARTICLES = frozenset({"de", "du", "des", "d'", "d’", "la", "le", "van", "von", "di", "da", "del"})
# First words that describe rather than name (Old Dantès, Poor Dantès).
_DESCRIBERS = frozenset({"Old", "Young", "Little", "Poor", "Dear", "Good", "Great"})


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
            person.add(titled)
    return [(name, aliases, name in person) for name, aliases in groups.items()]


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
