"""The entity stack of a conversation and the names it is made of.

`Lexicon` is what a world's names are to a conversation (mentions, types, aliases, genders),
built once per world and shared by the conversation and the librarian; `next_stack` is the
stack after a turn, from the question as typed, the question answered (`Resolution`, read once
into `Asked`) and the answer's entities. Every reader's turns update the stack the same way; only the librarian
makes the question explicit by rules (agent.librarian.followup).
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agent.gender import Gender
from sessions.records import StackEntry
from stores.lang import has_han
from stores.models import may_answer

if TYPE_CHECKING:
    from agent.retrieval import Retriever
    from stores.models import Entity

STACK_CAP = 20
"""Entities kept on the stack."""

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
    pronouns_tell: Callable[[], bool] = lambda: True
    """Whether the world's pronouns tell women from men (agent.gender.pronouns_tell): where they
    do not, nobody's gender is known from them, and an unknown gender says nothing."""
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
        if len(cut) < (2 if has_han(cut) else 3):
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
                      spans: Spans | None = None,
                      story: Callable[[], Iterable[str]] = tuple) -> Lexicon:
        """A lexicon of these entities; `passages(name)` gives texts that mention one and
        `story()` the world's text (for gender: whether its pronouns tell women from men)."""
        from agent.gender import GenderGuesser, pronouns_tell

        if spans is None:
            from stores.entities.matcher import AliasMatcher, alias_map

            spans = AliasMatcher(alias_map(list(entities))).find_spans
        aliases = {e.name: list(e.aliases) for e in entities}
        guesser = GenderGuesser(aliases, {e.name: e.description for e in entities},
                                passages or (lambda name: []), spans,
                                lambda: pronouns_tell(story()))
        return cls(spans=spans, types={e.name: e.type for e in entities}, aliases=aliases,
                   gender=guesser, pronouns_tell=guesser.he_tells)

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
                                 passages, retriever.spans,
                                 lambda: (chunk.text for chunk in retriever.story))


@dataclass
class Resolution:
    """A follow-up made explicit, and what each reference was taken to mean."""

    question: str
    """As typed."""
    text: str
    """The explicit question (equal to `question` when nothing needed resolving)."""
    referents: list[tuple[str, list[str]]] = field(default_factory=list)
    """(the words the user typed, the canonical names put in their place)."""
    cited: dict[str, Any] | None = None
    """For "in which chapter is that?": the first citation of the answer it asks about."""


@dataclass(frozen=True)
class Asked:
    """A turn's question as the stack reads it, its names found once (`Asked.read`)."""

    typed: dict[str, str]
    """Canonical name → the words the user typed for it this turn (a name, an alias, a pronoun)."""
    named: list[str]
    """The names of the question as resolved, in order of first appearance."""
    names: list[str]
    """`named`, then the names its references were taken to mean: what the question gives."""

    @classmethod
    def read(cls, resolution: Resolution, lexicon: Lexicon) -> Asked:
        """The question as typed and as resolved, each scanned for names once (the same scan
        when nothing needed resolving)."""
        typed_spans = lexicon.spans(resolution.question)
        typed = {name: resolution.question[start:end] for start, end, name in typed_spans}
        for surface, names in resolution.referents:
            for name in names:
                typed[name] = surface
        spans = typed_spans if resolution.text == resolution.question else lexicon.spans(
            resolution.text)
        named = list(dict.fromkeys(name for _, _, name in spans))
        referred = (n for _, names in resolution.referents for n in names)
        return cls(typed, named, list(dict.fromkeys([*named, *referred])))


def likely_answer(asked: Asked, answer_entities: Sequence[str],
                  kind: Callable[[str], str] | None = None, thing: str = "") -> str:
    """The first of an unstated answer's entities that the question did not name, and of a
    type that answers the `thing` asked for when both are given ('' if none): the candidate the
    reader found most likely, which the stack shows as a guess. Where-questions get no person
    as their likely answer (顾青禾在哪里找到了蚀心散？ — its evidence opens on 顾怀山's name)."""
    given = set(asked.names)
    return next((n for n in answer_entities if n and n not in given
                 and (kind is None or not thing or may_answer(kind(n), thing))), "")


def next_stack(asked: Asked, answer_entities: Sequence[str], old: Sequence[StackEntry],
               cap: int = STACK_CAP, *, guess: str = "") -> list[StackEntry]:
    """The stack after a turn: the question's entities, then the answer's, then the old stack.

    Each entry keeps how the user referred to it: the pronoun or alias typed this turn, else
    what was said before. `guess` is the answer the reader found likely but did not state
    (`likely_answer`); its entry is marked as a guess where it stands, unless the question
    named it. Marks are made afresh each turn: a guess named or stated later is no longer one.
    """
    said = {e.entity: e.referred_as for e in old} | asked.typed
    guessed = "" if guess in asked.names else guess
    order = asked.named + [n for n in answer_entities if n]
    order += [e.entity for e in old]
    entries = [StackEntry(entity=name, referred_as=said.get(name, ""), guess=name == guessed)
               for name in dict.fromkeys(order)]
    return entries[:cap]
