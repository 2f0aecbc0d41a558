"""Atomic file writes: a temporary file beside the target, then a rename.

Every file Lorekeeper writes outside its databases (exports, the vector index's holder note,
cached evaluation vectors) goes through here, so a process killed, a full disk or a failed
write leaves the previous file whole, never a truncated one.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO


def _umask() -> int:
    """The process's umask, read once at import (setting it to read it is not thread-safe)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_UMASK = _umask()


def keep_user_umask(mask: int) -> None:
    """The umask the user ran `lore` with, before it made its own private (tui/cli.py): a file
    the user writes out (an export) gets the permissions their other files get."""
    global _UMASK
    _UMASK = mask


def _file_mode(path: Path) -> int:
    """The permissions a write gives `path`: those it had, else a new file's (0666 less the
    user's umask). A temporary file is made owner-only: exports came out 0600 (newcomers'
    trials, twice: the second time the CLI's own umask had been read as the user's)."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        return 0o666 & ~_UMASK


@contextlib.contextmanager
def replacing(path: Path, mode: str = "w") -> Iterator[IO]:
    """A file object to write `path`'s new content to; on a clean exit it is flushed to disk and
    renamed over `path`, on any error (or kill) `path` is untouched and the temporary removed."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".partial")
    try:
        f: IO = (os.fdopen(fd, "wb") if "b" in mode else
                 os.fdopen(fd, "w", encoding="utf-8"))
        with f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, _file_mode(path))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_text(path: Path, text: str) -> None:
    """Replace `path` with `text` (UTF-8) atomically."""
    with replacing(path) as f:
        f.write(text)
