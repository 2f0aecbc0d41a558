"""Follow-up questions made explicit by rules: 他最后死在哪里？ → 诸葛亮最后死在哪里？

The offline path has no language model to read a follow-up, so pronouns (他/她/它/他们/此人/那里/
这把剑, he/she/it/they/there/that sword) and dropped subjects (后来呢？, What happened next?) are
replaced in place by the canonical name of their referent. The referent comes from the last turns
and the entity stack, filtered by what the reference can point at: a person for 他, a known woman
is never 他 and a known man never 她, an item for 它, a place for 那里.

Whom a follow-up is about: when the previous question asked *who* (刘备三顾茅庐请的是谁？), the
person the answer introduced is the new topic (诸葛亮); otherwise the previous question's subject
stays the topic (吕布骑的是什么马？ → 这匹马是谁送给他的？ → 吕布). A pronoun the previous question
already carried keeps the topic (他借这把刀想去杀谁？ → 事败后他杀了谁一家？ → still 曹操). Words
and patterns live in agent/referring.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from agent.gender import Gender
from agent.referring import (
    CJK,
    CLAUSE_EN,
    DROPPED_EN,
    DROPPED_ZH,
    WHAT,
    WHERE,
    WHO,
    Reference,
    find_references,
    relation_family,
    wanted_gender,
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

    def names_in(self, text: str) -> list[str]:
        """Canonical names mentioned in `text`, in order of first appearance."""
        return list(dict.fromkeys(name for _, _, name in self.spans(text)))

    def kind(self, name: str) -> str:
        return self.types.get(name, "other")

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
        if not names and ref.fallback is not None:  # her husband → Mercédès's husband
            ref = ref.fallback
            names = context.referent(ref)
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


class Context:
    """The candidates a reference may point at, best first, from the last turns and the stack."""

    def __init__(self, lexicon: Lexicon, turns: Sequence[Turn], stack: Sequence[StackEntry],
                 question: str) -> None:
        self.lexicon = lexicon
        self.turns = list(reversed(turns))  # most recent first
        self.stack = [e.entity for e in stack]
        self.said = {e.entity: e.referred_as for e in stack}
        self.named_now = set(lexicon.names_in(question))
        self.used: dict[str, list[str]] = {}  # surface → referent, within this question

    # -- ranking --------------------------------------------------------------------------------
    def order(self, ref: Reference) -> list[str]:
        """Candidates for `ref`, most likely first (before filtering by type and gender)."""
        names: list[str] = []
        for turn in self.turns:
            names += self._turn_order(turn, ref)
        return list(dict.fromkeys(names + self.stack))

    def _turn_order(self, turn: Turn, ref: Reference) -> list[str]:
        lex = self.lexicon
        asked = turn.resolved_question or turn.question
        in_question = lex.names_in(asked)
        carried = [n for n in in_question if n not in lex.names_in(turn.question)]
        answer = [n for n in turn.entities if n]
        new = [n for n in answer if n not in in_question]
        if ref.kind in ("new_person", "new_persons") or (
                ref.kind in ("person", "persons") and WHO.search(asked)):
            # 周瑜的妻子是谁？: a man the answer names is not the wife. Most men's gender is
            # unknown in classical text, so only a wanted woman must be known to be one.
            want = wanted_gender(asked) if WHO.search(asked) else ""
            new = [n for n in new if not want or lex.gender(n) == want
                   or (want == "m" and lex.gender(n) != "f")]
            front = new if ref.kind.startswith("new") else carried + new
            return front + in_question + answer
        if ref.kind == "place" and WHERE.search(asked):
            return carried + new + in_question + answer
        if ref.kind == "thing" and WHAT.search(asked):
            return new + in_question + answer
        subject = [n for n in in_question if lex.kind(n) == "person"][:1]
        return carried + subject + in_question + answer

    # -- choosing -------------------------------------------------------------------------------
    def referent(self, ref: Reference) -> list[str]:
        """The canonical names `ref` stands for (several for 他们 / they), or [] if unsure."""
        if ref.surface in self.used:
            return self.used[ref.surface]
        if ref.kind in ("persons", "new_persons"):
            names = self.plural(ref)
        elif ref.kind == "relation":
            names = self.relation(ref)
        else:
            one = self.pick(ref)
            names = [one] if one else []
        if names:
            self.used[ref.surface] = names
        return names

    def pick(self, ref: Reference) -> str | None:
        """The first candidate of the right type and gender, not already named in the question.

        An entity of exactly the wanted type comes before an untyped (`other`) one, as worlds
        without a glossary have; an entity the question names itself comes last.
        """
        taken = {n for names in self.used.values() for n in names}
        order = self.order(ref)
        if ref.gender == "f":
            # Women are the ones a world marks (夫人, Madame, a description): 她 / she goes to a
            # known woman first, and only then to someone whose gender is unknown.
            women = [n for n in order if self.lexicon.gender(n) == "f"]
            order = women + [n for n in order if n not in women]
        for avoid in (self.named_now | taken, self.named_now, set()):
            for strict in (True, False):
                for name in order:
                    if name not in avoid and self._fits(name, ref, strict):
                        return name
        return None

    def _fits(self, name: str, ref: Reference, strict: bool) -> bool:
        kind = self.lexicon.kind(name)
        people = ref.kind in ("person", "new_person", "persons", "new_persons", "relation")
        if not strict and kind == "other":
            # Untyped entities (names found in the text, no glossary): one with a gender is a
            # person, one without may be anything; a thing or a place never has a gender.
            gendered = bool(self.lexicon.gender(name))
            if people or not gendered:
                kind = "person" if people else ("item" if ref.kind == "thing" else "place")
        if not strict and ref.kind == "thing" and kind in ("faction", "event"):
            kind = "item"
        if not strict and ref.kind == "place" and kind == "faction":
            kind = "place"
        wanted = "person" if people else {"place": "place", "thing": "item"}[ref.kind]
        if kind != wanted:
            return False
        if ref.gender:
            known = self.lexicon.gender(name)
            return not known or known == ref.gender
        return True

    def plural(self, ref: Reference) -> list[str]:
        """他们 / they: the persons the last answer introduced, else those last talked about."""
        limit = ref.count or 3
        person = Reference(ref.start, ref.end, ref.surface, "person")

        def fits(names: Sequence[str]) -> list[str]:
            return [n for n in dict.fromkeys(names) if self._fits(n, person, False)]

        chosen: list[str] = []
        if self.turns:
            turn = self.turns[0]
            asked = fits(self.lexicon.names_in(turn.resolved_question or turn.question))
            new = [n for n in fits(turn.entities) if n not in asked]
            if len(new) >= 2 or (ref.kind == "new_persons" and new):
                return new[:limit]
            chosen = asked if len(asked) >= 2 else asked + new[:1]
        for name in fits(self.order(person)):  # at least two
            if len(chosen) >= 2:
                break
            if name not in chosen:
                chosen.append(name)
        return chosen[:limit] if len(chosen) >= 2 else []

    def relation(self, ref: Reference) -> list[str]:
        """her husband: the answer's new person when the last question asked for that relation."""
        for turn in self.turns[:1]:
            asked = turn.resolved_question or turn.question
            if WHO.search(asked) and relation_family(asked) == ref.family:
                in_question = self.lexicon.names_in(asked)
                person = Reference(ref.start, ref.end, "", "person", ref.relative_gender)
                new = [n for n in turn.entities if n not in in_question
                       and self._fits(n, person, False)]
                if new:
                    return [new[0]]
        return []

    # -- writing --------------------------------------------------------------------------------
    def render(self, ref: Reference, names: list[str]) -> str:
        """The words that replace the reference, in the question's language and grammar."""
        zh = not ref.english
        shown = [self.display(n, zh) for n in names]
        if len(shown) == 1:
            text = shown[0]
        elif zh:
            text = "、".join(shown[:-1]) + "和" + shown[-1]
        else:
            text = ", ".join(shown[:-1]) + " and " + shown[-1]
        if ref.possessive:
            text = text + ("的" if zh else ("'" if text.endswith("s") else "'s"))
        return ref.prefix + text + ref.suffix

    def display(self, name: str, zh: bool) -> str:
        """The canonical name, or an alias in the question's script when the name is not."""
        if bool(CJK.search(name)) == zh:
            return name
        said = self.said.get(name, "")
        if said and bool(CJK.search(said)) == zh and said in self.lexicon.aliases.get(name, ()):
            return said
        same = [a for a in self.lexicon.aliases.get(name, ()) if bool(CJK.search(a)) == zh]
        # Two-word names read best in a question (Shen Yan, Guiyan Map); titles and "the" less.
        same.sort(key=lambda a: (abs(len(a.split()) - 2), a.lower().startswith("the "), len(a)))
        return same[0] if same else name


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


__all__ = ["Lexicon", "Resolution", "is_followup", "next_stack", "resolve", "resolve_followup"]
