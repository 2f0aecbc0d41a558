"""The chat pane: each turn is a question, how it was read, the tool steps, the answer as
Markdown and its numbered citations."""

from __future__ import annotations

import re
import time
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Markdown, Static

from agent.answer.shown import ShownAnswer
from tui.trace import step_line, trace_line
from tui.widgets.citations import CitationList
from tui.widgets.examples import ExampleQuestions

DRAFT_EVERY_S = 0.05
"""How often a streaming answer is drawn again, at most."""

ENDED = {
    "cancelled": "cancelled — the question is kept in the session; ask again to retry",
    "failed": "failed — the question is kept in the session",
    "pending": "no answer (the app stopped before it came); ask again to retry",
}


_LINE_BREAK = re.compile(r"(?<=\S)\n(?=[^\n\s\-*+|>#\d]|\d+[^.)\d])")


def as_markdown(text: str) -> str:
    """An answer's lines as Markdown paragraphs: the lead, each "see also" and the relation
    line are lines of their own, which Markdown would run into one paragraph. A list, a
    table or a quote a model writes is left as written."""
    return _LINE_BREAK.sub("\n\n", text)


class TurnView(Vertical):
    """One question and its answer (or the state it is in)."""

    def __init__(self, question: str, n: int = 0, limit: int = 0) -> None:
        super().__init__(classes="turn")
        self.question = question
        self.n = n
        self.streamed = ShownAnswer(limit)
        """The answer as it streams: what of it may be shown (redacted, capped at `limit`)."""
        self._draft_due = False
        self.status = "pending"
        self.steps: list[str] = []
        """The tool steps so far, one line each, in the reader's words."""
        self.calls: list[Any] = []
        self.started = time.monotonic()
        self.seconds: float | None = None
        """How long the answer took (None for a stored turn that never ended)."""
        self.stored = False
        """A turn from the session store: its time comes from the store, not the clock."""
        self.expanded = False
        """Whether every step shows, or only the one-line trace (Ctrl+T toggles)."""

    def compose(self) -> ComposeResult:
        yield Static(Text.assemble(("❯ ", "bold"), self.question), classes="question")
        yield Static("", classes="resolved")
        yield Static("· thinking …", classes="live")
        yield Static("", classes="steps")
        yield Static("", classes="draft")
        yield Markdown("", classes="answer")
        yield Static("", classes="ended")

    def on_mount(self) -> None:
        for name in ("resolved", "steps", "draft", "answer", "ended"):
            self.query_one(f".{name}").display = False

    def add_step(self, call: Any) -> None:
        """Show a tool call as it happens ('searching 玄德 …') on the one live line: it keeps
        its height, so the chat is not laid out again for every step."""
        self.calls.append(call)
        self.steps.append(f"· {step_line(call)}")
        self.query_one(".live", Static).update(self.steps[-1], layout=False)

    def _settle_steps(self) -> None:
        """The run is over: the live line gives way to one line for the whole trace."""
        self.query_one(".live").display = False
        if not self.stored:
            self.seconds = time.monotonic() - self.started
        if self.steps:
            self.query_one(".steps").display = True
            self.show_trace(self.expanded)

    def show_trace(self, expanded: bool) -> None:
        """The one-line trace, or (expanded) every step under it."""
        self.expanded = expanded
        if not self.steps:
            return
        lines = [f"· {trace_line(self.calls, self.seconds)}"
                 + ("" if expanded else "  (Ctrl+T: the steps)")]
        if expanded:
            lines += [f"  {step}" for step in self.steps]
        self.query_one(".steps", Static).update(Text("\n".join(lines)))

    def add_draft(self, draft: Any) -> None:
        """A piece of the answer as it streams (agent.answer.streaming.Draft). The pieces are gathered
        and the screen shows them at most every DRAFT_EVERY_S, as plain text: laying out the
        whole answer again for each piece of a few characters would cost its length squared
        (parsing Markdown would cost more than the tokens take to arrive); the Markdown
        replaces it."""
        if self.status != "pending":
            return
        again, piece = self.streamed.feed(draft)
        if (again or piece) and not self._draft_due:
            self._draft_due = True
            self.set_timer(DRAFT_EVERY_S, self._show_draft)

    def _show_draft(self) -> None:
        self._draft_due = False
        if self.status != "pending":
            return
        draft = self.query_one(".draft", Static)
        draft.update(Text(self.streamed.shown))
        if not draft.display:
            draft.display = True
            self.query_one(".live", Static).update("· answering …", layout=False)

    @property
    def draft(self) -> str:
        """The streamed text shown so far ('' when nothing streamed or the answer came)."""
        draft = self.query_one(".draft", Static)
        return str(draft.render()) if draft.display else ""

    def show_steps(self, calls: list[Any], seconds: float | None = None) -> None:
        """A stored turn's steps and how long it took."""
        self.calls += calls
        self.steps += [f"· {step_line(call)}" for call in calls]
        self.seconds, self.stored = seconds, True

    async def show_answer(self, resolved: str, text: str, citations: list[Any]) -> None:
        """The answer as Markdown, the resolved question when it differs, the citations."""
        self.status = "answered"
        with self.app.batch_update():  # one layout for the whole answer
            self._settle_steps()
            self.query_one(".draft").display = False
            if resolved and resolved != self.question:
                resolved_line = self.query_one(".resolved", Static)
                resolved_line.update(Text.assemble(("  ↳ read as: ", "dim"), resolved))
                resolved_line.display = True
            answer = self.query_one(".answer", Markdown)
            answer.display = True
            await answer.update(as_markdown(text))
            if citations:
                await self.mount(CitationList(citations, classes="citations"),
                                 before=self.query_one(".ended"))

    def show_ended(self, status: str, error: str = "") -> None:
        """A cancelled, failed or unanswered turn."""
        if self._draft_due:  # what came before the end is shown too
            self._show_draft()
        self.status = status
        self._settle_steps()  # a streamed draft stays: it is what the user had read
        ended = self.query_one(".ended", Static)
        message = ENDED.get(status, status)
        if error and status == "failed":
            message = f"{message}: {error}"
        ended.update(Text(message, style="italic"))
        ended.display = True

    @property
    def citations(self) -> CitationList | None:
        found = self.query(CitationList)
        return found.first() if found else None


