"""What the agent's tools reach through `ctx.deps`: the turn's inputs, never written during a run.

What a run finds travels back the other way: the tools return it (agent.tools.findings), the reader
states its answer (and the librarian its ranking) in the typed `Answer`, and `agent.conversation.core.ask`
returns all of it in an `AskResult`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from agent.schemas import Memory
from agent.world.retrieval import Retriever
from sessions.records import StackEntry, Turn

if TYPE_CHECKING:
    from agent.tools.findings import ToolCall


class SessionMemory(Protocol):
    """The conversation's memory as the tools see it (sessions/ provides it)."""

    def recall(self, query: str, deep: bool = False, limit: int = 5, *,
               other_sessions: bool = False) -> list[Memory]:
        """The memories that best match `query`; `other_sessions` searches the world's other
        sessions too."""

    def stack(self) -> list[str]:
        """Canonical names of the entities talked about, most recent first."""


@dataclass(frozen=True)
class LoreDeps:
    """The inputs of one turn, made by the caller for each question."""

    retriever: Retriever
    memory: SessionMemory | None = None
    question: str = ""
    """The question as the user typed it."""
    horizon: int = 0
    """The spoiler horizon of this turn: the reader's chapter, which caps every tool's chapter
    range (0: none). It travels with the turn; the world's retriever is shared by sessions."""
    stack: list[StackEntry] = field(default_factory=list)
    """The entity stack before this turn, most recent first (read once per turn)."""
    turns: list[Turn] = field(default_factory=list)
    """The session's earlier turns, oldest first (a reader that resolves follow-ups by rule
    reads them; a language model gets them as message history instead)."""
    other_sessions: bool = False
    """The user asked to recall the world's other sessions too (recall_session searches them)."""
    on_step: Callable[[ToolCall], Any] | None = None
    """Called with each tool call as it happens, so the terminal app can show the steps."""
    on_text: Callable[[Any], Any] | None = None
    """Called with the answer so far while it streams (an agent.answer.streaming.Draft)."""
