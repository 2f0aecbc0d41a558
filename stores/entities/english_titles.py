"""Titled English names (M. Morrel, Miss Bennet, Major Cavalcanti, Ali Pasha) joined to the
person they name, or made groups of their own; see the rules in stores/entities/english.py.
Titles held of a place (the Count of Monte Cristo) are stores/entities/english_place_titles.py's.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping

from stores.entities.english_families import another_mans, family_men, name_openers
from stores.entities.english_forms import (
    MALE_TITLES,
    PARTICLE_WORDS,
    UNMARRIED,
    Groups,
    bare_name,
    bare_surname,
    called_apart,
    first_words,
    is_full,
    split_title,
)
from stores.lang.en import (
    ADDRESS_TITLES,
    COMMON_TITLES,
    ELDEST_DAUGHTER_TITLES,
    KNIGHTED_TITLES,
    MARRIED_TITLES,
    TITLES_AFTER,
    WIFE_BY_HIS_NAME,
    WIFE_RANK_TITLES,
    WIFE_TITLES,
)
from stores.models import Entity


def join_titled_after(g: Groups) -> None:
    """A name with a title written after it (Ali Pasha) joins the one full name that starts
    with the same name (Ali Tepelini). Its name alone is not joined: it may be another's (Ali,
    the count's servant), and the titled form counts as a second Ali for that."""
    for name in list(g.groups):
        words = name.split()
        if len(words) < 2 or words[-1] not in TITLES_AFTER:
            continue
        first = " ".join(words[:-1])
        fulls = {g.owner(n) for n in g.names() if n != name and n.startswith(first + " ")
                 and is_full(n) and n.split()[-1] not in TITLES_AFTER}
        fulls.discard(None)
        owner = fulls.pop() if len(fulls) == 1 else None
        if owner is not None and owner != name:
            g.move(name, owner)
            g.person.add(owner)


def join_titled(g: Groups, seen: dict[str, int], min_count: int, women: set[str],
                 anchors: dict[str, int], couples: Counter[str] | None = None,
                 men: set[str] | None = None, least: int | None = None) -> None:
    """Titled forms written at least twice join their person (see the module); the others
    written `min_count` times (`least`, when given: a short book's) are groups of their own.
    `women` and `men` are the first names the text writes after a woman's and a man's title
    (Miss Anne; Mr. James Morland, once)."""
    couples = couples if couples is not None else Counter()
    siblings = _titled_siblings(seen)
    # a form with a sibling comes after it, so the sibling has its group
    titled = sorted((n for n in seen if split_title(n)[0]), key=lambda n: (n in siblings, -seen[n]))
    male_surnames = {bare_name(split_title(n)[1]) for n in seen if split_title(n)[0] in MALE_TITLES
                     and seen[n] >= min_count}
    firsts = first_words(anchors)
    known = {word for n in seen if seen[n] >= min_count for word in split_title(n)[1]}
    for name in titled:
        title, rest = split_title(name)
        bare = bare_name(rest)
        target = g.owner(siblings[name]) if name in siblings else None
        if target is None and title in MALE_TITLES:
            target = g.owner(bare) or g.heads.get(bare)
            if (target is not None and len(rest) == 1
                    and (is_full(target) and couples[bare] >= COUPLE_USES and couples[target]
                         or title in COMMON_TITLES and _styled_above(g, target, bare, seen, name, min_count))):
                target = None  # Mr Musgrove is Charles's father; Mr Elliot, Sir Walter's heir
            if target is not None and called_apart(target, name, seen):
                target = None  # Mr. Frank Churchill: Mr. Churchill is another man
        if (target is None and len(rest) == 1 and bare not in male_surnames
                and (firsts[bare] or bare in women) and seen.get(bare, 0) > seen[name]
                and title not in WIFE_BY_HIS_NAME):
            target = g.owner(bare)  # M. Albert, Mademoiselle Valentine; not Lady Catherine
        if (target is not None and title in KNIGHTED_TITLES and len(rest) == 1
                and _a_mister(g, target)):
            target = None  # Sir Henry is no Henry whom the text calls Mr. Crawford
        # Mrs. John Knightley, Mrs Charles Musgrove: the wife of the man the rest names
        husband = title in MARRIED_TITLES and (couples[" ".join(rest)] > 0 or any(
            f"{male} {' '.join(rest)}" in seen for male in MALE_TITLES))
        if target is None and len(rest) > 1 and is_full(" ".join(rest)) and not husband:
            target = g.owner(" ".join(rest))  # Miss Elizabeth Bennet; not Mrs. John Knightley
        if target is None and title in UNMARRIED and not _sisters_in_play(title, bare, seen):
            target = _daughter(bare, g, women, seen, name, men or set())
        if target is not None:
            g.groups[target].append(name)
            if not family_plural(target, g.groups):  # the Miss Musgroves are two sisters
                g.person.add(target)
            continue
        if seen[name] < (least if least and not set(rest) & known else min_count):
            continue  # a short book's bar is for someone no kept name knows (Mrs. Steene)
        g.groups.setdefault(name, [])
        untitled = " ".join(rest)
        if len(rest) > 1 and is_full(untitled) and g.owner(untitled) is None:
            g.groups[name].append(untitled)  # Major Bartolomeo Cavalcanti: Bartolomeo Cavalcanti
        if not family_plural(bare, g.groups):  # the Miss Bennets are the sisters
            g.person.add(name)


