"""A question about one entity answered from the world's own entry for it.

A world's lorebook or glossary describes its people, places and things in full sentences
(苏绾：「在泓州城接过断鸿剑，从侯府藏书楼盗回归雁图，在落星崖一剑刺死韩峥。」). When a question
is about such an entity and one sentence of its entry holds every word the question asks with —
its other names, its content words, the concept of dying for a death (a single Han character
aside: the entry may say 盗回 where the question says 拿回) — that sentence is the
answer the world itself gives, and it leads, stated and cited: 「苏绾：……从侯府藏书楼盗回归雁图
……」 for 苏绾是从哪里拿回归雁图的？. It is read as the entity's entry is shown (the subject
is the entry's title, written in front of it), and only in the question's language.

It does not answer what the entry only touches: a question whose words the sentence does not
all hold, or that asks for a person, place or number the sentence does not give beside the
question's own, keeps the evidence answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from agent.librarian.analysis import QueryPlan
from agent.librarian.grading import Term
from agent.schemas import Answer, Citation, Passage
from stores.cards import Card, Fact
from stores.lang import asked_thing, asks, clip, en, has_han, in_quotes, without_label, zh
from stores.lang.asking import SUBJECT_PRONOUN, killing, seen_also
from stores.lang.text import sentences
from stores.lang.zh import AFTER_ONES_OWN_DEATH, NUMERALS
from stores.models import LORE_CHAPTER, Chunk

FULL = 0.999
"""The share of the question's weight the sentence must hold: all of it."""
MAX_LEAD = 160
_CITE = re.compile(r"\[(\d+)\]")


@dataclass(frozen=True)
class LoreLead:
    """The sentence of an entity's entry that answers the question, and where it stands."""

    entity: str
    """The answer's entity: the entry's own, or the one its sentence names (see `title`)."""
    sentence: str
    chunk: Chunk
    title: str = ""
    """The entry's entity when it is not the answer (蚀心散: 韩峥用它毒死顾怀山)."""


def lore_lead(plan: QueryPlan, terms: Sequence[Term], cards: Callable[[str], Card | None],
              chunks: dict[str, Chunk], covers: Callable[[Passage, Sequence[Term]], float],
              kinds: Callable[[str], str], names_in: Callable[[str], list[str]],
              horizon: int = 0) -> LoreLead | None:
    """The first sentence, of the entries of the entities the question names, that holds
    every term of the question and what it asks for; None when there is none."""
    if plan.asks_relation or plan.asks_chapter or plan.hops or not any(
            not t.entity for t in terms):
        return None  # a relation or a chapter has its own answer; names alone ask nothing
    wanted = asked_thing(plan.question)
    if wanted == "person" and not horizon:
        doer = _doer_lead(plan, terms, chunks, covers, kinds, names_in)
        if doer is not None:
            return doer
    for entity in plan.entities:
        card = cards(entity)
        if card is None:
            continue
        for fact in card.as_of(horizon).of_kind("lore"):
            chunk = chunks.get(fact.chunk_id)
            if chunk is None:
                continue
            for sentence in _sentences(fact, plan.chinese):
                found = _answers(plan, entity, sentence, terms, covers, wanted, kinds, names_in)
                if found:
                    return LoreLead(entity, sentence, chunk)
    return None


def killer_lead(plan: QueryPlan, chunks: dict[str, Chunk], aliases: dict[str, list[str]],
                kinds: Callable[[str], str],
                spans: Callable[[str], list[tuple[int, int, str]]]) -> LoreLead | None:
    """For "who killed X" (谁杀了X, 韩峥是被谁杀死的): the one person the world's entries say
    killed X — a word for killing or dying with X's name right after it (一剑刺死韩峥, killed
    Han Zheng; not 被韩峥毒死, where X did it), said in that person's own entry, or in a
    thing's or a place's entry by the last person named before it (蚀心散: 韩峥用它毒死顾怀山);
    None when no entry or several people are said to."""
    if asked_thing(plan.question) != "person" and not asks_manner_of_death(plan):
        return None
    # the question's own victim: its death's subject, or the name it writes right after a word
    # for killing (谁杀了韩峥)
    victim = plan.death_subject or next(
        (n for n in plan.entities if killing([n, *aliases.get(n, [])]).search(plan.question)), "")
    if not victim:
        return None
    killed = killing([victim, *aliases.get(victim, [])])
    found: dict[str, LoreLead] = {}
    for chunk in chunks.values():
        title = chunk.chapter_title
        if chunk.chapter != LORE_CHAPTER or title == victim:
            continue
        for sentence in _quoted(chunk.text):
            match = killed.search(sentence)
            if match is None:
                continue
            said = without_label(sentence, title)
            if kinds(title) == "person":
                found.setdefault(title, LoreLead(title, said, chunk))
                break
            before = [n for start, _, n in spans(sentence)
                      if start < match.start() and n != victim and kinds(n) == "person"]
            if before:
                found.setdefault(before[-1], LoreLead(before[-1], said, chunk, title))
                break
    return next(iter(found.values())) if len(found) == 1 else None


