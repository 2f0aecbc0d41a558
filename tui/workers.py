"""The app's workers: opening a world (model and index loading), answering, tracking, reading
passages, exports, session and world lists, and ingesting the demo world.

`Workers` is an object the app holds (`app.jobs`: Textual's `App.workers` is its worker
manager). Each method starts an exclusive worker of its group on the app, is given what it
works on (the conversation, the picker) and reports back with `post_message`, never by reading
or setting the app's state. None handles its own errors: the app's `on_worker_state_changed`
(one place) shows them as notifications.
Blocking store calls that touch the world's retriever go through `agent.world.blocking.run_blocking`,
so they never run beside the agent's own tool calls on the same stores.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial, wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from textual.app import App
from textual.worker import Worker

from stores.errors import LoreError
from tui.messages import (
    AnswerReady,
    AnswerStep,
    AnswerText,
    CardReady,
    ConversationOpened,
    Exported,
    HorizonChanged,
    IngestDone,
    IngestProgress,
    NoWorld,
    OpenProgress,
    PassageReady,
    SessionChanged,
    SessionEdited,
    TimelineReady,
    VectorsStatus,
    WorldWarm,
)
from tui.state import WorldInfo, pick_world, session_title

if TYPE_CHECKING:
    from agent.conversation.session import Conversation
    from stores.config import Settings
    from tui.open_worlds import OpenWorlds
    from tui.screens.presence import ChartScreen
    from tui.screens.relmap import MapScreen
    from tui.screens.sessions import SessionPicker
    from tui.screens.worlds import WorldSwitcher

P = ParamSpec("P")
R = TypeVar("R")

CONTEXT = 2
"""Passages shown before and after a cited one in the passage view."""


def _catalog_rows(settings: Settings) -> list[dict[str, Any]]:
    from stores.catalog import Catalog

    catalog = Catalog(settings.catalog_path)
    try:
        return catalog.worlds()
    finally:
        catalog.close()


LOCK_RETRY_S = 1.0
"""How often opening tries again while another process holds the world's stores."""


def held_elsewhere(error: BaseException) -> bool:
    """Whether `error` is another process holding a store (Qdrant's folder lock, a busy
    SQLite file): it ends when that process does, so opening waits instead of giving up."""
    text = getattr(error, "message", "") or str(error)
    return isinstance(error, LoreError) and ("in use by" in text or "locked" in text)


def warm(conversation: Conversation) -> None:
    """Load what the first question would otherwise wait for: passages, names, the embedder,
    the indexes and the model (so the first answer is as quick as the others).

    The embedder loads in a second thread meanwhile: it spends its time in native code, and
    the two together take about a second less than one after the other.
    """
    from concurrent.futures import ThreadPoolExecutor

    retriever = conversation.retriever
    stores = retriever.stores
    # A world searching with BM25 alone has no vectors to open yet: its e5 index is being
    # built by another process (stores/upgrade.py), which must be able to lock it.
    vectors = stores.has_vectors
    with ThreadPoolExecutor(1, thread_name_prefix="lore-warm") as pool:
        embedder = pool.submit(lambda: vectors and stores.embedder.embed_query("warm up"))
        _ = retriever.story, retriever.matcher, retriever.entities, retriever.by_document
        _ = conversation.lexicon, stores.keywords, vectors and stores.vectors
        embedder.result()


def _build_agent(conversation: Conversation) -> None:
    """Build the conversation's agent (pydantic-ai: a second's import, after the world shows)."""
    import pydantic_ai

    # The app owns the terminal: pydantic-ai's first-run banner would land on the screen.
    pydantic_ai.BANNER_ENABLED = False
    _ = conversation.agent


def worker(group: str, *, thread: bool = False) -> Callable[
        [Callable[Concatenate[Workers, P], R]], Callable[Concatenate[Workers, P], Worker[Any]]]:
    """Textual's `@work(exclusive=True, group=group, exit_on_error=False)` for a method of
    `Workers`: the worker runs on the app (`work` wants the node itself as `self`)."""

    def decorator(method: Callable[Concatenate[Workers, P], R]
                  ) -> Callable[Concatenate[Workers, P], Worker[Any]]:
        @wraps(method)
        def start(self: Workers, *args: P.args, **kwargs: P.kwargs) -> Worker[Any]:
            return self.app.run_worker(partial(method, self, *args, **kwargs),
                                       name=method.__name__, group=group, exclusive=True,
                                       exit_on_error=False, thread=thread)

        return start

    return decorator


