"""What a chapter tells, whom it names most, and where someone first or last appears ("What
happens in chapter 2?", 第三回讲了什么？, "Who is the main character in chapter 2?", 第三回的主要
人物是谁？, "Which chapter does Mr. Yates first appear in?"), answered from the chapter's own
sentences and the card, not by a search for the question's words (a newcomer's trial on Mansfield
Park got "The text does not say" for the first, and a sentence with "in the main" for the
second).

The events: the chapter's opening sentence, then the CHAPTER_SENTENCES - 1 sentences that hold
most of what sets the chapter apart from the others (its words weighed by tf-idf over chapters,
the people it names most), in story order. The people: the PEOPLE_SHOWN it names most, each
cited where the chapter first names them."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from typing import Literal

from agent.schemas import Answer, Citation
from stores.cards import Card
from stores.keyword.segment import stock_tokens
from stores.lang import clip, clip_at, has_han, in_quotes, shown
from stores.lang.asking import APPEARANCE_ASKED, CHAPTER_EVENTS_ASKED, CHAPTER_PEOPLE_ASKED
from stores.lang.text import reading_rule, sentences
from stores.models import LORE_CHAPTER, Chunk

ChapterAsked = Literal["events", "people"]
CHAPTER_SENTENCES = 3
"""Sentences quoted for what a chapter tells: its opening and the two that say most."""
PEOPLE_SHOWN = 3
"""People named for whom a chapter is about, the most named first, each cited where the
chapter first names them."""
QUOTE = 240
SHORTEST = {True: 8, False: 30}
"""A sentence shorter than this (characters; Han text: True) is no account of the chapter."""
SPOKEN = 0.5
"""A sentence in someone's words counts this much: the telling says what happens."""


def chapter_asked(question: str) -> ChapterAsked | None:
    """Whether the question asks what a chapter tells, or whom it names most (see the module
    docstring); the chapter is the one it names."""
    text = question.strip()
    if CHAPTER_EVENTS_ASKED.search(text):
        return "events"
    if CHAPTER_PEOPLE_ASKED.search(text):
        return "people"
    return None


class Chapters:
    """A story's chapters as the answers read them: their passages, and the words each uses
    (counted once, on the first question that needs them)."""

    def __init__(self, story: Sequence[Chunk], titles: Mapping[int, str]) -> None:
        self.story, self.titles = story, titles

    def passages(self, chapter: int) -> list[Chunk]:
        return [c for c in self.story if c.chapter == chapter]

    def numbers(self) -> list[int]:
        return sorted({c.chapter for c in self.story if c.chapter != LORE_CHAPTER})

    @cached_property
    def used(self) -> dict[int, Counter[str]]:
        """Each chapter's words, counted."""
        used: dict[int, Counter[str]] = {}
        for chunk in self.story:
            if chunk.chapter != LORE_CHAPTER:
                used.setdefault(chunk.chapter, Counter()).update(_terms(chunk.text))
        return used

    @cached_property
    def spread(self) -> Counter[str]:
        """In how many chapters each word stands."""
        spread: Counter[str] = Counter()
        for counts in self.used.values():
            spread.update(counts.keys())
        return spread


def _terms(text: str) -> list[str]:
    """The words that may set a chapter apart, as the stock segmenter cuts them (no one-letter
    words)."""
    return [t for t in stock_tokens(text) if len(t) > 1]


def chapter_account(asked: ChapterAsked, chapter: int, chapters: Chapters, chinese: bool,
                   spans: Callable[[str], Sequence[tuple[int, int, str]]],
                   kinds: Mapping[str, str], say: Callable[[str], str],
                   horizon: int = 0) -> Answer:
    """What `chapter` tells (`asked` "events") or whom it names most ("people"); under a
    spoiler horizon before it, only that it lies past the horizon."""
    numbers = chapters.numbers()
    if horizon and chapter > horizon:
        return _said(f"第{chapter}回在你的阅读进度（第{horizon}回）之后，其内容不显示。" if chinese else
                     f"Chapter {chapter} lies past your spoiler horizon (chapter {horizon}): "
                     "nothing of it is shown.")
    passages = chapters.passages(chapter)
    if not passages:
        span = f"{numbers[0]}–{numbers[-1]}" if numbers else "none"
        return _said(f"故事里没有第{chapter}回（章节为 {span}）。" if chinese else
                     f"The story has no chapter {chapter} (its chapters: {span}).")
    title = chapters.titles.get(chapter, "")
    named = (f"第{chapter}回「{title}」" if title else f"第{chapter}回") if chinese else (
        f"Chapter {chapter} ({title})" if title else f"Chapter {chapter}")
    people = _people(passages, spans, kinds)
    if asked == "people":
        return _people_answer(named, people, passages, spans, chinese, say)
    return _events_answer(named, chapter, people, passages, chapters, chinese, spans, say)


