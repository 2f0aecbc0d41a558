"""The names of a world as a conversation reads them, and a question made explicit in them.

`Lexicon` is what a world's names are to a conversation (mentions, types, aliases, genders),
built once per world by its retriever (agent.world.retrieval) and shared by the conversation's
stack (agent.conversation.stack) and the librarian's rules; `Resolution` is a follow-up made
explicit, what each reference was taken to mean. Neither knows the retriever or the stack, so
both can read it.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agent.world.gender import Gender
from stores.lang import has_han

if TYPE_CHECKING:
    from stores.models import Entity

Spans = Callable[[str], list[tuple[int, int, str]]]


TITLE_DOMINANCE = 2
"""A title alone names the person mentioned this many times as often as any other who bears it
(as a surname + office names its holder: stores.entities.names.PRESENCE_DOMINANCE)."""


@dataclass
class Lexicon:
    """What the resolver knows of a world's names: mentions, types, aliases and genders."""

    spans: Spans
    """Mentions in a text as (start, end, canonical name), leftmost-longest."""
    types: Mapping[str, str] = field(default_factory=dict)
    """Canonical name → entity type (person, place, faction, item, event, other)."""
    aliases: Mapping[str, Sequence[str]] = field(default_factory=dict)
    mentions: Mapping[str, int] = field(default_factory=dict)
    """Canonical name → how often the text mentions the entity."""
    gender: Callable[[str], Gender] = lambda name: ""
    pronouns_tell: Callable[[], bool] = lambda: True
    """Whether the world's pronouns tell women from men (agent.world.gender.pronouns_tell): where they
    do not, nobody's gender is known from them, and an unknown gender says nothing."""
    blood: frozenset[frozenset[str]] = frozenset()
    """The pairs of people the world relates by blood (stores.models.BLOOD_TYPES): a mother and
    her son share a name, and no name makes one the other's spouse."""
    _sorted: list[str] | None = field(default=None, init=False, repr=False)

    def names_in(self, text: str) -> list[str]:
        """Canonical names mentioned in `text`, in order of first appearance."""
        return list(dict.fromkeys(name for _, _, name in self.spans(text)))

    def kind(self, name: str) -> str:
        return self.types.get(name, "other")

    def title_holder(self, title: str) -> str:
        """The person a title alone names (the Count → Edmond Dantès, Count of Monte Cristo):
        of the persons one of whose names begins with it, the one mentioned TITLE_DOMINANCE
        times as often as any other; '' when two are alike (the baron: Danglars, Baron Franz)
        or the title says more than its word (the Count of Spada)."""
        words = [w.casefold() for w in title.split()]
        if words[:1] == ["the"]:
            words = words[1:]
        if len(words) != 1:
            return ""
        holders = sorted((self.mentions.get(n, 0), n) for n, kind in self.types.items()
                         if kind == "person" and any(
                             form.split()[0].casefold() == words[0]
                             for form in (n, *self.aliases.get(n, ())) if form.split()))
        if not holders or holders[-1][0] <= 0:
            return ""
        if len(holders) > 1 and holders[-1][0] < TITLE_DOMINANCE * holders[-2][0]:
            return ""
        return holders[-1][1]

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
                      story: Callable[[], Iterable[str]] = tuple,
                      blood: Iterable[tuple[str, str]] = ()) -> Lexicon:
        """A lexicon of these entities; `passages(name)` gives texts that mention one,
        `story()` the world's text (for gender: whether its pronouns tell women from men) and
        `blood` the pairs of people the world relates by blood."""
        from agent.world.gender import GenderGuesser, pronouns_tell

        if spans is None:
            from stores.entities.matcher import AliasMatcher, alias_map

            spans = AliasMatcher(alias_map(list(entities))).find_spans
        aliases = {e.name: list(e.aliases) for e in entities}
        guesser = GenderGuesser(aliases, {e.name: e.description for e in entities},
                                passages or (lambda name: []), spans,
                                lambda: pronouns_tell(story()))
        return cls(spans=spans, types={e.name: e.type for e in entities}, aliases=aliases,
                   mentions={e.name: e.mentions for e in entities}, gender=guesser,
                   pronouns_tell=guesser.he_tells, blood=frozenset(map(frozenset, blood)))


@dataclass
class Resolution:
    """A follow-up made explicit, and what each reference was taken to mean."""

    question: str
    """As typed."""
    text: str
    """The explicit question (equal to `question` when nothing needed resolving)."""
    referents: list[tuple[str, list[str]]] = field(default_factory=list)
    """(the words the user typed, the canonical names put in their place)."""
    cited: list[dict[str, Any]] | None = None
    """For "in which chapter is that?": the citations of the answer it asks about, in order."""
    cited_unsure: bool = False
    """That answer led with the nearest sentence the evidence had, not one that says it."""