_COUPLE = re.compile(r"\b(?:" + "|".join(re.escape(t) for t in ADDRESS_TITLES
                                         if t in MALE_TITLES) + r")\s+and\s+(?:"
                     + "|".join(re.escape(t) for t in WIFE_TITLES) + r")\s+(?:(?:"
                     + "|".join(PARTICLE_WORDS) + r")\s*)?((?:[A-Z][\w-]+\s+)?[A-Z][\w-]+)(?:['’]s)?(?![\w'’])(?!\s+[A-Z])")


COUPLE_USES = 3
"""A couple the text writes by the titles and the surname alone this often is a household of
its own (Mr and Mrs Musgrove, 16 times in Persuasion), not the younger couple named so in
passing (Mr. and Mrs. Dashwood, once in Sense and Sensibility, is Mr. and Mrs. John Dashwood)."""
PLURAL_SHARE = 0.25
"""The family's unmarried daughters written together (the Miss Musgroves) at least this share
as often as one of them (Miss Musgrove): several are in play, and the title and the surname
alone are no one's (Miss Steele is Lucy's elder sister; Miss Price, 41 times beside two "Miss
Prices", is Fanny's)."""


def couples(text: str) -> Counter[str]:
    """How often the text writes a married couple by both titles and a surname ("Mr and Mrs
    Musgrove", "M. and Madame Danglars") or a man's full name ("Mr and Mrs Charles Musgrove").
    A family with both has two couples, and the titles and the surname alone name the elder
    (COUPLE_USES): Mr Musgrove is not Charles Musgrove but his father."""
    return Counter(" ".join(m.group(1).split()) for m in _COUPLE.finditer(text))


def _sisters_in_play(title: str, surname: str, seen: Mapping[str, int]) -> bool:
    """The text writes the family's daughters together often enough (PLURAL_SHARE) that the
    title and the surname alone name none of them for sure."""
    plural = max(seen.get(f"{title} {surname}{end}", 0) for end in ("s", "es"))
    return plural > 0 and plural >= PLURAL_SHARE * seen.get(f"{title} {surname}", 0)


RANK_DOMINANCE = 10
"""A man the text calls by his rank this many times as often as by Mr. and his surname is not
the one "Mr." names (Captain Wentworth 196 times, Mr Wentworth 7: his brother)."""


