"""The main screen: chat (with the question box), entity stack and timeline, status bar.

The screen owns its panes: the app tells it what to show through its methods (attributes
down), and it asks the app for what the user wants with messages (messages up)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Input

from tui.messages import ChartRequested, ErrorRaised, MapRequested
from tui.widgets.chat import ChatLog, TurnView
from tui.widgets.citations import CitationList
from tui.widgets.examples import ExampleQuestions
from tui.widgets.question import QuestionBox
from tui.widgets.stack import EntityStack
from tui.widgets.status import StatusBar
from tui.widgets.timeline import Timeline

if TYPE_CHECKING:
    from agent.answer.streaming import Draft
    from agent.conversation.session import TurnResult
    from agent.schemas import TimelineEvent
    from agent.tools.findings import ToolCall
    from sessions.records import StackEntry, Turn
    from tui.state import WorldInfo

NARROW = 90
"""Columns from which the side panes sit beside the chat."""
PANES = {"question": "#question", "chat": "#chat", "entities": "#stack", "timeline": "#timeline"}


class MainScreen(Screen[None]):
    """Everything a conversation needs on one screen. Actions open modals or ask the app."""

    BINDINGS = [
        Binding("escape", "cancel", "cancel", id="cancel-answer",
                tooltip="Stop the answer being built (the question stays in the session); "
                        "otherwise go back to the question box"),
        Binding("ctrl+o", "app.sessions", "sessions", id="sessions",
                tooltip="List this world's sessions: resume, start, rename or delete one"),
        Binding("ctrl+n", "app.new_session", "new session", id="new-session",
                tooltip="Start a new session of this world"),
        # not in the footer either: at 100 columns it keeps room for ^s export and F1 help
        Binding("ctrl+g", "app.worlds", "worlds", show=False, id="worlds",
                tooltip="Switch to another ingested world"),
        Binding("ctrl+b", "app.horizon", "horizon", id="horizon",
                tooltip="Set the spoiler horizon: the chapter you have read up to"),
        Binding("ctrl+r", "relation_map", "map", id="relation-map",
                tooltip="Relations map of the tracked entity: relatives, masters, sworn "
                        "brothers, allies, enemies … by kind, with the sentences that state them"),
        # not in the footer: it keeps room for F1 (the help and the palette list the chart)
        Binding("ctrl+y", "presence_chart", "chart", show=False, id="presence-chart",
                tooltip="Presence chart: the tracked entity (and others from the stack) in "
                        "each chapter, shaded by mentions"),
        Binding("ctrl+s", "app.export", "export", id="export",
                tooltip="Export the tracked entity's timeline (md/json/csv), relations map "
                        "(svg/png/dot/mermaid/json) or presence chart (svg/png/csv/json), or this "
                        "session (md/json)"),
        Binding("f2", "focus_pane('question')", "question", show=False, id="focus-chat",
                tooltip="Go to the chat's question box"),
        Binding("f3", "focus_pane('entities')", "entities", show=False, id="focus-entities",
                tooltip="Go to the entity stack"),
        Binding("f4", "focus_pane('timeline')", "timeline", show=False, id="focus-timeline",
                tooltip="Go to the timeline"),
        Binding("f5", "citations", "citations", show=False, id="focus-citations",
                tooltip="Go to the citations of the last answer"),
        Binding("ctrl+t", "toggle_trace", "steps", show=False, id="toggle-trace",
                tooltip="Show every search step of the answers, or one line each"),
        Binding("down", "examples", "example questions", show=False, id="focus-examples",
                tooltip="From the question box: go to the example questions of an empty chat"),
        Binding("pageup", "scroll_chat(-1)", "scroll up", show=False, id="chat-page-up",
                tooltip="Scroll the chat up a page"),
        Binding("pagedown", "scroll_chat(1)", "scroll down", show=False, id="chat-page-down",
                tooltip="Scroll the chat down a page"),
    ]

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW, "-wide")]
    """Below NARROW columns the side panes move under the chat, which keeps the full width."""

    @dataclass
    class QuestionAsked(Message):
        """Ask this question (from the question box, or an example question)."""

        text: str
        typed: bool = True
        """Typed into the question box, which is cleared once the question goes out."""

    @dataclass
    class CancelWanted(Message):
        """Esc: cancel the running answer; with none running the question box takes focus."""

    def __init__(self, max_question_chars: int) -> None:
        super().__init__()
        self.max_question_chars = max_question_chars
        self.return_focus: Widget | None = None
        """Where focus goes back to when the screen on top closes: the list a passage was
        opened from; after any dialog, the question box."""
        self._answer: TurnView | None = None
        """The turn whose answer is being built."""

    def compose(self) -> ComposeResult:
        with Horizontal(id="panes"):
            with Vertical(id="chat-column"):
                yield ChatLog(id="chat")
                yield QuestionBox(self.max_question_chars, id="question",
                                  placeholder="Ask about the world… (Enter sends)")
            with Vertical(id="side"):
                yield EntityStack(id="stack")
                yield Timeline(id="timeline")
        yield StatusBar(id="status")
        yield Footer(compact=True)  # at 100 columns ^s export and F1 help fit

    def on_mount(self) -> None:
        self.chat.border_title = "Chat"
        self.stack.border_title = "Entities"
        self.timeline.border_title = "Timeline"
        self.chat.set_hint("Opening the world…")
        self.query_one("#question").focus()

    # -- parts ------------------------------------------------------------------------------------
    @property
    def chat(self) -> ChatLog:
        return self.query_one("#chat", ChatLog)

    @property
    def stack(self) -> EntityStack:
        return self.query_one("#stack", EntityStack)

    @property
    def timeline(self) -> Timeline:
        return self.query_one("#timeline", Timeline)

    @property
    def status(self) -> StatusBar:
        return self.query_one("#status", StatusBar)

    @property
    def question(self) -> QuestionBox:
        return self.query_one("#question", QuestionBox)

    def on_screen_resume(self) -> None:
        back, self.return_focus = self.return_focus, None
        target = back if back is not None and back.is_attached else self.question
        self.call_after_refresh(target.focus)

    # -- what the app shows ----------------------------------------------------------------------
    def show_status(self, *, world: WorldInfo | None = None, model: str | None = None,
                    horizon: int | None = None, session: str | None = None,
                    activity: str | None = None, vectors: str | None = None) -> None:
        """Set the status bar's fields that are given; the others stay."""
        given = {"world": world, "model": model, "horizon": horizon, "session": session,
                 "activity": activity, "vectors": vectors}
        for name, value in given.items():
            if value is not None:
                setattr(self.status, name, value)

    async def show_session(self, turns: list[Turn], hint: str, examples: list[str],
                           world: str) -> None:
        """A session just opened: its turns (the latest in view), the empty chat's hint and
        example questions, and the question box focused."""
        with self.app.batch_update():
            await self.chat.clear_turns()
            await self.chat.add_stored_turns(turns)
        # the latest turn in view, however late the answers lay out; an empty session's
        # welcome stays at the top
        self.chat.anchor(bool(turns))
        self.chat.set_hint(hint)
        self.chat.set_examples(examples)
        self.question.placeholder = f"Ask about {world}… (Enter sends, F1 help)"
        self.question.focus()  # a new or resumed session starts at the question box

    async def show_turns(self, turns: list[Turn]) -> None:
        """The session's turns drawn again from the store (another process added to it); the
        question box and what is typed in it stay as they are."""
        with self.app.batch_update():
            await self.chat.clear_turns()
            await self.chat.add_stored_turns(turns)
        self.chat.anchor(bool(turns))

    async def clear_session(self, hint: str | None = None) -> None:
        """No session on screen (its world failed to load); `hint` says why."""
        self.chat.set_examples([])
        if hint is not None:
            self.chat.set_hint(hint)
        await self.chat.clear_turns()

    def set_hint(self, text: str) -> None:
        """The line of the empty chat (an open's failure stays here)."""
        self.chat.set_hint(text)

    def show_stack(self, stack: list[StackEntry], aliases: dict[str, list[str]],
                   tracked: str | None) -> None:
        self.stack.show(stack, aliases, tracked)

    def show_timeline(self, entity: str | None, events: list[TimelineEvent]) -> None:
        self.timeline.show(entity, events)
        self.timeline.border_title = (f"Timeline · {entity} ({len(events)})" if entity
                                      else "Timeline")

    @property
    def timeline_entity(self) -> str | None:
        """The entity whose timeline is shown."""
        return self.timeline.entity

    @property
    def turn_count(self) -> int:
        """Turns of the session, the ones scrolled out of the chat included."""
        return len(self.chat.turns) + self.chat.hidden_turns

    @property
    def first_question(self) -> str:
        """The first question the chat shows ("" when empty)."""
        return next((t.question for t in self.chat.turns), "")

    def focus_question(self) -> None:
        self.question.focus()

    # -- the answer being built -------------------------------------------------------------------
    async def start_answer(self, question: str, limit: int) -> None:
        """A new turn for `question`; `limit` caps its streamed answer."""
        self._answer = await self.chat.add_turn(question, limit=limit)

    def answer_step(self, call: ToolCall) -> None:
        if self._answer is not None:
            self._answer.add_step(call)

    def answer_draft(self, draft: Draft) -> None:
        if self._answer is not None:
            self._answer.add_draft(draft)

    async def show_answer(self, result: TurnResult) -> None:
        """The answer is done: its text and citations, in view."""
        view, self._answer = self._answer, None
        if view is not None:
            await view.show_answer(result.resolved_question, result.answer.text,
                                   result.answer.citations)
            self.chat.anchor()  # the answer in view, after a resize too

    def answer_ended(self, status: str, error: str = "") -> bool:
        """The answer was cancelled or failed (status), or ended well (""); False when no
        answer was being built."""
        view, self._answer = self._answer, None
        if view is None:
            return False
        if status:
            view.show_ended(status, error)
        return True

    # -- the reader's input -----------------------------------------------------------------------
    @on(Input.Submitted, "#question")
    def _submit(self, event: Input.Submitted) -> None:
        from agent.conversation.session import checked_question
        from stores.errors import LoreError

        text = event.value.strip()
        if not text:
            return
        try:  # before it is echoed or counted: a refused question stays in the box
            text = checked_question(text, self.question.limit)  # shown as it is stored
        except LoreError as exc:
            self.app.post_message(ErrorRaised(exc))
            return
        self.app.post_message(self.QuestionAsked(text))

    def question_sent(self) -> None:
        """The typed question went out: the box is emptied for the next one."""
        self.question.clear()

    @on(ExampleQuestions.Chosen)
    def _ask_example(self, event: ExampleQuestions.Chosen) -> None:
        self.question.focus()
        self.app.post_message(self.QuestionAsked(event.question, typed=False))

    @on(EntityStack.AskRequested)
    def _ask_about(self, event: EntityStack.AskRequested) -> None:
        self.question.value = f"{event.entity} "
        self.question.focus()
        self.question.cursor_position = len(self.question.value)

    @on(CitationList.TypedOn)
    def _typed_on_citations(self, event: CitationList.TypedOn) -> None:
        """Typing on the citations goes on in the question box, after what it holds."""
        self.question.value += event.character
        self.question.focus()
        self.question.cursor_position = len(self.question.value)

    # -- actions ----------------------------------------------------------------------------------
    def action_cancel(self) -> None:
        self.app.post_message(self.CancelWanted())

    def action_focus_pane(self, pane: str) -> None:
        self.query_one(PANES[pane]).focus()

    def action_toggle_trace(self) -> None:
        expanded = self.chat.toggle_trace()
        self.notify("Every step of each answer is shown." if expanded
                    else "Each answer's steps are one line (Ctrl+T shows them).")

    def action_examples(self) -> None:
        if self.chat.examples.display:
            self.chat.examples.focus()

    def action_track_highlighted(self) -> None:
        self.stack.action_track()

    def action_ask_highlighted(self) -> None:
        self.stack.action_ask_about()

    def _subject(self) -> str | None:
        """Whom a map or chart is of: the tracked entity, else the one highlighted in the
        entity stack."""
        return self.timeline.entity or self.stack.highlighted_entity

    def action_relation_map(self) -> None:
        entity = self._subject()
        if entity is None:
            self.notify("Track an entity first: F3 goes to Entities, Enter tracks one.",
                        severity="warning")
            return
        self.app.post_message(MapRequested(entity))

    def action_presence_chart(self) -> None:
        self.app.post_message(ChartRequested(self._subject()))

    def action_citations(self) -> None:
        for turn in reversed(self.chat.turns):
            if turn.citations is not None:
                turn.citations.focus()
                turn.scroll_visible()
                return
        self.notify("No answer with citations yet.", severity="warning")

    def action_scroll_chat(self, direction: int) -> None:
        if direction < 0:
            self.chat.scroll_page_up()
        else:
            self.chat.scroll_page_down()