class Workers:
    """The app's slow work, each kind in its own worker group."""

    def __init__(self, app: App[Any], worlds: OpenWorlds) -> None:
        self.app = app
        self.worlds = worlds
        self.settings = worlds.settings

    def post_message(self, message: Any) -> None:
        self.app.post_message(message)

    # -- the world's vectors ---------------------------------------------------------------------
    @worker("vectors", thread=True)
    def refresh_vectors(self, world: str) -> None:
        """How far the world's e5 vectors are ("vectors: e5 41% · searching with the fast
        index"), or nothing once it searches with them (stores/upgrade.py)."""
        from tui.vector_status import world_vector_status

        status = world_vector_status(self.settings, world)
        self.post_message(VectorsStatus(status.line() if status is not None else ""))

    # -- the session, as other processes write it -------------------------------------------------
    @worker("session-sync", thread=True)
    def check_session(self, conversation: Conversation, shown: list[tuple[str, str]]) -> None:
        """Whether the store holds ended turns of the session the chat does not show (`lore
        ask` in another terminal): if so, they and the stack after them (tui/session_sync.py)."""
        store = self.worlds.session_store()
        states = store.ended_turns(conversation.session.id)
        if states != shown:
            turns = [t for t in conversation.turns() if t.status != "pending"]
            self.post_message(SessionChanged(conversation, turns, conversation.stack(),
                                             [(t.id, t.status) for t in turns]))

    # -- opening a world --------------------------------------------------------------------------
    @worker("open", thread=True)
    def open_world(self, world: str | None = None, session_id: str | None = None,
                   new: bool = False) -> None:
        """Open a world's conversation (the last session unless told otherwise) and warm it.

        However long that takes: a loaded machine only makes it slower, and stores held by
        another process are waited for (with the reason on screen), never given up on. An
        open superseded by a newer one (Ctrl+G meanwhile) finishes quietly before the newer
        one touches the same stores."""
        import time

        from textual.worker import get_current_worker

        worker = get_current_worker()
        with self.worlds.lock:
            while not worker.is_cancelled:
                try:
                    self._open_once(worker, world, session_id, new)
                    return
                except LoreError as exc:
                    if not held_elsewhere(exc):
                        raise
                    self.post_message(OpenProgress(world or "", f"waiting: {exc.message} "
                                                   "(Ctrl+G picks another world)"))
                    time.sleep(LOCK_RETRY_S)

    def _open_once(self, worker: Any, world: str | None, session_id: str | None,
                   new: bool) -> None:
        from agent.conversation.session import Conversation
        from agent.world.retrieval import UnknownEntity
        from tui.onboarding import introduce

        def stage(text: str) -> None:
            self.post_message(OpenProgress(world or "", text))

        stage("reading the catalog and sessions")
        store = self.worlds.session_store()
        rows = _catalog_rows(self.settings)
        if world is None:
            recent = store.list_sessions()
            world = pick_world(rows, recent[0].world if recent else None, None)
        if world is None:
            self.post_message(NoWorld())
            return
        row = next((r for r in rows if r["name"] == world), None)
        if row is None:
            known = ", ".join(r["name"] for r in rows) or "none yet"
            raise LoreError(f"no world named {world!r} (known worlds: {known})", where="--world",
                            hint=f"pick one with Ctrl+G, or ingest it: lore ingest PATH... "
                                 f"--world {world}")
        stage("opening the session")
        conversation = Conversation.open(self.settings, world, session_id=session_id, new=new,
                                         store=store, open_world=self.worlds.world(world))
        try:  # what the screen needs; the indexes and the model load after it (warm_world)
            turns, stack = conversation.turns(), conversation.stack()
            tracked = conversation.session.tracked_entity
            timeline = []
            if tracked:
                try:
                    timeline = conversation.retriever.track(tracked, horizon=conversation.horizon)
                except UnknownEntity:
                    tracked = None
            last = max(conversation.retriever.chapter_titles, default=0)
            intro = introduce(conversation.retriever, [
                d["path"] for d in conversation.retriever.stores.catalog.document_rows(world)])
        except BaseException:
            conversation.close()  # the store and the retriever stay open: the app owns them
            raise
        if worker.is_cancelled:  # a newer open took over while this one loaded
            conversation.close()
            return
        self.post_message(ConversationOpened(conversation, WorldInfo.from_row(row, last),
                                             turns, stack, timeline, intro))

    @worker("warm")
    async def warm_world(self, conversation: Conversation) -> None:
        """Load the indexes, the embedder and the model of an open world while the user reads
        and types: in the world's store lane, so a timeline or passage asked for meanwhile
        waits its turn. Stores held by another process are waited for, as opening does."""
        import asyncio

        from agent.world.blocking import run_blocking

        retriever = conversation.retriever
        while True:
            try:
                await run_blocking(retriever, warm, conversation)
                break
            except LoreError as exc:
                if not held_elsewhere(exc):
                    raise
                self.post_message(OpenProgress(conversation.world, f"waiting: {exc.message}"))
                await asyncio.sleep(LOCK_RETRY_S)
        due = await run_blocking(retriever, self._vectors_due, conversation.world)
        try:
            await run_blocking(retriever, _build_agent, conversation)  # the model
        except LoreError as exc:  # the world stays usable for reading; asking will say why
            self.post_message(WorldWarm(conversation, model_error=exc, vectors_due=due))
            return
        self.post_message(WorldWarm(conversation, vectors_due=due))

    def _vectors_due(self, world: str) -> bool:
        """Whether the world still waits for its e5 vectors (stores/upgrade.py)."""
        from tui.vector_status import world_vector_status

        return world_vector_status(self.settings, world) is not None

    # -- a question -------------------------------------------------------------------------------
    @worker("answer")
    async def ask(self, conversation: Conversation, question: str) -> None:
        """Answer in the app's event loop: the agent's blocking calls run in threads, so keys
        keep flowing, and cancelling this worker (Esc, quit) cancels the run."""
        result = await conversation.ask(
            question, on_step=lambda call: self.post_message(AnswerStep(call)),
            on_text=lambda draft: self.post_message(AnswerText(draft)))
        self.post_message(AnswerReady(result))

    # -- the tracked entity, passages, horizon ----------------------------------------------------
    @worker("track")
    async def track(self, conversation: Conversation, entity: str, followed: bool = False) -> None:
        from agent.world.blocking import run_blocking

        events = await run_blocking(conversation.retriever, conversation.track, entity)
        stack = await run_blocking(conversation.retriever, conversation.stack)
        self.post_message(TimelineReady(entity, events, stack, followed))

    @worker("passage")
    async def read_passage(self, conversation: Conversation, chunk_id: str,
                           quote: str = "") -> None:
        from agent.world.blocking import run_blocking

        retriever = conversation.retriever
        passage = await run_blocking(retriever, retriever.read, chunk_id, CONTEXT, CONTEXT,
                                     conversation.horizon)
        core = retriever.chunks[chunk_id].text if chunk_id in retriever.chunks else ""
        self.post_message(PassageReady(passage, quote, core))

    @worker("card")
    async def open_card(self, conversation: Conversation, entity: str) -> None:
        from agent.views.card_text import entity_card
        from agent.world.blocking import run_blocking

        retriever, horizon = conversation.retriever, conversation.horizon
        answer = await run_blocking(retriever, entity_card, retriever, entity, horizon)
        self.post_message(CardReady(entity, answer, horizon))

    @worker("horizon")
    async def set_horizon(self, conversation: Conversation, chapter: int) -> None:
        from agent.world.blocking import run_blocking

        retriever = conversation.retriever
        await run_blocking(retriever, conversation.set_horizon, chapter)
        tracked = conversation.session.tracked_entity
        events = await run_blocking(retriever, conversation.track, tracked) if tracked else None
        self.post_message(HorizonChanged(chapter, events))

    # -- the relations map and the presence chart -------------------------------------------------
    @worker("map")
    async def relation_map(self, conversation: Conversation, screen: MapScreen, entity: str,
                           hops: int) -> None:
        from agent.views.relmap import relation_map
        from agent.world.blocking import run_blocking

        retriever = conversation.retriever
        found = await run_blocking(retriever, relation_map, retriever, entity, hops,
                                   conversation.horizon)
        screen.post_message(screen.Loaded(found))

    @worker("chart")
    async def presence_chart(self, conversation: Conversation, screen: ChartScreen,
                             entities: list[str]) -> None:
        from agent.views.presence import presence
        from agent.world.blocking import run_blocking

        retriever = conversation.retriever
        chart = await run_blocking(retriever, presence, retriever, entities,
                                   conversation.horizon)
        screen.post_message(screen.Loaded(chart))

    # -- exports ----------------------------------------------------------------------------------
    @worker("export")
    async def export(self, conversation: Conversation, kind: str, fmt: str,
                     entities: tuple[str, ...] = (), hops: int = 1) -> None:
        from agent.world.blocking import run_blocking
        from tui.exports import export_session_file, export_timeline_file

        world = conversation.world
        if kind in ("map", "chart"):
            await self._export_picture(conversation, kind, fmt, entities, hops)
        elif kind == "timeline":
            entity = conversation.session.tracked_entity
            if not entity:
                raise LoreError("no entity is tracked in this session",
                                hint="select one in the Entities pane (F3) and press Enter")
            path = await run_blocking(conversation.retriever, export_timeline_file,
                                      self.settings, conversation.retriever, world, entity, fmt,
                                      conversation.horizon)
            self.post_message(Exported(f"Timeline of {entity}", str(path)))
        else:
            path = await run_blocking(conversation.retriever, export_session_file, self.settings,
                                      self.worlds.session_store(), conversation.session.id,
                                      world, fmt)
            self.post_message(Exported("Session", str(path)))

    async def _export_picture(self, conversation: Conversation, kind: str, fmt: str,
                              entities: tuple[str, ...], hops: int) -> None:
        from agent.views.pictures import missing_font
        from agent.world.blocking import run_blocking
        from tui.exports import export_picture_file

        tracked = conversation.session.tracked_entity
        names = list(entities) or ([tracked] if tracked else [])
        what, path = await run_blocking(conversation.retriever, export_picture_file,
                                        self.settings, conversation.retriever,
                                        conversation.world, kind, fmt, names, hops,
                                        conversation.horizon)
        note = await run_blocking(conversation.retriever, missing_font, fmt, " ".join(names))
        self.post_message(Exported(what, str(path), note))

    # -- lists for the modals ---------------------------------------------------------------------
    @worker("sessions", thread=True)
    def load_sessions(self, picker: SessionPicker) -> None:
        picker.post_message(picker.Loaded(self._session_rows(picker.world)))

    @worker("sessions", thread=True)
    def edit_session(self, picker: SessionPicker, op: str, session_id: str,
                     title: str = "") -> None:
        store = self.worlds.session_store()
        if op == "rename":
            store.rename_session(session_id, title)
        elif op == "delete":
            store.delete_session(session_id)
        picker.post_message(picker.Loaded(self._session_rows(picker.world)))
        self.post_message(SessionEdited(op, session_id))

    def _session_rows(self, world: str) -> list[Any]:
        from tui.screens.sessions import SessionRow

        store = self.worlds.session_store()
        rows = []
        for s in store.list_sessions(world):
            first = "" if s.title else next((t.question for t in store.turns(s.id)), "")
            rows.append(SessionRow(s.id, session_title(s.title, first), s.updated, s.turn_count))
        return rows

    @worker("worlds", thread=True)
    def load_worlds(self, switcher: WorldSwitcher) -> None:
        worlds = [WorldInfo.from_row(r) for r in _catalog_rows(self.settings)]
        switcher.post_message(switcher.Loaded(worlds))

    # -- the demo world ---------------------------------------------------------------------------
    @worker("ingest", thread=True)
    def ingest_demo(self) -> None:
        from stores.ingest import ingest
        from tui.commands.world import DEMO_WORLD, demo_world_path, relations_read

        folder: Path = demo_world_path()
        corpus = [p for p in (folder / "zh", folder / "en", folder / "dialogue") if p.exists()]

        def progress(stage: str, done: int, total: int) -> None:
            self.post_message(IngestProgress(stage, done, total))

        report = ingest(self.settings, DEMO_WORLD, corpus, folder / "glossary.toml",
                        progress=progress)
        summary = f"{report.chunks} passages, {report.entities} entities, {relations_read(report)}"
        self.post_message(IngestDone(DEMO_WORLD, summary))
