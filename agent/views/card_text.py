"""An entity's card read out: who someone is, in plain sentences, each cited.

The lead line says who the entity is: its lore entry when the reader may see one, else the
offices and relations the text gives it and the sentence that introduces it. Then what else
the card holds: more defining sentences, relations, where it first and last appears and the
chapters where it matters most. Everything is read under the spoiler horizon (`Card.as_of`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from agent.schemas import Answer, Citation
from agent.views.card_quotes import opened_with, sentence_with
from stores.cards import Card, Fact
from stores.entities.english_forms import split_title
from stores.errors import LoreError
from stores.lang import (
    clip,
    has_han,
    in_quotes,
    language,
    shown,
    without_label,
)
from stores.lang.en import MARRIED_TITLES
from stores.lang.text import sentences
from stores.models import NOT_PEOPLE, Chunk, chapter_label

if TYPE_CHECKING:
    from agent.world.retrieval import Retriever

LEAD_MIN = 24
"""A lore entry's lead takes its sentences until it has at least this many characters (「字青崖。」
alone says nothing of who 沈砚 is)."""
LEAD_MAX = 160
QUOTE_MIN = 12
"""Words shorter than this (a name, an office) are cited with the sentence that holds them."""


@dataclass
class _Cited:
    """Citations collected while the card is written, numbered in order of first use."""

    chunks: dict[str, Chunk]
    voice: Voice
    citations: list[Citation] = field(default_factory=list)

    def cite(self, chunk_id: str, *words: str, about: Sequence[str] = ()) -> str:
        """[n] for the passage, adding it the first time with a quote: the words themselves
        when they are a sentence of it, else its first sentence that holds one of them — with
        `about`, one that also holds one of those, else one that holds one of those (a
        relation: the sentence of 沈砚's entry that names 苏绾, 苏绾之师, not 沈砚：字青崖。)."""
        for n, known in enumerate(self.citations, start=1):
            if known.chunk_id == chunk_id:
                return f"[{n}]"
        chunk = self.chunks.get(chunk_id)
        if chunk is None:
            return ""
        flat = " ".join(chunk.text.split())
        # a long name is no quote (Fernand Mondego): the sentence that holds it is
        quote = words[0] if (words and len(words[0]) >= QUOTE_MIN and words[0] in flat
                             and not self.voice.is_name(words[0])) else (
            sentence_with(chunk.text, words, about))
        self.citations.append(Citation(chunk_id=chunk_id, chapter=chunk.chapter,
                                       source=chunk.document, lines=(chunk.line_start,
                                                                     chunk.line_end),
                                       quote=quote))
        return f"[{len(self.citations)}]"

    def quotes(self, sentence: str) -> bool:
        """A citation quotes the sentence already."""
        return any(" ".join(c.quote.split()) == " ".join(sentence.split())
                   for c in self.citations)


@dataclass(frozen=True)
class Voice:
    """How the card is written: the question's language, the name each entity goes by in it
    (an English answer names 苏绾 as Su Wan when the world gives her that alias), genders."""

    chinese: bool
    names: dict[str, list[str]] = field(default_factory=dict)
    """Canonical name → aliases."""
    gender: Callable[[str], str] = lambda _: ""

    def is_name(self, text: str) -> bool:
        """The text is one of the world's names."""
        return text in self.names or any(text in aliases for aliases in self.names.values())

    def name(self, entity: str) -> str:
        if self.chinese or not has_han(entity):  # Edmond Dantès is English, accent and all
            return entity
        return next((a for a in self.names.get(entity, []) if not has_han(a)), entity)

    def forms(self, entity: str) -> list[str]:
        return [entity, *self.names.get(entity, [])]


def card_answer(card: Card, chunks: dict[str, Chunk], voice: Voice, horizon: int = 0) -> Answer:
    """The card under the horizon as an answer to "who is X", in the question's language."""
    chinese = voice.chinese
    seen = card.as_of(horizon)
    cited = _Cited(chunks, voice)
    lead = _lead(seen, cited)
    if not lead:
        who = ("什么", "what") if card.type in NOT_PEOPLE else ("谁", "who")  # no place is a who
        untold = _untold(voice.name(card.entity), horizon, chinese, card.entity, who)
        if not seen.appearances:
            return untold
        # it appears, but no sentence was read as saying who it is: that is this reader's
        # finding, not the text's ("an old one-eyed cashier, called 'Cocles'"), so say so,
        # then where it appears
        name = voice.name(card.entity)
        found = (f"没有读到说明{name}是{who[0]}的句子；提到{name}之处如下。" if chinese else
                 f"No sentence read says {who[1]} {name} is; where the text names {name}:")
        if horizon:
            found = (f"第{horizon}回及之前{found}" if chinese else
                     f"Up to ch. {horizon}, no sentence read says {who[1]} {name} is; where the "
                     f"text names {name}:")
        return untold.model_copy(update={"text": "\n".join([found, *_more(seen, cited)]),
                                         "citations": cited.citations,
                                         "stop_reason": "evidence"})
    lines = [lead, *_more(seen, cited)]
    # the card's people after its own: "Henry Crawford: Mary Crawford's brother", then "Did
    # she accept him?" — she is no one the card did not name (a newcomer's trial read her as
    # Smith, an untyped name of an earlier quote)
    named = [f.other for f in seen.of_kind("relation") if f.other]
    return Answer(text="\n".join(lines), citations=cited.citations,
                  entities=list(dict.fromkeys([card.entity, *named])), stop_reason="answered")


def entity_card(retriever: Retriever, entity: str, horizon: int = 0) -> Answer:
    """The card of an entity (any of its names) as an answer, in the language the name is
    written in, as of the spoiler horizon (0: the whole story)."""
    name = retriever.resolve(entity)
    card = retriever.card(name)
    if card is None:
        raise LoreError(f"{name} has no card yet",
                        hint="run `lore ingest` on the world's files again: it builds the cards")
    voice = Voice(has_han(entity), retriever.entities, retriever.lexicon.gender)
    return card_answer(card, retriever.chunks, voice, horizon)


def card_text(card: Card, chunks: dict[str, Chunk], voice: Voice, horizon: int = 0) -> str:
    """The card as a few lines for a model's instructions (its citations written as chunk ids)."""
    answer = card_answer(card, chunks, voice, horizon)
    text = answer.text
    for n, citation in enumerate(answer.citations, start=1):
        text = text.replace(f"[{n}]", f"[{citation.chunk_id}]")
    return text


def _lead(card: Card, cited: _Cited) -> str:
    chinese = cited.voice.chinese
    name = _named(card, cited.voice)
    lore = card.of_kind("lore")
    if lore:
        fact = lore[0]
        told = _lore_lead(fact.text, card.entity)
        if not chinese and not card.entity.isascii() and name != card.entity:
            # the English name first, then the entry as written, without its own name label
            # (Shen Yan (沈砚, …): 字青崖。…, not Shen Yan (沈砚, …): 沈砚：字青崖。…)
            told = without_label(told, card.entity)
            return f"{name}: {told}{cited.cite(fact.chunk_id, told)}"
        mark = cited.cite(fact.chunk_id, told)
        return f"{told}{mark}"
    leading, _ = _split_relations(card, cited)
    parts = [_offices(card, cited), _homes(card, cited), _cite_relations(card, leading, cited)]
    said = ("；" if chinese else "; ").join(p for p in parts if p)
    defining = _defining(card, chinese)
    quote = ""
    if defining:
        fact = defining[0]
        where = chapter_label(fact.chapter, chinese)
        mark = cited.cite(fact.chunk_id, fact.text)
        quote = f"见{where}：「{shown(fact.text)}」{mark}" if chinese else (
            f"In {where}: {in_quotes(fact.text)} {mark}")
    if (said or card.of_kind("relation")) and not quote and card.first is not None:
        # a relative's word alone says little of who they are ("Mrs. Elton: Mr. Elton's
        # wife"), nor does a wife his name names, left for the Relations line: the telling's
        # first sentence about them, where it opens with them, introduces them ("Mrs. Elton
        # was first seen at church: … a bride in a pew")
        first = card.first
        chunk = cited.chunks.get(first.chunk_id)
        told = opened_with(chunk.text, cited.voice.forms(card.entity)) if chunk else ""
        if told and not cited.quotes(told):
            mark = cited.cite(first.chunk_id, told)
            where = chapter_label(first.chapter, chinese)
            told = clip(told, LEAD_MAX)
            quote = f"见{where}：「{shown(told)}」{mark}" if chinese else (
                f"In {where}: {in_quotes(told)} {mark}")
    if not said and not quote:
        return ""
    if chinese:
        return f"{name}：{said}。{quote}" if said else f"{name}。{quote}"
    return f"{name}: {said}. {quote}".rstrip() if said else f"{name}. {quote}"


def _more(card: Card, cited: _Cited) -> list[str]:
    chinese, forms = cited.voice.chinese, cited.voice.forms(card.entity)
    lines = []
    defining = _defining(card, chinese)[1 if not card.of_kind("lore") else 0:][:2]
    for fact in defining:
        where = chapter_label(fact.chapter, chinese)
        mark = cited.cite(fact.chunk_id, fact.text)
        lines.append(f"另见{where}：「{shown(fact.text)}」{mark}" if chinese else
                     f"Also, {where}: {in_quotes(fact.text)} {mark}")
    # a lore card's lead is its entry, so its relations follow; another's lead names the first
    # LEAD_RELATIONS, so the rest follow (Valentine's grandfather after her parents)
    related = _cite_relations(card, _split_relations(card, cited)[1][:MORE_RELATIONS], cited)
    if related:
        lines.append(f"关系：{related}。" if chinese else f"Relations: {related}.")
    if card.first is not None and card.last is not None:
        first, last = card.first, card.last
        keys = [str(a.chapter) for a in card.key_chapters()]
        key = "、".join(keys) if chinese else ", ".join(keys)
        one, two = cited.cite(first.chunk_id, *forms), cited.cite(last.chunk_id, *forms)
        if first.chapter == last.chapter:  # not "first in ch. 8, last in ch. 8"
            lines.append(f"只出现于{chapter_label(first.chapter, True)}{one}。" if chinese else
                         f"Appears only in {chapter_label(first.chapter, False)} {one}.")
            return lines
        most = "chapters" if len(keys) > 1 else "chapter"
        lines.append(
            f"首次出现于{chapter_label(first.chapter, True)}{one}，最后出现于"
            f"{chapter_label(last.chapter, True)}{two}；着墨最多的是第{key}回。" if chinese else
            f"First appears in {chapter_label(first.chapter, False)} {one}, last in "
            f"{chapter_label(last.chapter, False)} {two}; most present in {most} {key}.")
    return lines


def _defining(card: Card, chinese: bool) -> list[Fact]:
    """The defining sentences, those in the answer's language first (a bilingual world)."""
    return sorted(card.of_kind("defines"), key=lambda f: has_han(f.text) != chinese)


def _offices(card: Card, cited: _Cited) -> str:
    offices = card.of_kind("office")[:2]
    forms = cited.voice.forms(card.entity)
    return ("、" if cited.voice.chinese else ", ").join(
        f"{f.text}{cited.cite(f.chunk_id, *[f.text + n for n in forms], f.text)}"
        for f in offices)


def _homes(card: Card, cited: _Cited) -> str:
    """Where the story says they live (stores/card_homes.py), each cited with the sentence that
    says it: "lives at Kellynch Hall[1]". English only: no Chinese reader finds homes yet."""
    homes = card.of_kind("home")
    if not homes or cited.voice.chinese:
        return ""
    return "lives at " + ", then at ".join(
        f"{f.text}{cited.cite(f.chunk_id, f.quote, about=[f.text])}" for f in homes)


def _kin_offices(card: Card, cited: _Cited) -> set[str]:
    """The people a shown office names as kin (诸葛瑾之弟): their relation is told already, in
    the text's own word."""
    return {other for f in card.of_kind("office")[:2] for other in
            {r.other for r in card.of_kind("relation")}
            if any(f.text.startswith(form) for form in (other, *cited.voice.forms(other)))}


LEAD_RELATIONS = 2
"""How many relations a card's first sentence names (the rest follow on a line of their own)."""
MORE_RELATIONS = 4
"""How many relations that line names."""
FARTHER_KIN = frozenset({"grandparent_of", "kin"})
"""Relations a card names after the nearer ones (parents, children, spouses, siblings …)."""


def _split_relations(card: Card, cited: _Cited,
                     ) -> tuple[list[tuple[str, Fact]], list[tuple[str, Fact]]]:
    """The relations the lead names (at most LEAD_RELATIONS) and those that follow. A lore
    card's lead is its entry, so all follow; a relative an office names is told already (诸葛瑾之
    弟); a wife whose name is the entity's own under her title says nothing his name does not
    ("Captain Harville: Mrs Harville's husband"), so she follows."""
    if card.of_kind("lore"):
        return [], list(_relation_phrases(card, cited.voice, ()).items())
    phrases = list(_relation_phrases(card, cited.voice, _kin_offices(card, cited)).items())
    said = [p for p in phrases if not _named_spouse(card.entity, p[1])]
    leading = said[:LEAD_RELATIONS]
    return leading, [p for p in phrases if p not in leading]


def _named_spouse(entity: str, fact: Fact) -> bool:
    """A wife whose name is the entity's own under her title (Mrs Harville, Captain Harville;
    Mrs. John Dashwood, John Dashwood): his name says it. Her card leads with him, who is who
    she is by that name ("Mrs. Elton: Mr. Elton's wife")."""
    if fact.text != "spouse" or has_han(entity):
        return False
    title, rest = split_title(fact.other)
    return title in MARRIED_TITLES and rest == split_title(entity)[1]


def _cite_relations(card: Card, shown: list[tuple[str, Fact]], cited: _Cited) -> str:
    """The relation phrases, each cited with the sentence that states it or names the other."""
    voice = cited.voice
    return ("、" if voice.chinese else ", ").join(
        phrase + cited.cite(fact.chunk_id, *filter(None, [fact.quote]), *voice.forms(fact.other),
                            about=voice.forms(card.entity))
        for phrase, fact in shown)


def _relation_phrases(card: Card, voice: Voice, told: Collection[str]) -> dict[str, Fact]:
    """What the entity is to each relative (Villefort's daughter; 儿子司马师), each once: a
    parent before a grandparent (Valentine is Villefort's daughter before Noirtier's
    granddaughter), the rest strongest first; not the relatives `told` already."""
    lang = language("zh" if voice.chinese else "en")
    sex = voice.gender(card.entity)
    said: dict[str, Fact] = {}
    for fact in sorted(card.of_kind("relation"), key=lambda f: f.text in FARTHER_KIN):
        if fact.other in told:
            continue
        # in Chinese, a relative the text genders says more by their own word: 司马懿：儿子
        # 司马师, not 司马师的父母 (Language.telling_word)
        word, turned = lang.telling_word(fact.text, fact.end, sex, voice.gender(fact.other)
                                         if voice.chinese else "")
        word = word or lang.spoken_kin.get(fact.word, fact.word)
        other = voice.name(fact.other)
        phrase = (f"{word}{other}" if turned else f"{other}的{word}") if voice.chinese else (
            f"{other}'s {word}")
        if word and phrase not in said:
            said[phrase] = fact
    return said


def _named(card: Card, voice: Voice) -> str:
    shown = voice.name(card.entity)
    ascii_ = not voice.chinese
    others = [a for a in [card.entity, *card.aliases]
              if a != shown and (a.isascii() == ascii_ or a == card.entity)][:3]
    if not others:
        return shown
    return f"{shown}（{'、'.join(others)}）" if voice.chinese else f"{shown} ({', '.join(others)})"


def _lore_lead(text: str, entity: str) -> str:
    """The lore entry's first sentences, at least LEAD_MIN characters, at most LEAD_MAX."""
    told = ""
    for sentence in (s.text for s in sentences(text, "quote")):
        if told and len(told) + len(sentence) > LEAD_MAX:
            break
        told += sentence if not told or _han(sentence) else " " + sentence
        if len(told) >= LEAD_MIN + len(entity):
            break
    return told


def _han(text: str) -> bool:
    return has_han(text[:1])


def _untold(name: str, horizon: int, chinese: bool, entity: str,
            who: tuple[str, str] = ("谁", "who")) -> Answer:
    """The text does not say who (or, for a place, what: `who` in Chinese and English) it is."""
    zh_who, who_en = who
    if horizon:
        text = (f"第{horizon}回及之前的文字没有说{name}是{zh_who}。" if chinese else
                f"Nothing up to ch. {horizon} says {who_en} {name} is.")
    else:
        text = (f"原文没有说{name}是{zh_who}。" if chinese else
                f"The text does not say {who_en} {name} is.")
    return Answer(text=text, entities=[entity], stop_reason="not_in_text")
