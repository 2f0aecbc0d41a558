"""Which process a pending turn belongs to, and whether that process still runs.

A turn is saved as pending before the model runs. If the process is killed (kill -9, a crash,
a closed terminal) the turn would stay pending forever; the next process that opens the
session ends it as interrupted, but only once the process that began it is gone: another
terminal may still be answering it.
"""

from __future__ import annotations

import os
import socket
from functools import cache

LEGACY_STALE_S = 3600
"""A pending turn written before owners were recorded is taken as interrupted after this long
(no answer takes an hour: the model's total time is bounded)."""


def _start_ticks(pid: int) -> str:
    """The process's start time in clock ticks since boot ('' where /proc is missing), so a
    reused process id is not taken for the process that began the turn."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return ""


@cache
def this_process() -> str:
    """`host:pid:start` of this process, stored with every turn it begins."""
    return f"{socket.gethostname()}:{os.getpid()}:{_start_ticks(os.getpid())}"


def is_running(owner: str) -> bool:
    """Whether the process `owner` names still runs. A process on another host (a data dir on
    a network share) is taken to be running: it cannot be checked from here."""
    host, _, rest = owner.partition(":")
    pid_text, _, start = rest.partition(":")
    if host != socket.gethostname() or not pid_text.isdigit():
        return True
    pid = int(pid_text)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process with that id: not ours, but alive
        pass
    return not start or _start_ticks(pid) in ("", start)
