"""What the agent's tools reach through `ctx.deps`: the world's retriever and the session."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from agent.retrieval import Retriever
from agent.schemas import Memory, Passage
from agent.stack import Resolution
from sessions.records import StackEntry, Turn


class SessionMemory(Protocol):
    """The conversation's memory as the tools see it (sessions/ provides it)."""

    def recall(self, query: str, deep: bool = False, limit: int = 5) -> list[Memory]: ...

    def stack(self) -> list[str]:
        """Canonical names of the entities talked about, most recent first."""


@dataclass
class ToolCall:
    """A tool call as it happened, for `--json`, the TUI's steps and the evaluation."""

    tool: str
    args: dict[str, Any]
    summary: str = ""
    """One line for the user: 'searching 玄德 …', 'graph: 刘备 ⇄ 诸葛亮'."""


@dataclass
class LoreDeps:
    """Handles the tools need; built once per question by the caller."""

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
    resolution: Resolution | None = None
    """The question made explicit, when the reader makes it so before it answers (the
    librarian, by its rules); a language model states it in its answer instead."""
    evidence: list[Passage] | None = None
    """The reader's own ranking of what it read, best first, when it makes one (the librarian
    does); otherwise `ask` ranks the passages the tools returned."""
    calls: list[ToolCall] = field(default_factory=list)
    seen: dict[str, Any] = field(default_factory=dict)
    """Passages returned by tools during this run, by chunk id (citations must point at them)."""
    recalled: list[str] = field(default_factory=list)
    """What `recall_session` gave during this run (summaries, plots): an answer about the
    conversation states what these hold, which no passage needs to."""
    on_step: Any = None
    """Optional callback(ToolCall) so the terminal app can show steps as they happen."""
    on_text: Any = None
    """Optional callback(Draft) with the answer so far while it streams (agent.streaming)."""
