"""The Lorekeeper terminal app: opens on the last session of the world (or the welcome screen
when there is no world), and turns the workers' reports into what the panes show.

The app is a composition: it holds the open worlds (`worlds`, tui/open_worlds.py), its slow work
(`jobs`, tui/workers.py), the modals behind its keys (`actions`, tui/actions.py), what the panes
and modals ask to see (`loaders`, tui/loaders.py), the opening of a world (`opener`,
tui/opener.py; where it is: `open_state`, tui/opening.py) and the question being answered
(`asking`, tui/asking.py). The screens own their panes: the app tells them what to show and
hears from them in messages. Textual looks key actions up on the app, so its `action_*` methods
are thin: they check that they can run and hand the actions object what it needs."""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import App
from textual.worker import Worker, WorkerState

from stores.errors import LoreError
from tui import messages as m
from tui.actions import Actions
from tui.asking import Asking
from tui.ending import end_on_signals
from tui.keys import APP_BINDINGS, unknown_ids
from tui.loaders import Loaders
from tui.open_worlds import OpenWorlds
from tui.opener import Opener
from tui.opening import OpenState
from tui.palette import LoreCommands
from tui.reports import error_note
from tui.screens.main import MainScreen
from tui.screens.presence import ChartScreen
from tui.screens.relmap import MapScreen
from tui.screens.sessions import SessionPicker
from tui.screens.welcome import WelcomeScreen
from tui.screens.worlds import WorldSwitcher
from tui.session_sync import SYNC_EVERY_S, SessionSync
from tui.settings import AppSettings
from tui.state import WorldInfo, model_label, session_title
from tui.vector_job import VectorJob
from tui.widgets.citations import CitationList
from tui.widgets.stack import EntityStack, followed_entity, stack_aliases
from tui.widgets.timeline import Timeline
from tui.workers import Workers

if TYPE_CHECKING:
    from agent.conversation.session import Conversation
    from sessions.records import StackEntry
    from sessions.store import SessionStore

log = logging.getLogger(__name__)