MAX_TURNS = 10
"""Turns kept on screen: every turn costs layout time, so a long session shows its last ones
(the whole session is one export away). Each layout of the screen walks every widget of every
turn kept; at 30 turns (320 widgets) an answer arriving took the event loop 100–300 ms of CPU,
at 10 about a third of that (bench/tui.py: loop_stall_while_answering)."""


class ChatLog(VerticalScroll):
    """The conversation so far, newest at the bottom (the last MAX_TURNS turns)."""

    BINDINGS = [
        Binding("home", "scroll_home", "top", show=False, id="chat-top",
                tooltip="Scroll to the first turn"),
        Binding("end", "scroll_end", "bottom", show=False, id="chat-bottom",
                tooltip="Scroll to the last turn"),
    ]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.can_focus = True
        self.hint_text = ""
        """The hint shown while the chat is empty (an open's failure stays here)."""
        self.trace_expanded = False
        """Whether answers show every tool step (Ctrl+T) or one line."""

    def compose(self) -> ComposeResult:
        yield Static("", id="chat-earlier")
        yield Static("", id="chat-hint")
        yield ExampleQuestions(id="chat-examples")

    def on_mount(self) -> None:
        self.query_one("#chat-earlier").display = False
        self.examples.display = False
        self.hidden_turns = 0

    @property
    def examples(self) -> ExampleQuestions:
        return self.query_one("#chat-examples", ExampleQuestions)

    def set_examples(self, questions: list[str]) -> None:
        """Questions offered while the chat is empty."""
        self.examples.show(questions)
        self.examples.display = bool(questions) and not self.turns

    def set_hint(self, text: str) -> None:
        """The line shown while the chat is empty."""
        self.hint_text = text
        self.query_one("#chat-hint", Static).update(Text(text, style="dim"))

    async def clear_turns(self) -> None:
        await self.query(TurnView).remove()
        self.hidden_turns = 0
        self.query_one("#chat-earlier").display = False
        self.query_one("#chat-hint").display = True
        self.examples.display = bool(self.examples.questions)

    def toggle_trace(self) -> bool:
        """Show every step of every answer, or one line each; True when now expanded."""
        self.trace_expanded = not self.trace_expanded
        for turn in self.turns:
            turn.show_trace(self.trace_expanded)
        return self.trace_expanded

    async def add_turn(self, question: str, n: int = 0, limit: int = 0) -> TurnView:
        """A new turn at the end of the chat; `limit` caps its streamed answer
        (model.max_answer_chars)."""
        view = TurnView(question, n, limit)
        view.expanded = self.trace_expanded
        self.query_one("#chat-hint").display = False
        self.examples.display = False
        await self.mount(view)
        turns = self.turns
        if len(turns) > MAX_TURNS:
            await turns[0].remove()
            self._hide_earlier(1)
        # anchored, not just scrolled: the newest turn stays in view while its answer grows
        # and when the terminal is resized (until the reader scrolls up)
        self.anchor()
        return view

    def _hide_earlier(self, count: int) -> None:
        self.hidden_turns += count
        earlier = self.query_one("#chat-earlier", Static)
        n = self.hidden_turns
        earlier.update(Text(f"… {n} earlier turn{'s' if n != 1 else ''} of this session not "
                            "shown (Ctrl+S exports the whole session)", style="dim italic"))
        earlier.display = True

    async def add_stored_turns(self, turns: list[Any]) -> None:
        """A session's turns from the store (resuming it): the last MAX_TURNS of them."""
        if len(turns) > MAX_TURNS:
            self._hide_earlier(len(turns) - MAX_TURNS)
        for turn in turns[-MAX_TURNS:]:
            await self.add_stored_turn(turn)

    async def add_stored_turn(self, turn: Any) -> TurnView:
        """A turn from the session store."""
        view = await self.add_turn(turn.question, turn.n)
        view.expanded = self.trace_expanded
        seconds = ((turn.answered - turn.created).total_seconds() if turn.answered else None)
        view.show_steps(turn.tool_calls, seconds)
        if turn.status == "answered":
            await view.show_answer(turn.resolved_question, turn.answer, turn.citations)
        else:
            view.show_ended(turn.status, turn.error)
        return view

    @property
    def turns(self) -> list[TurnView]:
        return list(self.query(TurnView))

    @property
    def last_turn(self) -> TurnView | None:
        turns = self.turns
        return turns[-1] if turns else None
