"""App-wide messages: what the workers report back to the app (widgets' own messages are
nested classes on the widgets)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:
    from agent.deps import ToolCall
    from agent.schemas import Answer, Passage, TimelineEvent
    from tui.state import WorldInfo


@dataclass
class ConversationOpened(Message):
    """A world's conversation is open: its turns, stack and tracked timeline are loaded."""

    conversation: Any
    """agent.conversation.Conversation"""
    info: WorldInfo
    turns: list[Any]
    """sessions.records.Turn, in order."""
    stack: list[Any]
    """sessions.records.StackEntry, most recent first."""
    timeline: list[TimelineEvent]
    intro: Any = None
    """tui.onboarding.Introduction: what the empty chat says of the world."""


@dataclass
class WorldWarm(Message):
    """The open world's indexes, embedder and model are loaded: questions can go out."""

    conversation: Any


@dataclass
class OpenProgress(Message):
    """What the world being opened is doing now (loading the names, waiting for a lock …)."""

    world: str
    stage: str


@dataclass
class NoWorld(Message):
    """No world is ingested yet (first run): the welcome screen takes over."""


@dataclass
class AnswerStep(Message):
    """A tool call of the running answer, as it happens."""

    call: ToolCall


@dataclass
class AnswerText(Message):
    """The running answer so far, while it streams."""

    draft: Any
    """agent.streaming.Draft"""


@dataclass
class AnswerReady(Message):
    """The running answer is done and saved."""

    result: Any
    """agent.conversation.TurnResult"""


@dataclass
class TimelineReady(Message):
    """The tracked entity's appearances in story order."""

    entity: str
    events: list[TimelineEvent]


@dataclass
class PassageReady(Message):
    """The text around a cited passage, ready for the passage view."""

    passage: Passage
    quote: str = ""
    """Words to highlight (a citation's quote)."""
    core: str = ""
    """The passage's own text; the rest is context around it."""


@dataclass
class CardRequested(Message):
    """Show this entity's card (from the entity stack or the timeline)."""

    entity: str


@dataclass
class CardReady(Message):
    """An entity's card as of the session's horizon, ready for the card view."""

    entity: str
    answer: Answer
    horizon: int


@dataclass
class Exported(Message):
    """A timeline or session was written to a file."""

    what: str
    path: str


@dataclass
class HorizonChanged(Message):
    """The session's spoiler horizon changed (0 = no limit)."""

    chapter: int
    timeline: list[TimelineEvent] | None = None


@dataclass
class IngestProgress(Message):
    """Progress of the demo world's ingestion (stage, done, total)."""

    stage: str
    done: int
    total: int


@dataclass
class IngestDone(Message):
    """The demo world is ingested."""

    world: str
    summary: str