def asks_manner_of_death(plan: QueryPlan) -> bool:
    """How did X die (韩峥是怎么死的): the answer is how, not where or when."""
    return plan.about_death and bool(asks("manner").search(plan.question))


def tells_manner(sentence: str) -> bool:
    """Whether a sentence says how someone died (一剑刺死, was poisoned), not only where."""
    words = zh.KILLING_MANNERS if has_han(sentence) else en.KILLING_MANNERS
    low = sentence.lower()
    return any(word in low for word in words)


def _quoted(text: str) -> list[str]:
    """The sentences of an entry as a quote is cut from them (stores/lang/text.py)."""
    return [s.text for s in sentences(text, "quote")]


def _sentences(fact: Fact, chinese: bool) -> list[str]:
    """The entry's sentences in the question's language."""
    return [s for s in _quoted(fact.text) if has_han(s) == chinese]


def _answers(plan: QueryPlan, entity: str, sentence: str, terms: Sequence[Term],
             covers: Callable[[Passage, Sequence[Term]], float], wanted: str | None,
             kinds: Callable[[str], str], names_in: Callable[[str], list[str]]) -> bool:
    """Whether the sentence, read with its entity in front, holds the whole question and, for a
    question after one thing, gives a thing of that kind the question does not name."""
    if not _holds(entity, sentence, terms, covers, names_in):
        return False
    named = names_in(f"{entity} {sentence}")
    dying = next((t for t in terms if t.text == "(dying)"), None)
    if plan.death_subject and dying and has_han(sentence) and not _own_death(
            sentence, dying.forms, plan.death_subject, names_in):
        return False  # 韩峥最后死在哪里？ is not answered by 韩峥……毒死师父
    if wanted in ("person", "place"):
        new = [n for n in named if n not in plan.entities and n != entity]
        return any(kinds(n) in (wanted, "other") for n in new)
    if wanted == "number":
        return bool(re.search(f"[{NUMERALS}]", sentence))
    return True


def _holds(entity: str, sentence: str, terms: Sequence[Term],
           covers: Callable[[Passage, Sequence[Term]], float],
           names_in: Callable[[str], list[str]], every_word: bool = False) -> bool:
    """Whether the sentence, read with its entity in front, holds every name, concept and word
    of the question; a single Han character may be missing (拿回 is split into 拿 and 回, and the
    entry says 盗回), unless `every_word`, but not all the words the question asks with."""
    text = f"{entity} {sentence}"
    stretch = Passage(chunk_id="", chapter=0, source="", lines=(0, 0), text=text,
                      entities=list(dict.fromkeys([entity, *names_in(text)])))
    required = [t for t in terms if every_word or t.entity or t.forms
                or not (has_han(t.text) and len(t.text) == 1)]
    asked = [t for t in terms if not t.entity]
    return covers(stretch, required) >= FULL and bool(covers(stretch, asked))


def _doer_lead(plan: QueryPlan, terms: Sequence[Term], chunks: dict[str, Chunk],
               covers: Callable[[Passage, Sequence[Term]], float], kinds: Callable[[str], str],
               names_in: Callable[[str], list[str]]) -> LoreLead | None:
    """For "who did it" (谁把断鸿剑传给了苏绾？): the one person, not named in the question,
    whose own entry holds every word of the question with them as its subject (沈砚 ·
    「……把断鸿剑传给苏绾」); None when no person's entry or several do. A killing is
    `killer_lead`'s: who killed whom is in the words around the name (刺死韩峥, 被韩峥毒死)."""
    if plan.about_death or any(killing([n]).search(plan.question) for n in plan.entities):
        return None
    found: dict[str, LoreLead] = {}
    for chunk in chunks.values():
        title = chunk.chapter_title
        if (chunk.chapter != LORE_CHAPTER or title in plan.entities
                or kinds(title) != "person"):
            continue
        for sentence in _quoted(chunk.text):
            said = without_label(sentence, title)
            if has_han(said) == plan.chinese and _holds(title, said, terms, covers, names_in,
                                                        every_word=True):
                found.setdefault(title, LoreLead(title, said, chunk))
                break
    return next(iter(found.values())) if len(found) == 1 else None