def release_shared_surnames(g: Groups) -> None:
    """A surname alone that another man of the family goes by with Mr. (Mr Wentworth, the
    curate, a person of his own) is no longer the first man's alone: "Wentworth was the very
    name! Mr Wentworth was the very man" is the curate, not Captain Wentworth."""
    for name in list(g.groups):
        title, rest = split_title(name)
        if title not in COMMON_TITLES or len(rest) != 1 or name not in g.person:
            continue
        owner = g.owner(rest[0])
        if owner is not None and owner != name and rest[0] in g.groups[owner]:
            g.groups[owner].remove(rest[0])


def _styled_above(g: Groups, man: str, surname: str, seen: Mapping[str, int],
                  common: str, min_count: int) -> bool:
    """The man goes by a title above Mr. (see `common`): a knight's before his name (Sir Walter
    Elliot; not Henry Crawford for a "Sir Henry" the text names), or a rank the text writes RANK_DOMINANCE times as often with his surname
    (Captain Wentworth), and "Mr." with the surname is written often enough to be someone
    (`min_count`: Marianne's two "Mr. Brandon"s are the colonel). "Mr Elliot" and "Mr
    Wentworth" are then other men of the family."""
    if is_full(man) and any(f"{t} {man}" in seen for t in KNIGHTED_TITLES):
        return True
    ranks = [f for f in seen if split_title(f)[0] in MALE_TITLES
             and split_title(f)[0] not in ADDRESS_TITLES and bare_name(split_title(f)[1]) == surname
             and g.owner(surname) in (None, man)]
    return any(seen[f] >= RANK_DOMINANCE * seen.get(common, 0) for f in ranks) and seen.get(
        common, 0) >= min_count


def _titled_siblings(seen: dict[str, int]) -> dict[str, str]:
    """A title before a surname alone → the one other titled form the text writes of the same
    person: under a rank (not a title of address, which a father and a son share), the one full
    name of that surname (Major Cavalcanti → Major Bartolomeo Cavalcanti); the same surname
    written more often with or without its particle (General de Quesnel → General Quesnel); a
    wife's rank → the family's one married woman (Marquise de Saint-Méran → Madame de
    Saint-Méran, Countess of Morcerf → Madame de Morcerf); a knight's first name → his one full
    name under the title (Sir Walter → Sir Walter Elliot)."""
    surname_forms: dict[str, list[str]] = {}
    full_forms: dict[tuple[str, str], list[str]] = {}
    for name in seen:
        title, rest = split_title(name)
        words = [w for w in rest if w != "of"]
        if not title or not words:
            continue
        if len(words) == 1 or (words[0] in PARTICLE_WORDS and len(words) == 2):
            surname_forms.setdefault(bare_name(words), []).append(name)
        elif is_full(" ".join(words)):
            full_forms.setdefault((title, bare_surname(words)), []).append(name)
    siblings = {}
    for (title, _), forms in full_forms.items():
        if title in KNIGHTED_TITLES:  # Sir Walter → Sir Walter Elliot: the first name, not a surname
            for form in forms:
                first = f"{title} {split_title(form)[1][0]}"
                if first in seen and sum(f.startswith(first + " ") for f in seen) == 1:
                    siblings[first] = form
    for surname, forms in surname_forms.items():
        for name in forms:
            title = split_title(name)[0]
            longer = full_forms.get((title, surname), [])
            variants = [f for f in forms if f != name and split_title(f)[0] == title]
            wives = [f for f in forms if split_title(f)[0] in WIFE_TITLES]
            if title not in ADDRESS_TITLES and len(longer) == 1:
                siblings[name] = longer[0]
            elif len(variants) == 1 and seen[variants[0]] > seen[name]:
                siblings[name] = variants[0]
            elif title in WIFE_RANK_TITLES and len(wives) == 1:
                siblings[name] = wives[0]
    return siblings


