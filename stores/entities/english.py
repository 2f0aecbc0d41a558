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
from bisect import bisect_left, bisect_right
from collections import Counter

from stores.entities.english_families import first_name_holder, release_surnames_of_another
from stores.entities.english_forms import (
    MALE_TITLES,
    OF_PLACE,
    PARTICLE_WORDS,
    UNMARRIED,
    Groups,
    bare_name,
    bare_surname,
    first_words,
    is_full,
    split_title,
)
from stores.entities.english_identity import (
    join_epithets,
    join_married_names,
    join_same_person,
    married_names,
    same_person_names,
)
from stores.entities.english_men import (
    join_mr_eldest_son,
    join_mr_of_ranked_family,
    join_mr_unnamed_son,
    join_titled_full_names,
    men_by_title,
    split_ranks,
)
from stores.entities.english_ranks import join_ranks_alone
from stores.entities.english_titles import (
    COUPLE_USES,
    appositions,
    couples,
    fold_titled,
    join_appositions,
    join_places,
    join_titled,
    join_titled_after,
    release_shared_surnames,
)
from stores.lang.en import KNIGHTED_TITLES, MARRIED_TITLES, NAME_TITLES, PET_NAMES
from stores.lang.gender import title_gender

_TITLE_WORDS = frozenset(t.rstrip(".") for t in NAME_TITLES)
ANCHOR_USES = 2
"""A full name written this often names the person its first name or surname belongs to, though
it is too rare to be an entity of its own."""
DOMINANCE = 5
"""A first name or a surname shared by two men's full names joins the one written this many
times more often."""
NEAR_FULL_NAME = 20_000
"""A first name joins a full name only where the text writes it alone within this many
characters of the full name somewhere (an introduction goes on with the first name): Jacopo,
the sailor of chapters 21–30, is not Jacopo Manfredi, written once in chapter 66, 940,000
characters from the nearest 'Jacopo'; on the development books the farthest pair a join needs is
Frederick and Frederick Wentworth, 3,625 characters apart."""
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
    kept = {name: count for name, count in counts.items() if count >= min_count}
    fulls = _full_names(counts)
    anchors = {n: c for n, c in fulls.items() if c >= ANCHOR_USES}
    women = _women(counts)
    g = Groups({name: [] for name in kept if not split_title(name)[0]})
    titled_as = appositions(text)
    _fold_first_names(g, kept)
    _join_first_names(g, kept, anchors, text)
    join_titled_after(g)
    _join_surnames(g, kept, anchors, fulls, women, text, titled_as, counts)
    households = couples(text)
    join_titled(g, {n: c for n, c in counts.items() if c >= ANCHOR_USES}, min_count, women,
                 anchors, households, men_by_title(counts))
    fold_titled(g, kept)
    release_shared_surnames(g)
    _add_family_names(g, counts, households)
    split_ranks(g, counts, min_count)
    join_mr_of_ranked_family(g, men_by_title(counts), counts)
    living = {s for s, n in households.items() if n >= COUPLE_USES}
    join_mr_eldest_son(g, text, living)
    join_mr_unnamed_son(g, men_by_title(counts), living)
    join_places(g)
    join_appositions(g, titled_as)
    join_married_names(g, married_names(text), counts)
    join_same_person(g, same_person_names(text), counts)
    join_epithets(g, text)
    _add_short_forms(g, counts, anchors, fulls, min_count, lowercase)
    join_titled_full_names(g, counts)
    join_ranks_alone(g, counts, text, min_count)
    _persons_by_first_name(g)
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


def _persons_by_first_name(g: Groups) -> None:
    """A full name whose first name is a person's own name used alone is a person too: Charles
    Hayter, though bare Charles is Charles Musgrove (not a place, as Camden Place is: its first
    word names no one)."""
    firsts = {n for n in g.person if len(n.split()) == 1} | {
        rest[0] for person in g.person for form in (person, *g.groups.get(person, []))
        if is_full(" ".join(rest := split_title(form)[1]))}
    for name in g.groups:
        if name not in g.person and is_full(name) and name.split()[0] in firsts:
            g.person.add(name)