def _own_death(sentence: str, forms: Sequence[str], subject: str,
               names_in: Callable[[str], list[str]]) -> bool:
    """Whether a death word of the sentence tells the subject's own death: it ends a clause or
    goes on as dying does (死在, 死了, 死于), it is suffered (被……刺死), or the subject is named
    right after it (刺死韩峥); not 毒死师父, where the subject kills."""
    for form in forms:
        for match in re.finditer(re.escape(form), sentence):
            after = sentence[match.end():match.end() + 6]
            if not after or not has_han(after[0]) or after[0] in AFTER_ONES_OWN_DEATH:
                return True
            if "被" in sentence[max(0, match.start() - 8):match.start()]:
                return True
            if subject in names_in(after):
                return True
    return False


def with_lore_lead(answer: Answer, lead: LoreLead, say: Callable[[str], str],
                   chinese: bool) -> Answer:
    """`answer` (nothing stated: evidence lines) led by the entry's sentence, stated with its entity as
    the subject and citing the entry first; the evidence lines follow with their numbers moved
    up by one, the entry's own passage not cited twice."""
    chunk = lead.chunk
    first = Citation(chunk_id=chunk.id, chapter=chunk.chapter, source=chunk.document,
                     lines=(chunk.line_start, chunk.line_end),
                     quote=clip(" ".join(chunk.text.split()), MAX_LEAD))
    kept = [c for c in answer.citations if c.chunk_id != chunk.id]
    renumber = {n: kept.index(c) + 2 for n, c in enumerate(answer.citations, start=1)
                if c in kept}
    lines = []
    for n, line in enumerate(answer.text.splitlines()):
        marks = [int(m) for m in _CITE.findall(line)]
        if (n == 0 and not marks) or any(m not in renumber for m in marks):
            # the evidence's own lead (it picked nothing), or a line quoting the entry
            continue
        # the first evidence line is "see also" after a lead
        lines.append(seen_also(_CITE.sub(lambda m: f"[{renumber[int(m.group(1))]}]", line)))
    return answer.model_copy(update={
        "text": "\n".join([statement(lead, say(lead.entity), chinese), *lines]),
        "citations": [first, *kept],
        "entities": list(dict.fromkeys([lead.entity, *answer.entities]))[:6],
        "stop_reason": "answered"})


OPENING = 6
"""How far into an entry's Han sentence another name is its subject (五年前沈砚在江上……)."""


def _another_subject(sentence: str, lead: LoreLead) -> bool:
    """Another entity's name opens the sentence, or follows a time phrase that opens it:
    「韩峥死后……」, 「五年前沈砚在江上一战……」 (not 「在泓州城接过断鸿剑」)."""
    for other in lead.chunk.entities:
        at = sentence.find(other)
        if other != lead.entity and 0 <= at <= OPENING and (
                at == 0 or sentence[at - 1] in zh.TIME_ENDS):
            return True
    return False


def statement(lead: LoreLead, name: str, chinese: bool) -> str:
    """The entry's sentence with its entity as the subject: an entry leaves it out (苏绾 ·
    「在泓州城接过断鸿剑……」 → 苏绾在泓州城接过断鸿剑……) or says she (She has the map
    deciphered → Eleanor Vance has the map deciphered)."""
    sentence = clip(lead.sentence, MAX_LEAD)
    if chinese and sentence[-1:] in zh.CLAUSE_ENDS:  # a clause of the entry, standing alone
        sentence = sentence[:-1] + "。"
    if has_han(sentence) != chinese:  # a bilingual world: the entry in its own language, quoted
        return f"{name}: {in_quotes(sentence)} [1]"
    if lead.title:  # another entity's entry names the answer: the entry as written, titled
        return f"{lead.title}：{sentence}[1]" if chinese else f"{lead.title}: {sentence} [1]"
    for form in (lead.entity, name):
        for mark in ("：", ":"):
            if sentence.startswith(form + mark):
                return f"{sentence}[1]" if chinese else f"{sentence} [1]"
    if chinese:  # 顾青禾 · 「韩峥死后做了雁回楼的新楼主」: another subject opens it, so a colon
        return (f"{name}：{sentence}[1]" if _another_subject(sentence, lead)
                else f"{name}{sentence}[1]")
    pronoun = SUBJECT_PRONOUN.match(sentence)
    if pronoun:
        return f"{name} {sentence[pronoun.end():]} [1]"
    return f"{name}: {sentence} [1]"

