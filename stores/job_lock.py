"""One job of a kind per world at a time, across processes: a lock file that the kernel holds
(`flock`), so a holder killed in any way (kill -9, a closed terminal) lets it go at once and no
stale lock is ever left to clear by hand.

The e5 pass (stores/upgrade.py) takes it: `lore ingest`, `lore vectors` and the app's
background child each compute a world's vectors, and two of them at once computed every vector
twice at half the speed. The lock file holds the holder's pid, for the one that waits to say
whom it follows. Lock files live in `<data dir>/locks/`, apart from the world's folder, which a
repair may delete and remake while the lock is held. No Textual here.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType

from stores.errors import StoreError


class JobLock:
    """An exclusive lock on `path`, taken without waiting (`acquire`) and released on `release`
    or when the process ends."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def acquire(self) -> bool:
        """Take the lock now if no other process holds it; True when this one holds it."""
        if self._fd is not None:
            return True
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # never through a symlink planted at the lock's place: it would truncate its target
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        except OSError as exc:
            raise StoreError(f"cannot open the job lock: {exc.strerror or exc}", where=self.path,
                             hint=f"make {self.path.parent} a writable folder (a symlink or "
                                  "file at the lock's place: remove it), then run the same "
                                  "command again") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._fd = fd
        return True

    def holder(self) -> str:
        """Who holds the lock, as "pid N" ("another process" when it cannot be read)."""
        try:
            pid = self.path.read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            pid = ""
        return f"pid {pid}" if pid.isdigit() else "another process"

    def release(self) -> None:
        """Let the lock go (the file stays: removing it could split waiters over two files)."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)  # closing the last descriptor releases the flock

    def __enter__(self) -> JobLock:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.release()


def e5_lock(data_dir: Path, world: str) -> JobLock:
    """The lock of `world`'s e5 pass in the data dir `data_dir`."""
    return JobLock(data_dir / "locks" / f"{world}.e5.lock")