def _said(text: str, entities: Sequence[str] = (), citations: Sequence[Citation] = ()) -> Answer:
    return Answer(text=text, citations=list(citations), entities=list(entities),
                  stop_reason="answered")


def _people(passages: Sequence[Chunk], spans: Callable[[str], Sequence[tuple[int, int, str]]],
            kinds: Mapping[str, str]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for chunk in passages:
        counts.update(name for *_, name in spans(chunk.text) if kinds.get(name) == "person")
    return counts


def _citation(chunk: Chunk, quote: str) -> Citation:
    return Citation(chunk_id=chunk.id, chapter=chunk.chapter, source=chunk.document,
                    lines=(chunk.line_start, chunk.line_end), quote=quote)


def _quoted(quote: str, n: int, chinese: bool) -> str:
    return f"「{shown(quote)}」[{n}]" if chinese else f"{in_quotes(quote)} [{n}]"


def _listed(names: Sequence[str], chinese: bool) -> str:
    if chinese:
        return "、".join(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"


def _people_answer(named: str, people: Counter[str], passages: Sequence[Chunk],
                   spans: Callable[[str], Sequence[tuple[int, int, str]]], chinese: bool,
                   say: Callable[[str], str]) -> Answer:
    top = [name for name, _ in people.most_common(PEOPLE_SHOWN)]
    if not top:
        return _said(f"{named}里没有找到有名字的人物。" if chinese else
                     f"{named} names no one the world knows as a person.")
    shown_names = [say(n) for n in top]
    lines = [f"{named}里提到最多的人物：{_listed(shown_names, True)}。" if chinese else
             f"{named} names most {_listed(shown_names, False)}, in that order."]
    citations = [_first_named(name, passages, spans) for name in top]
    for n, (name, cited) in enumerate(zip(top, citations, strict=True), start=1):
        lines.append(f"{say(name)}：{_quoted(cited.quote, n, True)}" if chinese else
                     f"{say(name)}: {_quoted(cited.quote, n, False)}")
    return _said("\n".join(lines), top, citations)


def _events_answer(named: str, chapter: int, people: Counter[str], passages: Sequence[Chunk],
                   chapters: Chapters, chinese: bool,
                   spans: Callable[[str], Sequence[tuple[int, int, str]]],
                   say: Callable[[str], str]) -> Answer:
    weight = _distinctive(chapter, chapters)
    top = {name for name, _ in people.most_common(3)}
    found: list[tuple[int, float, Chunk, str]] = []  # (story order, score, passage, sentence)
    order = 0
    for chunk in passages:
        for s in sentences(chunk.text, reading_rule(chunk.text)):
            text = s.text.strip()
            order += 1
            if len(text) < SHORTEST[has_han(text)]:
                continue
            terms = set(_terms(text))
            score = sum(weight.get(t, 0.0) for t in terms) / math.sqrt(len(terms) + 1)
            score += len(top & {name for *_, name in spans(text)})
            if text[:1] in "“\"「『'‘":
                score *= SPOKEN
            found.append((order, score, chunk, text))
    if not found:
        return _said(f"{named}没有可引用的句子。" if chinese else f"{named} has no sentence to quote.")
    opening = found[0]
    rest = sorted(found[1:], key=lambda f: -f[1])[:CHAPTER_SENTENCES - 1]
    chosen = [opening, *sorted(rest, key=lambda f: f[0])]
    quotes = [clip(text, QUOTE) for *_, text in chosen]
    # each of the most present is cited where the chapter first names them, unless a quoted
    # passage names them: a newcomer's answer was marked unsupported for naming Mrs. Allen
    quoted_names = {name for _, _, chunk, _ in chosen for *_, name in spans(chunk.text)}
    most, citations = [], []
    for name, _ in people.most_common(3):
        mark = ""
        if name not in quoted_names:
            citations.append(_first_named(name, passages, spans))
            mark = f"[{len(citations)}]" if chinese else f" [{len(citations)}]"
        most.append(say(name) + mark)
    first = len(citations) + 1
    citations += [_citation(chunk, q) for (_, _, chunk, _), q in zip(chosen, quotes, strict=True)]
    present = ((f"出场最多的是{_listed(most, True)}。" if chinese else
                f"Most present: {_listed(most, False)}.") if most else "")
    lines = [f"{named}：{present}开头：{_quoted(quotes[0], first, True)}" if chinese else
             f"{named}. {present} It opens: {_quoted(quotes[0], first, False)}"]
    if len(quotes) > 1:
        later = " ".join(_quoted(q, n, chinese) for n, q in enumerate(quotes[1:], start=first + 1))
        lines.append(f"其后：{later}" if chinese else f"Later: {later}")
    return _said("\n".join(lines), [n for n, _ in people.most_common(3)], citations)


def _first_named(name: str, passages: Sequence[Chunk],
                 spans: Callable[[str], Sequence[tuple[int, int, str]]]) -> Citation:
    """The sentence where the chapter first names `name` (a person it counted), cited."""
    chunk, sentence, at = next((c, s.text.strip(), start) for c in passages
                               for s in sentences(c.text, reading_rule(c.text))
                               for start, _, found in spans(s.text.strip()) if found == name)
    return _citation(chunk, clip_at(sentence, at, QUOTE))


def _distinctive(chapter: int, chapters: Chapters) -> dict[str, float]:
    """Each of the chapter's words, weighed by how much more this chapter uses it than the
    others (tf-idf over chapters)."""
    n, spread = len(chapters.used), chapters.spread
    return {t: (1 + math.log(c)) * math.log((1 + n) / (1 + spread[t]))
            for t, c in chapters.used.get(chapter, Counter()).items()}


def appearance_account(question: str, entity: str, card_of: Callable[[str], Card | None],
                       chunks: Mapping[str, Chunk], forms: Sequence[str],
                       titles: Mapping[int, str], chinese: bool, say: Callable[[str], str],
                       horizon: int = 0) -> Answer | None:
    """The chapter `entity` first or last appears in, with the first sentence there that names
    them (Which chapter does Mr. Yates first appear in?, 韩峥第一次出场是在第几回？): the card's
    appearances, as of the horizon. A newcomer's trial on Mansfield Park got "In chapter 19"
    from a sentence with "first appearance on any stage"; its card said ch. 12. None when the
    question asks neither."""
    asked = APPEARANCE_ASKED.search(question)
    card = card_of(entity) if asked is not None else None  # a card is read from the catalog
    if asked is None or card is None:
        return None
    seen, name = card.as_of(horizon), say(entity)
    first = (asked.lastgroup or "").startswith("first")
    at = seen.first if first else seen.last
    if at is None:
        return _said(f"到第{horizon}回为止，{name}还没有出场。" if chinese else
                     f"Up to chapter {horizon}, {name} does not appear.", [entity])
    chunk = chunks.get(at.chunk_id)
    sentence = next((s.text.strip() for s in sentences(chunk.text, reading_rule(chunk.text))
                     if any(f and f in s.text for f in forms)), "") if chunk else ""
    title = titles.get(at.chapter, "")
    if chinese:
        where = f"第{at.chapter}回" + (f"「{title}」" if title else "")
        lead = (f"{name}首次出场于{where}" if first else
                f"{'到第' + str(horizon) + '回为止，' if horizon else ''}{name}最后一次出场是{where}")
    else:
        where = f"chapter {at.chapter}" + (f" ({title})" if title else "")
        lead = (f"{name} first appears in {where}" if first else
                f"{'Up to chapter ' + str(horizon) + ', ' if horizon else ''}{name} last "
                f"appears in {where}")
    if chunk is None or not sentence:
        return _said(f"{lead}。" if chinese else f"{lead}.", [entity])
    # from the clause that names them, in a long sentence: "You talked of expected horrors in
    # London--" was all a newcomer read of the one that names Captain Frederick Tilney
    quote = clip_at(sentence, min(sentence.find(f) for f in forms if f and f in sentence), QUOTE)
    return _said(f"{lead}：{_quoted(quote, 1, True)}" if chinese else
                 f"{lead}: {_quoted(quote, 1, False)}", [entity], [_citation(chunk, quote)])
