"""The conversation seam shared by `lore ask`, the terminal app and the evaluations.

A `Conversation` is one session of one world. Every question is saved before anything else
happens, so nothing the user typed is lost to a crash, a model error or a kill -9. Every reader
gets the same turn: the user's own words as the prompt, the earlier turns as message history
(agent.memory.history, within a token budget), the entity stack and the session's spoiler horizon in
the deps, read once. A language model reads the follow-up with the conversation and says in its
answer which question it answered (`resolved_question`); the librarian makes it explicit by its
rules (agent.librarian.followup) before it answers and states it in its answer the same way
(`AskResult.explicit`). The entity stack is updated from it. The answer, the stack and the
conversation's memory are saved after it. The world is an `OpenWorld` (agent.world.open_world), the app's
or the conversation's own. No Textual here.
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

import anyio

from agent.conversation.stack import stack_after
from agent.readers.settings import AgentSettings
from agent.schemas import Answer, Passage, TimelineEvent
from agent.tools.deps import LoreDeps
from agent.world.lexicon import Lexicon, Resolution
from agent.world.open_world import OpenWorld
from sessions.records import Session, StackEntry, Turn
from sessions.scrub import scrub
from sessions.store import NotFoundError, SessionStore
from stores.errors import LoreError
from stores.lang import en, zh

if TYPE_CHECKING:
    from pydantic_ai import Agent

    from agent.answer.streaming import Draft
    from agent.tools.findings import ToolCall  # it imports pydantic-ai: not before the world shows

    LoreAgent = Agent[LoreDeps, Answer]

log = logging.getLogger(__name__)

OTHER_SESSIONS = re.compile(f"{zh.OTHER_SESSIONS}|{en.OTHER_SESSIONS}", re.I)
"""Words with which a user asks to recall other sessions of the world too."""


@dataclass
class TurnResult:
    """One answered turn, as the callers show and evaluate it."""

    turn_id: str
    session_id: str
    question: str
    """As typed."""
    resolved_question: str
    """The follow-up made explicit (shown to the user and stored)."""
    answer: Answer
    tool_calls: list[ToolCall]
    stack: list[StackEntry]
    """The entity stack after the turn, most recent first."""
    evidence: list[Passage]
    """The passages the tools returned during the run, best score first."""
    turn_n: int = 0
    """The turn's number in the session (from 1)."""


