"""Group discovered English names into people: `M. Morrel` is Morrel, `Edmond` is Edmond Dantès,
the Count of Monte Cristo is Edmond Dantès.

Surnames are shared by families (Morrel is the shipowner and his son Maximilian), so the rules
only merge where the text leaves no choice, and a person is named by their full name:
- a first name joins the one full name that starts with it (Albert → Albert de Morcerf), or the
  one written DOMINANCE times more often than another; a full name written only twice still
  names the person (Valentine → Valentine de Villefort);
- a surname joins the one man's full name the text writes with it (Debray → Lucien Debray), or
  the one written far more often when it is written from the surname's first chapter on
  (Dantès → Edmond Dantès, not Louis Dantès); a family of two men (Maximilian Morrel, Pierre
  Morrel, the surname used chapters before Maximilian appears) keeps its surname apart; a man
  met after his surname still takes it when the text hardly calls him by his first name
  (Gaspard Caderousse → Caderousse; Maximilian, written alone 273 times, does not take Morrel);
- a man's title before a surname joins the surname (M. de Villefort, Baron Danglars → Villefort,
  Danglars), or, when the surname is never written alone, the family's one man as the rule
  above finds him (Mr. Martin → Robert Martin); a married woman's title before a man's full
  name is his wife (Mrs. John Knightley), not him; any title before a first name joins the
  first name (M. Albert, Mademoiselle Valentine) unless the name takes a man's title as a
  surname (Miss Darcy is not Mr. Darcy);
- an unmarried woman's title before a surname joins the one woman of the family the text names
  by her first name (Mademoiselle Danglars → Eugénie Danglars); a married woman's title (Madame
  Danglars) is the wife, a person of her own;
- a titled form joins the one longer form under the same title (Lady Catherine → Lady Catherine
  de Bourgh); a rank before a surname (not a title of address, which father and son share)
  joins the one full name under that rank (Major Cavalcanti → Major Bartolomeo Cavalcanti),
  the particle dropped joins the form that writes it more (General de Quesnel → General
  Quesnel), and a wife's rank joins the family's one married woman (Marquise de Saint-Méran →
  Madame de Saint-Méran);
- a pet name and its given name, both used alone, are one person (Lizzy, Eliza → Elizabeth);
- a title of a place ("Count of Monte Cristo") joins that place's name used alone as a person
  (Monte Cristo), unless it is a family's surname (Count of Morcerf is not every Morcerf); and
  an apposition names one person by both ("Edmond Dantès, Count of Monte Cristo");
- a first name no other full name shares is the person's in its short forms: alone, though too
  rare to be kept (Gaspard), and under the title of a titled full name (Count Andrea).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from stores.lang.en import (
    ADDRESS_TITLES,
    MARRIED_TITLES,
    NAME_TITLES,
    PARTICLES,
    PET_NAMES,
    PLACE_HEADS,
    PLACE_TAILS,
    PLACE_TITLES,
    TITLES_AFTER,
    UNMARRIED_TITLES,
    WIFE_RANK_TITLES,
    WIFE_TITLES,
)
from stores.lang.en import DESCRIBERS as _DESCRIBERS
from stores.lang.en import NOT_NAMES as _NOT_NAMES
from stores.models import Entity

_MALE_TITLES = frozenset(t for t, gender in NAME_TITLES.items() if gender == "m")
_FEMALE_TITLES = frozenset(t for t, gender in NAME_TITLES.items() if gender == "f")
_UNMARRIED = frozenset(UNMARRIED_TITLES)
_PARTICLES = frozenset(PARTICLES)
_TITLE_WORDS = frozenset(t.rstrip(".") for t in NAME_TITLES)
ANCHOR_USES = 2
"""A full name written this often names the person its first name or surname belongs to, though
it is too rare to be an entity of its own."""
DOMINANCE = 5
"""A first name or a surname shared by two men's full names joins the one written this many
times more often."""
SURNAME_DOMINANCE = 10
"""A man met later than his surname is the one it names when the text writes the surname this
many times more often than his first name alone."""
_OF = re.compile(r"^(?P<title>" + "|".join(PLACE_TITLES) + r") (?:of|de|d’|d') (?P<place>.+)$")


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


def _is_full(name: str) -> bool:
    """An untitled name of a first name and a surname (Edmond Dantès, Albert de Morcerf)."""
    words = name.split()
    return (not _split(name)[0] and len(words) > 1 and words[0][0].isupper()
            and words[0] not in _DESCRIBERS
            and words[0] not in _PARTICLES and words[0] not in _NOT_NAMES
            and words[0] not in PLACE_HEADS and words[-1] not in PLACE_TAILS
            and not _OF.match(name))


@dataclass
class _Groups:
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


def group_english_names(counts: Counter[str], min_count: int,
                        text: str = "") -> list[tuple[str, list[str], bool]]:
    """(canonical name, aliases, is a person) for the names seen at least `min_count` times.

    A name becomes a person when a title or a first name ties it to one; other frequent
    capitalised names (Paris, Marseilles) stay as plain entities. `text` (the whole world) gives
    where a name is first written and the appositions that name one person twice.
    """
    lower_counts = _lowercase_words(text)
    lowercase = set(lower_counts)
    counts = _without_stray_words(counts, min_count, lowercase)
    kept = {name: count for name, count in counts.items() if count >= min_count}
    fulls = _full_names(counts)
    anchors = {n: c for n, c in fulls.items() if c >= ANCHOR_USES}
    women = _women(counts)
    g = _Groups({name: [] for name in kept if not _split(name)[0]})
    appositions = _appositions(text)
    _fold_first_names(g, kept)
    _join_first_names(g, kept, anchors)
    _join_titled_after(g)
    _join_surnames(g, kept, anchors, fulls, women, text, appositions, counts)
    _join_titled(g, {n: c for n, c in counts.items() if c >= ANCHOR_USES}, min_count, women,
                 anchors)
    _fold_titled(g, kept)
    _add_family_names(g, counts)
    _join_places(g)
    _join_appositions(g, appositions)
    _add_short_forms(g, counts, anchors, fulls, min_count, lowercase)
    return [(name, aliases, name in g.person) for name, aliases in g.groups.items()
            if name in g.person or not _common_word(name, counts, lower_counts, text)]


COMMON_SHARE = 2
"""A word no title or first name makes a person's is a common word when the text writes it in
lower case this many times as often as capitalised (Poor, Nobody, Thank, Quite: a sentence's or
a quotation's first word) …"""
MID_SENTENCE_SHARE = 0.25
"""… and capitalises it inside a sentence in at most this share of its capitalised uses: the
Chamber (of Peers), the King and the House are written so there, and are named things."""


def _common_word(name: str, counts: Counter[str], lowercase: Counter[str], text: str) -> bool:
    """A capitalised word the text mostly writes in lower case and capitalises only where a
    sentence or a quotation opens (see COMMON_SHARE), or a title left without its name (Poor
    Mr, of "Poor Mr. Elton")."""
    words = name.split()
    if words[-1].rstrip(".") in _TITLE_WORDS:
        return True
    if len(words) > 1 or lowercase[name.lower()] < COMMON_SHARE * max(counts[name], 1):
        return False
    inside = len(re.findall(rf"(?<=[a-z,;] ){re.escape(name)}\b", text))
    return inside <= MID_SENTENCE_SHARE * counts[name]


def _lowercase_words(text: str) -> Counter[str]:
    """The words the text writes in lower case (common words, not names), with how often."""
    return Counter(re.findall(r"\b[a-zà-ÿ][\w’'-]*", text))


def _without_stray_words(counts: Counter[str], min_count: int,
                         lowercase: set[str]) -> Counter[str]:
    """The names without those that are a word the text also writes in lower case glued before
    a name of its own (Meanwhile Albert, Whilst Albert); Red Shirt and Master Darling stay."""
    return Counter({n: c for n, c in counts.items()
                    if not (len(n.split()) == 2 and n.split()[0].lower() in lowercase
                            and counts[n.split()[1]] >= min_count and not _split(n)[0])})


def _full_names(counts: Counter[str]) -> Counter[str]:
    """Every full name the text writes, titled or not, with how often (M. Noirtier de Villefort
    counts for Noirtier de Villefort)."""
    fulls: Counter[str] = Counter()
    for name, count in counts.items():
        untitled = " ".join(_split(name)[1])
        if _is_full(untitled):
            fulls[untitled] += count
    return fulls


def _women(counts: Counter[str]) -> set[str]:
    """First names the text writes after an unmarried woman's title (Mademoiselle Valentine,
    Miss Lydia): daughters of their family, not of another's ("Lady Catherine" is no Miss)."""
    found = set()
    for name in counts:
        title, words = _split(name)
        if title in _UNMARRIED and len(words) >= 1 and words[0] not in _PARTICLES:
            found.add(words[0])
    return found


def _first_words(names) -> Counter[str]:
    return Counter(n.split()[0] for n in names)


def _join_first_names(g: _Groups, kept: dict[str, int], anchors: dict[str, int]) -> None:
    """A first name joins the one full name that starts with it; a full name too rare to be
    kept names the group."""
    fulls = {n for n in (*kept, *anchors) if _is_full(n)}
    uses = {n: anchors.get(n) or kept.get(n, 0) for n in fulls}
    as_surname: Counter[str] = Counter()  # Colonel Fitzwilliam, M. Franz
    for name, count in kept.items():
        if _split(name)[0] in _MALE_TITLES:
            as_surname[_bare(_split(name)[1])] += count
    for full in sorted(fulls, key=lambda n: -uses[n]):
        first = full.split()[0]
        if first not in g.groups or as_surname[first] > uses[full]:
            continue  # Colonel Fitzwilliam (far more than Fitzwilliam Darcy): a surname
        rivals = sorted((uses[f] for f in fulls if f != full and f.split()[0] == first),
                        reverse=True)
        if rivals and uses[full] < DOMINANCE * rivals[0]:
            continue  # two people of one first name, neither written far more often
        if full in g.groups:
            g.move(first, full)
            g.person.add(full)
        elif g.owner(full) is None:
            g.rename(first, full)  # too rare to make a person of it: Rosings Park


def _join_titled_after(g: _Groups) -> None:
    """A name with a title written after it (Ali Pasha) joins the one full name that starts
    with the same name (Ali Tepelini). Its name alone is not joined: it may be another's (Ali,
    the count's servant), and the titled form counts as a second Ali for that."""
    for name in list(g.groups):
        words = name.split()
        if len(words) < 2 or words[-1] not in TITLES_AFTER:
            continue
        first = " ".join(words[:-1])
        fulls = {g.owner(n) for n in g.names() if n != name and n.startswith(first + " ")
                 and _is_full(n) and n.split()[-1] not in TITLES_AFTER}
        fulls.discard(None)
        owner = fulls.pop() if len(fulls) == 1 else None
        if owner is not None and owner != name:
            g.move(name, owner)
            g.person.add(owner)


def _join_surnames(g: _Groups, kept: dict[str, int], anchors: dict[str, int],
                   fulls: Counter[str], women: set[str], text: str,
                   appositions: list[tuple[str, str]], seen: Counter[str]) -> None:
    """A surname joins the one man's full name of its family (see the module). A man of another
    name who holds the family's title (Fernand Mondego, Count of Morcerf) is of the family too."""
    families: dict[str, list[str]] = {}
    for full in anchors:
        families.setdefault(_bare_surname(full.split()), []).append(full)
    for full, title in appositions:
        place = _OF.match(title)
        if place and _bare_surname(full.split()) != place["place"]:
            families.setdefault(place["place"], []).append(full)
    for surname, members in families.items():
        men = list(dict.fromkeys(f for f in members if f.split()[0] not in women))
        named_men = [f for f in fulls if _bare_surname(f.split()) == surname
                     and f.split()[0] not in women]  # once is enough here
        # the surname alone, or else the man's titled form the text writes most (Mr. Martin)
        form = surname if surname in g.groups else max(
            (n for n in kept if _split(n)[0] in _MALE_TITLES and _bare(_split(n)[1]) == surname),
            key=lambda n: kept[n], default=None)
        target = _family_head(form, men, fulls, text, seen, named_men) if form else None
        if target is None or (g.owner(target) is None and target not in anchors
                              and target not in kept):
            continue
        owner = g.owner(target)
        if owner is None:
            g.groups[target] = []
            owner = target
        if form != surname:
            g.heads[surname] = owner
        elif owner != surname:
            g.move(surname, owner)
            g.person.add(owner)


def _family_head(surname: str, men: list[str], counts: Counter[str], text: str,
                 seen: Counter[str], named_men: list[str]) -> str | None:
    """The one man of the family a surname alone names, or None (see the module)."""
    if not men:
        return None
    if len(men) == 1:
        known = (_introduced_with(men[0], surname, text)
                 or _known_by_surname(men[0], surname, seen, counts, named_men))
        return men[0] if known else None
    ranked = sorted(men, key=lambda n: -counts[n])
    best, second = ranked[0], ranked[1]
    if counts[best] < DOMINANCE * counts[second]:
        return None
    return best if _introduced_with(best, surname, text) else None


def _introduced_with(full: str, surname: str, text: str) -> bool:
    """The full name (or its first name) is written from the surname's first uses on: the same
    man, not a relative the story meets later (M. Morrel in chapter 1, Maximilian Morrel from
    chapter 30)."""
    first = min(_first_use(full, text), _first_use(full.split()[0], text))
    return first - _first_use(surname, text) <= max(2000, len(text) // 100)


def _known_by_surname(full: str, surname: str, seen: Counter[str], fulls: Counter[str],
                      named_men: list[str]) -> bool:
    """The one man of a family, met later than his surname, whom the text calls by the surname
    and hardly ever by his first name alone (Caderousse 419 times, Gaspard 6): the surname is
    his. He is written by his full name more than in passing (an uncle named once or twice, Policar
    Morrel, is not), and no other man of the family is named at all. A son the story meets later
    goes by his first name too (Morrel 774, Maximilian 273)."""
    return (named_men == [full] and fulls[full] > ANCHOR_USES
            and seen[full.split()[0]] * SURNAME_DOMINANCE <= seen[surname])


def _first_use(name: str, text: str) -> int:
    at = text.find(name)
    return at if at >= 0 else len(text)


def _join_titled(g: _Groups, seen: dict[str, int], min_count: int, women: set[str],
                 anchors: dict[str, int]) -> None:
    """Titled forms written at least twice join their person (see the module); the others
    written `min_count` times are groups of their own."""
    siblings = _titled_siblings(seen)
    # a form with a sibling comes after it, so the sibling has its group
    titled = sorted((n for n in seen if _split(n)[0]), key=lambda n: (n in siblings, -seen[n]))
    male_surnames = {_bare(_split(n)[1]) for n in seen if _split(n)[0] in _MALE_TITLES
                     and seen[n] >= min_count}
    firsts = _first_words(anchors)
    for name in titled:
        title, rest = _split(name)
        bare = _bare(rest)
        target = g.owner(siblings[name]) if name in siblings else None
        if target is None and title in _MALE_TITLES:
            target = g.owner(bare) or g.heads.get(bare)
        if (target is None and len(rest) == 1 and bare not in male_surnames
                and (firsts[bare] or bare in women) and seen.get(bare, 0) > seen[name]):
            target = g.owner(bare)  # M. Albert, Mademoiselle Valentine; not Lady Catherine
        husband = title in MARRIED_TITLES and any(
            f"{male} {' '.join(rest)}" in seen for male in _MALE_TITLES)
        if target is None and len(rest) > 1 and _is_full(" ".join(rest)) and not husband:
            target = g.owner(" ".join(rest))  # Miss Elizabeth Bennet; not Mrs. John Knightley
        if target is None and title in _UNMARRIED:
            target = _daughter(bare, g, women)
        if target is not None:
            g.groups[target].append(name)
            g.person.add(target)
            continue
        if seen[name] < min_count:
            continue
        g.groups.setdefault(name, [])
        untitled = " ".join(rest)
        if len(rest) > 1 and _is_full(untitled) and g.owner(untitled) is None:
            g.groups[name].append(untitled)  # Major Bartolomeo Cavalcanti: Bartolomeo Cavalcanti
        if not _family_plural(bare, g.groups):  # the Miss Bennets are the sisters
            g.person.add(name)


def _titled_siblings(seen: dict[str, int]) -> dict[str, str]:
    """A title before a surname alone → the one other titled form the text writes of the same
    person: under a rank (not a title of address, which a father and a son share), the one full
    name of that surname (Major Cavalcanti → Major Bartolomeo Cavalcanti); the same surname
    written more often with or without its particle (General de Quesnel → General Quesnel); a
    wife's rank → the family's one married woman (Marquise de Saint-Méran → Madame de
    Saint-Méran, Countess of Morcerf → Madame de Morcerf)."""
    surname_forms: dict[str, list[str]] = {}
    full_forms: dict[tuple[str, str], list[str]] = {}
    for name in seen:
        title, rest = _split(name)
        words = [w for w in rest if w != "of"]
        if not title or not words:
            continue
        if len(words) == 1 or (words[0] in _PARTICLES and len(words) == 2):
            surname_forms.setdefault(_bare(words), []).append(name)
        elif _is_full(" ".join(words)):
            full_forms.setdefault((title, _bare_surname(words)), []).append(name)
    siblings = {}
    for surname, forms in surname_forms.items():
        for name in forms:
            title = _split(name)[0]
            longer = full_forms.get((title, surname), [])
            variants = [f for f in forms if f != name and _split(f)[0] == title]
            wives = [f for f in forms if _split(f)[0] in WIFE_TITLES]
            if title not in ADDRESS_TITLES and len(longer) == 1:
                siblings[name] = longer[0]
            elif len(variants) == 1 and seen[variants[0]] > seen[name]:
                siblings[name] = variants[0]
            elif title in WIFE_RANK_TITLES and len(wives) == 1:
                siblings[name] = wives[0]
    return siblings


def _daughter(surname: str, g: _Groups, women: set[str]) -> str | None:
    """The one woman of the family the text names by her first name and surname."""
    daughters = {g.owner(n) for n in g.names()
                 if _is_full(n) and n.split()[0] in women
                 and _bare_surname(n.split()) == surname}
    daughters.discard(None)
    return next(iter(daughters)) if len(daughters) == 1 else None


def _family_plural(bare: str, groups: dict[str, list[str]]) -> bool:
    """Whether a name is a family's name made plural (Bennets, Lucases): several people."""
    last = {name.split()[-1] for canonical, aliases in groups.items()
            for name in (canonical, *aliases) if name != bare}
    return any(bare == family + ending for family in last for ending in ("s", "es"))


def _fold_titled(g: _Groups, kept: dict[str, int]) -> None:
    """Titled forms of one person: a shorter form whose only longer form under the same title
    starts with it (Lady Catherine → Lady Catherine de Bourgh; Sir William → Sir William
    Lucas), the same name in another case (Miss De Bourgh → Miss de Bourgh)."""
    groups = g.groups
    titled = [n for n in list(groups) if _split(n)[0]]
    for name in sorted(titled, key=len):
        if name not in groups:
            continue
        title, rest = _split(name)
        longer = [n for n in groups if n != name and _split(n)[0] == title
                  and " ".join(_split(n)[1]).startswith(" ".join(rest) + " ")]
        same = [n for n in groups if n != name and n.lower() == name.lower()
                and kept.get(n, 0) >= kept.get(name, 0)]
        if len(longer) == 1:
            g.move(name, longer[0])
        elif same:
            g.move(name, same[0])


def _fold_first_names(g: _Groups, kept: dict[str, int]) -> None:
    """A pet name and the given name it is formed from, both used alone as names, are one
    person: Lizzy and Eliza → Elizabeth. The rarer form joins the commoner (Catherine, used
    alone ten times in Pride and Prejudice, joins Kitty)."""
    for pet, formal in PET_NAMES.items():
        pet_owner, formal_owner = g.owner(pet), g.owner(formal)
        if pet_owner and formal_owner and pet_owner != formal_owner and (
                pet_owner == pet or formal_owner == formal):
            rare, common = sorted((pet_owner, formal_owner), key=lambda n: (
                len(n.split()) > 1, kept.get(n, 0)))
            g.move(rare, common)


def _add_family_names(g: _Groups, counts: Counter[str]) -> None:
    """A first name known alone, written once or more with the family's name, is the same
    person: Jane Bennet and Miss Lydia Bennet join Jane and Lydia, with the untitled form, so a
    question naming "Lydia Bennet" means Lydia, not Lydia and Mr. Bennet; a particle may stand
    before the family's name (M. Noirtier de Villefort joins Noirtier)."""
    known = g.names()
    families = {name.split()[-1] for name in known if len(name.split()) > 1} | {
        name for name in g.groups if len(name.split()) == 1}
    for name in counts:
        _, words = _split(name)
        surname = _bare_surname(words)
        # with a particle, the first name must be a person's (Gérard, a group no title made a
        # person of, does not take Gérard de Villefort from the Villefort the text means)
        if (len(words) > 1 and words[0] in g.groups and surname in families
                and surname != words[0] and len(surname.split()) == 1
                and (len(words) == 2 or words[0] in g.person)):
            for form in dict.fromkeys((name, " ".join(words))):
                if form not in known:
                    g.groups[words[0]].append(form)
                    known.add(form)


def _add_short_forms(g: _Groups, counts: Counter[str], anchors: dict[str, int],
                     fulls: Counter[str], min_count: int, lowercase: set[str]) -> None:
    """A person's first name is theirs in shorter forms too, when no other full name the text
    writes starts with it: under the title the text writes before the full name (Count Andrea
    Cavalcanti → Count Andrea; M. Maximilian Morrel → M. Maximilian), and alone when the text
    writes it alone, if too rarely to be kept (Gaspard, six times, → Gaspard Caderousse), and
    never in lower case (a word, not a name)."""
    firsts = _first_words(fulls)
    owners = {f: g.owner(f) for f in anchors}
    for name, count in counts.items():
        words = name.split()
        if (len(words) != 1 or count < ANCHOR_USES or count >= min_count or name in lowercase
                or g.owner(name) is not None or firsts[name] != 1):
            continue
        full = next((f for f in anchors if f.split()[0] == name), "")
        owner = owners.get(full)
        if owner is not None and owner in g.person:
            g.groups[owner].append(name)
    known = g.names()
    for person in list(g.person):
        for name in [person, *g.groups.get(person, [])]:
            title, rest = _split(name)
            # Mrs. John Dashwood is John Dashwood's wife: no "Mrs. John" of hers
            short = (f"{title} {rest[0]}" if title and title not in MARRIED_TITLES
                     and len(rest) > 1 else "")
            if (short and short not in known and _is_full(" ".join(rest))
                    and firsts[rest[0]] == 1):
                g.groups[person].append(short)
                known.add(short)


def _join_places(g: _Groups) -> None:
    """A title of a place (Count of Monte Cristo) joins the place's name used alone as a person
    (Monte Cristo), unless a family bears it (Albert de Morcerf: Count of Morcerf is one man of
    several Morcerfs)."""
    surnames = {_bare_surname(n.split()) for n in g.names() if _is_full(n)}
    for name, match in [(n, _OF.match(n)) for n in list(g.groups)]:
        if match is None:
            continue
        place = match["place"]
        owner = g.owner(place)
        if owner is not None and owner != name and place not in surnames:
            g.move(name, owner)
            g.person.add(owner)
            g.styled.add(owner)


def _appositions(text: str) -> list[tuple[str, str]]:
    """(full name, title of a place) for each "Edmond Dantès, Count of Monte Cristo" in the
    text: a person's full name, a comma and a title held of a place, which name one person."""
    if not text:
        return []
    titles = "|".join(map(re.escape, PLACE_TITLES))
    full = r"[A-ZÀ-Þ][\w’'-]+(?: (?:de |d’|d')?[A-ZÀ-Þ][\w’'-]+)+"
    pattern = re.compile(rf"(?P<name>{full}),\s+_?(?:the\s+)?(?P<title>(?:{titles})\s+"
                         rf"(?:of|de|d’|d')\s*[A-ZÀ-Þ][\w’'-]+(?:\s+[A-ZÀ-Þ][\w’'-]+)?)_?"
                         rf"(?!['’]s)")
    found = []
    for match in pattern.finditer(text):
        name = " ".join(match["name"].split())
        title = " ".join(match["title"].split()).strip("_")
        if _is_full(name):
            found.append((name, title))
    return list(dict.fromkeys(found))


def _join_appositions(g: _Groups, appositions: list[tuple[str, str]]) -> None:
    """An apposition gives the full name's person the title, or the title's group when the
    title is a group of its own or its place's name used as a person's (the Count of Monte
    Cristo, and Monte Cristo); a title already part of another person's names (Albert de
    Morcerf's Vicomte de Morcerf) is left where it is."""
    for name, title in appositions:
        person, other = g.owner(name), g.owner(title)
        if person is None or person == other:
            continue
        if other is None:
            g.groups[person].append(title)
        elif other == title or other in g.styled:
            g.move(other, person)
        else:
            continue
        g.person.add(person)


def join_titled_entities(entities: list[Entity]) -> list[Entity]:
    """An entity named by a man's title and a name another entity bears (Mr. Yoshikawa beside
    Yoshikawa, the man a pattern gave his nickname to) is that entity: the name groups above
    see only what the tagger found, the patterns add names of their own. A woman's title stays
    apart (Mrs. Bennet is Mr. Bennet's wife, Miss Bingley his sister)."""
    by_name = {e.name: e for e in entities}
    gone: set[int] = set()
    for entity in entities:
        title, rest = _split(entity.name)
        owner = by_name.get(" ".join(rest)) if title in _MALE_TITLES else None
        if owner is None or owner is entity or owner.type == "place" or id(owner) in gone:
            continue
        for alias in (entity.name, *entity.aliases):
            if alias not in owner.aliases and alias != owner.name:
                owner.aliases.append(alias)
        owner.mentions += entity.mentions
        owner.sources += [x for x in entity.sources if x not in owner.sources]
        owner.type = "person"
        gone.add(id(entity))
    return [e for e in entities if id(e) not in gone]
