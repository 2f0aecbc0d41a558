"""What the screen shows when a worker ends: the one place the workers' outcomes (and their
errors) are handled. Mixed into LoreApp, beside its workers (tui/workers.py) and actions."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from textual.worker import Worker, WorkerState

from stores.errors import LoreError
from tui.host import AppHost
from tui.screens.welcome import WelcomeScreen


class WorkerOutcomes(AppHost):
    """The handler of `Worker.StateChanged` (by name, so Textual finds it on a mixin) and the
    outcomes of opening a world, warming it and answering; `self` is the app."""

    if TYPE_CHECKING:
        warming: bool
        ingesting: bool
        _opening: tuple[Any, str, float] | None
        _warm_worker: Worker[None] | None
        _answer_view: Any

        def _log_error(self, error: BaseException | None, summary: str = "") -> str: ...

        def _show_session(self, first_question: str = "") -> None: ...

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A worker ended: what it leaves on screen, and its error reported (the one place)."""
        worker, state = event.worker, event.state
        if state not in (WorkerState.SUCCESS, WorkerState.ERROR, WorkerState.CANCELLED):
            return
        if worker.group == "answer":
            self._answer_ended(state, worker.error)
        elif worker.group == "open":
            if self._opening is None or worker is not self._opening[0]:
                return  # superseded by a newer open (Ctrl+G meanwhile): that one reports
            self._open_ended(state, worker.error)
        elif worker.group == "warm" and state == WorkerState.ERROR:
            if worker is self._warm_worker:
                self._warm_failed(worker.error)
        elif worker.group == "ingest":
            self.ingesting = False
            if state == WorkerState.ERROR and isinstance(self.screen, WelcomeScreen):
                self.screen.show_failed()
        if state == WorkerState.ERROR and worker.error is not None:
            self.report_error(worker.error)

    def _open_ended(self, state: WorkerState, error: BaseException | None) -> None:
        """The world opened, or the reason it did not stays on screen and in the log."""
        self.opening = False
        if state == WorkerState.SUCCESS:
            if not self.warming:
                self._opening = None
            return
        self._open_failed(state, error)

    def _warm_failed(self, error: BaseException | None) -> None:
        """The world's indexes would not load: it is closed again, with the reason on screen."""
        self.warming, conversation, self.conversation = False, self.conversation, None
        if conversation is not None:
            conversation.close()
        self.main.chat.set_examples([])
        self.call_next(self.main.chat.clear_turns)
        self._open_failed(WorkerState.ERROR, error)

    def _open_failed(self, state: WorkerState, error: BaseException | None) -> None:
        _, world, started = self._opening or (None, "the world", time.monotonic())
        self._opening = None
        self.main.status.activity = ""
        if state == WorkerState.CANCELLED or error is None:
            reason = "opening was stopped"
        elif isinstance(error, LoreError):
            reason = f"{error.where}: {error.message}" if error.where else error.message
            reason += f"\n→ {error.hint}" if error.hint else ""
        else:
            reason = f"{type(error).__name__}: {error}"
        log = self._log_error(error, f"could not open {world} after "
                                     f"{time.monotonic() - started:.0f} s: {reason}")
        if self.conversation is None:
            self.main.chat.set_hint(f"Could not open {world}: {reason}\n(also in {log})\n"
                                    "Press Ctrl+G to pick a world or to try again.")

    def _answer_ended(self, state: WorkerState, error: BaseException | None) -> None:
        self.answering = False
        self.main.status.activity = ""
        view, self._answer_view = self._answer_view, None
        if view is None or state == WorkerState.SUCCESS:
            return
        if state == WorkerState.CANCELLED:
            view.show_ended("cancelled")
        else:
            view.show_ended("failed", getattr(error, "message", str(error)))
        self._show_session()
