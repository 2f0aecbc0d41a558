"""Places and things a follow-up may point at, read from the words of the last turns.

A world's entity list rarely holds every place and object a conversation touches: 白帝城 in a
quoted passage, "the Château d’If" after "in this", 赤兔马 as the answer to 吕布骑的是什么马？.
These rules find them the way a reader does:

- a Chinese place is a short word ending in 城/关/山/原/江/州/寺/宫/楼/渡/崖 … that starts a clause
  or follows a verb of motion or a locative (奔白帝城, 至麦城, 死于岘山, 名落凤坡);
- an English place is a capitalised phrase after in/at/from/into/near, or one headed by a place
  word (Château, Fort, Isle …); a name the world knows counts as a place where it is used as one
  ("at the Pont du Gard inn", "in this Château d’If");
- a thing is a word ending in the noun the follow-up used (这匹马 → 赤兔马, this sword → the
  sword), or the noun phrase an answer to a what-question led with ("A diamond, …" → "the
  diamond").

An answer's chapter references (见第84回「…」, In chapter 16 (A Learned Italian)) are not part of
what it says and are skipped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from agent.world.gender import Gender
from stores.lang import HAN, HAN_RANGES, en, zh
from stores.lang.asking import CITED_FIRST, CITED_NEAREST, UNPICKED, UNSURE_CHAPTER
from stores.lang.gender import title_gender
from stores.lang.referring import (
    EN_NOT_SUBJECT,
    ZH_NOT_SUBJECT,
    ZH_NOT_SUBJECT_START,
    ZH_SUBJECT_THEN,
)
from stores.lang.text import OPENING_QUOTES, sentences

Spans = Callable[[str], list[tuple[int, int, str]]]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


CJK = HAN
_CHAPTER_REF = f"{zh.CHAPTER_CITED}|{en.CHAPTER_CITED}"
_CHAPTER_RE = re.compile(_CHAPTER_REF, re.I)
_HEAD_END = re.compile(rf"\[\d+\]|[{OPENING_QUOTES}]|" + _CHAPTER_REF, re.I)


@dataclass(frozen=True)
class TurnText:
    """What one answered turn said, in the order a reader takes it in."""

    asked: str
    """The question as resolved."""
    head: str
    """The answer's first sentence, before any quotation or chapter reference ('' if none)."""
    body: str
    """The whole answer and its citations' quotes, chapter references removed."""


def turn_text(asked: str, answer: str, citations: Iterable[object] = (),
              complete: Callable[[str], str] | None = None) -> TurnText:
    """Split a turn's answer into its leading statement and the rest.

    `complete(cut)` gives the name a quote cut short began ("Château d" → "Château d’If").
    """
    for lead in UNPICKED.values():  # the reader's words, not the answer's
        answer = answer.replace(lead, "")
    for chinese, lead in CITED_NEAREST.items():  # "the nearest found" is no thing it names
        answer = answer.replace(lead, CITED_FIRST[chinese])
    for chinese, lead in UNSURE_CHAPTER.items():  # nor "the last answer did" (not find …)
        answer = answer.replace(lead.split("{")[0], CITED_FIRST[chinese])
    head = _HEAD_END.split(answer, maxsplit=1)[0]
    head = next((s.text for s in sentences(head.strip(), "head")), "")
    body = _CHAPTER_RE.sub(" ", answer)
    for citation in citations:
        quote = citation.get("quote", "") if isinstance(citation, dict) else \
            getattr(citation, "quote", "")
        whole = _complete_cut(quote, complete) if quote and complete else quote
        if quote and quote in body:
            body = body.replace(quote, whole)
        elif quote:
            body += "\n" + whole
    return TurnText(asked, head, body)


_CUT_TAIL = re.compile(rf"(?:(?<=\s)|^)((?:[\w’'.\-]+\s+){{0,2}}[\w’'.\-]+)$|([{HAN_RANGES}]{{1,4}})$")