class LoreApp(App[None]):
    """The app. `settings` are built once by the CLI; `world` overrides the world to open."""

    TITLE = "Lorekeeper"
    CSS_PATH = Path(__file__).parent / "styles" / "app.tcss"  # absolute: subclasses live elsewhere
    COMMANDS = App.COMMANDS | {LoreCommands}
    BINDINGS = [*APP_BINDINGS]

    def __init__(self, settings: AppSettings, world: str | None = None, *,
                 store: SessionStore | None = None) -> None:
        super().__init__()
        self.settings = settings
        self.requested_world = world
        self.conversation: Conversation | None = None
        self.info: WorldInfo | None = None
        self.ingesting = False
        self.open_state = OpenState()
        self.asking = Asking(self)
        self.worlds = OpenWorlds(settings, store)
        self.jobs = Workers(self, self.worlds)
        """The app's slow work (Textual's own `workers` is its worker manager)."""
        self.actions = Actions(self)
        self.loaders = Loaders(self)
        self.opener = Opener(self)
        self.vector_job = VectorJob(settings.data_dir, settings.config_file)
        """The open world's e5 vectors, computed in a child process while it waits for them."""
        self._first_question = ""
        self.sync = SessionSync()
        """The turns the chat shows, to notice those another process adds (tui/session_sync.py)."""
        self._restore_signals: Callable[[], None] = lambda: None

    # -- lifecycle --------------------------------------------------------------------------------
    async def on_mount(self) -> None:
        keymap = dict(self.settings.keymap)
        self.set_keymap(keymap)
        if unknown := unknown_ids(keymap):
            self.notify(f"[keymap] in {self.settings.config_file or 'config.toml'} names no "
                        f"binding: {', '.join(unknown)}. Press F1 for the binding ids.",
                        title="Unknown keys", severity="warning", markup=False, timeout=10)
        self._restore_signals = end_on_signals(self.post_message)
        await self.push_screen(MainScreen(self.settings.sessions.max_question_chars))
        self.main.show_status(model=model_label(self.settings))
        self.set_interval(1.0, self.opener.show_progress, name="opening-clock")
        self.set_interval(10.0, self.refresh_vectors, name="vectors-clock")
        self.set_interval(SYNC_EVERY_S, self._check_session, name="session-clock")
        self.opener.open(self.requested_world)

    @property
    def opening(self) -> bool:
        """A world's conversation is being built."""
        return self.open_state.opening

    @property
    def warming(self) -> bool:
        """The world is on screen; its indexes and model are loading."""
        return self.open_state.warming

    @property
    def answering(self) -> bool:
        """An answer is being built (tui/asking.py)."""
        return self.asking.answering

    def refresh_vectors(self) -> None:
        """Show how far the open world's e5 vectors are (tui/workers.py)."""
        if self.info is not None:
            self.jobs.refresh_vectors(self.info.name)

    @on(m.VectorsStatus)
    def _vectors(self, event: m.VectorsStatus) -> None:
        if not any(isinstance(s, MainScreen) for s in self.screen_stack):
            return  # the count came back while the app was closing: nothing to show it on
        self.main.show_status(vectors=event.line)
        if not event.line and (world := self.vector_job.done()):
            self.notify(f"{world} now searches with its e5 vectors.", markup=False)

    @property
    def talking(self) -> Conversation:
        """The open conversation: workers and keys that need one run only once a world is open."""
        if self.conversation is None:
            raise LoreError("no world is open", where="the terminal app",
                            hint="press Ctrl+G to pick a world")
        return self.conversation

    def conversation_or_report(self) -> Conversation | None:
        """The open conversation, or None once the user is told that no world is open (a
        pane's request that comes too late), as the worker it would start would have."""
        try:
            return self.talking
        except LoreError as exc:
            self.report_error(exc)
            return None

    def report_error(self, error: BaseException) -> None:
        """A notification saying what went wrong and what to do; never a traceback."""
        self.notify(error_note(error, self.settings.data_dir), title="Error", severity="error",
                    timeout=15, markup=False)

    @on(m.ErrorRaised)
    def _error_raised(self, event: m.ErrorRaised) -> None:
        self.report_error(event.error)

    async def action_quit(self) -> None:
        """Quit without losing anything: a running answer is cancelled and saved as such."""
        await self.cancel_answer(wait=True)
        self._close()
        self.exit()

    @on(m.TerminalGone)
    async def _terminal_gone(self, event: m.TerminalGone) -> None:
        log.info("the terminal is gone (%s): quitting", event.why)
        await self.action_quit()

    def _close(self) -> None:
        self.vector_job.stop()
        if self.conversation is not None:
            with suppress(Exception):
                self.conversation.close()
            self.conversation = None
        self.worlds.close()

    def on_unmount(self) -> None:
        self._restore_signals()
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

    # -- opening worlds (tui/opener.py) -----------------------------------------------------------
    @on(m.OpenProgress)
    def _open_progress(self, event: m.OpenProgress) -> None:
        self.opener.reached(event.stage, event.world)

    @on(m.NoWorld)
    def _no_world(self) -> None:
        self.opener.no_world()

    @on(m.ConversationOpened)
    async def _opened(self, event: m.ConversationOpened) -> None:
        await self.opener.opened(event)

    @on(m.WorldWarm)
    async def _warmed(self, event: m.WorldWarm) -> None:
        await self.opener.warmed(event)

    # -- the session on screen: its status line, turns ended elsewhere, a rename ------------------
    def _show_session(self, first_question: str = "") -> None:
        if self.conversation is None:  # closing
            return
        session, main = self.conversation.session, self.main
        turns = main.turn_count
        if first_question or not self._first_question:
            self._first_question = first_question or main.first_question
        first = self._first_question
        main.show_status(session=f"{session_title(session.title, first, 32)} · "
                                 f"{turns} turn{'s' if turns != 1 else ''}")

    def show_session_anew(self, first_question: str) -> None:
        """The session's line once the chat shows its turns anew (opened, or ended by another
        process): its first question is read again."""
        self._first_question = ""
        self._show_session(first_question)

    def _check_session(self) -> None:
        if self.conversation is not None and not self.answering and not self.opening:
            self.jobs.check_session(self.conversation, list(self.sync.shown))

    @on(m.SessionChanged)
    async def _session_changed(self, event: m.SessionChanged) -> None:
        if event.conversation is not self.conversation or self.answering or self.opening:
            return  # another session opened, or an answer began, since it was read
        self.sync.shown = event.states
        main, conversation = self.main, event.conversation
        before = main.stack.conversation_entity
        await main.show_turns(event.turns)
        main.show_stack(event.stack, stack_aliases(conversation, event.stack),
                        conversation.session.tracked_entity)
        self.show_session_anew(event.turns[0].question if event.turns else "")
        # a turn asked with `lore ask` moves the timeline as one asked here does
        self._follow(conversation, before, event.stack)

    @on(m.SessionEdited)
    def _session_edited(self, event: m.SessionEdited) -> None:
        if self.conversation is None or event.session_id != self.conversation.session.id:
            return
        if event.op == "delete":
            self.opener.open(self.conversation.world)  # the world's last session, or a new one
        else:
            edited = self.worlds.session_store().get_session(event.session_id)
            if edited is not None:
                self.conversation.session.title = edited.title
            self._show_session()

    # -- questions and answers --------------------------------------------------------------------
    async def submit_question(self, text: str) -> bool:
        """Ask `text`; False (and a notification) when it cannot be asked now."""
        return await self.asking.submit(text)

    @on(MainScreen.QuestionAsked)
    async def _question_asked(self, event: MainScreen.QuestionAsked) -> None:
        if await self.submit_question(event.text) and event.typed:
            self.main.question_sent()

    @on(MainScreen.CancelWanted)
    async def _cancel_wanted(self) -> None:
        if not await self.cancel_answer():
            self.main.focus_question()

    async def cancel_answer(self, wait: bool = False) -> bool:
        """Cancel the running answer (it is saved as cancelled); False if none was running."""
        return await self.asking.cancel(wait)

    @on(m.AnswerStep)
    def _step(self, event: m.AnswerStep) -> None:
        self.main.answer_step(event.call)

    @on(m.AnswerText)
    def _streaming(self, event: m.AnswerText) -> None:
        self.main.answer_draft(event.draft)

    @on(m.AnswerReady)
    async def _answered(self, event: m.AnswerReady) -> None:
        result = event.result
        self.sync.ended(result.turn_id, "answered")
        before = self.main.stack.conversation_entity
        with self.batch_update():
            await self.main.show_answer(result)
            tracked = self.talking.session.tracked_entity
            self.main.show_stack(result.stack, stack_aliases(self.talking, result.stack), tracked)
            self._show_session()
        self._follow(self.talking, before, result.stack)

    def _follow(self, conversation: Conversation, before: str | None,
                stack: list[StackEntry]) -> None:
        """The timeline follows the conversation to whom it moved (not to a guess); an entity
        tracked by hand stays while the conversation stays with the same one."""
        now = followed_entity(stack)
        if now and now != before and now != conversation.session.tracked_entity:
            self.jobs.track(conversation, now, followed=True)

    # -- the tracked entity's timeline (the entity stack's Enter, and the conversation's moves) ---
    @on(EntityStack.TrackRequested)
    def _track(self, event: EntityStack.TrackRequested) -> None:
        if conversation := self.conversation_or_report():
            self.jobs.track(conversation, event.entity)

    @on(m.TimelineReady)
    def _timeline(self, event: m.TimelineReady) -> None:
        main = self.main
        main.show_timeline(event.entity, event.events)
        main.show_stack(event.stack, stack_aliases(self.talking, event.stack), event.entity)
        if not event.events and not event.followed:
            self.notify(f"No appearances of {event.entity} up to the spoiler horizon.",
                        severity="warning")

    # -- what the panes and the modals ask to see (tui/loaders.py) --------------------------------
    @on(m.CardRequested)
    def _card_requested(self, event: m.CardRequested) -> None:
        self.loaders.card(event.entity)

    @on(CitationList.Opened)
    def _open_citation(self, event: CitationList.Opened) -> None:
        self.loaders.passage(event.chunk_id, event.quote)

    @on(Timeline.PassageRequested)
    def _open_appearance(self, event: Timeline.PassageRequested) -> None:
        self.loaders.passage(event.chunk_id, "")

    @on(m.PassageRequested)
    def _passage_requested(self, event: m.PassageRequested) -> None:
        self.loaders.passage(event.chunk_id, event.quote)

    @on(m.CardReady)
    def _card(self, event: m.CardReady) -> None:
        self.loaders.show_card(event.entity, event.answer, event.horizon)

    @on(m.PassageReady)
    def _passage(self, event: m.PassageReady) -> None:
        self.loaders.show_passage(event.passage, event.quote, event.core)

    @on(m.MapRequested)
    def _map_requested(self, event: m.MapRequested) -> None:
        self.loaders.relation_map(event.entity)

    @on(MapScreen.LoadWanted)
    def _load_map(self, event: MapScreen.LoadWanted) -> None:
        self.loaders.load_map(event.screen, event.entity, event.hops)

    @on(m.ChartRequested)
    def _chart_requested(self, event: m.ChartRequested) -> None:
        self.loaders.presence_chart(event.entity)

    @on(ChartScreen.LoadWanted)
    def _load_chart(self, event: ChartScreen.LoadWanted) -> None:
        self.loaders.load_chart(event.screen, event.entities)

    @on(SessionPicker.LoadWanted)
    def _load_sessions(self, event: SessionPicker.LoadWanted) -> None:
        self.loaders.sessions(event.picker)

    @on(SessionPicker.EditWanted)
    def _edit_session(self, event: SessionPicker.EditWanted) -> None:
        self.loaders.edit_session(event.picker, event.op, event.session_id, event.title)

    @on(WorldSwitcher.LoadWanted)
    def _load_worlds(self, event: WorldSwitcher.LoadWanted) -> None:
        self.loaders.worlds(event.switcher)

    # -- the demo world ---------------------------------------------------------------------------
    @on(m.DemoRequested)
    def _demo_requested(self) -> None:
        if self.ingesting:
            return
        self.ingesting = True
        self.main.show_status(activity="ingesting the demo world…")
        self.jobs.ingest_demo()

    @on(m.IngestProgress)
    def _ingest_progress(self, event: m.IngestProgress) -> None:
        if isinstance(self.screen, WelcomeScreen):
            self.screen.show_progress(event.stage, event.done, event.total)

    @on(m.IngestDone)
    def _ingested(self, event: m.IngestDone) -> None:
        self.notify(f"The demo world is ready: {event.summary}.", markup=False)
        if isinstance(self.screen, WelcomeScreen):
            self.pop_screen()
        self.opener.open(event.world)

    # -- the modals' requests: another world or session, the horizon, an export -------------------
    @on(m.OpenRequested)
    async def _open_requested(self, event: m.OpenRequested) -> None:
        await self.cancel_answer(wait=True)
        self.opener.open(event.world, event.session_id, new=event.new)

    @on(m.HorizonRequested)
    def _horizon_requested(self, event: m.HorizonRequested) -> None:
        if conversation := self.conversation_or_report():
            self.jobs.set_horizon(conversation, event.chapter)

    @on(m.HorizonChanged)
    def _horizon(self, event: m.HorizonChanged) -> None:
        self.main.show_status(horizon=event.chapter)
        if event.timeline is not None:
            self.main.show_timeline(self.main.timeline_entity, event.timeline)
        self.notify(f"Spoiler horizon: chapter {event.chapter}" if event.chapter
                    else "Spoiler horizon cleared: the whole story is searched.")

    @on(m.ExportRequested)
    def _export_requested(self, event: m.ExportRequested) -> None:
        if conversation := self.conversation_or_report():
            self.jobs.export(conversation, event.kind, event.fmt, event.entities, event.hops)

    @on(m.Exported)
    def _exported(self, event: m.Exported) -> None:
        note = f"\n\n{event.note[:1].upper()}{event.note[1:]}." if event.note else ""
        self.notify(f"{event.what} saved to\n{event.path}{note}", title="Exported",
                    markup=False, timeout=20 if note else 10,
                    severity="warning" if note else "information")

    # -- actions (keys, and the command palette; tui/actions.py) ----------------------------------
    def action_help(self) -> None:
        self.actions.help(self.settings.keymap)

    def _need_conversation(self) -> bool:
        if self.conversation is None:
            self.notify("No world is open yet.\n→ press Ctrl+G to pick one", severity="warning",
                        markup=False)
        return self.conversation is not None

    def action_sessions(self) -> None:
        if self._need_conversation():
            self.actions.sessions(self.talking.world, self.talking.session.id,
                                  lambda: self.answering)

    def action_new_session(self) -> None:
        if self._need_conversation():
            self.post_message(m.OpenRequested(self.talking.world, new=True))

    def action_worlds(self) -> None:
        self.actions.worlds(self.conversation.world if self.conversation is not None else None)

    def action_horizon(self) -> None:
        if not self._need_conversation():
            return
        if self.answering:
            self.notify("Wait for the answer (or Esc) before moving the horizon.",
                        severity="warning")
            return
        self.actions.horizon(self.talking.horizon or 0,
                             self.info.last_chapter if self.info else 0)

    def action_export(self, kind: str = "", fmt: str = "") -> None:
        if not self._need_conversation():
            return
        if kind:
            self.jobs.export(self.talking, kind, fmt)
        else:
            self.actions.export(self.talking.session.tracked_entity)

    # -- what a worker leaves on screen when it ends (errors reported here, the one place) --------
    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker, state = event.worker, event.state
        if state not in (WorkerState.SUCCESS, WorkerState.ERROR, WorkerState.CANCELLED):
            return
        if worker.group == "answer":
            self._answer_ended(state, worker.error)
        elif worker.group == "open":
            if not self.open_state.is_open_worker(worker):
                return  # superseded by a newer open (Ctrl+G meanwhile): that one reports
            self.opener.open_ended(state, worker.error)
        elif worker.group == "warm" and state == WorkerState.ERROR:
            if worker is self.open_state.warm_worker:
                self.opener.warm_failed(worker.error)
        elif worker.group == "ingest":
            self.ingesting = False
            if state == WorkerState.ERROR and isinstance(self.screen, WelcomeScreen):
                self.screen.show_failed()
        if state == WorkerState.ERROR and worker.error is not None:
            self.report_error(worker.error)

    def _answer_ended(self, state: WorkerState, error: BaseException | None) -> None:
        turn = self.conversation.current_turn if self.conversation is not None else None
        if state != WorkerState.SUCCESS and turn is not None:
            self.sync.ended(turn.id, "cancelled" if state == WorkerState.CANCELLED else "failed")
        if self.asking.ended(state, error):
            self._show_session()
