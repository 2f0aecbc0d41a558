"""Follow-up questions made explicit by rules: 他最后死在哪里？ → 诸葛亮最后死在哪里？

The offline path has no language model to read a follow-up, so pronouns (他/她/它/他们/此人/那里/
这把剑, he/she/it/they/there/that sword) and dropped subjects (后来呢？, What happened next?) are
replaced in place by the canonical name of their referent. The referent comes from the last turns
(their questions, what the answers said and quoted, not only the entities they listed) and the
entity stack, filtered by what the reference can point at: a person for 他, a known woman is
never 他 and a known man never 她, an item for 它, a place for 那里. A place or thing the world
does not list is written as the last turns wrote it (白帝城, the diamond).

Whom a follow-up is about: when the previous question asked *who* (刘备三顾茅庐请的是谁？), the
person the answer introduced is the new topic (诸葛亮); otherwise the previous question's subject
stays the topic (吕布骑的是什么马？ → 这匹马是谁送给他的？ → 吕布). A pronoun the previous question
already carried keeps the topic (他借这把刀想去杀谁？ → 事败后他杀了谁一家？ → still 曹操). Words
and patterns live in agent/referring.py, the ranking of candidates in agent/candidates.py, and
places and things read from text in agent/phrases.py.
"""

from __future__ import annotations

import bisect
import itertools
import threading
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from agent.candidates import Context
from agent.gender import Gender
from agent.referring import (
    CJK,
    CLAUSE_EN,
    DROPPED_EN,
    DROPPED_ZH,
    Reference,
    find_references,
)
from sessions.records import StackEntry, Turn

if TYPE_CHECKING:
    from agent.retrieval import Retriever
    from stores.models import Entity

STACK_CAP = 20
"""Entities kept on the stack."""
LOOKBACK = 3
"""Answered turns looked at before the stack."""

Spans = Callable[[str], list[tuple[int, int, str]]]


@dataclass
class Lexicon:
    """What the resolver knows of a world's names: mentions, types, aliases and genders."""

    spans: Spans
    """Mentions in a text as (start, end, canonical name), leftmost-longest."""
    types: Mapping[str, str] = field(default_factory=dict)
    """Canonical name → entity type (person, place, faction, item, event, other)."""
    aliases: Mapping[str, Sequence[str]] = field(default_factory=dict)
    gender: Callable[[str], Gender] = lambda name: ""
    _sorted: list[str] | None = field(default=None, init=False, repr=False)

    def names_in(self, text: str) -> list[str]:
        """Canonical names mentioned in `text`, in order of first appearance."""
        return list(dict.fromkeys(name for _, _, name in self.spans(text)))

    def kind(self, name: str) -> str:
        return self.types.get(name, "other")

    def complete(self, cut: str) -> str:
        """The one name or alias that `cut` begins ("Château d" → "Château d’If"), else ''.

        Quotes in answers are cut to a length, sometimes inside a name.
        """
        if len(cut) < (2 if CJK.search(cut) else 3):
            return ""
        if self._sorted is None:
            names = {n for n in self.types} | {a for al in self.aliases.values() for a in al}
            self._sorted = sorted(names)
        at = bisect.bisect_left(self._sorted, cut)
        longer = list(itertools.takewhile(lambda n: n.startswith(cut), self._sorted[at:]))
        longer = [n for n in longer if n != cut]
        return longer[0] if len(longer) == 1 else ""

    @classmethod
    def from_entities(cls, entities: Sequence[Entity],
                      passages: Callable[[str], Sequence[str]] | None = None,
                      spans: Spans | None = None) -> Lexicon:
        """A lexicon of these entities; `passages(name)` gives texts that mention one (for gender)."""
        from agent.gender import GenderGuesser

        if spans is None:
            from stores.entities.matcher import AliasMatcher
            from stores.ingest_entities import alias_map

            spans = AliasMatcher(alias_map(list(entities))).find_spans
        aliases = {e.name: list(e.aliases) for e in entities}
        guesser = GenderGuesser(aliases, {e.name: e.description for e in entities},
                                passages or (lambda name: []), spans)
        return cls(spans=spans, types={e.name: e.type for e in entities}, aliases=aliases,
                   gender=guesser)

    @classmethod
    def from_retriever(cls, retriever: Retriever) -> Lexicon:
        """The lexicon of the retriever's world: its catalog entities, alias matcher and text."""
        by_entity: dict[str, list[str]] = {}

        def passages(name: str) -> list[str]:
            if not by_entity:  # one pass over the story, on the first guess that needs the text
                for chunk in retriever.story:
                    for entity in chunk.entities[:3]:
                        by_entity.setdefault(entity, []).append(chunk.text)
            return by_entity.get(name, [])

        return cls.from_entities(retriever.stores.catalog.entities(retriever.stores.world),
                                 passages, retriever.matcher.find_spans)


_LEXICONS: weakref.WeakKeyDictionary[Retriever, Lexicon] = weakref.WeakKeyDictionary()
_LEXICON_LOCK = threading.Lock()