def _complete_cut(quote: str, complete: Callable[[str], str]) -> str:
    """The quote with a name it was cut inside made whole; unchanged when it ends a sentence."""
    m = _CUT_TAIL.search(quote.rstrip())
    if not m:
        return quote
    tail = m.group(1) or m.group(2)
    for start in range(len(tail)):  # the longest tail that begins a known name
        if not (CJK.match(tail[start]) or (tail[start].isupper() and (
                not start or tail[start - 1].isspace()))):
            continue  # a Latin name starts with a capital
        name = complete(tail[start:])
        if name:
            return quote.rstrip()[: m.start() + start] + name
    return quote


# -- Chinese -------------------------------------------------------------------------------------
ZH_PLACE_SUFFIX = "城关山原江州寺宫楼渡崖坡谷亭岭峡湖县郡寨桥岛洲港庙镇村陵滩湾口院庵馆苑斋轩堂"
# Verbs of motion, locatives and words that name: what stands before a place name.
_ZH_BEFORE_PLACE = frozenset("在于至到往赴入进回奔逃走退守屯离向过取攻围抵归据镇驻名为曰言号从自经出"
                             "投临渡夺破陷下占得失弃")
# … of which these take nothing but a place (在新野, 至许昌; not 过 of 接过断鸿剑)
_ZH_LOCATIVE = frozenset("在于至到往赴入进回奔屯驻离抵")
# … and before a named thing: verbs of having, giving, using.
_ZH_BEFORE_THING = frozenset("有是叫名曰号用持执使骑乘带佩送赠献借得获拿取把将以下给还")
# Words that never start a name (把江东, 出城, 满城, 哪座城, 此山) nor stand inside one.
_ZH_FUNCTION = frozenset("的了是和与及或那这此哪座个其之而也乃即又便就都却把将被让使令给替向对同"
                         "跟叫用以所者什么何谁几多")
_ZH_NOT_FIRST = _ZH_FUNCTION | _ZH_BEFORE_PLACE.difference("下临") | frozenset(
    "满小该全本孤坚空各每前后内外中上里边旁人路开门最很更太懒只")
_ZH_NUMBER = frozenset("一二三四五六七八九十百千万数两")
_ZH_BOUNDARY_AFTER = frozenset("，。、；：！？“”‘’「」《》（）() \n\t,.;:!?")


def _zh_words_ending(text: str, ends: Callable[[int], bool], spans: list[tuple[int, int, str]],
                     before_ok: frozenset[str], longest: int = 5) -> list[tuple[int, str]]:
    """Short words ending where `ends(i)` holds, each starting at a clause boundary or after a
    word in `before_ok`; the longest such word wins. (position, word), in text order."""
    found: dict[int, str] = {}
    for i in range(len(text)):
        if not ends(i):
            continue
        for k in range(min(longest, i + 1), 1, -1):
            start = i + 1 - k
            word, before = text[start: i + 1], text[start - 1] if start else ""
            if not _zh_word(word, spans, start):
                continue
            if before == "" or not CJK.match(before) or before in before_ok:
                if len(word) > len(found.get(start, "")):
                    found[start] = word  # 泓州城 supersedes 泓州
                break
    return sorted(found.items())


def _zh_word(word: str, spans: list[tuple[int, int, str]], start: int) -> bool:
    """Whether `word` may be one name: Chinese only, no function word or locative inside, and
    not part of a known name (关 of 关羽) unless it is that name."""
    if not all(CJK.match(c) for c in word) or word[0] in _ZH_NOT_FIRST:
        return False
    if len(word) == 2 and word[0] in _ZH_NUMBER:
        return False
    inside = word[1:-1]
    if any(c in _ZH_FUNCTION or c in _ZH_BEFORE_PLACE for c in inside):
        return False
    if any(c in ZH_PLACE_SUFFIX and word[j + 2] not in ZH_PLACE_SUFFIX
           for j, c in enumerate(inside)):
        return False  # 澹烟湖北口: a place word ends inside
    end = start + len(word)
    return not any(s < end and start < e and (s, e) != (start, end) for s, e, _ in spans)


def zh_places(text: str, spans: list[tuple[int, int, str]]) -> list[tuple[int, str]]:
    """Chinese place words in `text` (白帝城, 五丈原, 泓州城), in order."""
    def ends(i: int) -> bool:
        after = text[i + 1: i + 2]
        return text[i] in ZH_PLACE_SUFFIX and (
            not after or after not in ZH_PLACE_SUFFIX or after in _ZH_BOUNDARY_AFTER)
    return _zh_words_ending(text, ends, spans, _ZH_BEFORE_PLACE)


