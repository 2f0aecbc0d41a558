"""The passage view: a cited passage (or a timeline appearance) with the text around it."""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from stores.models import shown_path


def passage_heading(passage: Any) -> str:
    """`Chapter 3 · 第三回 … — 03.txt, lines 12-20`"""
    title = f" · {passage.chapter_title}" if passage.chapter_title else ""
    source = shown_path(PurePath(passage.source).name)
    return (f"Chapter {passage.chapter}{title} — {source}, "
            f"lines {passage.lines[0]}-{passage.lines[1]}")


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
