"""The librarian's working state for one run, made when the run starts and dropped with it.

The librarian itself (agent.librarian.model) holds only what belongs to its world (names,
chapter titles, term statistics); everything one question needs across its rounds — how it was
read, which step each tool call was, who a multi-hop question's description stands for, the
ranking the answer was built from — lives here, so two runs never see each other's turn.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field

from agent.librarian.analysis import QueryPlan
from agent.librarian.strategy import Step
from agent.schemas import Passage
from agent.world.lexicon import Resolution


@dataclass
class Reading:
    """How the librarian reads this turn's question: made explicit by rule, analysed once."""

    question: str
    """As the user typed it (the run's prompt)."""
    resolution: Resolution
    plans: dict[str, QueryPlan] = field(default_factory=dict)
    """Every text analysed during the run (the question, a multi-hop description, its hops)."""


@dataclass
class LibrarianRun:
    """One run of the librarian: its reading of the question and what its rounds carry over."""

    reading: Reading
    horizon: int = 0
    """The turn's spoiler horizon (0: none): an answer read under it says how far it read."""
    steps: dict[str, Step] = field(default_factory=dict)
    """The step each of the run's tool calls made, by tool call id (its weight and label rank
    the results)."""
    call_ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    bridges: list[str] = field(default_factory=list)
    """Who the description of a multi-hop question stands for (voted after round 1)."""
    ranked: list[Passage] = field(default_factory=list)
    """The ranked passages the answer was built from (handed to the run's deps at its end)."""
