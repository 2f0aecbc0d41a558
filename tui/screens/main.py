"""The main screen: chat (with the question box), entity stack and timeline, status bar."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Input

from tui.messages import CardRequested
from tui.widgets.chat import ChatLog
from tui.widgets.citations import CitationList
from tui.widgets.examples import ExampleQuestions
from tui.widgets.question import QuestionBox
from tui.widgets.stack import EntityStack
from tui.widgets.status import StatusBar
from tui.widgets.timeline import Timeline

if TYPE_CHECKING:
    from tui.app import LoreApp

NARROW = 90
"""Columns from which the side panes sit beside the chat."""
PANES = {"question": "#question", "chat": "#chat", "entities": "#stack", "timeline": "#timeline"}


class MainScreen(Screen[None]):
    """Everything a conversation needs on one screen. Actions open modals or ask the app."""

    BINDINGS = [
        Binding("escape", "cancel", "cancel answer", id="cancel-answer",
                tooltip="Stop the answer being built (the question stays in the session); "
                        "otherwise go back to the question box"),
        Binding("ctrl+o", "app.sessions", "sessions", id="sessions",
                tooltip="List this world's sessions: resume, start, rename or delete one"),
        Binding("ctrl+n", "app.new_session", "new session", id="new-session",
                tooltip="Start a new session of this world"),
        Binding("ctrl+g", "app.worlds", "worlds", id="worlds",
                tooltip="Switch to another ingested world"),
        Binding("ctrl+b", "app.horizon", "horizon", id="horizon",
                tooltip="Set the spoiler horizon: the chapter you have read up to"),
        Binding("ctrl+s", "app.export", "export", id="export",
                tooltip="Export the tracked entity's timeline (md/json/csv) or this session "
                        "(md/json)"),
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

    app: LoreApp

    def __init__(self) -> None:
        super().__init__()
        self.return_focus: Widget | None = None
        """Where focus goes back to when the screen on top closes: the list a passage was
        opened from; after any dialog, the question box."""

    def compose(self) -> ComposeResult:
        with Horizontal(id="panes"):
            with Vertical(id="chat-column"):
                yield ChatLog(id="chat")
                yield QuestionBox(self.app.settings.sessions.max_question_chars, id="question",
                                  placeholder="Ask about the world… (Enter sends)")
            with Vertical(id="side"):
                yield EntityStack(id="stack")
                yield Timeline(id="timeline")
        yield StatusBar(id="status")
        yield Footer()

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

    def show_timeline(self, entity: str | None, events: list[Any]) -> None:
        self.timeline.show(entity, events)
        self.timeline.border_title = (f"Timeline · {entity} ({len(events)})" if entity
                                      else "Timeline")

    # -- the reader's input -----------------------------------------------------------------------
    @on(Input.Submitted, "#question")
    async def _submit(self, event: Input.Submitted) -> None:
        from agent.conversation import checked_question
        from stores.errors import LoreError

        text = event.value.strip()
        if not text:
            return
        try:  # before it is echoed or counted: a refused question stays in the box
            checked_question(text, self.question.limit)
        except LoreError as exc:
            self.app.report_error(exc)
            return
        if await self.app.submit_question(text):
            event.input.clear()

    @on(ExampleQuestions.Chosen)
    async def _ask_example(self, event: ExampleQuestions.Chosen) -> None:
        self.question.focus()
        await self.app.submit_question(event.question)

    @on(EntityStack.TrackRequested)
    def _track(self, event: EntityStack.TrackRequested) -> None:
        self.app.track(event.entity)

    @on(CardRequested)
    def _card(self, event: CardRequested) -> None:
        self.app.open_card(event.entity)

    @on(EntityStack.AskRequested)
    def _ask_about(self, event: EntityStack.AskRequested) -> None:
        self.question.value = f"{event.entity} "
        self.question.focus()
        self.question.cursor_position = len(self.question.value)

    @on(CitationList.Opened)
    def _open_citation(self, event: CitationList.Opened) -> None:
        self.app.read_passage(event.chunk_id, event.quote)

    @on(Timeline.PassageRequested)
    def _open_appearance(self, event: Timeline.PassageRequested) -> None:
        self.app.read_passage(event.chunk_id, "")

    # -- actions ----------------------------------------------------------------------------------
    async def action_cancel(self) -> None:
        if not await self.app.cancel_answer():
            self.question.focus()

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
