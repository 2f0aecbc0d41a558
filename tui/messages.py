"""App-wide messages: what the workers report back to the app, and what the screens ask of it
(widgets' and screens' own messages are nested classes on them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from agent.answer.streaming import Draft
    from agent.conversation.session import Conversation, TurnResult
    from agent.schemas import Answer, Passage, TimelineEvent
    from agent.tools.findings import ToolCall
    from sessions.records import StackEntry, Turn
    from stores.errors import LoreError
    from tui.onboarding import Introduction
    from tui.state import WorldInfo


@dataclass
class ConversationOpened(Message):
    """A world's conversation is open: its turns, stack and tracked timeline are loaded."""

    conversation: Conversation
    info: WorldInfo
    turns: list[Turn]
    """In order."""
    stack: list[StackEntry]
    """Most recent first."""
    timeline: list[TimelineEvent]
    intro: Introduction | None = None
    """What the empty chat says of the world."""


@dataclass
class WorldWarm(Message):
    """The open world's indexes, embedder and model are loaded: questions can go out."""

    conversation: Conversation
    model_error: LoreError | None = None
    """Why the model could not be built: the world stays open for reading, and asking says
    why too."""
    vectors_due: bool = False
    """The world searches with its fast index until its e5 vectors are computed (tui/vector_job.py)."""


@dataclass
class SessionChanged(Message):
    """Another process ended turns of the open session (tui/session_sync.py)."""

    conversation: Conversation
    turns: list[Turn]
    """Every ended turn, in order."""
    stack: list[StackEntry]
    """Most recent first."""
    states: list[tuple[str, str]]
    """(id, status) of those turns."""


@dataclass
class VectorsStatus(Message):
    """How far the open world's e5 vectors are ("" once it searches with them)."""

    line: str


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

    draft: Draft


@dataclass
class AnswerReady(Message):
    """The running answer is done and saved."""

    result: TurnResult


@dataclass
class TimelineReady(Message):
    """The tracked entity's appearances in story order."""

    entity: str
    events: list[TimelineEvent]
    stack: list[StackEntry]
    """The entity stack, read with the timeline (off the event loop), to show it tracked."""
    followed: bool = False
    """Tracked because the conversation moved to it, not by the reader's hand."""


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
    """A timeline, session or picture was written to a file."""

    what: str
    path: str
    note: str = ""
    """What the reader should know of the file (a PNG's names drawn without their font)."""


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


@dataclass
class SessionEdited(Message):
    """A session was renamed or deleted (from the session picker)."""

    op: str
    """"rename" or "delete"."""
    session_id: str


@dataclass
class OpenRequested(Message):
    """Open this world (None: the last one used), at a session or a new one."""

    world: str | None
    session_id: str | None = None
    new: bool = False


@dataclass
class DemoRequested(Message):
    """Ingest the bundled demo world, then open it."""


@dataclass
class HorizonRequested(Message):
    """Move the session's spoiler horizon to this chapter (0 = no limit)."""

    chapter: int


@dataclass
class ExportRequested(Message):
    """Write the tracked entity's timeline, the session, a relations map or a presence chart
    to a file."""

    kind: str
    """"timeline", "session", "map" or "chart"."""
    fmt: str
    """"md", "json", "csv", "svg", "png", "dot" or "mermaid" (tui.exports names each kind's)."""
    entities: tuple[str, ...] = ()
    """Whose map or chart (none: the tracked entity's)."""
    hops: int = 1
    """A map's hops."""


@dataclass
class MapRequested(Message):
    """Show this entity's relations map (from the main screen, the entity stack, the timeline)."""

    entity: str


@dataclass
class ChartRequested(Message):
    """Show the presence chart, with this entity picked (None: the tracked one, if any)."""

    entity: str | None = None


@dataclass
class PassageRequested(Message):
    """Open a passage in the passage view, scrolled to `quote` (from the map and the chart)."""

    chunk_id: str
    quote: str = ""


@dataclass
class ErrorRaised(Message):
    """An error to show the user (the app reports every error in one place)."""

    error: LoreError


@dataclass
class TerminalGone(Message):
    """The app's terminal went away (hung up, its input ended, an I/O error on it) or the app
    was told to end (SIGHUP, SIGTERM): it quits as on Ctrl+Q, with no one left to see it."""

    why: str
    """How it went ("a hang-up signal", "the end of its input" …), for the log."""
