"""The librarian as a reader of the registry (agent.readers): its model, and the capability
through which it takes part in a run the way the core sees every reader take part.

Before the run, `LibrarianTurn` makes the question explicit by the librarian's rules from the
conversation the caller put in the deps (the entity stack and the earlier turns, read once a
turn); after it, the ranking the answer was built from goes on the deps, where `agent.core.ask`
reads every reader's evidence. Nothing outside this package reaches into the librarian.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic_ai import AgentRunResult, RunContext
from pydantic_ai.capabilities import AbstractCapability

from agent.blocking import run_blocking
from agent.deps import LoreDeps
from agent.librarian.model import Librarian
from agent.readers import Reader, ReaderContext
from stores.errors import ConfigError


@dataclass
class LibrarianTurn(AbstractCapability[LoreDeps]):
    """The librarian's side of a run: before it, the question is made explicit from the
    conversation the caller put in the deps (stack and turns, read once); after it, the ranking
    the answer was built from goes back on the deps, where `ask` reads every reader's evidence."""

    librarian: Librarian

    async def before_run(self, ctx: RunContext[LoreDeps]) -> None:
        deps = ctx.deps
        self.librarian.ranked = []
        if deps.memory is None:  # a question outside any session (lore eval retrieval): as typed
            self.librarian.reading = None
            return
        # The first resolution of a world loads its names (catalog, alias automaton): off the loop.
        await run_blocking(deps.retriever, self.librarian.begin, deps.question, deps.stack,
                           deps.turns)

    async def after_run(self, ctx: RunContext[LoreDeps], *,
                        result: AgentRunResult[Any]) -> AgentRunResult[Any]:
        ctx.deps.evidence = list(self.librarian.ranked)
        return result


def librarian_reader(context: ReaderContext) -> Reader:
    """The registry's factory for `model.provider = "offline"`: the librarian of the world."""
    if context.retriever is None:
        raise ConfigError("the offline librarian reads one world, and none was given",
                          where="model.provider",
                          hint="open a world first (lore ask --world NAME), or pick a model "
                               "provider that needs no world to be built")
    return reader_of(Librarian(context.retriever))


def reader_of(librarian: Librarian) -> Reader:
    """The librarian as the agent runs it: its model and its side of each run."""
    return Reader(librarian.model(), [LibrarianTurn(librarian)])


