"""What a name is, by how the text uses it: a person (speaks, is called one: "a man named
Helmar"), or a place (written after words of place: at Hartfield, 到柴桑), for the names
the grouping left untyped or typed only by form (stores.entities.resolve)."""

from __future__ import annotations

import re
from collections import Counter

from stores.entities.english_forms import split_title
from stores.entities.matcher import AliasMatcher, alias_map
from stores.lang.en import (
    ADDRESS_TITLES,
    APPOSED_PERSON,
    GIVEN_NAMES,
    KIN,
    NAMED_PERSON_BEFORE,
    OWN_BODY_AFTER,
    OWN_FACE_AFTER,
    OWNED_BEFORE,
    PERSON_NOUNS,
    PERSON_TAILS,
    PLACE_HEADS,
    PLACE_TAILS,
    VOCATIVE_AFTER,
    VOCATIVE_BEFORE,
)
from stores.lang.en import AT_PLACE as _AT_PLACE
from stores.lang.en import SAYS_AFTER_QUOTE_PATTERN as _SAYS_AFTER
from stores.lang.en import SAYS_BEFORE as _SAYS_BEFORE
from stores.lang.gender import title_gender
from stores.lang.zh import AT_PLACE as _ZH_AT_PLACE
from stores.lang.zh import PLACE_AFTER as _ZH_PLACE_AFTER
from stores.lang.zh import PLACE_END as _ZH_PLACE_END
from stores.models import Entity

_OWNS = re.compile(r"['’]s\s+[a-z]")
_THE_BEFORE = re.compile(r"\b[Tt]he\s+[\"“‘']?$")
THING_SHARE = 0.75
"""A titled name the text writes after "the" this share of its uses (at least PLACE_MIN_USES)
is a thing's, not a person's: Doctor Moreau's ship, the Lady Vain, was carded as "who Lady Vain
is"; no titled person of the development books is written so."""
_APPOSED_PERSON = re.compile(APPOSED_PERSON)
_NAMED_PERSON_BEFORE = re.compile(NAMED_PERSON_BEFORE)
_OWN_BODY_AFTER = re.compile(OWN_BODY_AFTER)
_OWN_FACE_AFTER = re.compile(OWN_FACE_AFTER)
_OWNED_BEFORE = re.compile(OWNED_BEFORE)
_PERSON_WORDS = frozenset((*PERSON_NOUNS, *KIN))
_VOCATIVE_BEFORE = re.compile(VOCATIVE_BEFORE)
_VOCATIVE_AFTER = re.compile(VOCATIVE_AFTER)

PLACE_SHARE, PLACE_MIN_USES = 0.12, 3
"""An untyped English name that follows a word of place (in, at, from, towards, reached …) in
this share of its uses (and at least 3 times) is a place. Measured on Monte Cristo: Paris 0.50,
Marseilles 0.49, Yanina and Elba 0.19; every person 0.05 or less (Valentine 0.03, Caderousse
0.01)."""
PERSON_PLACE_SHARE = 0.25
"""A name the grouping made a person's, that never speaks and has no title or given name, is a
place when it follows a word of place this share of its uses: Sense and Sensibility's Combe
Magna 0.31; every such person of the development books 0.17 or less (Mansfield Park's Frederick,
a part in the play, 0.17; Eliza 0.12)."""
SPEAKS = 2
"""An untyped English name that speaks this many times ("… ,” said Mercédès; Julie replied)
is a person. Measured on Monte Cristo: Valentine, Caderousse, Mercédès, Haydée, Julie,
Emmanuel, Benedetto and Peppino speak; Legion, Carnival, Sailor and Rue Meslay never do."""


