"""The records the session store returns: Session, Turn, StackEntry, Summary, Plot."""

from __future__ import annotations

import os
import threading
import time
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

TurnStatus = Literal["pending", "answered", "failed", "cancelled"]

_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


_last_id = [-1]  # none yet: -1 is in no millisecond (0 was 1970's first, which a clock
                 # set before 1970 gives every id)
_id_lock = threading.Lock()


def new_id() -> str:
    """A 26-character ULID: 48-bit millisecond time + 80 random bits, Crockford base32.

    Ids sort by creation time as plain strings, so `ORDER BY id` is creation order; within one
    millisecond of one process the previous id is incremented, as monotonic ULIDs do.
    """
    # a clock before 1970 counts as 1970: a negative time made every id of a process the
    # same (…0001), and the second `lore ask --new` lost its question to a UNIQUE constraint
    value = max(time.time_ns() // 1_000_000, 0) << 80 | int.from_bytes(os.urandom(10), "big")
    with _id_lock:
        if value >> 80 == _last_id[0] >> 80 or value < _last_id[0]:
            value = _last_id[0] + 1
        _last_id[0] = value
    chars = []
    for _ in range(26):
        chars.append(_CROCKFORD[value & 31])
        value >>= 5
    return "".join(reversed(chars))


def now() -> str:
    """The current UTC time as fixed-width ISO 8601, so stored times sort as strings."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


class Session(BaseModel):
    """A conversation about one world; it carries over between runs."""

    id: str
    """Sortable ULID."""
    world: str
    """The world (ingested corpus) the conversation is about."""
    title: str = ""
    """Shown in the session list; empty until the user or the app names it."""
    created: datetime
    updated: datetime
    """Time of the last answered turn or change; `last_session` picks the greatest."""
    spoiler_horizon: int | None = None
    """The reader's chapter for this session: None follows the configured default, 0 = no limit."""
    tracked_entity: str | None = None
    """The entity whose timeline the app shows, if any."""
    turn_count: int = 0
    """Turns in the session, whatever their status."""


class Turn(BaseModel):
    """One question and (once it came) its answer."""

    id: str
    session_id: str
    n: int
    """Turn number in the session, from 1."""
    question: str
    """The user's text as typed (saved before the model runs)."""
    resolved_question: str = ""
    """The question with pronouns and ellipsis resolved (他 → 刘备)."""
    answer: str = ""
    status: TurnStatus = "pending"
    """pending: asked, no answer yet (or the app died); answered; failed; cancelled."""
    error: str = ""
    """Why a failed or cancelled turn ended."""
    messages_json: str = ""
    """This turn's new pydantic-ai messages as JSON (ModelMessagesTypeAdapter)."""
    citations: list[Any] = Field(default_factory=list)
    """The answer's citations, as JSON-able dicts."""
    tool_calls: list[Any] = Field(default_factory=list)
    """The tool calls the run made, as JSON-able dicts."""
    entities: list[str] = Field(default_factory=list)
    """Canonical names of the entities the answer is about, its subject first."""
    created: datetime
    answered: datetime | None = None
    """When the turn ended (answered, failed or cancelled)."""
    owner: str = ""
    """The process that began the turn (`host:pid:start`); '' in turns older than that."""


class StackEntry(BaseModel):
    """One entity on the conversation's entity stack after a turn (most recent first).

    Pass entries to `finish_turn` with just `entity`, `referred_as` and `guess`; the store fills
    in `session_id`, `turn_n` and `position` (the index in the list given).
    """

    entity: str
    """Canonical name (刘备)."""
    referred_as: str = ""
    """How the conversation last referred to it (玄德, 他, "the count")."""
    guess: bool = False
    """The reader's likely answer, not stated: shown as a guess."""
    position: int = 0
    """0 = most recently mentioned."""
    session_id: str = ""
    turn_n: int = 0
    """The turn after which the stack looked like this."""


class Summary(BaseModel):
    """A short memory of a span of turns; `plot_id` leads to its detailed plot point."""

    id: str
    session_id: str
    from_turn: int
    to_turn: int
    text: str
    plot_id: str
    created: datetime


class Plot(BaseModel):
    """The detailed plot point behind one summary, with the passages it cited."""

    id: str
    session_id: str
    summary_id: str
    detail: str
    cited_chunks: list[str] = Field(default_factory=list)
    """Chunk ids the turns in the span cited."""
    created: datetime
