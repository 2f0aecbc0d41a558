"""Opening a world, from the request until it is warm on screen, or the reason it did not open.

The opening worker (tui/workers.py) builds the world's conversation and reports its stages; the
chat shows the conversation as soon as it is built, and the world's indexes and model load
behind it (a question typed meanwhile waits, tui/asking.py). The status bar counts the seconds
all along; when the open fails, or the world's indexes will not load, the reason stays on screen
and in the log.

`Opener` is an object the app holds (`app.opener`); the app's message handlers, which Textual
routes to the app, hand it what they hear (attributes down), and the app's
`on_worker_state_changed`, the one place a worker's end is handled, hands it the ends of the
opening and warming workers. Where the open is stays in the app's `open_state` (tui/opening.py),
which asking reads too. It sees the app as a `WorldHost`: what it reads and sets of it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from textual.worker import WorkerState

from stores.errors import LoreError
from tui.screens.welcome import WelcomeScreen
from tui.state import welcome_text
from tui.widgets.stack import followed_entity, stack_aliases

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel
    from textual.screen import Screen

    from agent.conversation.session import Conversation
    from tui.asking import Asking
    from tui.messages import ConversationOpened, WorldWarm
    from tui.open_worlds import OpenWorlds
    from tui.opening import OpenState
    from tui.screens.main import MainScreen
    from tui.session_sync import SessionSync
    from tui.settings import AppSettings
    from tui.state import WorldInfo
    from tui.vector_job import VectorJob
    from tui.workers import Workers


class WorldHost(Protocol):
    """What opening reads and sets of the app: the open conversation and world, where the open
    is, the settings, the workers, the open worlds, the turns shown, the vectors' job and the
    question waiting; its screens, and how it tells the user."""

    conversation: Conversation | None
    info: WorldInfo | None
    open_state: OpenState
    settings: AppSettings
    jobs: Workers
    worlds: OpenWorlds
    sync: SessionSync
    vector_job: VectorJob
    asking: Asking
    sub_title: str

    @property
    def main(self) -> MainScreen: ...

    @property
    def screen(self) -> Screen[object]: ...

    @property
    def talking(self) -> Conversation: ...

    def push_screen(self, screen: Screen[Any]) -> Any: ...

    def call_next(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> None: ...

    def notify(self, message: str, *, title: str = ..., severity: SeverityLevel = ...,
               timeout: float | None = ..., markup: bool = ...) -> None: ...

    def refresh_vectors(self) -> None: ...

    def report_error(self, error: BaseException) -> None: ...

    def show_session_anew(self, first_question: str) -> None: ...


class Opener:
    """Opens a world, shows it as soon as it is built and warms it; says why when it cannot."""

    def __init__(self, app: WorldHost) -> None:
        self.app = app
        self._resuming = False

    def open(self, world: str | None, session_id: str | None = None, new: bool = False) -> None:
        """Open `world` (None: the last one) on the session `session_id`, or a `new` one, or
        its last session."""
        self._resuming = session_id is None and not new  # the world's last session, unasked
        self.app.open_state.begin(self.app.jobs.open_world(world, session_id, new), world)
        self.show_progress()

    def show_progress(self) -> None:
        """The status bar's line while a world opens or warms (the app's clock calls it)."""
        if (line := self.app.open_state.progress()) is not None:
            self.app.main.show_status(activity=line)

    def reached(self, stage: str, world: str) -> None:
        """The open under way reached `stage` (and knows its `world`)."""
        self.app.open_state.reached(stage, world)
        self.show_progress()

    def no_world(self) -> None:
        """No world is ingested yet: the welcome screen takes over."""
        app = self.app
        app.main.show_status(activity="")
        if not isinstance(app.screen, WelcomeScreen):
            app.push_screen(WelcomeScreen())

    async def opened(self, event: ConversationOpened) -> None:
        """The world's conversation is built: the chat shows it, typed into now, while its
        indexes and model load (questions wait)."""
        app = self.app
        previous, app.conversation, app.info = app.conversation, event.conversation, event.info
        if previous is not None and previous is not app.conversation:
            previous.close()
        app.worlds.close_others(keep=event.info.name)
        main, conversation = app.main, event.conversation
        app.sync.showing(event.turns)
        welcome = welcome_text(event.info, event.intro, app.settings.model.provider == "offline")
        await main.show_session(event.turns, welcome,
                                event.intro.examples if event.intro else [], event.info.name)
        tracked = conversation.session.tracked_entity if event.timeline else None
        main.show_stack(event.stack, stack_aliases(conversation, event.stack), tracked)
        main.show_timeline(tracked, event.timeline)
        followed = followed_entity(event.stack)
        if tracked is None and followed:
            # turns asked with `lore ask` track no one: the timeline follows the conversation
            # here as after an answer ("No entity tracked yet" beside a stack led by 马谡)
            app.jobs.track(conversation, followed, followed=True)
        main.show_status(world=event.info, activity="")
        app.refresh_vectors()
        app.main.show_status(horizon=app.talking.horizon or 0)
        app.show_session_anew(event.turns[0].question if event.turns else "")
        app.sub_title = event.info.name
        # shown and typed into now; the indexes and the model load meanwhile (questions wait)
        app.open_state.shown(app.jobs.warm_world(conversation))
        self.show_progress()
        if self._resuming and event.turns:
            # the last session of this world goes on, maybe one begun with `lore ask`: say so
            app.notify(f"Continuing the last session of {event.info.name} "
                       f"({len(event.turns)} turn{'s' if len(event.turns) != 1 else ''}).\n"
                       "→ press Ctrl+N for a new one", markup=False, timeout=4)
        if event.info.state != "ready":
            app.notify(f"{event.info.name} is not fully ingested ({event.info.state}); "
                       "answers may miss passages.\n→ run the same lore ingest command again",
                       severity="warning", markup=False)

    async def warmed(self, event: WorldWarm) -> None:
        """The world's indexes and model are loaded: its e5 vectors start if they are due, and
        the question typed meanwhile goes out."""
        app = self.app
        if event.conversation is not app.conversation:
            return  # another world or session opened meanwhile: its own warm-up reports
        if event.model_error is not None:
            app.report_error(event.model_error)
        app.open_state.warm()
        app.main.show_status(activity="")
        if event.vectors_due:
            try:
                app.vector_job.start(event.conversation.world)
            except LoreError as exc:  # its log is a link: no child, and the user is told
                app.report_error(exc)
        await app.asking.send_queued()

    # -- the opening and warming workers' ends (from the app's on_worker_state_changed) ---------
    def open_ended(self, state: WorkerState, error: BaseException | None) -> None:
        """The world opened, or the reason it did not stays on screen and in the log."""
        if state == WorkerState.SUCCESS:
            self.app.open_state.open_succeeded()
            return
        self._open_failed(state, error)

    def warm_failed(self, error: BaseException | None) -> None:
        """The world's indexes would not load: it is closed again, with the reason on screen."""
        app = self.app
        conversation, app.conversation = app.conversation, None
        if conversation is not None:
            conversation.close()
        app.call_next(app.main.clear_session)
        self._open_failed(WorkerState.ERROR, error)

    def _open_failed(self, state: WorkerState, error: BaseException | None) -> None:
        app = self.app
        opening = app.open_state.failed()
        app.main.show_status(activity="")
        hint = opening.failure(error, app.settings.data_dir,
                               stopped=state == WorkerState.CANCELLED)
        if app.conversation is None:
            app.main.set_hint(hint)