def lexicon_of(retriever: Retriever) -> Lexicon:
    """The lexicon of the retriever's world, built once and shared by the conversation (its
    stack) and the librarian (its rules): its genders are guessed from the text only once."""
    with _LEXICON_LOCK:
        lexicon = _LEXICONS.get(retriever)
        if lexicon is None:
            lexicon = _LEXICONS[retriever] = Lexicon.from_retriever(retriever)
        return lexicon


@dataclass
class Resolution:
    """A follow-up made explicit, and what each reference was taken to mean."""

    question: str
    """As typed."""
    text: str
    """The explicit question (equal to `question` when nothing needed resolving)."""
    referents: list[tuple[str, list[str]]] = field(default_factory=list)
    """(the words the user typed, the canonical names put in their place)."""


def resolve_followup(question: str, stack: Sequence[StackEntry], last_turns: Sequence[Turn],
                     names_in: Lexicon) -> str:
    """The question with pronouns and a dropped subject replaced by canonical names."""
    return resolve(question, stack, last_turns, names_in).text


def resolve(question: str, stack: Sequence[StackEntry], last_turns: Sequence[Turn],
            lexicon: Lexicon) -> Resolution:
    """Like `resolve_followup`, also saying which words were taken to mean whom."""
    answered = [t for t in last_turns if t.status == "answered"][-LOOKBACK:]
    context = Context(lexicon, answered, stack, question)
    refs = find_references(question)
    if not refs:
        return _dropped_subject(question, context)
    pieces, at, referents = [], 0, []
    earlier = [(end, [name]) for _, end, name in lexicon.spans(question)]
    for ref in refs:
        names = _bound(question, ref, earlier, lexicon) or context.referent(ref)
        if not names and ref.fallback is not None:
            bearer = context.referent(ref.fallback)
            names = context.spouse_by_name(bearer, ref)  # her husband → Villefort
            if not names:  # her husband → Mercédès's husband
                ref, names = ref.fallback, bearer
        if not names:
            continue
        pieces += [question[at: ref.start], context.render(ref, names)]
        at = ref.end
        referents.append((question[ref.start: ref.end], names))
        earlier.append((ref.end, names))
    if not referents:
        return Resolution(question, question)
    return Resolution(question, "".join(pieces) + question[at:], referents)


def _bound(question: str, ref: Reference, earlier: list[tuple[int, list[str]]],
           lexicon: Lexicon) -> list[str]:
    """A pronoun in a later clause that means the question's subject: "What did her husband
    do when she left him?" → him = the husband. Only a known, matching gender binds."""
    if not (ref.english and ref.kind == "person" and ref.gender):
        return []
    for end, names in sorted(earlier):
        if end > ref.start or len(names) != 1:
            continue
        if CLAUSE_EN.search(question[end: ref.start]) and lexicon.gender(names[0]) == ref.gender:
            return names
        break  # only the subject (the first person named) binds
    return []


def _dropped_subject(question: str, context: Context) -> Resolution:
    """后来呢？ → 诸葛亮后来呢？, What happened next? → What happened to Danglars next?"""
    if context.lexicon.names_in(question):
        return Resolution(question, question)
    zh = bool(CJK.search(question))
    match = (DROPPED_ZH if zh else DROPPED_EN).match(question.strip())
    if match is None:
        return Resolution(question, question)
    topic = context.pick(Reference(0, 0, "", "person")) \
        or context.pick(Reference(0, 0, "", "thing"))
    if not topic:
        return Resolution(question, question)
    name = context.display(topic, zh)
    if zh:
        lead = match.group("lead") or ""
        text = question.strip()
        text = text[: len(lead)] + name + text[len(lead):]
    else:
        tail = (match.group("when") or "next").strip()
        text = f"What happened to {name} {tail}?"
    return Resolution(question, text, [(question.strip(), [topic])])


def next_stack(resolution: Resolution, answer_entities: Sequence[str],
               old: Sequence[StackEntry], lexicon: Lexicon,
               cap: int = STACK_CAP) -> list[StackEntry]:
    """The stack after a turn: the question's entities, then the answer's, then the old stack.

    Each entry keeps how the user referred to it: the pronoun or alias typed this turn, else
    what was said before.
    """
    said = {e.entity: e.referred_as for e in old}
    for start, end, name in lexicon.spans(resolution.question):
        said[name] = resolution.question[start:end]
    for surface, names in resolution.referents:
        for name in names:
            said[name] = surface
    order = lexicon.names_in(resolution.text) + [n for n in answer_entities if n]
    order += [e.entity for e in old]
    entries = [StackEntry(entity=name, referred_as=said.get(name, ""))
               for name in dict.fromkeys(order)]
    return entries[:cap]


def is_followup(question: str) -> bool:
    """Whether the question leans on the conversation (a pronoun or a dropped subject)."""
    zh = bool(CJK.search(question))
    return bool(find_references(question)) or bool(
        (DROPPED_ZH if zh else DROPPED_EN).match(question.strip()))


__all__ = ["Lexicon", "Resolution", "is_followup", "lexicon_of", "next_stack", "resolve",
           "resolve_followup"]
