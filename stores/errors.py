"""User-facing errors: each names the file, line or setting at fault and what to do."""

from __future__ import annotations

from pathlib import Path


class LoreError(Exception):
    """An error the user can act on. The CLI prints it without a traceback and exits non-zero.

    `where` is the file (and line) or setting at fault; `hint` says what to do about it.
    """

    exit_code = 2

    def __init__(self, message: str, *, where: str | Path | None = None, hint: str = "") -> None:
        self.message = message
        self.where = str(where) if where is not None else ""
        self.hint = hint
        super().__init__(self.render())

    def render(self) -> str:
        from stores.models import shown_path  # a file's name may hold a newline

        head = f"{shown_path(self.where)}: {self.message}" if self.where else self.message
        return f"{head}\n  → {self.hint}" if self.hint else head


class InputError(LoreError):
    """A corpus, glossary or question file that cannot be read as what it claims to be."""


class ConfigError(LoreError):
    """A bad setting in config.toml, the environment or the command line."""


class StoreError(LoreError):
    """A store that cannot be opened or written (locked, unwritable, unreachable)."""

    exit_code = 3


class IndexDamaged(StoreError):
    """An index file that exists but cannot be read as the index it should be (truncated,
    overwritten, half-written). The catalog holds everything it was built from, so the fix is
    always to rebuild it from there (stores/repair.py), never to delete it by hand."""


REPAIR_HINT = ("rebuild the indexes from the catalog: lore doctor --repair (or lore ingest "
               "--rebuild --world NAME); the passages and sessions are kept")
"""The one advice for a damaged index: both commands work without the corpus files."""


class StoreHeld(StoreError):
    """An embedded store another process holds (Qdrant's folder lock): readers can read the
    same data another way; writers wait until that process is done."""


def is_locked(exc: BaseException) -> bool:
    """Whether `exc` is SQLite saying another process holds the file locked (past the busy
    timeout): the file is in use, not damaged, and the fix is to wait, never to move it."""
    import sqlite3

    text = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


def at_line(path: str | Path, line: int | None = None) -> str:
    """Render `path:line` the way editors and compilers do."""
    return f"{path}:{line}" if line else str(path)


_FULL_PHRASES = ("database or disk is full", "no space left on device", "disk quota exceeded")
LOW_SPACE = 1 << 20
"""Below this many free bytes, SQLite's vague "disk I/O error" means the disk is full."""


def disk_full(exc: BaseException, folder: str | Path) -> StoreError | None:
    """A StoreError saying the disk is full when `exc` (or what caused it) says so, or is an
    I/O error while the disk holding `folder` has under 1 MB free; None otherwise. A store that
    cannot be opened for want of space is not damaged, and must never be advised away."""
    import errno
    import os
    import shutil

    link: BaseException | None = exc
    texts: list[str] = []
    while link is not None and len(texts) < 10:
        if isinstance(link, OSError) and link.errno in (errno.ENOSPC, errno.EDQUOT):
            texts.append("no space left on device")
        texts.append(str(link).lower())
        link = link.__cause__ or link.__context__
    said = any(p in t for t in texts for p in _FULL_PHRASES)
    if not said and any("disk i/o error" in t or "i/o error" in t for t in texts):
        probe = Path(folder)
        while not probe.exists() and probe != probe.parent:
            probe = probe.parent
        try:
            said = shutil.disk_usage(probe).free < LOW_SPACE
        except OSError:
            said = False
    if not said:
        return None
    where = os.fspath(folder)
    return StoreError(f"the disk holding the data folder is full "
                      f"({(str(exc).splitlines() or ['?'])[0][:120]})",
                      where=where, hint=f"free some space (df -h {where}), or move the data "
                      "folder to a larger disk (--data-dir / LORE_HOME); nothing needs "
                      "rebuilding: run the same command again once there is room")
