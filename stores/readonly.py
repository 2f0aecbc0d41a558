"""Reading a data folder that cannot be written (a read-only mount, a folder without write
permission): the databases open read-only, so listing worlds, sessions, entities and timelines
and `lore doctor` work there, and only a command that must write says it cannot."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from urllib.parse import quote

from stores.errors import StoreError


def cannot_write(folder: Path) -> bool:
    """Whether `folder` exists and cannot be written by this process."""
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return True
    except OSError:
        return False
    return not os.access(folder, os.W_OK)


def connect_read_only(path: Path, timeout_s: float) -> sqlite3.Connection:
    """A connection that never writes, not even SQLite's -shm index: `immutable` is safe here
    because nobody can write a folder this process cannot write either (root aside)."""
    uri = f"file:{quote(str(path.resolve()))}?mode=ro&immutable=1"
    return sqlite3.connect(uri, uri=True, timeout=timeout_s, isolation_level=None,
                           check_same_thread=False)


def read_only_error(path: Path, what: str) -> StoreError:
    """The store at `path` must write to open and its folder cannot be written: not damage."""
    return StoreError(f"the {what} cannot be opened: its folder is read-only (it writes a lock "
                      "and log on opening)", where=path,
                      hint="make the data folder writable (or copy it to a writable disk and "
                           "point --data-dir / LORE_HOME there); nothing needs rebuilding")