def _daughter(surname: str, g: Groups, women: set[str], seen: Mapping[str, int],
              form: str, men: set[str]) -> str | None:
    """The one woman of the family the text names by her first name and surname (when it writes
    no daughter's first name after Miss, the one full name no man's: Northanger Abbey's "Miss
    Tilney" is Eleanor, as Henry and Frederick go by Mr. and Captain), unless the
    title goes with her first name often enough (YOUNGER_SHARE) beside `form` (Miss and the
    surname alone) to tell her from an elder sister, where the title says so
    (en.ELDEST_DAUGHTER_TITLES): "Miss Elliot" (48 times in Persuasion) is Elizabeth, the
    eldest; Anne is "Miss Anne" (13) or "Miss Anne Elliot" (6). Mademoiselle Valentine (18,
    beside 33 "Mademoiselle de Villefort"s) is an only daughter."""
    family = {n for n in g.names() if is_full(n) and bare_surname(n.split()) == surname}
    daughters = {owner for n in family if n.split()[0] in women
                 and (owner := g.owner(n)) is not None}
    if not daughters:  # no Miss and first name written: the family's one full name of no man
        daughters = {owner for n in family if n.split()[0] not in men
                     and (owner := g.owner(n)) is not None and not _a_mans(g, owner, seen)}
    if len(daughters) != 1:
        return None
    daughter = daughters.pop()
    title, first = split_title(form)[0], daughter.split()[0]
    younger = seen.get(f"{title} {first}", 0) + seen.get(f"{title} {daughter}", 0)
    if (title in ELDEST_DAUGHTER_TITLES and younger >= YOUNGER_USES
            and younger >= YOUNGER_SHARE * seen.get(form, 0)):
        return None
    return daughter


def _a_mister(g: Groups, owner: str) -> bool:
    """The group holds a form under a man's title below any rank (Mr.), which no one calls a
    knight by."""
    return any(split_title(n)[0] in COMMON_TITLES for n in (owner, *g.groups.get(owner, [])))


def _a_mans(g: Groups, owner: str, seen: Mapping[str, int]) -> bool:
    """The group is no unmarried daughter's: it holds a form under a title other than Miss
    (a man's, or a married or noble woman's: Lady Catherine de Bourgh is no Miss de Bourgh),
    or a form the text writes under a man's title (John Thorpe's "Thorpe": "Mr. Thorpe")."""
    forms = (owner, *g.groups.get(owner, []))
    return any(split_title(n)[0] and split_title(n)[0] not in UNMARRIED for n in forms) or any(
        f"{title} {n}" in seen for n in forms for title in MALE_TITLES)


YOUNGER_USES = 3
YOUNGER_SHARE = 0.25
"""A daughter the text calls by the title and her first name (Miss Anne) at least YOUNGER_USES
times and this share as often as by the title and the surname alone is not who the latter
names: that is the eldest daughter's (Miss Price, 41 times, is Fanny, the eldest Price daughter,
whom the Bertrams' house now and then calls Miss Fanny)."""

def family_plural(bare: str, groups: dict[str, list[str]]) -> bool:
    """Whether a name is a family's name made plural (Bennets, Lucases): several people."""
    last = {name.split()[-1] for canonical, aliases in groups.items()
            for name in (canonical, *aliases) if name != bare}
    return any(bare == family + ending for family in last for ending in ("s", "es"))


def fold_titled(g: Groups, kept: dict[str, int]) -> None:
    """Titled forms of one person: a shorter form whose only longer form under the same title
    starts with it (Lady Catherine → Lady Catherine de Bourgh; Sir William → Sir William
    Lucas), the same name in another case (Miss De Bourgh → Miss de Bourgh)."""
    groups = g.groups
    titled = [n for n in list(groups) if split_title(n)[0]]
    for name in sorted(titled, key=len):
        if name not in groups:
            continue
        title, rest = split_title(name)
        longer = [n for n in groups if n != name and split_title(n)[0] == title
                  and " ".join(split_title(n)[1]).startswith(" ".join(rest) + " ")]
        same = [n for n in groups if n != name and n.lower() == name.lower()
                and kept.get(n, 0) >= kept.get(name, 0)]
        if len(longer) == 1:
            g.move(name, longer[0])
        elif same:
            g.move(name, same[0])