class Conversation:
    """One session of one world: resolves follow-ups, runs the agent, saves every turn."""

    def __init__(self, settings: AgentSettings, store: SessionStore, session: Session,
                 open_world: OpenWorld, *, owns_store: bool = False,
                 owns_world: bool = False, agent: LoreAgent | None = None) -> None:
        self.settings = settings
        self.store = store
        self.session = session
        self.world = session.world
        self.open_world = open_world
        self.retriever = open_world.retriever
        self._owns_store = owns_store
        self._owns_world = owns_world
        self._agent = agent
        self._warming: threading.Thread | None = None
        self.current_turn: Turn | None = None
        """The turn the last `ask` began (saved even when the answer never came)."""

    @classmethod
    def open(cls, settings: AgentSettings, world: str, *, session_id: str | None = None,
             new: bool = False, store: SessionStore | None = None,
             open_world: OpenWorld | None = None,
             agent: LoreAgent | None = None) -> Conversation:
        """The world's last session (a new one if it has none), `session_id`, or a new one.

        `open_world` is the world already open (the app keeps it between sessions), else the
        conversation opens it and closes it with itself. `agent` replaces the agent built from
        `settings.model` (tests, evaluations).
        """
        owns_world = open_world is None
        if open_world is None:  # the world must exist before a session about it is made
            open_world = OpenWorld.open(settings, world)
        owns_store = store is None
        try:
            store = store or SessionStore(settings.sessions_path)
            session = _pick_session(store, world, session_id, new)
            store.end_stale_turns(session.id)  # left pending by a killed process
        except BaseException:
            if owns_store and store is not None:
                store.close()
            if owns_world:
                open_world.close()
            raise
        return cls(settings, store, session, open_world, owns_store=owns_store,
                   owns_world=owns_world, agent=agent)

    # -- state ----------------------------------------------------------------------------------
    def stack(self) -> list[StackEntry]:
        """The entity stack after the last answered turn, most recent first."""
        return self.store.stack(self.session.id)

    def turns(self) -> list[Turn]:
        """Every turn of the session, whatever its status, in order."""
        return self.store.turns(self.session.id)

    @property
    def lexicon(self) -> Lexicon:
        """The world's names, types and genders (shared with the librarian's rules)."""
        return self.retriever.lexicon

    @cached_property
    def memory(self):
        """The session's memory, as the recall_session tool reaches it."""
        from agent.memory.summaries import SessionRecall

        return SessionRecall(self.store, self.session, self.retriever.stores.embedder,
                             lambda: [e.entity for e in self.stack()],
                             tokens=self.retriever.stores.keywords.tokens)

    def warm_up(self) -> None:
        """Load the world's names, embedder and indexes in a background thread, now.

        `lore ask` starts this right after opening, so loading overlaps with importing and
        building the agent; `ask` waits for it before the first tool call. Errors are left for
        the real calls to raise.
        """
        if self._warming is not None:
            return

        def load() -> None:
            stores = self.retriever.stores
            try:
                _ = self.lexicon
                stores.keywords.search("warm up", 1)
                if stores.has_vectors:  # else its e5 index may be being built (upgrade.py)
                    stores.embedder.embed_query("warm up")
                    _ = stores.vectors
            except Exception as exc:  # noqa: BLE001  (reported by the real call)
                log.debug("warm-up failed: %s", exc)

        self._warming = threading.Thread(target=load, name="lore-warm-up", daemon=True)
        self._warming.start()

    # -- asking ---------------------------------------------------------------------------------
    async def ask(self, question: str, *, on_step: Callable[[ToolCall], Any] | None = None,
                  on_text: Callable[[Draft], Any] | None = None) -> TurnResult:
        """Save the question, answer it, save the answer and the stack. `on_step` sees each
        tool call, `on_text` the answer while it streams (an agent.answer.streaming.Draft).

        On an error the turn is marked failed (cancelled when the task is cancelled) and the
        error is raised again; the question stays in the session either way.
        """
        self.current_turn = None  # until this question is saved
        question = checked_question(question, self.settings.sessions.max_question_chars)
        turn = self.current_turn = self.store.begin_turn(self.session.id, question)
        try:
            return await self._answer(turn, question, on_step, on_text)
        except asyncio.CancelledError:
            self._end(turn, "cancelled by the user", "cancelled")
            raise
        except BaseException as exc:
            self._end(turn, f"{type(exc).__name__}: {exc}", "failed")
            raise

    async def _answer(self, turn: Turn, question: str, on_step: Callable[[ToolCall], Any] | None,
                      on_text: Callable[[Draft], Any] | None) -> TurnResult:
        from agent.conversation.core import ask
        from agent.memory.history import message_history
        from agent.world.blocking import run_blocking

        if self._warming is not None:  # the stores are not meant for two threads at once
            await anyio.to_thread.run_sync(self._warming.join)
        def earlier() -> tuple[list[StackEntry], list[Turn], list[Any]]:
            stack, turns = self.stack(), [t for t in self.turns() if t.id != turn.id]
            return stack, turns, message_history(turns, self.store.summaries(self.session.id),
                                                 self.settings.model.history_tokens)

        # reading and parsing the session's messages takes a while: off the event loop
        stack, turns, history = await anyio.to_thread.run_sync(earlier)
        deps = LoreDeps(retriever=self.retriever, memory=self.memory, question=question,
                        horizon=self.horizon, stack=stack, turns=turns,
                        other_sessions=bool(OTHER_SESSIONS.search(question)), on_step=on_step,
                        on_text=on_text)
        result = await ask(self.agent, deps, question, history,
                           time_limit_s=self.settings.model.answer_timeout_s)
        from agent.answer.cap import cap_answer, cap_messages

        limit = self.settings.model.max_answer_chars
        answer = cap_answer(result.answer, limit)
        # shown as the store keeps it: the app draws the answer itself, past the CLI's gate
        answer = result.answer = answer.model_copy(update={"text": scrub(answer.text)})
        resolution = result.explicit()
        # The world's names may load now (a language model's first turn): off the loop.
        new_stack = await run_blocking(self.retriever, self._stack_after, resolution, answer,
                                       stack)
        saved = await anyio.to_thread.run_sync(lambda: self.store.finish_turn(
            turn.id, resolved_question=resolution.text, answer=answer.text,
            messages_json=cap_messages(result.messages_json, limit), citations=answer.citations,
            tool_calls=result.tool_calls, stack=new_stack, entities=answer.entities))
        await self._summarise()
        evidence = result.evidence
        return TurnResult(turn_id=saved.id, session_id=self.session.id, question=question,
                          resolved_question=resolution.text, answer=answer,
                          tool_calls=list(result.tool_calls), stack=new_stack, evidence=evidence,
                          turn_n=saved.n)

    def _stack_after(self, resolution: Resolution, answer: Answer,
                     old: list[StackEntry]) -> list[StackEntry]:
        """The stack after an answer (`stack_after`); the lexicon is built here, in the worker,
        when a turn is the first to need it."""
        return stack_after(resolution, answer.entities, answer.stop_reason != "evidence", old,
                           self.lexicon, self.retriever.typed_relations)

    @property
    def agent(self) -> LoreAgent:
        """The agent for the configured model, built on first use."""
        if self._agent is None:
            from agent.conversation.core import build_agent
            from agent.readers.registry import ReaderContext, make_reader

            self._agent = build_agent(make_reader(ReaderContext(self.settings.model,
                                                                self.retriever,
                                                                self.open_world)),
                                      self.settings.model)
        return self._agent

    async def _summarise(self) -> None:
        """Every `sessions.summary_every` answered turns, a summary and its plot."""
        from agent.memory.summaries import summarise_due
        from agent.world.blocking import run_blocking

        try:
            await run_blocking(self.retriever, summarise_due, self.store, self.session.id,
                               self.settings.sessions.summary_every,
                               self.retriever.stores.embedder)
        except Exception as exc:  # noqa: BLE001  the turn is saved; the summary comes next turn
            log.warning("could not write the session summary: %s", exc)

    def _end(self, turn: Turn, error: str, status: str) -> None:
        try:
            if status == "cancelled":  # even when its answer was stored just before
                self.store.cancel_turn(turn.id, error)
            else:
                self.store.fail_turn(turn.id, error, status)
        except (LoreError, ValueError) as exc:  # never hide the error that ended the turn
            log.warning("could not mark turn %s %s: %s", turn.n, status, exc)

    # -- settings of the session ----------------------------------------------------------------
    def set_horizon(self, chapter: int | None) -> None:
        """The reader's chapter for this session (None: the configured default; 0: no limit);
        InputError past the story's last chapter, where it would hide the lore, not the story."""
        if chapter:
            self.retriever.within_story(chapter, "the spoiler horizon")
        self.store.set_horizon(self.session.id, chapter)
        self.session = self.session.model_copy(update={"spoiler_horizon": chapter})

    @property
    def horizon(self) -> int:
        """The session's spoiler horizon, else the configured one (0: none). Every turn and
        lookup of this session carries it; the world's retriever, which other sessions of the
        world share, knows none."""
        chapter = self.session.spoiler_horizon
        return self.settings.retrieval.spoiler_horizon if chapter is None else chapter

    def track(self, entity: str) -> list[TimelineEvent]:
        """The entity's appearances in story order; it becomes the session's tracked entity."""
        events = self.retriever.track(entity, horizon=self.horizon)
        name = self.retriever.resolve(entity)
        self.store.set_tracked(self.session.id, name)
        self.session = self.session.model_copy(update={"tracked_entity": name})
        return events

    def close(self) -> None:
        """Release the stores this conversation opened, once the warm-up has let go of them
        (closing the graph under a thread still reading it crashes the process)."""
        if self._warming is not None:
            self._warming.join()
        if self._owns_world:
            self.open_world.close()
        if self._owns_store:
            self.store.close()

    def __enter__(self) -> Conversation:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def checked_question(question: str, limit: int) -> str:
    """The question in its normal form (stores.lang.text.normal_text: no invisible characters,
    full-width letters as ASCII) without surrounding blanks; a LoreError when it is empty or
    longer than `limit` characters (a pasted book would take minutes and gigabytes to embed)."""
    from stores.lang.text import normal_text

    question = normal_text(question).strip()
    if not question:
        raise LoreError("the question is empty", where="question",
                        hint="type a question about the world")
    if len(question) > limit:
        raise LoreError(f"the question is {len(question):,} characters long; at most "
                        f"{limit:,} are read", where="question",
                        hint="ask a shorter question (passages are found by the tools), or "
                             "raise sessions.max_question_chars in config.toml")
    return question


