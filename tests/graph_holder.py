"""Another process holding a world's embedded graph database open, as a second Lorekeeper does."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def graph_held(path: Path) -> Iterator[int]:
    """Hold the ladybug database at `path` open in another process until the block ends; gives
    that process's id."""
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import sys, ladybug
            db = ladybug.Database({str(path)!r}, buffer_pool_size=32 << 20)
            print("ready", flush=True)
            sys.stdin.read()
        """)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        yield holder.pid
    finally:
        holder.communicate("", timeout=30)
