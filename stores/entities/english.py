"""Group discovered English names into people: `M. Morrel` is Morrel, `Edmond` is Edmond Dantès,
the Count of Monte Cristo is Edmond Dantès.

Surnames are shared by families (Morrel is the shipowner and his son Maximilian), so the rules
only merge where the text leaves no choice, and a person is named by their full name:
- a first name joins the one full name that starts with it (Albert → Albert de Morcerf), or the
  one written DOMINANCE times more often than another, or the one whose family name stands near
  it; a full name written only twice still names the person (Valentine → Valentine de
  Villefort) — these steps for first names are stores.entities.english_first_names;
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

from stores.entities.english_families import release_surnames_of_another
from stores.entities.english_first_names import (
    ANCHOR_USES,
    DOMINANCE,
    add_family_names,
    add_rare_pet_forms,
    add_short_forms,
    fold_first_names,
    join_first_names,
    persons_by_first_name,
)
from stores.entities.english_forms import (
    MALE_TITLES,
    OF_PLACE,
    PARTICLE_WORDS,
    UNMARRIED,
    Groups,
    bare_name,
    bare_surname,
    is_full,
    split_title,
)
from stores.entities.english_identity import (
    join_eldest_daughters,
    join_epithets,
    join_kin_forms,
    join_married_names,
    join_same_person,
    married_names,
    same_person_names,
)
from stores.entities.english_men import (
    join_mr_eldest_son,
    join_mr_of_ranked_family,
    join_mr_unnamed_son,
    join_rare_full_names,
    join_titled_full_names,
    men_by_title,
    split_ranks,
)
from stores.entities.english_place_titles import appositions, join_appositions, join_places
from stores.entities.english_ranks import join_ranks_alone
from stores.entities.english_titles import (
    COUPLE_USES,
    couples,
    fold_titled,
    join_titled,
    join_titled_after,
    persons_by_title,
    release_shared_surnames,
    titled_mentions,
)
from stores.lang.en import FIRST_PERSON, NAME_TITLES
from stores.lang.text import in_someones_words
from stores.models import Entity

_TITLE_WORDS = frozenset(t.rstrip(".") for t in NAME_TITLES)
SURNAME_DOMINANCE = 10
"""A man met later than his surname is the one it names when the text writes the surname this
many times more often than his first name alone."""


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
    # a novella writes its people fewer times: a name under a title of address is a group of
    # its own at SHORT_BOOK_MENTIONS (Mrs. Steene, Mr. Luff: Brother Jacob, a newcomer's trial)
    least = titled_mentions(min_count, len(text))
    kept = {name: count for name, count in counts.items() if count >= min_count}
    fulls = _full_names(counts)
    anchors = {n: c for n, c in fulls.items() if c >= ANCHOR_USES}
    women = _women(counts)
    g = Groups({name: [] for name in kept if not split_title(name)[0]})
    titled_as = appositions(text)
    fold_first_names(g, kept)
    add_rare_pet_forms(g, counts)
    join_first_names(g, kept, anchors, text)
    join_titled_after(g)
    _join_surnames(g, kept, anchors, fulls, women, text, titled_as, counts)
    households = couples(text)
    join_titled(g, {n: c for n, c in counts.items() if c >= ANCHOR_USES}, min_count, women,
                 anchors, households, men_by_title(counts), least)
    fold_titled(g, kept)
    release_shared_surnames(g)
    add_family_names(g, counts, households, fulls)
    split_ranks(g, counts, min_count)
    join_mr_of_ranked_family(g, men_by_title(counts), counts)
    living = {s for s, n in households.items() if n >= COUPLE_USES}
    join_mr_eldest_son(g, text, living)
    join_mr_unnamed_son(g, men_by_title(counts), living)
    join_places(g)
    join_appositions(g, titled_as)
    join_married_names(g, married_names(text), counts)
    join_kin_forms(g, text)
    join_same_person(g, same_person_names(text), counts)
    join_eldest_daughters(g, text)
    join_epithets(g, text)
    add_short_forms(g, counts, anchors, fulls, min_count, lowercase)
    join_titled_full_names(g, counts)
    join_rare_full_names(g, counts)
    join_ranks_alone(g, counts, text, min_count)
    persons_by_first_name(g)
    persons_by_title(g)
    release_surnames_of_another(g, text, women)
    _named_in_full(g, counts)
    return [(name, aliases, name in g.person) for name, aliases in g.groups.items()
            if name in g.person or not _common_word(name, counts, lower_counts, text)]


ABOUT_AS_OFTEN = 0.75
"""The share of a word's own uses that a longer form of it written as often reaches
(`_named_in_full`)."""


def _named_in_full(g: Groups, counts: Counter[str]) -> None:
    """A person known by one word goes by a longer form of their own that the text writes more
    often (Mr. Knightley, Mr. Elton; General Tilney, 24 times beside Tilney's 15), or about as
    often (ABOUT_AS_OFTEN) where the word is another person's too (Mr. Morland, 24 times beside
    Morland's 25: Catherine and James are Morlands): 'Tilney is Eleanor Tilney's father' read
    as if it named neither. Not Danglars, whom the narrator calls Danglars
    (530 times; M. Danglars, 91), nor Morrel (621; M. Morrel, 113), though Maximilian is one."""
    words: Counter[str] = Counter()  # how many people's names hold a word
    for person in g.person:
        words.update({w for n in (person, *g.groups.get(person, ())) for w in n.split()})
    for name in [n for n in g.groups if n in g.person and len(n.split()) == 1]:
        longer = [a for a in g.groups[name]
                  if len(a.split()) > 1 and name in a.split() and g.owner(a) == name]
        best = max(longer, key=lambda a: counts[a], default="")
        if best and (counts[best] > counts[name] or (
                words[name] > 1 and counts[best] >= ABOUT_AS_OFTEN * counts[name] > 0)):
            g.rename(name, best)


COMMON_SHARE = 1
"""A word no title or first name makes a person's is a common word when the text writes it in
lower case at least this many times as often as capitalised (Poor, Nobody, Quite: a sentence's
or a quotation's first word; Heart of Darkness's "Absurd!", beside "absurd" six times; with 2,
it was an entity) … A word the text writes in lower case at all and never capitalises
inside a sentence is one too, however often a reply opens with it (Thank, Aye, Don't) …"""
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
    if len(words) > 1 or not lowercase[name.lower()]:
        return False
    inside = len(re.findall(rf"(?<=[a-z,;] ){re.escape(name)}\b", text))
    if not inside:  # never capitalised but where a sentence opens: Thank, Aye, Don't
        return True
    if lowercase[name.lower()] < COMMON_SHARE * max(counts[name], 1):
        return False
    return inside <= MID_SENTENCE_SHARE * counts[name]


def _lowercase_words(text: str) -> Counter[str]:
    """The words the text writes in lower case (common words, not names), with how often."""
    return Counter(re.findall(r"\b[a-zà-ÿ][\w’'-]*", text))


def _without_stray_words(counts: Counter[str], min_count: int,
                         lowercase: set[str]) -> Counter[str]:
    """The names without those that are a word the text also writes in lower case glued before
    a name of its own (Meanwhile Albert, Whilst Albert, Dear Miss Woodhouse); Red Shirt and
    Master Darling stay."""
    return Counter({n: c for n, c in counts.items()
                    if not (len(n.split()) >= 2 and n.split()[0].lower() in lowercase
                            and counts[n.split(maxsplit=1)[1]] >= min_count
                            and not split_title(n)[0])})


def _full_names(counts: Counter[str]) -> Counter[str]:
    """Every full name the text writes, titled or not, with how often (M. Noirtier de Villefort
    counts for Noirtier de Villefort)."""
    fulls: Counter[str] = Counter()
    for name, count in counts.items():
        untitled = " ".join(split_title(name)[1])
        if is_full(untitled):
            fulls[untitled] += count
    return fulls


def _women(counts: Counter[str]) -> set[str]:
    """First names the text writes after an unmarried woman's title (Mademoiselle Valentine,
    Miss Lydia): daughters of their family, not of another's ("Lady Catherine" is no Miss)."""
    found = set()
    for name in counts:
        title, words = split_title(name)
        if title in UNMARRIED and len(words) >= 1 and words[0] not in PARTICLE_WORDS:
            found.add(words[0])
    return found


def _join_surnames(g: Groups, kept: dict[str, int], anchors: dict[str, int],
                   fulls: Counter[str], women: set[str], text: str,
                   appositions: list[tuple[str, str]], seen: Counter[str]) -> None:
    """A surname joins the one man's full name of its family (see the module). A man of another
    name who holds the family's title (Fernand Mondego, Count of Morcerf) is of the family too."""
    families: dict[str, list[str]] = {}
    for full in anchors:
        families.setdefault(bare_surname(full.split()), []).append(full)
    for full, title in appositions:
        place = OF_PLACE.match(title)
        if place and bare_surname(full.split()) != place["place"]:
            families.setdefault(place["place"], []).append(full)
    for surname, members in families.items():
        men = list(dict.fromkeys(f for f in members if f.split()[0] not in women))
        named_men = [f for f in fulls if bare_surname(f.split()) == surname
                     and f.split()[0] not in women]  # once is enough here
        # the surname alone, or else the man's titled form the text writes most (Mr. Martin)
        form = surname if surname in g.groups else max(
            (n for n in kept if split_title(n)[0] in MALE_TITLES and bare_name(split_title(n)[1]) == surname),
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


def given_full_names(entities: list[Entity], names: Counter[str], text: str) -> list[Entity]:
    """A person the book calls by a first name alone goes by the full name it gives them, though
    it writes it only once, where it introduces them ("sat Jenny Mullion", "heaping on Ivor
    Lombard all their choicest gifts": Crome Yellow, a newcomer's trial, where `lore card "Mary
    Bracegirdle"` found no one). `names` are the text's names with how often it writes them
    (`english_names`): only one full name begins with the first name, it is no entity's name
    already, and its last word is never written in lower case (no "Mary Went")."""
    taken = {n for e in entities for n in (e.name, *e.aliases)}
    by_first: dict[str, list[str]] = {}
    for name in names:
        words = name.split()
        if len(words) == 2 and is_full(name):
            by_first.setdefault(words[0], []).append(name)
    for entity in entities:
        forms = [entity.name, *entity.aliases]
        if (entity.type != "person" or len(entity.name.split()) != 1
                or any(len(f.split()) > 1 or split_title(f)[0] for f in forms)):
            continue
        fulls = by_first.get(entity.name, [])
        if (len(fulls) == 1 and fulls[0] not in taken and _alone(entity.name, text)
                and _told(fulls[0], text)
                and not re.search(rf"\b{re.escape(fulls[0].split()[1].lower())}\b", text)):
            entity.aliases = [entity.name, *entity.aliases]
            entity.name = fulls[0]
    return entities


_FIRST_PERSON = re.compile(FIRST_PERSON)
ALONE_SHARE = 0.75
"""The share of a first name's uses that must stand alone, no capitalised word or numeral after
it, for the one full name the book writes to be its person's: Monte Cristo's Charles is Charles
I, III, X … (kings) nearly every time, and no Charles Leboucher."""


def _alone(first: str, text: str) -> bool:
    uses = len(re.findall(rf"\b{re.escape(first)}\b", text))
    longer = len(re.findall(rf"\b{re.escape(first)}\s+(?:[A-Z]|[IVX]+\b)", text))
    return uses > 0 and uses - longer >= ALONE_SHARE * uses


def _told(name: str, text: str) -> bool:
    """The telling writes `name`: once at least outside anyone's words, in a sentence with no
    word of one who speaks or writes of themself ("Anne Mitchell had tried to put on a turban
    like mine", in Isabella's letter: another Anne than Anne Thorpe)."""
    for m in re.finditer(r"\b" + r"\s+".join(map(re.escape, name.split())) + r"\b", text):
        start = max(text.rfind(end, 0, m.start()) for end in ".!?\n") + 1
        stops = [at for end in ".!?\n" if (at := text.find(end, m.end())) >= 0]
        if not in_someones_words(text, m.start()) and not (
                _FIRST_PERSON.search(text, start, min(stops, default=len(text)))):
            return True
    return False
