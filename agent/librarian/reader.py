"""The librarian as a reader of the registry (agent.readers.registry): its model, and the capability
through which it takes part in a run the way the core sees every reader take part.

When a run starts, `LibrarianTurn` makes the question explicit by the librarian's rules from the
conversation the caller put in the deps (the entity stack and the earlier turns, read once a
turn) and makes the run's own state; every model request of the run is answered by the
librarian bound to that state. The run's answer states what the librarian found, as every
reader's answer does: the question it answered and whom its references were taken to mean
(`resolved_question`, `referents`: the conversation takes them to the stack), and the ranking
the answer was built from (`evidence`, which `agent.conversation.core.ask` returns as the turn's evidence).
Nothing outside this package reaches into the librarian.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from pydantic_ai import AgentRunResult, RunContext
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.models import Model, ModelRequestContext

from agent.librarian.model import MODEL_NAME, Librarian
from agent.librarian.run_state import LibrarianRun, Reading
from agent.readers.registry import Reader, ReaderContext
from agent.schemas import Answer, Referent
from agent.tools.deps import LoreDeps
from agent.world.blocking import run_blocking
from stores.errors import ConfigError


@dataclass
class LibrarianTurn(AbstractCapability[LoreDeps]):
    """The librarian's side of a run: a fresh `LibrarianRun` for each (`for_run`), the model
    bound to it for each request, and what it found stated in the run's answer."""

    librarian: Librarian
    run: LibrarianRun | None = None
    """This run's state (None on the capability the agent was built with)."""
    bound: Model | None = None
    """The librarian answering within `run`."""

    async def for_run(self, ctx: RunContext[LoreDeps]) -> LibrarianTurn:
        deps = ctx.deps
        # the first resolution of a world loads its names (catalog, automaton): off the loop. A
        # question outside any session (lore eval answers) is read as a new session's first
        # (its names respelled, a relative named by kin by their name): as a user meets it
        resolution = await run_blocking(deps.retriever, self.librarian.resolve, deps.question,
                                        deps.stack, deps.turns, deps.horizon)
        run = LibrarianRun(Reading(deps.question, resolution), deps.horizon)
        return dataclasses.replace(self, run=run, bound=self.librarian.model(run))

    async def before_model_request(self, ctx: RunContext[LoreDeps],
                                   request_context: ModelRequestContext) -> ModelRequestContext:
        assert self.bound is not None  # for_run made it
        return dataclasses.replace(request_context, model=self.bound)

    async def after_run(self, ctx: RunContext[LoreDeps], *,
                        result: AgentRunResult[Any]) -> AgentRunResult[Any]:
        """The answer, whoever wrote it (the librarian, or the core when the rounds ran out),
        with the question as the librarian made it explicit and its ranking."""
        assert self.run is not None
        answer = result.output
        if not isinstance(answer, Answer):
            return result
        resolution = self.run.reading.resolution
        stated = answer.model_copy(update={
            "resolved_question": resolution.text, "evidence": list(self.run.ranked),
            "referents": [Referent(words=words, names=names)
                          for words, names in resolution.referents]})
        return dataclasses.replace(result, output=stated)


def librarian_reader(context: ReaderContext) -> Reader:
    """The registry's factory for `model.provider = "offline"`: the librarian of the world."""
    return reader_of(librarian_of(context))


def librarian_of(context: ReaderContext) -> Librarian:
    """The librarian of the context's world: the open world's one (it keeps the world's names,
    term statistics and text between conversations), else one of its own."""
    retriever = context.retriever
    if retriever is None:
        raise ConfigError("the offline librarian reads one world, and none was given",
                          where="model.provider",
                          hint="open a world first (lore ask --world NAME), or pick a model "
                               "provider that needs no world to be built")
    if context.open_world is None:
        return Librarian(retriever)
    return context.open_world.shared("librarian", lambda: Librarian(retriever))


def reader_of(librarian: Librarian) -> Reader:
    """The librarian as the agent runs it: its side of each run, and the model the agent names
    (every request of a run is answered by the librarian bound to that run instead)."""
    return Reader(_unbound(), [LibrarianTurn(librarian)])


def _unbound() -> Model:
    from pydantic_ai.exceptions import UserError
    from pydantic_ai.models.function import FunctionModel

    def outside_a_run(*_: Any) -> Any:
        raise UserError("the librarian answers only within a run its LibrarianTurn capability "
                        "started (agent.librarian.reader.reader_of)")

    async def streamed_outside_a_run(*_: Any) -> AsyncIterator[str]:
        outside_a_run()
        yield ""

    return FunctionModel(outside_a_run, stream_function=streamed_outside_a_run,
                         model_name=MODEL_NAME)
