"""The session store: conversations, turns, the entity stack and memory, in one SQLite file.

Several processes may share the file (two terminals on the same data dir): WAL lets readers
run beside a writer, `busy_timeout` makes writers queue, and every write is one short
`BEGIN IMMEDIATE` transaction, so a crash (even kill -9) leaves each turn either pending or
fully answered with its stack rows. Everything written goes through `scrub` first.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sessions.connection import corrupt_error, open_database, operational_error
from sessions.liveness import LEGACY_STALE_S, is_running, this_process
from sessions.memory_tables import MemoryTables
from sessions.memory_tables import dump as _dump
from sessions.migrations import migrate
from sessions.records import Session, StackEntry, Turn, new_id, now
from sessions.scrub import scrub
from sessions.version import refuse_newer
from stores.errors import LoreError

_SESSION_SQL = """SELECT s.*, (SELECT count(*) FROM turns t WHERE t.session_id = s.id) AS turn_count
FROM sessions s"""
_ENDED = ("failed", "cancelled")


class NotFoundError(LoreError):
    """A session or turn id that is not in the session database."""


class SessionStore(MemoryTables):
    """All sessions of one data dir, in the SQLite file at `path`.

    `timeout_s` is how long a write waits for another process's write before giving up with
    a StoreError. One store may be shared by threads: calls are serialised by a lock.
    """

    def __init__(self, path: Path | str, *, timeout_s: float = 10.0) -> None:
        self.path = Path(path)
        self.timeout_s = timeout_s
        self._lock = threading.RLock()
        self.db = open_database(self.path, timeout_s)
        try:
            with self._guard():
                refuse_newer(self.db, self.path)
                migrate(self.db)
        except BaseException:
            self.db.close()
            raise

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self.db.close()

    def __enter__(self) -> SessionStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"SessionStore({str(self.path)!r})"

    # ----------------------------------------------------------------- sessions

    def create_session(self, world: str, title: str = "") -> Session:
        """Start a new, empty session about `world`."""
        t = now()
        row = {"id": new_id(), "world": world, "title": scrub(title), "created": t, "updated": t,
               "spoiler_horizon": None, "tracked_entity": None}
        with self._write():
            self.db.table("sessions").insert({**row, "activity": self._next_activity()})
        return Session(**row)

    def get_session(self, session_id: str) -> Session | None:
        """The session with this id, or None."""
        rows = self._rows(f"{_SESSION_SQL} WHERE s.id = ?", [session_id])
        return Session(**rows[0]) if rows else None

    def last_session(self, world: str) -> Session | None:
        """The session of `world` with the most recent activity (the one `lore` resumes)."""
        rows = self._rows(
            f"{_SESSION_SQL} WHERE s.world = ? ORDER BY s.activity DESC, s.id DESC LIMIT 1", [world]
        )
        return Session(**rows[0]) if rows else None

    def resumed(self, session_id: str) -> None:
        """The session was opened to go on with: it comes after every other in the activity
        order, so the app starts in it next time and a world's default is its world (a newcomer
        switched to another world's session, quit, and the app came back to an empty one of
        the first world). Its time of last change stays."""
        with self._write():
            self.db.execute("UPDATE sessions SET activity = ? WHERE id = ?",
                            [self._next_activity(), session_id])

    def list_sessions(self, world: str | None = None) -> list[Session]:
        """Sessions (of one world, or all), most recently active first, with turn counts."""
        where, params = ("WHERE s.world = ?", [world]) if world is not None else ("", [])
        rows = self._rows(f"{_SESSION_SQL} {where} ORDER BY s.activity DESC, s.id DESC", params)
        return [Session(**row) for row in rows]

    def rename_session(self, session_id: str, title: str) -> None:
        """Set a session's title."""
        self._update_session(session_id, title=scrub(title))

    def set_horizon(self, session_id: str, chapter: int | None) -> None:
        """Set the session's spoiler horizon: None follows the config, 0 means no limit."""
        if chapter is not None and chapter < 0:
            raise ValueError(f"spoiler horizon must be >= 0, not {chapter}")
        self._update_session(session_id, spoiler_horizon=chapter)

    def set_tracked(self, session_id: str, entity: str | None) -> None:
        """Track `entity` in this session (None stops tracking); remembered in `tracked`."""
        entity = scrub(entity) if entity else None
        with self._write():
            self._update_session(session_id, tracked_entity=entity)
            if entity:
                self.db.execute(
                    "INSERT OR IGNORE INTO tracked (session_id, entity, since) VALUES (?, ?, ?)",
                    [session_id, entity, now()],
                )

    def tracked_entities(self, session_id: str) -> list[str]:
        """Every entity ever tracked in the session, most recently first tracked first."""
        rows = self._rows(
            "SELECT entity FROM tracked WHERE session_id = ? ORDER BY since DESC", [session_id]
        )
        return [row["entity"] for row in rows]

    def delete_session(self, session_id: str) -> None:
        """Delete a session with its turns, stack, summaries, plots and tracked entities."""
        with self._write():
            # Explicit deletes, so the cascade does not depend on PRAGMA foreign_keys.
            self.db.execute(
                "DELETE FROM summary_vectors WHERE summary_id IN"
                " (SELECT id FROM summaries WHERE session_id = ?)", [session_id])
            for table in ("stack_entries", "plots", "summaries", "tracked", "turns"):
                self.db.execute(f"DELETE FROM {table} WHERE session_id = ?", [session_id])
            if self.db.execute("DELETE FROM sessions WHERE id = ?", [session_id]).rowcount == 0:
                raise self._missing("session", session_id)

    # -------------------------------------------------------------------- turns

    def begin_turn(self, session_id: str, question: str) -> Turn:
        """Save the user's question as a pending turn, before the model runs."""
        with self._write():
            self._require_session(session_id)
            n = self.db.execute(
                "SELECT coalesce(max(n), 0) + 1 FROM turns WHERE session_id = ?", [session_id]
            ).fetchone()[0]
            t = now()
            row = {"id": new_id(), "session_id": session_id, "n": n, "question": scrub(question),
                   "status": "pending", "created": t, "owner": this_process()}
            self.db.table("turns").insert(row)
            self._touch(session_id, t)
        return Turn(**row)

    def finish_turn(
        self,
        turn_id: str,
        *,
        resolved_question: str,
        answer: str,
        messages_json: str | bytes,
        citations: Sequence[Any] = (),
        tool_calls: Sequence[Any] = (),
        stack: Sequence[StackEntry] = (),
        entities: Sequence[str] = (),
    ) -> Turn:
        """Record a turn's answer, its messages and the entity stack after it, atomically.

        `messages_json` is the run's new pydantic-ai messages (`result.new_messages_json()`);
        `citations` and `tool_calls` may be pydantic models, dataclasses or dicts; `entities`
        are the canonical names the answer is about. A failed or cancelled turn may be finished
        later (re-asked); an answered one may not.
        """
        if isinstance(messages_json, bytes):
            messages_json = messages_json.decode("utf-8")
        fields = {
            "resolved_question": scrub(resolved_question),
            "answer": scrub(answer),
            "messages_json": scrub(messages_json),
            "citations_json": _dump(citations),
            "tool_calls_json": _dump(tool_calls),
            "entities_json": _dump(list(entities)),
        }
        with self._write():
            session_id, n = self._open_turn(turn_id)
            t = now()
            self.db.execute(
                "UPDATE turns SET resolved_question = :resolved_question, answer = :answer, "
                "messages_json = :messages_json, citations_json = :citations_json, "
                "tool_calls_json = :tool_calls_json, entities_json = :entities_json, "
                "status = 'answered', error = '', "
                "answered = :t WHERE id = :id",
                {**fields, "t": t, "id": turn_id},
            )
            self.db.execute(
                "DELETE FROM stack_entries WHERE session_id = ? AND turn_n = ?", [session_id, n]
            )
            self.db.table("stack_entries").insert_all(
                {"session_id": session_id, "turn_n": n, "position": i,
                 "entity": scrub(entry.entity), "referred_as": scrub(entry.referred_as),
                 "guess": int(entry.guess)}
                for i, entry in enumerate(stack)
            )
            self._touch(session_id, t)
            turn = self.get_turn(turn_id)
        assert turn is not None
        return turn

    def fail_turn(self, turn_id: str, error: str, status: str = "failed") -> None:
        """End a turn without an answer: `failed` (an error) or `cancelled` (by the user)."""
        if status not in _ENDED:
            raise ValueError(f"status must be one of {_ENDED}, not {status!r}")
        with self._write():
            self._open_turn(turn_id)
            self.db.execute(
                "UPDATE turns SET status = ?, error = ?, answered = ? WHERE id = ?",
                [status, scrub(error), now(), turn_id],
            )

    def cancel_turn(self, turn_id: str, reason: str = "cancelled by the user") -> None:
        """End a turn as cancelled by the user, even if its answer was saved a moment before
        the cancel came (Esc while the answer was being stored): the screen says cancelled,
        so does the session. The answer and the stack after it go, so the stack is the one
        before the turn and the turn never comes back as an answer."""
        with self._write():
            row = self.db.execute("SELECT session_id, n FROM turns WHERE id = ?",
                                  [turn_id]).fetchone()
            if row is None:
                raise self._missing("turn", turn_id)
            self.db.execute(
                "UPDATE turns SET status = 'cancelled', error = ?, answered = ?, answer = '', "
                "resolved_question = '', messages_json = '', citations_json = '[]', "
                "entities_json = '[]' WHERE id = ?", [scrub(reason), now(), turn_id])
            self.db.execute("DELETE FROM stack_entries WHERE session_id = ? AND turn_n = ?",
                            [row[0], row[1]])

    def get_turn(self, turn_id: str) -> Turn | None:
        """The turn with this id, or None."""
        rows = self._rows("SELECT * FROM turns WHERE id = ?", [turn_id])
        return _turn(rows[0]) if rows else None

    def turns(self, session_id: str) -> list[Turn]:
        """All turns of a session in order, whatever their status."""
        rows = self._rows("SELECT * FROM turns WHERE session_id = ? ORDER BY n", [session_id])
        return [_turn(row) for row in rows]

    def ended_turns(self, session_id: str) -> list[tuple[str, str]]:
        """(id, status) of the session's turns that have ended, in order: cheap enough to read
        every few seconds, to notice turns another process (`lore ask`) added or ended."""
        rows = self._rows("SELECT id, status FROM turns WHERE session_id = ? AND status != "
                          "'pending' ORDER BY n", [session_id])
        return [(row["id"], row["status"]) for row in rows]

    def pending_turns(self, session_id: str) -> list[Turn]:
        """Questions whose answer never came (the app died or was killed): offer to re-ask."""
        rows = self._rows(
            "SELECT * FROM turns WHERE session_id = ? AND status = 'pending' ORDER BY n",
            [session_id],
        )
        return [_turn(row) for row in rows]

    def end_stale_turns(self, session_id: str) -> list[Turn]:
        """Mark pending turns whose process is gone (killed, crashed) as failed with an
        "interrupted" error, so they do not stay pending forever; returns them."""
        cutoff = time.time() - LEGACY_STALE_S
        stale = [t for t in self.pending_turns(session_id)
                 if (not is_running(t.owner) if t.owner else t.created.timestamp() < cutoff)]
        for turn in stale:
            pid = turn.owner.split(":")[1] if ":" in turn.owner else "?"
            with self._write():
                self.db.execute(
                    "UPDATE turns SET status = 'failed', error = ?, answered = ? "
                    "WHERE id = ? AND status = 'pending'",
                    [f"interrupted: the process that asked it (pid {pid}) ended before the "
                     "answer came; ask it again", now(), turn.id])
        return stale

    def stack(self, session_id: str) -> list[StackEntry]:
        """The entity stack as of the last answered turn, most recent first."""
        rows = self._rows(
            "SELECT * FROM stack_entries WHERE session_id = :s AND turn_n = ("
            " SELECT max(n) FROM turns WHERE session_id = :s AND status = 'answered')"
            " ORDER BY position",
            {"s": session_id},
        )
        return [StackEntry(**{**row, "guess": bool(row["guess"])}) for row in rows]

    def message_history(self, session_id: str) -> list[str]:
        """The messages JSON of each answered turn, in order (to rebuild `message_history=`)."""
        rows = self._rows(
            "SELECT messages_json FROM turns WHERE session_id = ? AND status = 'answered'"
            " AND messages_json != '' ORDER BY n",
            [session_id],
        )
        return [row["messages_json"] for row in rows]

    # ---------------------------------------------------------------- internals

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Turn SQLite's errors about the file into StoreErrors that say what to do."""
        try:
            yield
        except sqlite3.OperationalError as exc:
            raise operational_error(exc, self.path, self.timeout_s) from None
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.IntegrityError | sqlite3.ProgrammingError):
                raise  # a bug in the caller, not a problem with the file
            raise corrupt_error(exc, self.path) from None

    @contextmanager
    def _write(self) -> Iterator[None]:
        """One write transaction. IMMEDIATE takes the write lock up front, so the busy
        timeout applies; a deferred BEGIN that reads first fails at once under contention."""
        with self._lock:
            if self.db.conn.in_transaction:  # nested: part of the outer transaction
                yield
                return
            with self._guard():
                self.db.conn.execute("BEGIN IMMEDIATE")
                try:
                    yield
                    self.db.conn.execute("COMMIT")
                except BaseException:
                    # Never leave a transaction open: later writes would join it silently.
                    if self.db.conn.in_transaction:
                        self.db.conn.execute("ROLLBACK")
                    raise

    def _next_activity(self) -> int:
        """The next number of the sessions' activity order (inside a write)."""
        return int(self.db.execute("SELECT coalesce(max(activity), 0) + 1 FROM sessions"
                                   ).fetchone()[0])

    def _touch(self, session_id: str, t: str) -> None:
        """The session was just active: its time, and its place after every other session's
        activity, whatever the clock says (inside a write)."""
        self.db.execute("UPDATE sessions SET updated = ?, activity = ? WHERE id = ?",
                        [t, self._next_activity(), session_id])

    def _rows(self, sql: str, params: Sequence[Any] | dict[str, Any]) -> list[dict[str, Any]]:
        with self._lock, self._guard():
            return list(self.db.query(sql, params))

    def _update_session(self, session_id: str, **fields: Any) -> None:
        sets = ", ".join(f"{name} = :{name}" for name in fields)
        with self._write():
            cursor = self.db.execute(
                f"UPDATE sessions SET {sets} WHERE id = :id", {**fields, "id": session_id}
            )
            if cursor.rowcount == 0:
                raise self._missing("session", session_id)

    def _require_session(self, session_id: str) -> None:
        if self.db.execute("SELECT 1 FROM sessions WHERE id = ?", [session_id]).fetchone() is None:
            raise self._missing("session", session_id)

    def _open_turn(self, turn_id: str) -> tuple[str, int]:
        """(session_id, n) of a turn that may still be ended; raise if it is unknown or answered."""
        row = self.db.execute(
            "SELECT session_id, n, status FROM turns WHERE id = ?", [turn_id]
        ).fetchone()
        if row is None:
            raise self._missing("turn", turn_id)
        if row[2] == "answered":
            raise ValueError(f"turn {turn_id} is already answered")
        return row[0], row[1]

    def _missing(self, kind: str, ident: str) -> NotFoundError:
        return NotFoundError(f"no {kind} with id {ident!r}", where=self.path,
                             hint="`lore sessions list` shows the sessions that exist")


def _turn(row: dict[str, Any]) -> Turn:
    citations = json.loads(row.pop("citations_json") or "[]")
    tool_calls = json.loads(row.pop("tool_calls_json") or "[]")
    entities = json.loads(row.pop("entities_json", None) or "[]")
    return Turn(**row, citations=citations, tool_calls=tool_calls, entities=entities)