COMMON_SHARE = 2
"""A word no title or first name makes a person's is a common word when the text writes it in
lower case this many times as often as capitalised (Poor, Nobody, Quite: a sentence's or a
quotation's first word) … A word the text writes in lower case at all and never capitalises
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


def _join_first_names(g: Groups, kept: dict[str, int], anchors: dict[str, int],
                      text: str = "") -> None:
    """A first name joins the one full name that starts with it, written near it (see
    NEAR_FULL_NAME; no `text`: anywhere); a full name too rare to be kept names the group."""
    fulls = {n for n in (*kept, *anchors) if is_full(n)}
    uses = {n: anchors.get(n) or kept.get(n, 0) for n in fulls}
    as_surname: Counter[str] = Counter()  # Colonel Fitzwilliam, M. Franz; not Sir John
    for name, count in kept.items():
        if (title := split_title(name)[0]) in MALE_TITLES and title not in KNIGHTED_TITLES:
            as_surname[bare_name(split_title(name)[1])] += count
    for full in sorted(fulls, key=lambda n: -uses[n]):
        first = full.split()[0]
        if first not in g.groups or as_surname[first] > uses[full]:
            continue  # Colonel Fitzwilliam (far more than Fitzwilliam Darcy): a surname
        if any(f"{title} {full}" in kept for title in KNIGHTED_TITLES):
            continue  # a knight is Sir Walter, not Walter: that is his grandson
        namesakes = [f for f in fulls if f != full and f.split()[0] == first]
        if text and namesakes and first_name_holder(first, [full, *namesakes], text) == full:
            pass  # the family's name stands near the first name alone far more often
        elif namesakes and uses[full] < DOMINANCE * max(uses[f] for f in namesakes):
            continue  # two people of one first name, neither written far more often
        elif any(n != full and n.split()[0] == first and len(n.split()) > 1
                 and (anchors.get(n) or kept.get(n, 0)) >= uses[full]
                 for n in (*kept, *anchors)):
            continue  # Mansfield is not Mansfield Wood (twice) beside Mansfield Park (32 times)
        if text and not _written_near(first, full, text):
            continue
        if full in g.groups:
            g.move(first, full)
            g.person.add(full)
        elif g.owner(full) is None:
            g.rename(first, full)  # too rare to make a person of it: Rosings Park


def _written_near(first: str, full: str, text: str) -> bool:
    """The text writes `first` alone within NEAR_FULL_NAME characters of `full` somewhere, or
    does not write one of them (nothing to tell them apart by)."""
    rest = full.split(" ", 1)[1]
    alone = [m.start() for m in re.finditer(rf"\b{re.escape(first)}\b(?! {re.escape(rest)})",
                                            text)]
    fulls = [m.start() for m in re.finditer(re.escape(full), text)]
    return not alone or not fulls or any(
        bisect_left(alone, at - NEAR_FULL_NAME) < bisect_right(alone, at + NEAR_FULL_NAME)
        for at in fulls)


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


def _fold_first_names(g: Groups, kept: dict[str, int]) -> None:
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


def _add_family_names(g: Groups, counts: Counter[str], households: Counter[str]) -> None:
    """A first name known alone, written once or more with the family's name, is the same
    person: Jane Bennet and Miss Lydia Bennet join Jane and Lydia, with the untitled form, so a
    question naming "Lydia Bennet" means Lydia, not Lydia and Mr. Bennet; a particle may stand
    before the family's name (M. Noirtier de Villefort joins Noirtier). Not a family's name
    taken for a first name: a couple goes by it (`households`: Mr. and Mrs. Weston, 18 times in
    Emma), so "Weston Churchill", Frank's signature, is no form of Mr. Weston."""
    known = g.names()
    families = {name.split()[-1] for name in known if len(name.split()) > 1} | {
        name for name in g.groups if len(name.split()) == 1}
    # a first name several full names start with is none of theirs alone (Charles: Charles
    # Hayter, Charles Musgrove, Charles Smith)
    firsts = first_words(_full_names(counts))
    for name in counts:
        _, words = split_title(name)
        surname = bare_name(words[1:])  # all after the first name: one word, or no family's
        # with a particle, the first name must be a person's (Gérard, a group no title made a
        # person of, does not take Gérard de Villefort from the Villefort the text means)
        # a woman's title is no form of a man's ("Mademoiselle Noirtier de Villefort", once,
        # is Valentine, not M. Noirtier)
        if (len(words) > 1 and words[0] in g.groups and surname in families
                and not households[words[0]]
                and surname != words[0] and len(surname.split()) == 1 and firsts[words[0]] == 1
                and (len(words) == 2 or words[0] in g.person)
                and not _other_gender(name, [words[0], *g.groups[words[0]]])):
            for form in dict.fromkeys((name, " ".join(words))):
                if form not in known:
                    g.groups[words[0]].append(form)
                    known.add(form)


def _other_gender(form: str, group: list[str]) -> bool:
    """The form's title makes it a woman and the group's titles a man, or the other way."""
    mine, theirs = title_gender([form]), title_gender(group)
    return bool(mine and theirs and mine != theirs)


def _add_short_forms(g: Groups, counts: Counter[str], anchors: dict[str, int],
                     fulls: Counter[str], min_count: int, lowercase: set[str]) -> None:
    """A person's first name is theirs in shorter forms too, when no other full name the text
    writes starts with it: under the title the text writes before the full name (Count Andrea
    Cavalcanti → Count Andrea; M. Maximilian Morrel → M. Maximilian), and alone when the text
    writes it alone, if too rarely to be kept (Gaspard, six times, → Gaspard Caderousse), and
    never in lower case (a word, not a name)."""
    firsts = first_words(fulls)
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
            title, rest = split_title(name)
            # Mrs. John Dashwood is John Dashwood's wife: no "Mrs. John" of hers
            short = (f"{title} {rest[0]}" if title and title not in MARRIED_TITLES
                     and len(rest) > 1 else "")
            if (short and short not in known and is_full(" ".join(rest))
                    and firsts[rest[0]] == 1):
                g.groups[person].append(short)
                known.add(short)
