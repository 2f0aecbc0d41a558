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


class OpenState:
    """Where the app is in opening a world: `opening` while the worker builds the conversation,
    then `warming` while the world is on screen and its indexes and model load (questions wait),
    and the open under way (`current`) until it is warm or has failed. Only state: the opener
    (tui/opener.py) drives it and shows what it says; the app and asking read it."""

    def __init__(self) -> None:
        self.opening = False
        self.warming = False
        self.current: Opening | None = None
        self.warm_worker: Worker[Any] | None = None

    @property
    def busy(self) -> bool:
        """Opening or warming: a question asked now waits for the world."""
        return self.opening or self.warming

    def begin(self, worker: Worker[Any], world: str | None) -> None:
        self.opening = True
        self.current = Opening(worker, world or "the last world")

    def progress(self) -> str | None:
        """The status bar's line while busy (None: nothing to show)."""
        if self.current is None or not self.busy:
            return None
        return self.current.progress(self.warming)

    def reached(self, stage: str, world: str) -> None:
        if self.current is not None:
            self.current.stage = stage
            self.current.world = world or self.current.world

    def shown(self, warm_worker: Worker[Any]) -> None:
        """The conversation is on screen; its indexes and model load in `warm_worker`."""
        self.opening, self.warming = False, True
        self.reached("loading the passages, names, embedder, indexes and model", "")
        self.warm_worker = warm_worker

    def warm(self) -> None:
        self.warming, self.current = False, None

    def is_open_worker(self, worker: Worker[Any]) -> bool:
        """Whether the worker is the latest open's (an older one was superseded by Ctrl+G)."""
        return self.current is not None and worker is self.current.worker

    def open_succeeded(self) -> None:
        self.opening = False
        if not self.warming:
            self.current = None

    def failed(self) -> Opening:
        """The open that failed (while opening or warming), no longer under way."""
        failed = self.current or Opening(None, "the world")
        self.opening = self.warming = False
        self.current = None
        return failed
