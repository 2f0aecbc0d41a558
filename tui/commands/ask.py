"""`lore ask`: one question about a world, answered with citations, in a session that carries over."""

from __future__ import annotations

import asyncio
import json
import shlex
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from stores.errors import LoreError
from stores.lang import has_han, in_quotes
from stores.models import chapter_label, chapter_number, shown_path
from tui.commands.defaults import world_option
from tui.failures import Interrupted
from tui.terminal import echo

if TYPE_CHECKING:
    from agent.conversation.session import Conversation, TurnResult


def register(app: typer.Typer) -> None:
    app.command("ask")(ask_command)


def ask_command(
    ctx: typer.Context,
    question: Annotated[str, typer.Argument(help="the question (a follow-up may say 他 / she / there)")],
    world: Annotated[str | None, typer.Option(
        "--world", callback=world_option,
        help="the world to ask about (default: the world of --session, else the "
             "only world, else the one used last)")] = None,
    session: Annotated[str | None, typer.Option(
        "--session", help="continue this session (id or unique prefix; see `lore sessions list`)")] = None,
    new: Annotated[bool, typer.Option("--new", help="start a new session")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    steps: Annotated[bool, typer.Option("--steps", help="show each tool call on stderr")] = False,
) -> None:
    """Ask a question; by default it continues the world's last session."""
    from agent.conversation.session import Conversation, checked_question, find_session
    from sessions.store import SessionStore
    from tui.commands.defaults import default_world, session_line

    settings = ctx.obj.settings
    # Before anything is opened or loaded: a refused question must not start the warm-up.
    question = checked_question(question, settings.sessions.max_question_chars)
    if session and new:
        raise LoreError("--session and --new cannot be used together", where="--new",
                        hint="continue a session with --session ID, or start one with --new")
    store = SessionStore(settings.sessions_path)
    try:
        if world is None and session is not None:
            world = find_session(store, session).world
        elif world is None:
            world, why = default_world(settings, store, f"lore ask {shlex.quote(question)}")
            echo(f"world: {world} ({why}; --world picks another)", err=True)
        conversation = Conversation.open(settings, world, session_id=session, new=new,
                                         store=store)
        echo(session_line(conversation.session, continued=conversation.session.turn_count > 0),
             err=True)
        conversation.warm_up()  # loads while the agent's modules are imported
        stream = None if as_json else TerminalStream(question, settings.model.max_answer_chars)
        try:
            result = _run(conversation, question, steps, stream)
            _print(conversation, result, as_json, stream)
        finally:
            conversation.close()
    finally:
        store.close()


CHECKED_FOLLOWS = {False: "(the answer as checked against its citations:)",
                   True: "（以下是核对过引文的回答：）"}
"""What a pipe is told before the checked answer that replaces the draft it kept, in the
question's language."""


class TerminalStream:
    """Writes the answer to stdout as it streams, "(read as: …)" first when the model read the
    question differently. What may be written of it is agent.answer.shown's: redacted (a key
    cut in two by the stream included), capped at model.max_answer_chars."""

    def __init__(self, question: str, limit: int = 0) -> None:
        from agent.answer.shown import ShownAnswer

        self.question = question
        self.answer = ShownAnswer(limit)
        self.read_as = ""
        self.stopped = False
        """The model began its answer again (its first was rejected): the answer that holds is
        printed once at the end, not streamed again."""

    @property
    def shown(self) -> str:
        """The answer text written so far."""
        return self.answer.shown

    def __call__(self, draft: Any) -> None:
        if not self.answer.received and not self.read_as and draft.resolved_question not in (
                "", self.question):
            self.read_as = draft.resolved_question
            echo(f"(read as: {self.read_as})")
        if self.stopped:
            return
        if draft.at != self.answer.received:  # the model began its answer again
            # its first answer was rejected: take back what streamed, print the checked answer
            # once at the end (a rejected reply is never streamed again)
            self._take_back()
            self.stopped = True
            echo("(that answer did not hold up against its citations; the checked answer "
                 "follows once it is ready)", err=True)
            return
        _, piece = self.answer.feed(draft)
        if piece:
            echo(piece, nl=False)
            sys.stdout.flush()

    def finish(self, text: str) -> None:
        """End the answer with its final text, printed once: the rest of it when it goes on
        from what streamed (`刘备` then ` [1]`), else in place of what streamed."""
        from sessions.scrub import scrub

        text, shown = scrub(text), self.shown
        if text.startswith(shown):
            echo(text[len(shown):])
            return
        self._take_back()
        if shown and not sys.stdout.isatty():
            # a pipe keeps the draft: say that what follows replaces it (a newcomer's log held
            # the same answer twice, the second under "(Unsupported: …)")
            echo(CHECKED_FOLLOWS[has_han(self.question)])
        echo(text)

    def _take_back(self) -> None:
        """Erase the streamed text on a terminal (a pipe keeps it, on its own line)."""
        shown = self.shown
        if shown and sys.stdout.isatty():
            from rich.cells import cell_len

            width = max(shutil.get_terminal_size().columns, 1)
            rows = sum(max(1, -(-cell_len(line) // width)) for line in shown.split("\n"))
            sys.stdout.write("\r" + (f"\x1b[{rows - 1}A" if rows > 1 else "") + "\x1b[J")
        elif shown:
            echo("")
        self.answer.pieces.clear()


def _run(conversation: Conversation, question: str, steps: bool,
         stream: TerminalStream | None) -> TurnResult:
    def show(call: Any) -> None:
        echo(f"  · {call.summary or call.tool}", err=True)

    try:
        return asyncio.run(conversation.ask(question, on_step=show if steps else None,
                                            on_text=stream))
    except LoreError as exc:
        if saved := _saved(conversation):
            exc.hint = f"{exc.hint}; {saved}" if exc.hint else saved
        raise
    except KeyboardInterrupt:
        raise Interrupted("interrupted before the answer came",
                          hint=_saved(conversation) or "run the same command again") from None


def _saved(conversation: Conversation) -> str:
    """Where the question is kept, when it got as far as the session database."""
    turn = conversation.current_turn
    if turn is None:
        return ""
    return (f"your question is saved as turn {turn.n} of session {conversation.session.id}: "
            "run the same command again to re-ask it")


def citation_rows(conversation: Conversation, result: TurnResult) -> list[dict[str, Any]]:
    """The answer's citations as `--json` prints them."""
    return [{"chunk_id": c.chunk_id, "chapter": chapter_number(c.chapter), "source": c.source,
             "lines": [c.lines[0], c.lines[1]], "quote": c.quote}
            for c in result.answer.citations]


def _print(conversation: Conversation, result: TurnResult, as_json: bool,
           stream: TerminalStream | None = None) -> None:
    answer = result.answer
    if as_json:
        echo(json.dumps({
            "answer": answer.text,
            "resolved_question": result.resolved_question,
            "citations": citation_rows(conversation, result),
            "entities": answer.entities,
            "tool_calls": [{"tool": c.tool, "args": c.args} for c in result.tool_calls],
            "stop_reason": answer.stop_reason,
            # the entity stack after the turn, most recent first; the reader's likely answer to
            # an answer that states none is the entry marked a guess, as the app shows it
            "stack": [{"entity": e.entity, "referred_as": e.referred_as, "guess": e.guess}
                      for e in result.stack],
            "likely_answer": next((e.entity for e in result.stack if e.guess), None),
            "session_id": result.session_id,
        }, ensure_ascii=False))
        return
    streamed = stream is not None and bool(stream.shown)
    if stream is not None and streamed:
        stream.finish(answer.text)
    if result.resolved_question not in (result.question, stream and stream.read_as):
        echo(f"(read as: {result.resolved_question})")
    if not streamed:
        echo(answer.text)
    if answer.citations:
        echo("")
    for i, c in enumerate(answer.citations, start=1):
        title = _own_title(conversation, c.chunk_id)
        chapter = chapter_label(c.chapter, _cjk(title or answer.text))
        heading = f"{chapter} {title}".strip()
        echo(f"[{i}] {heading} · {shown_path(Path(c.source).name)}:{c.lines[0]}–{c.lines[1]}")
        echo(f"    {in_quotes(c.quote)}")
    echo(f"\nsession {result.session_id} · turn {result.turn_n}", err=True)


def _own_title(conversation: Conversation, chunk_id: str) -> str:
    """The title of the cited passage's own chapter heading: two files of a world may share a
    chapter number (第一回.txt, chapter-01.md), and each is cited with its own title, if any."""
    chunk = conversation.retriever.chunks.get(chunk_id)
    return chunk.chapter_title if chunk is not None and not chunk.lore else ""


def _cjk(text: str) -> bool:
    from stores.lang import has_han

    return has_han(text)