def _pick_session(store: SessionStore, world: str, session_id: str | None,
                  new: bool) -> Session:
    if session_id:
        session = find_session(store, session_id)
        if session.world != world:
            raise LoreError(f"session {session.id} is about world {session.world!r}, not {world!r}",
                            where="--session",
                            hint=f"use --world {session.world}, or --new for a new session")
        store.resumed(session.id)
        return session
    last = store.last_session(world)
    # a new session when the last one is still untouched is that one: pressing Ctrl+N (or
    # asking with --new) again and again left a row of empty sessions in the picker
    if last is not None and (not new or untouched(last)):
        store.resumed(last.id)
        return last
    return store.create_session(world)


def untouched(session: Session) -> bool:
    """Nothing was asked or set in the session: no turn, title, horizon or tracked entity."""
    return (session.turn_count == 0 and not session.title and session.spoiler_horizon is None
            and session.tracked_entity is None)


def find_session(store: SessionStore, ident: str) -> Session:
    """The session with this id or a unique prefix of it (as `lore sessions list` shows)."""
    session = store.get_session(ident)
    if session is not None:
        return session
    matches = [s for s in store.list_sessions() if s.id.startswith(ident.upper())] if ident else []
    if len(matches) == 1:
        return matches[0]
    if matches:  # not "no session": several, and the prefix cannot say which
        shown = ", ".join(s.id for s in matches[:4]) + (", …" if len(matches) > 4 else "")
        raise NotFoundError(f"{ident!r} starts {len(matches)} session ids ({shown})",
                            where=store.path, hint="give more of the id; `lore sessions list` "
                                                   "shows the sessions and their ids")
    raise NotFoundError(f"no session with id {ident!r}", where=store.path,
                        hint="`lore sessions list` shows the sessions and their ids")