def join_titled_entities(entities: list[Entity], text: str = "") -> list[Entity]:
    """An entity named by a man's title and a name another entity bears (Mr. Yoshikawa beside
    Yoshikawa, the man a pattern gave his nickname to) is that entity: the name groups above
    see only what the tagger found, the patterns add names of their own; a person by the title
    takes the surname alone where the text's names make that no person of its own. A woman's
    title stays apart (Mrs. Bennet is Mr. Bennet's wife, Miss Bingley his sister), and so does a
    surname the `text` shows is another man's of the family (`another_mans`: bare Morland is
    James Morland's, not his father Mr. Morland's)."""
    by_name = {e.name: e for e in entities}
    families = family_men({e.name: e.aliases for e in entities if e.type != "place"})
    leading = name_openers(n for e in entities for n in (e.name, *e.aliases))
    gone: set[int] = set()
    for entity in entities:
        title, rest = split_title(entity.name)
        owner = by_name.get(" ".join(rest)) if title in MALE_TITLES else None
        if owner is None or owner is entity or owner.type == "place" or id(owner) in gone:
            continue
        if text and another_mans(owner.name, {entity.name, *entity.aliases, *owner.aliases},
                                 families, text, leading):
            continue
        if owner.type != "person" and owner.sources == ["tagger"] and entity.type == "person":
            # the surname alone, no one's by itself, joins the titled man: General Tilney,
            # not "Tilney", whom Henry and Eleanor Tilney's names hold too
            owner, entity = entity, owner
        for alias in (entity.name, *entity.aliases):
            if alias not in owner.aliases and alias != owner.name:
                owner.aliases.append(alias)
        owner.mentions += entity.mentions
        owner.sources += [x for x in entity.sources if x not in owner.sources]
        owner.type = "person"
        gone.add(id(entity))
    return [e for e in entities if id(e) not in gone]


def persons_by_title(g: Groups) -> None:
    """A group one of whose forms stands under a title of address is someone's (Penny, written
    once as Miss Penny Palfrey: Brother Jacob, a newcomer's trial, where she was "other" and
    "she" after "Who is Penny Palfrey?" read as her mother). Not St., a place's or a church's."""
    for name, aliases in g.groups.items():
        if name not in g.person and not family_plural(
                bare_name(split_title(name)[1]), g.groups) and any(
                is_titled(form) for form in (name, *aliases)):
            g.person.add(name)  # the Miss Musgroves are two: the Musgroves stay a family


_ADDRESSED = frozenset(ADDRESS_TITLES) - {"St.", "St"}


FULL_LENGTH = 400_000
"""An English book this long (in characters) or longer asks `min_mentions` of a titled name; a
shorter one proportionally fewer, down to SHORT_BOOK_MENTIONS. Brother Jacob (95,000 characters)
lost Mrs. Steene and Mr. Luff, written three times; every development book is longer (Northanger
Abbey, the shortest, 432,000). An untitled name keeps `min_mentions`: a short book's words
written three times (Universe, Flesh, Whips) are mostly no one's."""
SHORT_BOOK_MENTIONS = 3


def titled_mentions(min_mentions: int, length: int) -> int:
    """How often an English book of `length` characters must write a titled name (see
    FULL_LENGTH)."""
    scaled = round(min_mentions * length / FULL_LENGTH)
    return max(min(min_mentions, SHORT_BOOK_MENTIONS), min(min_mentions, scaled))


def is_titled(name: str) -> bool:
    """The name stands under a title of address (Mrs. Steene), not St."""
    return split_title(name)[0] in _ADDRESSED
