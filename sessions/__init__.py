"""The session store: conversations that carry over between runs (SQLite via sqlite-utils).

No Textual and no model calls here. `SessionStore(settings.sessions_path)` is the entry point.
"""

from sessions.records import Plot, Session, StackEntry, Summary, Turn, TurnStatus
from sessions.scrub import scrub
from sessions.store import NotFoundError, SessionStore

__all__ = [
    "NotFoundError",
    "Plot",
    "Session",
    "SessionStore",
    "StackEntry",
    "Summary",
    "Turn",
    "TurnStatus",
    "scrub",
]
