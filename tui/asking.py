"""A question from the moment it is sent until its answer has ended: one at a time, one kept
while the world is still opening and sent once it is warm, Esc cancels it (saved as
cancelled), and the worker's end says on screen how it ended.

`Asking` is an object the app holds (`app.asking`); the app's message handlers, which Textual
routes to the app, hand it what they hear. It sees the app as an `Asker`: what it reads of it."""

from __future__ import annotations

import asyncio
from contextlib import suppress
from typing import TYPE_CHECKING, Protocol

from textual.worker import WorkerState

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel
    from textual.worker_manager import WorkerManager

    from agent.conversation.session import Conversation
    from tui.opening import OpenState
    from tui.screens.main import MainScreen
    from tui.settings import AppSettings
    from tui.workers import Workers

QUIT_WAIT_S = 5.0
"""How long quitting waits for a cancelled answer to be saved as cancelled."""


class Asker(Protocol):
    """What asking reads of the app: its conversation, the open under way, its settings, its
    workers and its main screen, and how it tells the user."""

    conversation: Conversation | None
    open_state: OpenState
    settings: AppSettings
    jobs: Workers

    @property
    def main(self) -> MainScreen: ...

    @property
    def workers(self) -> WorkerManager: ...

    def notify(self, message: str, *, severity: SeverityLevel = ..., markup: bool = ...) -> None: ...


class Asking:
    """Whether an answer is being built (`answering`) and the question waiting for the world
    to open (`queued`)."""

    def __init__(self, app: Asker) -> None:
        self.app = app
        self.answering = False
        self.queued: str | None = None

    async def submit(self, text: str) -> bool:
        """Ask `text`; False (and a notification) when it cannot be asked now."""
        app = self.app
        if self.answering:
            app.notify("An answer is being built: wait for it, or press Esc to cancel it.",
                       severity="warning")
            return False
        if app.conversation is None or app.open_state.busy:
            if not app.open_state.busy:
                app.notify("No world is open.\n→ press Ctrl+G to pick one", severity="error",
                           markup=False)
                return False
            self.queued = text
            app.notify("The world is still loading; your question goes out as soon as it is "
                       "ready.")
            return True
        self.answering = True
        await app.main.start_answer(text, app.settings.model.max_answer_chars)
        app.main.show_status(activity="answering… Esc cancels")
        app.jobs.ask(app.conversation, text)
        return True

    async def send_queued(self) -> None:
        """The world is warm: the question typed while it opened goes out now."""
        if self.queued:
            question, self.queued = self.queued, None
            await self.submit(question)

    async def cancel(self, wait: bool = False) -> bool:
        """Cancel the running answer (it is saved as cancelled); False if none was running.
        `wait`: until its worker has ended (quitting), QUIT_WAIT_S at most."""
        running = [w for w in self.app.workers if w.group == "answer" and not w.is_finished]
        for worker in running:
            worker.cancel()
        if wait:
            for worker in running:
                with suppress(Exception):  # cancelled, failed or too slow: quit regardless
                    await asyncio.wait_for(worker.wait(), QUIT_WAIT_S)
        return bool(running)

    def ended(self, state: WorkerState, error: BaseException | None) -> bool:
        """The answer's worker ended: the status clears and the answer pane says how it ended.
        True when the session's turn count changed on screen (a failed or cancelled turn)."""
        self.answering = False
        main = self.app.main
        main.show_status(activity="")
        if state == WorkerState.SUCCESS:
            main.answer_ended("")
            return False
        status = "cancelled" if state == WorkerState.CANCELLED else "failed"
        reason = "" if status == "cancelled" else getattr(error, "message", str(error))
        return bool(main.answer_ended(status, reason))
