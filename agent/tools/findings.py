"""What a run's tools found, as the tools return it.

Each tool returns its result to the model together with a `Found` (pydantic-ai's `ToolReturn`
metadata: kept in the run's messages, never sent to the model): the call as the user sees it,
the passages it returned and what the session's memory gave. A call the model must redo (a name
the world does not know) raises `ToolRetry`, whose `Found` the core puts on the retried part.
So everything a run found is in its messages, and `Findings.of` reads it back: for the checks
made during the run (citations must point at passages the tools returned, the evidence answer
when rounds or time run out, a small model's passage ids) and for `agent.conversation.core.ask` after it.
Nothing is written into the deps, which hold the turn's inputs only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from pydantic_ai import ModelRequest, ModelRetry, ToolReturnPart
from pydantic_ai.messages import ModelMessage

from agent.schemas import Passage


@dataclass
class ToolCall:
    """A tool call as it happened, for `--json`, the TUI's steps and the evaluation."""

    tool: str
    args: dict[str, Any]
    summary: str = ""
    """One line for the user: 'searching 玄德 …', 'graph: 刘备 ⇄ 诸葛亮'."""


@dataclass(frozen=True)
class Found:
    """What one tool call found (the metadata of its `ToolReturn`)."""

    call: ToolCall
    passages: tuple[Passage, ...] = ()
    """The passages it returned (a relation's evidence included), in order."""
    recalled: tuple[str, ...] = ()
    """What the session's memory gave (summaries, plots, the turns they cover): an answer
    about the conversation states what these hold, which no passage needs to."""


class ToolRetry(ModelRetry):
    """A call the model must make again (a name or passage id the world does not know), with
    what it found: the call, shown to the user and kept like any other."""

    def __init__(self, message: str, found: Found) -> None:
        super().__init__(message)
        self.found = found


@dataclass(frozen=True)
class Findings:
    """What a run's tool calls found, in the order they ran."""

    found: tuple[Found, ...] = ()

    @classmethod
    def of(cls, messages: Sequence[ModelMessage], run_id: str | None) -> Findings:
        """The findings of run `run_id` in `messages` (the tool returns of earlier runs — a
        conversation's history — are not this run's)."""
        return cls(tuple(part.metadata for message in messages
                         if isinstance(message, ModelRequest) and message.run_id == run_id
                         for part in message.parts
                         if isinstance(part, ToolReturnPart) and isinstance(part.metadata, Found)))

    @property
    def calls(self) -> list[ToolCall]:
        return [f.call for f in self.found]

    @property
    def passages(self) -> dict[str, Passage]:
        """Every passage returned, by chunk id, in the order first returned (the latest copy:
        a wider window read later stands for the passage)."""
        seen: dict[str, Passage] = {}
        for found in self.found:
            for passage in found.passages:
                seen[passage.chunk_id] = passage
        return seen

    @property
    def recalled(self) -> list[str]:
        return [text for found in self.found for text in found.recalled]


def without_findings(messages: Sequence[ModelMessage]) -> list[ModelMessage]:
    """The messages as a session keeps them: what the tools found stays with the run that found
    it (the passages are in the catalog; the next turn's history needs none of it)."""
    kept: list[ModelMessage] = []
    for message in messages:
        if isinstance(message, ModelRequest) and any(
                isinstance(p, ToolReturnPart) and p.metadata is not None for p in message.parts):
            message = replace(message, parts=[
                replace(p, metadata=None) if isinstance(p, ToolReturnPart) else p
                for p in message.parts])
        kept.append(message)
    return kept
