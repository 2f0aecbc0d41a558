"""The open world's e5 vectors, computed in the background while the user reads and asks.

A world is searchable with its fast index as soon as it is ingested; its e5 vectors follow
(stores/upgrade.py). When the app opens a world that still waits for them — the demo `make run`
prepared with `--vectors-later`, or a `lore ingest` killed during its e5 pass — it runs
`lore vectors --world W` in a child process: the engine's threads stay out of the app's, and
quitting or opening another world stops it at once (every batch is committed, so nothing is
lost or computed twice; a `lore ingest` or `lore vectors` of the same world computing them
meanwhile is followed, not repeated: stores/job_lock.py). The status line shows its progress
from the catalog, and the world searches with e5 from its first query after the switch. No
Textual here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tui.logs import open_log

STOP_WAIT_S = 5.0
"""How long a stopped child may take to end before it is killed."""


class VectorJob:
    """At most one `lore vectors` child, for the world the app has open."""

    def __init__(self, data_dir: Path, config_file: Path | None = None) -> None:
        self.data_dir = data_dir
        self.config_file = config_file
        self.world: str | None = None
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, world: str) -> None:
        """Compute `world`'s vectors in the background (a child for another world stops);
        a StoreError when its log cannot be opened safely (then no child starts)."""
        if self.world == world and self.running:
            return
        self.stop()
        command = [sys.executable, "-m", "tui", "--data-dir", str(self.data_dir)]
        if self.config_file is not None:
            command += ["--config", str(self.config_file.resolve())]
        with open_log(self.data_dir, "vectors.log") as out:  # what it printed, for the curious
            # --parent: a child whose app was killed (kill -9) stops instead of computing on
            self.process = subprocess.Popen([*command, "vectors", "--world", world,
                                             "--parent", str(os.getpid())],
                                            stdin=subprocess.DEVNULL, stdout=out, stderr=out)
        self.world = world

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def done(self) -> str | None:
        """The world whose child has ended well since the last call (it searches with e5 now),
        once; None otherwise."""
        if self.process is None or self.process.poll() != 0:
            return None
        world, self.process, self.world = self.world, None, None
        return world

    def stop(self) -> None:
        """End the child now (its committed batches stay; the next open carries on)."""
        process, self.process, self.world = self.process, None, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
