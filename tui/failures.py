"""Failures of the machine rather than of the input — a full disk, a read-only or forbidden
data folder, Ctrl+C — turned into one clear message that names the data dir and what to do.

They come from deep inside the stores as whatever the library raises (sqlite3's "database or
disk is full" from the catalog or Qdrant's local mode, an OSError from the graph or BM25
writer, a RuntimeError wrapping one), so the whole chain of causes is searched.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from stores.errors import LoreError, StoreError

INTERRUPTED_EXIT = 130
"""What a shell reports for a command ended by Ctrl+C (128 + SIGINT)."""

_KINDS = (
    ("full", (errno.ENOSPC, errno.EDQUOT), ("database or disk is full", "no space left on device",
                                            "disk quota exceeded")),
    ("read-only", (errno.EROFS,), ("read-only file system", "attempt to write a readonly database")),
    ("forbidden", (errno.EACCES, errno.EPERM), ("permission denied",)),
)


class Interrupted(LoreError):
    """Ctrl+C: everything written so far is kept; the message says how to carry on."""

    exit_code = INTERRUPTED_EXIT


def _chain(exc: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        yield exc
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]


def _kind(exc: BaseException) -> tuple[str, BaseException] | None:
    for link in _chain(exc):
        code = getattr(link, "errno", None) if isinstance(link, OSError) else None
        text = str(link).lower()
        for kind, codes, phrases in _KINDS:
            if code in codes or (isinstance(link, OSError | sqlite3.Error | RuntimeError)
                                 and any(p in text for p in phrases)):
                return kind, link
    return None


def machine_error(exc: BaseException, data_dir: Path | None) -> StoreError | None:
    """A StoreError saying what happened to the data dir and what to do; None when `exc` is
    not a full, read-only or forbidden filesystem (then it is a bug and keeps its traceback)."""
    if (locked := _locked(exc, data_dir)) is not None:
        return locked
    found = _kind(exc)
    if found is None:
        return None
    kind, cause = found
    where = data_dir or getattr(cause, "filename", None) or "the data folder"
    detail = str(cause).splitlines()[0] if str(cause) else type(cause).__name__
    again = ("then run the same command again: it resumes where it stopped, and everything "
             "stored before is kept")
    elsewhere = "or point --data-dir / LORE_HOME at a folder on another disk"
    if kind == "full":
        return StoreError(f"the disk holding the data folder is full ({detail})", where=where,
                          hint=f"free some space (df -h {where}) {elsewhere}; {again}")
    if kind == "read-only":
        return StoreError(f"the data folder is on a read-only filesystem ({detail})",
                          where=where, hint=f"remount it writable {elsewhere}; {again}")
    return StoreError(f"no permission to write in the data folder ({detail})", where=where,
                      hint=f"give your user write access (ls -ld {where}) {elsewhere}; {again}")


def _locked(exc: BaseException, data_dir: Path | None) -> StoreError | None:
    """SQLite's "database is locked" from the catalog (the session store says its own): another
    process kept it busy past the wait, which is no fault of the data."""
    from stores.catalog import BUSY_TIMEOUT_S
    from stores.errors import is_locked

    cause = next((link for link in _chain(exc) if is_locked(link)), None)
    if cause is None:
        return None
    where = (data_dir / "catalog.db") if data_dir is not None else "catalog.db"
    return StoreError(f"the catalog is locked by another process ({cause})", where=where,
                      hint=f"another lore (or a program with the file open) kept it busy for "
                           f"over {BUSY_TIMEOUT_S} s: let it finish or close it, then run the "
                           "same command again; it resumes where it stopped and nothing is lost")


def with_disk_state(error: LoreError, data_dir: Path | None) -> LoreError:
    """A store's own error, with what the filesystem says about the data dir added: a store
    that cannot open its file often cannot tell that the disk is read-only or full."""
    if not isinstance(error, StoreError) or data_dir is None or "data folder is full" in error.message:
        return error
    try:
        fs = os.statvfs(data_dir)
    except OSError:
        return error
    if fs.f_flag & os.ST_RDONLY:
        state = f"{data_dir} is on a read-only filesystem: remount it writable or choose another --data-dir"
    elif fs.f_bavail * fs.f_frsize < 1 << 20:
        state = f"the disk holding {data_dir} is full: free some space (df -h {data_dir})"
    else:
        return error
    if state.split(":")[0] not in error.hint:
        error.hint = f"{state}; {error.hint}" if error.hint else state
    return error