def zh_things(text: str, noun: str, spans: list[tuple[int, int, str]]) -> list[tuple[int, str]]:
    """Chinese words ending in `noun` (马 → 赤兔马, 刀 → 七宝刀) that name one thing, in order."""
    def ends(i: int) -> bool:
        return i + 1 >= len(noun) and text.startswith(noun, i + 1 - len(noun))
    return [(start, word) for start, word in _zh_words_ending(
        text, ends, spans, _ZH_BEFORE_THING | _ZH_BEFORE_PLACE)
        if len(word) > len(noun) and not (len(word) == len(noun) + 1
                                          and word[0] in _ZH_KIND_NOT_NAME)]


# 战马, 兵马, 宝刀, 长枪 are kinds of things, not one named thing
_ZH_KIND_NOT_NAME = frozenset("战兵人军拍骑乘勒纵跃催驱策快好良宝大小长短钢铁木弓佩腰")


# -- English -------------------------------------------------------------------------------------
_NAME_WORD = r"[A-Z][\w’'\-]*"
_PARTICLE = en.PLACE_PARTICLE
_EN_PHRASE = rf"{_NAME_WORD}(?:\s+(?:{_PARTICLE}\s*)?{_NAME_WORD}|\s*(?:d’|d')\s*{_NAME_WORD})*"
_LOCATIVE = en.LOCATIVE
_LOOK_AT = re.compile(en.LOOK_AT, re.I)
_PLACE_HEAD = "|".join(en.PLACE_HEADS)
_PLACE_NOUN_AFTER = re.compile(en.PLACE_NOUN_AFTER, re.I)
_EN_PLACE_HEADED = re.compile(rf"\b(?:the\s+)?(?:{_PLACE_HEAD})(?:\s+(?:{_PARTICLE}\s*)?"
                              rf"{_NAME_WORD}|\s*(?:d’|d')\s*{_NAME_WORD})+")
_EN_AFTER_LOCATIVE = re.compile(rf"(?<=\s)(?:(?:{en.DEFINITE})\s+)?({_EN_PHRASE})")


def used_as_place(text: str, start: int, end: int) -> bool:
    """Whether the mention text[start:end] is used as a place: "in this X", "at the X inn"; not
    a name a person's title opens, but for a place's noun after it ("sauntered towards the Miss
    Dashwoods": the sisters; "at the Admiral Benbow inn")."""
    before = text[max(0, start - 40): start]
    if CJK.search(text[start:end]):
        return bool(before) and before[-1] in _ZH_LOCATIVE
    if re.match(r"^['’]s?\b", text[end:]):
        return False  # in Danglars' house: the house is the place
    if _PLACE_NOUN_AFTER.match(text[end:]):
        return True  # at the Admiral Benbow inn
    if title_gender([text[start:end]]):
        return False
    return bool(re.search(_LOCATIVE, before, re.I)) and not _LOOK_AT.search(before)


def en_places(text: str, spans: list[tuple[int, int, str]]) -> list[tuple[int, str]]:
    """English place phrases that are not known names (the Château d’If, the fortress at Ham)."""
    covered = [(s, e) for s, e, _ in spans]
    found: dict[int, str] = {}
    for m in _EN_PLACE_HEADED.finditer(text):
        found[m.start()] = m.group(0)
    for m in _EN_AFTER_LOCATIVE.finditer(text):
        if used_as_place(text, m.start(), m.end()) and m.group(1).split()[0] not in _NOT_PLACE:
            found.setdefault(m.start(), m.group(0))
    out: list[tuple[int, str]] = []
    reach = -1
    for start, phrase in sorted(found.items(), key=lambda item: (item[0], -len(item[1]))):
        end = start + len(phrase)
        if start < reach or any(s < end and start < e for s, e in covered):
            continue  # inside the last phrase, or a known name (the caller decides its use)
        reach = end
        out.append((start, re.sub(r"^(?:this|that)\s+", "the ", phrase)))
    return out


