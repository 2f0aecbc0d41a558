"""How old someone is, from the sentence where the story gives their age.

"How old is Harriet Smith?" was answered with "the quiet neat old lady …", and "How old is the
Russian?" (a newcomer's trial on Heart of Darkness) with "The old one sat on her chair.": the
word "old" is all the search had, and the story says an age otherwise ("a girl of seventeen",
"though only nineteen", "on the wrong side of five and thirty"). So an age asked of one person
is answered with the first sentence, in story order and under the horizon, where the person's
name stands shortly before an age (en.AGE_TOLD; 曹丕……时年十八岁: zh.AGE_TOLD) with no one else
named between; the telling's before a character's words. An English sentence that names no one
of the person's gender gives their age by a pronoun of it when the last sentence of the passage
naming anyone of that gender opened with them or named only them ("Colonel Brandon, the friend
of Sir John, … He was silent and grave. His appearance … for he was on the wrong side of five
and thirty"). None when no sentence gives it: the search answers then.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from agent.librarian.known import with_quote
from agent.schemas import Answer
from stores.lang import en, has_han, zh
from stores.lang.text import in_someones_words, sentences
from stores.models import Chunk, chapter_label

Spans = Callable[[str], list[tuple[int, int, str]]]

AGE_REACH = 200
"""How far after the person's name, in characters, the age may stand in its sentence."""


def age_answer(question: str, subject: str, story: Iterable[Chunk], spans: Spans,
               say: Callable[[str], str] = str, horizon: int = 0,
               gender: Callable[[str], str] | None = None) -> Answer | None:
    """The sentence that gives `subject`'s age, cited, for a question after it (en.AGE_ASKED,
    zh.AGE_ASKED); None for any other question or when no sentence gives it. `gender` (a name →
    "m", "f", "" for a person of either, anything else for no person) lets a pronoun give it."""
    chinese = has_han(question)
    if not (zh.AGE_ASKED if chinese else en.AGE_ASKED).search(question):
        return None
    own = gender(subject) if gender is not None and not chinese else ""
    own = own if own in _PRONOUN else ""
    spoken: tuple[Chunk, str] | None = None
    for chunk in story:
        if chunk.lore or (horizon and chunk.chapter > horizon):
            continue
        last: set[str] = set()  # the people of `own` gender the last sentence naming one named
        for s in sentences(chunk.text, "story"):
            found = spans(s.text)
            alike = [(at, end, name) for at, end, name in found
                     if own and gender and gender(name) in (own, "")]
            by_pronoun = not alike and last == {subject} and _age_by_pronoun(s.text, own)
            if alike:  # the sentence's subject when it opens with them alone, else all it names
                opens = alike[0][0] == len(s.text) - len(s.text.lstrip(OPENING)) and not (
                    len(alike) > 1 and alike[1][0] - alike[0][1] <= JOINED)
                last = {alike[0][2]} if opens else {name for *_, name in alike}
            if not (by_pronoun or _gives_age(s.text, subject, found)):
                continue
            if not in_someones_words(chunk.text, s.start):
                return _answer(subject, chunk, s.text, say, chinese)
            spoken = spoken or (chunk, s.text)
    return _answer(subject, *spoken, say, chinese) if spoken else None


def _gives_age(sentence: str, subject: str, found: Sequence[tuple[int, int, str]]) -> bool:
    """The sentence names `subject` and, shortly after and before anyone else, an age."""
    for start, end, name in found:
        if name != subject:
            continue
        after = min((s for s, _, other in found if s >= end and other != subject),
                    default=len(sentence))
        if _age_after(sentence, start, end, min(after, end + AGE_REACH)):
            return True
    return False


def _age_after(sentence: str, at: int, start: int, stop: int) -> bool:
    """An age stands between `start` and `stop`, told as the word at `at` is, or in the same
    words: "replied Elinor, “… a woman of seven and twenty …”" is no age of Elinor's."""
    told = zh.AGE_TOLD if has_han(sentence) else en.AGE_TOLD
    age = told.search(sentence, start, stop)
    return age is not None and in_someones_words(sentence, at) == in_someones_words(
        sentence, age.start())


_PRONOUN = {"m": re.compile(en.HE, re.I), "f": re.compile(en.SHE, re.I)}


def _age_by_pronoun(sentence: str, gender: str) -> bool:
    """A pronoun of `gender`, then shortly after it an age, both told or both in someone's
    words ("for he was on the wrong side of five and thirty")."""
    return any(_age_after(sentence, pronoun.start(), pronoun.end(), pronoun.end() + PRONOUN_REACH)
               for pronoun in _PRONOUN[gender].finditer(sentence))


OPENING = " \n\"“‘'"
JOINED = 6
"""At most this many characters between two names make them one subject ("Willoughby and Sir
John came in")."""
PRONOUN_REACH = 60
"""How far after the pronoun, in characters, the age may stand: the pronoun's own clause."""


def _answer(subject: str, chunk: Chunk, sentence: str, say: Callable[[str], str],
            chinese: bool) -> Answer:
    where = chapter_label(chunk.chapter, chinese)
    lead = (f"{say(subject)}的年纪见{where}：" if chinese
            else f"{say(subject)}'s age is given in {where}:")
    quote = sentence.strip() if chinese else " ".join(sentence.split())
    return with_quote(lead, (chunk, quote), chinese, subject, where=False)
