"""The Lorekeeper terminal app: opens on the last session of the world (or the welcome screen
when there is no world), and turns the workers' reports into what the panes show."""

from __future__ import annotations

import asyncio
import threading
import time
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import App
from textual.binding import Binding
from textual.worker import Worker

from tui import messages as m
from tui.actions import LoreActions
from tui.outcomes import WorkerOutcomes
from tui.palette import LoreCommands
from tui.reports import ErrorReports
from tui.screens.card import CardScreen
from tui.screens.main import MainScreen
from tui.screens.passage import PassageScreen
from tui.screens.welcome import WelcomeScreen
from tui.settings import AppSettings
from tui.state import WorldInfo, model_label, session_title, welcome_text

if TYPE_CHECKING:
    from agent.conversation import Conversation

QUIT_WAIT_S = 5.0
"""How long quitting waits for a cancelled answer to be saved as cancelled."""


class LoreApp(WorkerOutcomes, ErrorReports, LoreActions, App[None]):
    """The app. `settings` are built once by the CLI; `world` overrides the world to open."""

    TITLE = "Lorekeeper"
    CSS_PATH = Path(__file__).parent / "styles" / "app.tcss"  # absolute: subclasses live elsewhere
    COMMANDS = App.COMMANDS | {LoreCommands}
    BINDINGS = [
        Binding("ctrl+q,ctrl+c", "quit", "quit", priority=True, id="quit", key_display="^q",
                tooltip="Quit; every turn is saved, an answer still running is saved as "
                        "cancelled"),
        Binding("f1", "help", "help", id="help", tooltip="Show every key and what the panes do"),
    ]

    def __init__(self, settings: AppSettings, world: str | None = None, *,
                 store: Any = None) -> None:
        super().__init__()
        self.settings = settings
        self.requested_world = world
        self.conversation: Conversation | None = None
        self.info: WorldInfo | None = None
        self.answering = self.opening = self.ingesting = self.warming = False
        self._store = store
        self._own_store = store is None
        self._queued: str | None = None
        self._worlds: dict[str, Any] = {}  # name → OpenWorld
        """The app's world retrievers: every session of a world shares one, because the
        embedded vector store serves one client per folder."""
        self._answer_view: Any = None
        self._first_question = ""
        self.open_lock = threading.Lock()
        self._opening: tuple[Any, str, float] | None = None
        """The current open: its worker, the world's name and when it started."""
        self._open_stage = ""
        self._warm_worker: Worker[None] | None = None

    # -- lifecycle --------------------------------------------------------------------------------
    async def on_mount(self) -> None:
        from tui.keys import unknown_ids

        keymap = dict(self.settings.keymap)
        self.set_keymap(keymap)
        if unknown := unknown_ids(keymap):
            self.notify(f"[keymap] in {self.settings.config_file or 'config.toml'} names no "
                        f"binding: {', '.join(unknown)}. Press F1 for the binding ids.",
                        title="Unknown keys", severity="warning", markup=False, timeout=10)
        await self.push_screen(MainScreen())
        self.main.status.model = model_label(self.settings)
        # Progress, not a deadline: on a loaded machine opening may take minutes, and that is fine.
        self.set_interval(1.0, self._show_opening, name="opening-clock")
        self.set_interval(10.0, self.refresh_vectors, name="vectors-clock")
        self._open(self.requested_world)

    def session_store(self) -> Any:
        """The data dir's session store, opened on first use (from a worker thread)."""
        if self._store is None:
            from sessions.store import SessionStore

            self._store = SessionStore(self.settings.sessions_path)
        return self._store

    def world_for(self, world: str) -> Any:
        """The world, opened once (called from the opening worker's thread)."""
        if world not in self._worlds:
            from agent.world import OpenWorld

            self._worlds[world] = OpenWorld.open(self.settings, world)
        return self._worlds[world]

    def _close_other_worlds(self, keep: str | None) -> None:
        for world in [w for w in self._worlds if w != keep]:
            with suppress(Exception):
                self._worlds.pop(world).close()

    async def action_quit(self) -> None:
        """Quit without losing anything: a running answer is cancelled and saved as such."""
        await self.cancel_answer(wait=True)
        self._close()
        self.exit()

    def _close(self) -> None:
        if self.conversation is not None:
            with suppress(Exception):
                self.conversation.close()
            self.conversation = None
        self._close_other_worlds(keep=None)
        if self._own_store and self._store is not None:
            with suppress(Exception):
                self._store.close()
            self._store = None

    def on_unmount(self) -> None:
        self._close()

    def get_driver_class(self) -> Any:
        """Textual's driver, with pastes guarded on Linux and macOS (tui/driver.py)."""
        driver = super().get_driver_class()
        if driver.__name__ != "LinuxDriver":  # Windows, or TEXTUAL_DRIVER: left as it is
            return driver
        from tui.driver import LoreDriver

        return LoreDriver

    @property
    def main(self) -> MainScreen:
        return next(s for s in self.screen_stack if isinstance(s, MainScreen))

    # -- opening worlds and sessions --------------------------------------------------------------
    def _open(self, world: str | None, session_id: str | None = None, new: bool = False) -> None:
        self.opening = True
        self._open_stage = "starting"
        worker = self.open_world(world, session_id, new)
        self._opening = (worker, world or "the last world", time.monotonic())
        self._show_opening()

    def _show_opening(self) -> None:
        if self._opening is None or not (self.opening or self.warming):
            return
        _, world, started = self._opening
        elapsed = time.monotonic() - started
        meanwhile = " (you can type)" if self.warming else ""
        self.main.status.activity = (f"opening {world}: {self._open_stage}{meanwhile}… "
                                     f"{elapsed:.0f} s")

    @on(m.OpenProgress)
    def _open_progress(self, event: m.OpenProgress) -> None:
        self._open_stage = event.stage
        if self._opening is not None and event.world:
            self._opening = (self._opening[0], event.world, self._opening[2])
        self._show_opening()

    @on(m.NoWorld)
    def _no_world(self) -> None:
        self.main.status.activity = ""
        if not isinstance(self.screen, WelcomeScreen):
            self.push_screen(WelcomeScreen())

    @on(m.ConversationOpened)
    async def _opened(self, event: m.ConversationOpened) -> None:
        previous, self.conversation, self.info = self.conversation, event.conversation, event.info
        if previous is not None and previous is not self.conversation:
            previous.close()
        self._close_other_worlds(keep=event.info.name)
        main, conversation = self.main, self.conversation
        with self.batch_update():
            await main.chat.clear_turns()
            await main.chat.add_stored_turns(event.turns)
        # the latest turn in view, however late the answers lay out; an empty session's
        # welcome stays at the top
        main.chat.anchor(bool(event.turns))
        tracked = conversation.session.tracked_entity if event.timeline else None
        main.stack.show(event.stack, conversation.retriever.entities, tracked)
        main.show_timeline(tracked, event.timeline)
        main.chat.set_hint(welcome_text(event.info, event.intro))
        main.chat.set_examples(event.intro.examples if event.intro else [])
        main.question.placeholder = f"Ask about {event.info.name}… (Enter sends, F1 help)"
        main.question.focus()  # a new or resumed session starts at the question box
        status = main.status
        status.world, status.activity = event.info, ""
        self.refresh_vectors()
        self._show_horizon()
        self._first_question = ""
        self._show_session(event.turns[0].question if event.turns else "")
        self.sub_title = event.info.name
        # shown and typed into now; the indexes and the model load meanwhile (questions wait)
        self.opening, self.warming = False, True
        self._open_stage = "loading the passages, names, embedder, indexes and model"
        self._warm_worker = self.warm_world(conversation)
        self._show_opening()
        if event.info.state != "ready":
            self.notify(f"{event.info.name} is not fully ingested ({event.info.state}); "
                        "answers may miss passages.\n→ run the same lore ingest command again",
                        severity="warning", markup=False)

    @on(m.WorldWarm)
    async def _warmed(self, event: m.WorldWarm) -> None:
        if event.conversation is not self.conversation:
            return  # another world or session opened meanwhile: its own warm-up reports
        self.warming, self._opening = False, None
        self.main.status.activity = ""
        if self._queued:
            question, self._queued = self._queued, None
            await self.submit_question(question)

    def _show_horizon(self) -> None:
        horizon = self.talking.session.spoiler_horizon
        if horizon is None:
            horizon = self.settings.retrieval.spoiler_horizon
        self.main.status.horizon = horizon or 0

    def _show_session(self, first_question: str = "") -> None:
        if self.conversation is None:  # closing
            return
        session = self.conversation.session
        turns = len(self.main.chat.turns) + self.main.chat.hidden_turns
        if first_question or not self._first_question:
            self._first_question = first_question or next(
                (t.question for t in self.main.chat.turns), "")
        first = self._first_question
        self.main.status.session = (f"{session_title(session.title, first, 32)} · "
                                    f"{turns} turn{'s' if turns != 1 else ''}")

    def session_edited(self, op: str, session_id: str) -> None:
        if self.conversation is None or session_id != self.conversation.session.id:
            return
        if op == "delete":
            self._open(self.conversation.world)  # the world's last session, or a new one
        else:
            self.conversation.session.title = self.session_store().get_session(session_id).title
            self._show_session()

    # -- questions and answers --------------------------------------------------------------------
    async def submit_question(self, text: str) -> bool:
        """Ask `text`; False (and a notification) when it cannot be asked now."""
        if self.answering:
            self.notify("An answer is being built: wait for it, or press Esc to cancel it.",
                        severity="warning")
            return False
        if self.conversation is None or self.opening or self.warming:
            if not (self.opening or self.warming):
                self.notify("No world is open.\n→ press Ctrl+G to pick one", severity="error",
                            markup=False)
                return False
            self._queued = text
            self.notify("The world is still loading; your question goes out as soon as it is "
                        "ready.")
            return True
        self.answering = True
        self._answer_view = await self.main.chat.add_turn(
            text, limit=self.settings.model.max_answer_chars)
        self.main.status.activity = "answering… Esc cancels"
        self.ask(text)
        return True

    async def cancel_answer(self, wait: bool = False) -> bool:
        """Cancel the running answer (it is saved as cancelled); False if none was running."""
        running = [w for w in self.workers if w.group == "answer" and not w.is_finished]
        for worker in running:
            worker.cancel()
        if wait:
            for worker in running:
                with suppress(Exception):  # cancelled, failed or too slow: quit regardless
                    await asyncio.wait_for(worker.wait(), QUIT_WAIT_S)
        return bool(running)

    @on(m.AnswerStep)
    def _step(self, event: m.AnswerStep) -> None:
        if self._answer_view is not None:
            self._answer_view.add_step(event.call)

    @on(m.AnswerText)
    def _streaming(self, event: m.AnswerText) -> None:
        if self._answer_view is not None:
            self._answer_view.add_draft(event.draft)

    @on(m.AnswerReady)
    async def _answered(self, event: m.AnswerReady) -> None:
        result, view = event.result, self._answer_view
        with self.batch_update():
            if view is not None:
                await view.show_answer(result.resolved_question, result.answer.text,
                                       result.answer.citations)
                self.main.chat.anchor()  # the answer in view, after a resize too
            tracked = self.talking.session.tracked_entity
            self.main.stack.show(result.stack, self.talking.retriever.entities, tracked)
            self._show_session()

    # -- the panes' requests ----------------------------------------------------------------------
    @on(m.TimelineReady)
    def _timeline(self, event: m.TimelineReady) -> None:
        main = self.main
        main.show_timeline(event.entity, event.events)
        main.stack.show(self.talking.stack(), self.talking.retriever.entities,
                        event.entity)
        if not event.events:
            self.notify(f"No appearances of {event.entity} up to the spoiler horizon.",
                        severity="warning")

    @on(m.CardReady)
    def _card(self, event: m.CardReady) -> None:
        self.push_screen(CardScreen(event.entity, event.answer, event.horizon))

    @on(m.PassageReady)
    def _passage(self, event: m.PassageReady) -> None:
        self.main.return_focus = self.focused  # back to the list it was opened from
        self.push_screen(PassageScreen(event.passage, event.quote, event.core))

    @on(m.HorizonChanged)
    def _horizon(self, event: m.HorizonChanged) -> None:
        self.main.status.horizon = event.chapter
        if event.timeline is not None:
            self.main.show_timeline(self.main.timeline.entity, event.timeline)
        self.notify(f"Spoiler horizon: chapter {event.chapter}" if event.chapter
                    else "Spoiler horizon cleared: the whole story is searched.")

    @on(m.Exported)
    def _exported(self, event: m.Exported) -> None:
        self.notify(f"{event.what} saved to\n{event.path}", title="Exported", markup=False,
                    timeout=10)

    # -- the demo world ---------------------------------------------------------------------------
    def start_demo_ingest(self) -> None:
        if self.ingesting:
            return
        self.ingesting = True
        self.main.status.activity = "ingesting the demo world…"
        self.ingest_demo()

    @on(m.IngestProgress)
    def _ingest_progress(self, event: m.IngestProgress) -> None:
        if isinstance(self.screen, WelcomeScreen):
            self.screen.show_progress(event.stage, event.done, event.total)

    @on(m.IngestDone)
    def _ingested(self, event: m.IngestDone) -> None:
        self.notify(f"The demo world is ready: {event.summary}.", markup=False)
        if isinstance(self.screen, WelcomeScreen):
            self.pop_screen()
        self._open(event.world)