_EN_TITLES = en.TITLES_ALONE
_EN_TITLED = re.compile(rf"\bthe\s+(?:(?P<m>{_EN_TITLES['m']})|(?P<f>{_EN_TITLES['f']}))\b"
                        rf"(?:\s+(?:of|de)\s+{_NAME_WORD}(?:\s+{_NAME_WORD})*)?")


def en_titled(text: str, covered: list[tuple[int, int]]) -> list[tuple[int, str, Gender]]:
    """Persons a text names by a title alone (the Count, the Abbé, the Queen of Spain), with the
    gender the title says; titles inside a known name are left to it."""
    out: list[tuple[int, str, Gender]] = []
    for m in _EN_TITLED.finditer(text):
        if not any(s < m.end() and m.start() < e for s, e in covered):
            out.append((m.start(), m.group(0), "m" if m.group("m") else "f"))
    return out


_NOT_PLACE = _words(en.NOT_PLACE_TEXT)

_EN_DETERMINED = re.compile(rf"^\s*(?:{en.DETERMINERS})\s+((?:[a-z][a-z\-]+\s+)"
                            r"{0,2}[a-z][a-z\-]+)\b", re.I)
_EN_NOT_THING = _words(en.NOT_THING_TEXT)


def en_lead_thing(head: str) -> str:
    """The noun phrase an answer leads with, made definite: "A diamond, …" → "the diamond"."""
    m = _EN_DETERMINED.match(head)
    if not m or m.group(1).split()[-1].lower() in _EN_NOT_THING:
        return ""
    return "the " + m.group(1)


def en_things(text: str, noun: str) -> list[tuple[int, int, str]]:
    """Phrases in `text` whose head is `noun` (a beautiful diamond → the diamond), in order, as
    (start, end, the phrase made definite)."""
    pattern = re.compile(rf"\b(?:{en.POINTING_DETERMINERS})\s+(?:[a-z\-]+\s+)?"
                         rf"{re.escape(noun)}s?\b", re.I)
    return [(m.start(), m.end(), f"the {noun}") for m in pattern.finditer(text)]


_ZH_SUBJECT = re.compile(rf"^(?P<x>[{HAN_RANGES}０-９Ａ-Ｚａ-ｚ]{{2,5}}?)"
                         rf"(?={'|'.join(ZH_SUBJECT_THEN)})")
_EN_NAME_RUN = re.compile(rf"\b{_EN_PHRASE}")


def unknown_subject(asked: str, body: str, asked_spans: list[tuple[int, int, str]],
                    body_spans: list[tuple[int, int, str]]) -> str:
    """The name a question is about when the world does not list it (七斤是做什么的？, What did
    Red Shirt tell me?), as written: the question's opening words in Chinese, its first
    capitalised run in English, where no listed name stands before it and where the answer's
    text (`body`: its sentences and quotes) writes it outside every listed name; '' if none.
    A person the book names too rarely to be an entity is still the one a follow-up's 他 means."""
    found = ""
    if HAN.search(asked[:1]):
        m = _ZH_SUBJECT.match(asked)
        opening = m["x"] if m else ""
        if (opening and opening[0] not in ZH_NOT_SUBJECT_START
                and not opening.startswith(ZH_NOT_SUBJECT)
                and not any(s < len(opening) for s, _, _ in asked_spans)):
            found = opening
    else:
        for run in _EN_NAME_RUN.finditer(asked):
            words = run.group(0).split()
            if any(s < run.end() and run.start() < e for s, e, _ in asked_spans):
                break  # a listed name comes first: the question is about it
            while words and words[0].lower().strip("’'") in EN_NOT_SUBJECT:
                words = words[1:]
            if len(words) > 1 or (words and words[0] not in en.NAME_TITLES):
                found = " ".join(words)  # a title alone (Colonel) names no one
                break
    if not found:
        return ""
    covered = [(s, e) for s, e, _ in body_spans]
    return found if any(not any(s <= m.start() < e for s, e in covered)
                        and not _titled_work(body, m.start(), m.end())
                        for m in re.finditer(re.escape(found), body)) else ""


def _titled_work(text: str, start: int, end: int) -> bool:
    """The words at `start`:`end` are a work's title in its marks (《狂人日记》: the story, not
    the madman a follow-up's 他 means)."""
    return text[start - 1:start] == "《" and text[end:end + 1] == "》"
