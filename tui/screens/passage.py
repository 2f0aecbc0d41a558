"""The passage view: a cited passage (or a timeline appearance) with the text around it."""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

from rich.console import Console
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from stores.models import LORE_CHAPTER, shown_path


def passage_heading(passage: Any) -> str:
    """`Chapter 3 · 第三回 … — 03.txt, lines 12-20`; a lore entry, which names no chapter, is
    `Lore · 沈砚 — glossary.toml, lines 11-39` (not its sorting key, chapter 1000000)."""
    title = f" · {passage.chapter_title}" if passage.chapter_title else ""
    source = shown_path(PurePath(passage.source).name)
    where = "Lore" if passage.chapter == LORE_CHAPTER else f"Chapter {passage.chapter}"
    return f"{where}{title} — {source}, lines {passage.lines[0]}-{passage.lines[1]}"


def passage_body(text: str, quote: str = "", core: str = "") -> Text:
    """The text around a passage: the context dimmed, the passage itself plain, the quoted
    words highlighted."""
    start = text.find(core) if core else -1
    body = Text(text, style="dim" if start >= 0 else "")
    if start >= 0:
        body.stylize("not dim", start, start + len(core))
    if quote:
        body.highlight_words([quote.strip()], style="bold reverse")
    return body


def wrapped_line(text: str, offset: int, width: int, console: Console) -> int:
    """The line, once `text` is wrapped to `width` cells, on which character `offset` stands."""
    line, start = 0, 0
    for paragraph in text.split("\n"):
        end = start + len(paragraph)
        lines = Text(paragraph).wrap(console, width) if paragraph else [Text("")]
        if offset <= end:
            seen = start
            for n, piece in enumerate(lines):
                seen += len(piece.plain)
                if offset < seen:
                    return line + n
            return line + len(lines) - 1
        line += len(lines)
        start = end + 1
    return line


class PassageScreen(ModalScreen[None]):
    """Esc closes; the text scrolls with the arrow keys."""

    BINDINGS = [
        Binding("escape,q", "dismiss", "close", id="passage-close",
                tooltip="Close the passage and go back"),
    ]

    def __init__(self, passage: Any, quote: str = "", core: str = "") -> None:
        super().__init__(classes="dialog")
        self.passage, self.quote, self.core = passage, quote, core

    def compose(self) -> ComposeResult:
        with Vertical(id="passage-box"):
            yield Static(passage_heading(self.passage), id="passage-heading")
            with VerticalScroll(id="passage-scroll"):
                yield Static(passage_body(self.passage.text, self.quote, self.core), id="passage-text")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#passage-scroll").focus()
        if self.quote:  # once laid out: the wrapped lines are known then
            self.call_after_refresh(self._scroll_to_quote)

    def _scroll_to_quote(self) -> None:
        """Scroll so the quoted words stand near the top: a cited sentence or the one that
        states a relation may sit passages below the start of the text around it."""
        text, quote = self.passage.text, self.quote.strip()
        at = text.find(quote)
        view = self.query_one("#passage-text", Static)
        width = view.content_region.width
        if at < 0 or width <= 0:
            return
        line = wrapped_line(text, at, width, self.app.console)
        self.query_one("#passage-scroll", VerticalScroll).scroll_to(y=max(0, line - 2),
                                                                     animate=False)