def type_by_use(entities: list[Entity], text: str) -> list[Entity]:
    """Type the untyped English names by how the text uses them, in one pass over it: a name
    that speaks (right after a closing quote and a verb of speech, or right before such a
    verb) is a person; else a name written after words of place is a place; else one whose
    first word is a common given name (en.GIVEN_NAMES) is a person; else one of two words or
    more that a word of place ends or opens (en.PLACE_TAILS, PLACE_HEADS) is a place. A
    "person" of no title or given name that never speaks is a place when used as one often
    enough (PERSON_PLACE_SHARE). The glossary's types are kept."""
    untyped = {e.name: e for e in entities if e.type == "other"}
    # a name the grouping made a person's only by joining its first word (Combe → Combe Magna),
    # with no title and no given name, is typed by its use too
    grouped = {e.name: e for e in entities if e.type == "person" and e.sources != ["glossary"]
               and not title_gender([e.name, *e.aliases]) and e.name.split()[0] not in GIVEN_NAMES}
    # a titled name the text writes after "the" is a thing's: a ship, an inn (the Lady Vain)
    titled = {e.name: e for e in entities if e.type == "person" and e.sources != ["glossary"]
              and split_title(e.name)[0] in ADDRESS_TITLES}
    the: Counter[str] = Counter()
    uses: Counter[str] = Counter()
    placed: Counter[str] = Counter()
    speaks: Counter[str] = Counter()
    called: Counter[str] = Counter()
    for start, end, name in AliasMatcher(alias_map(entities)).find_spans(text):
        if name in titled:
            uses[name] += 1
            the[name] += bool(_THE_BEFORE.search(text, max(0, start - 6), start))
        if name in untyped or name in grouped:
            uses[name] += 1
            # "in M'ling's face" is no place, "at Ford's." is (the shop)
            placed[name] += bool(_AT_PLACE.search(text, max(0, start - 16), start)
                                 and not _OWNS.match(text, end))
            speaks[name] += bool(_SAYS_AFTER.search(text, max(0, start - 24), start)
                                 or _SAYS_BEFORE.match(text, end))
            called[name] += (2 * bool(_NAMED_PERSON_BEFORE.search(text, max(0, start - 24), start))
                             or bool(_APPOSED_PERSON.match(text, end)
                                     or _OWN_BODY_AFTER.match(text, end)
                                     or _OWN_FACE_AFTER.match(text, end)
                                     or (name.lower() in _PERSON_WORDS
                                         and _OWNED_BEFORE.search(text, max(0, start - 6), start))
                                     or (_VOCATIVE_BEFORE.search(text, max(0, start - 3), start)
                                         and _VOCATIVE_AFTER.match(text, end))))
    for name, entity in titled.items():
        if uses[name] >= PLACE_MIN_USES and the[name] >= THING_SHARE * uses[name]:
            entity.type = "other"
    for name, entity in grouped.items():
        if not speaks[name] and placed[name] >= PLACE_MIN_USES and (
                placed[name] >= PERSON_PLACE_SHARE * uses[name]):
            entity.type = "place"  # Mr. Willoughby of Combe Magna: to, at Combe Magna
    for name, entity in untyped.items():
        if speaks[name] >= SPEAKS:
            entity.type = "person"  # a person who travels is still a person
        elif placed[name] >= PLACE_MIN_USES and placed[name] >= PLACE_SHARE * uses[name]:
            entity.type = "place"
        elif called[name] >= CALLED and not placed[name]:
            entity.type = "person"  # "a man named Helmar"; "M'ling, the black-faced man, …"
        elif name.split()[0] in GIVEN_NAMES or name.rsplit("-", 1)[-1] in PERSON_TAILS:
            # Fanny, Elizabeth Martin: a given name is a person's; the Leopard-man is someone
            entity.type = "person"
        elif len(name.split()) > 1 and (name.split()[-1] in PLACE_TAILS
                                        or name.split()[0] in PLACE_HEADS):
            entity.type = "place"  # Blaize Castle, Northanger Abbey: a word of place names it
    return entities


CALLED = 2
"""An untyped English name that the telling calls a person this many times, never written as a
place, is one: a person noun that gives it counts twice ("a man named Helmar"), an apposition
that holds one once ("Spada, a prudent man"; once is not enough: "Paris, a friend of mine is
going", "Marseilles, the younger sister of Tyre"), and so does their own body or kin after a
verb (en.OWN_BODY_AFTER: "Grete had put her arm around her mother"), their face or voice
(en.OWN_FACE_AFTER: "Marlow's lean face"), being spoken to ("Try to be civil, Marlow,"), and,
for a word for a person or kin, an owner before it (his Intended)."""


ZH_PLACE_SHARE, ZH_PLACE_MIN_USES = 0.3, 3
"""A Chinese name the tagger took for a person's and the text writes after a word for going to
or being at a place (在, 到, 往, 回, 去, 进, 离, 从, 入, 至, 赴, 屯: zh.AT_PLACE), or before a
word for a town (城, 县, 郡: zh.PLACE_AFTER), in this share of its uses is a place. Measured:
柴桑 0.52, 许昌 0.43, 鲁镇 0.44, 赵庄 0.40, 陈仓 0.46, 寿春 0.36, 安众 0.36; every person 0.20 or
less (何小仙 0.20, 乌巢 0.19 and 龙驹 0.17 stay persons, 张角 0.10, 赵太爷 0.11). Words for
attacking or joining (攻, 取, 投, 奔) are said of people too.
A name ending in a word for a place (庄, 村, 镇: zh.PLACE_END) needs one use fewer: 呐喊's 赵庄,
written five times, twice after 到 and 离."""


def places_by_use(entities: list[Entity], text: str) -> list[Entity]:
    """Type as places the tagger's Chinese "persons" the text goes to or stays at (see
    ZH_PLACE_SHARE): 许昌, 鲁镇. A name from the glossary, a pattern or a speaker stays."""
    for entity in entities:
        if entity.type != "person" or entity.sources != ["tagger"]:
            continue
        uses = [m.span() for form in (entity.name, *entity.aliases) if len(form) >= 2
                for m in re.finditer(re.escape(form), text)]
        placed = sum(1 for at, end in uses if at and text[at - 1] in _ZH_AT_PLACE
                     or text[end:end + 1] in _ZH_PLACE_AFTER)
        # a name ending in a word for a place (赵庄, 鲁镇: zh.PLACE_END) needs fewer such uses
        least = ZH_PLACE_MIN_USES - (entity.name[-1] in _ZH_PLACE_END)
        if placed >= least and placed >= ZH_PLACE_SHARE * len(uses):
            entity.type = "place"
    return entities
