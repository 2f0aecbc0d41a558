"""A relative a question names by kin, asked about by the name the world knows them by.

"What did Emma's father eat?" asks about Mr. Woodhouse, and 曹操的父亲是怎么死的 about 曹嵩: the
question names the person through their relative. Asked as written, the librarian took the kin
word for the question's point and answered with the relation ("Mr. Woodhouse is Emma
Woodhouse's father") above quotes about eating, and the search looked for Emma. So, before
anything is searched, a relative named by kin (X's father, the father of X, X的父亲, her father
once the follow-up's "her" is resolved) is replaced by the one person the world's typed
relations give for that word — of the word's gender, told by the reader's horizon — and the
question is read as "What did Mr. Woodhouse eat?", shown to the user as it is read.

It is left as written where the question asks who that relative is (Who was Emma's father?,
曹操的父亲是谁: stores/lang/asking.py RELATIVE_ASKED), where the world gives no one or more than
one (Mr. Woodhouse's daughter: Emma and Isabella), where the word is qualified (her eldest
son), and where the question already names the relative (Is Mr. Woodhouse Emma's father?).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from functools import cache

from agent.world.lexicon import Resolution
from stores.entities.relatives import relative_words, relatives_of
from stores.lang import has_han
from stores.lang.asking import RELATIVE_ASKED, RELATIVE_BEFORE_OWNER, RELATIVE_BY_OWNER
from stores.models import Relation

Spans = Callable[[str], list[tuple[int, int, str]]]


@cache
def _patterns(han: bool) -> tuple[re.Pattern[str], re.Pattern[str] | None]:
    words = "|".join(sorted(map(re.escape, relative_words(han)), key=len, reverse=True))
    after = re.compile(RELATIVE_BY_OWNER[han].format(words=words), re.I)
    before = None if han else re.compile(RELATIVE_BEFORE_OWNER.format(words=words), re.I)
    return after, before


def relatives_named(resolution: Resolution, spans: Spans,
                    relations: Mapping[str, Sequence[Relation]],
                    gender: Callable[[str], str], horizon: int = 0) -> Resolution:
    """The resolution with each relative named by kin replaced by the world's one person for
    it (see the module docstring); unchanged when there is none to replace."""
    text = resolution.text
    found = spans(text)
    named = {name for *_, name in found}
    pieces, at, referents = [], 0, []
    for start, end, name in found:
        if start < at:
            continue
        phrase = _kin_phrase(text, start, end)
        if phrase is None:
            continue
        first, last, word = phrase
        if _asked_who(text, first, last, word):
            continue  # who the relative is, is what is asked
        relatives = relatives_of(name, word, relations, gender, horizon)
        if len(relatives) != 1 or relatives[0] in named:
            continue
        pieces += [text[at:first], relatives[0]]
        referents.append((text[first:last], relatives))
        at = last
    if not referents:
        return resolution
    return dataclasses.replace(resolution, text="".join([*pieces, text[at:]]),
                               referents=[*resolution.referents, *referents])


def asks_of_a_relative(question: str, spans: Spans) -> bool:
    """The question names someone's relative by kin to ask something of them, not who they
    are (曹操的父亲是怎么死的, What did Mr. Woodhouse's daughter say?): the relation is no
    answer to it, whoever the relative is."""
    return False in _asks_who(question, spans)


def asks_for_a_relative(question: str, spans: Spans) -> bool:
    """The question asks only who someone's relative is, whatever words it asks it in
    (曹丕的父亲叫什么名字, What is the name of Emma's father?)."""
    asked = _asks_who(question, spans)
    return bool(asked) and all(asked)


def _asks_who(question: str, spans: Spans) -> list[bool]:
    """For each relative the question names by kin, whether it asks who that relative is."""
    found = []
    for start, end, _ in spans(question):
        phrase = _kin_phrase(question, start, end)
        if phrase is not None:
            found.append(_asked_who(question, *phrase))
    return found


def _asked_who(question: str, first: int, last: int, word: str) -> bool:
    """The words around a kin phrase ask who the relative is (RELATIVE_ASKED)."""
    before, after = RELATIVE_ASKED[has_han(word)]
    return bool(before.match(question[:first]) and after.match(question[last:]))


_OWNED = re.compile(r"['’]s?\s")
"""A possessive after a name: what follows is theirs, not the name itself."""


def _kin_phrase(text: str, start: int, end: int) -> tuple[int, int, str] | None:
    """(start, end, relative word) of the kin phrase the name at text[start:end] owns, if any:
    Emma's father, 曹操的父亲, the father of Emma."""
    after, before = _patterns(has_han(text[start:end]))
    if (m := after.match(text, end)) is not None:
        return start, m.end(), m.group("word")
    if before is not None and (b := before.search(text[:start])) is not None \
            and not _OWNED.match(text, end):  # the daughter of Jane Fairfax's guardian
        return b.start(), end, b.group("word")
    return None
