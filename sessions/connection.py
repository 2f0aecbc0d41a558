"""Opening the session database, and SQLite's errors translated into StoreErrors."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from sqlite_utils import Database

from stores.errors import StoreError
from stores.readonly import cannot_write, connect_read_only


def open_database(path: Path, timeout_s: float) -> Database:
    """Connect with WAL, a busy timeout and NORMAL sync; StoreError if the file is unusable."""
    created = False
    if str(path) != ":memory:" and path.is_file() and cannot_write(path.parent):
        # a read-only data folder: sessions can be listed, shown and exported; a write fails
        # with "attempt to write a readonly database", which operational_error explains
        return Database(connect_read_only(path, timeout_s), execute_plugins=False)
    if str(path) != ":memory:":
        created = not path.exists()
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as exc:
            raise StoreError(f"cannot create the folder for the session database: {exc.strerror}",
                             where=path.parent,
                             hint="set --data-dir or LORE_HOME to a folder you can write") from None
        if path.is_dir():
            raise StoreError("the session database path is a folder", where=path,
                             hint="move that folder aside or set --data-dir / LORE_HOME elsewhere")
    try:
        # check_same_thread=False: the app calls the store from worker threads; the store's
        # lock keeps one thread at a time on the connection.
        conn = sqlite3.connect(str(path), timeout=timeout_s, check_same_thread=False)
    except sqlite3.Error as exc:
        raise operational_error(exc, path, timeout_s) from None
    if created:
        _make_private(path)
    try:
        db = Database(conn, execute_plugins=False)
        db.execute(f"PRAGMA busy_timeout = {int(timeout_s * 1000)}")
        _switch_to_wal(db, timeout_s)  # reads the header: fails here for a non-database
        db.execute("PRAGMA synchronous = NORMAL")  # with WAL: a power cut may lose the last commits, never corrupts
        db.execute("PRAGMA foreign_keys = ON")
    except sqlite3.OperationalError as exc:
        conn.close()
        raise operational_error(exc, path, timeout_s) from None
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise corrupt_error(exc, path) from None
    return db


def _make_private(path: Path) -> None:
    """A new session database is readable by its owner only, whatever the umask: it holds the
    user's conversations. (SQLite gives the -wal and -shm files the same mode.)"""
    try:
        path.touch(mode=0o600)
        path.chmod(0o600)
    except OSError:  # a filesystem without modes (FAT, some mounts): nothing to protect there
        pass


def _switch_to_wal(db: Database, timeout_s: float) -> None:
    """Turn on WAL. Two processes opening a fresh file at once both try to switch, and SQLite
    answers the loser "database is locked" at once instead of calling the busy handler (seen
    in tests/sessions/test_processes.py on a loaded machine), so the switch is retried until
    the busy timeout runs out."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(0.02)


def operational_error(exc: sqlite3.Error, path: Path, timeout_s: float) -> StoreError:
    """A StoreError for a locked, full, unwritable or unreadable database file."""
    text = str(exc)
    if "locked" in text or "busy" in text:
        return StoreError(
            f"the session database is locked by another process ({text})", where=path,
            hint=f"another `lore` kept it busy for over {timeout_s:g} s: wait for it or close it, "
                 "then retry",
        )
    if "disk is full" in text or "disk I/O" in text:
        return StoreError(f"cannot write the session database: {text}", where=path,
                          hint="free some disk space, or set --data-dir / LORE_HOME elsewhere")
    if "readonly" in text or "unable to open" in text:
        return StoreError(
            f"cannot open the session database for writing: {text}", where=path,
            hint="check the permissions of the file and its folder, or set --data-dir / "
                 "LORE_HOME to a folder you can write",
        )
    if "malformed" in text or "not a database" in text:
        return corrupt_error(exc, path)
    return StoreError(f"session database error: {text}", where=path,
                      hint="run `lore doctor`; if it persists, move the file aside")


def corrupt_error(exc: sqlite3.Error, path: Path) -> StoreError:
    """A StoreError for a file that is not SQLite, or is corrupt."""
    return StoreError(
        f"not a SQLite database, or a corrupt one ({exc})", where=path,
        hint="move the file aside (lore then starts a new session database) or restore it "
             "from a backup",
    )
