"""The card view: who or what an entity is, as of the spoiler horizon, with its citations."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from tui.widgets.citations import citation_fields, citation_label


def card_body(answer: Any) -> Text:
    """The card's sentences, then its citations one a line."""
    body = Text(answer.text)
    for n, citation in enumerate(answer.citations, start=1):
        body.append("\n")
        body.append_text(citation_label(n, citation_fields(citation), width=100))
    return body


class CardScreen(ModalScreen[None]):
    """Esc closes; the card scrolls with the arrow keys."""

    BINDINGS = [
        Binding("escape,q", "dismiss", "close", id="card-close",
                tooltip="Close the card and go back"),
    ]

    def __init__(self, entity: str, answer: Any, horizon: int) -> None:
        super().__init__(classes="dialog")
        self.entity, self.answer, self.horizon = entity, answer, horizon

    def compose(self) -> ComposeResult:
        as_of = f" · as of ch. {self.horizon}" if self.horizon else ""
        with Vertical(id="card-box"):
            yield Static(f"Card · {self.entity}{as_of}", id="card-heading")
            with VerticalScroll(id="card-scroll"):
                yield Static(card_body(self.answer), id="card-text")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#card-scroll").focus()
