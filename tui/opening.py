"""An open under way: which world, since when and what it is doing, for the status bar (on a
loaded machine opening may take minutes: progress, not a deadline), and why it failed."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from textual.worker import Worker

from tui.reports import failure_reason, log_error


@dataclass
class Opening:
    """From the opening worker's start until the world is warm, or the open fails."""

    worker: Worker[Any] | None
    world: str
    """The world's name ("the last world" until the worker knows it)."""
    started: float = field(default_factory=time.monotonic)
    stage: str = "starting"

    def progress(self, warming: bool) -> str:
        """The status bar's line: the world, the stage and the seconds so far."""
        meanwhile = " (you can type)" if warming else ""
        return (f"opening {self.world}: {self.stage}{meanwhile}… "
                f"{time.monotonic() - self.started:.0f} s")

    def failure(self, error: BaseException | None, data_dir: Path, stopped: bool = False) -> str:
        """Why the world did not open (`stopped`, or no error: the open was stopped), written
        to the data dir's log with the error's traceback; what the chat shows."""
        reason = "opening was stopped" if stopped or error is None else failure_reason(error)
        log = log_error(data_dir, error, f"could not open {self.world} after "
                        f"{time.monotonic() - self.started:.0f} s: {reason}")
        return (f"Could not open {self.world}: {reason}\n(also in {log})\n"
                "Press Ctrl+G to pick a world or to try again.")
