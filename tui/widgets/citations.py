"""The numbered citations under an answer; Enter (or the digit) opens the cited passage."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from stores.models import chapter_label, shown_path


def citation_fields(citation: Any) -> dict[str, Any]:
    """A Citation model or its stored dict, as a dict."""
    return citation.model_dump() if hasattr(citation, "model_dump") else dict(citation)


def citation_label(n: int, citation: dict[str, Any], width: int = 60) -> Text:
    """`[1] ch. 3 · 03.txt:12-15  «quote…»`"""
    lines = citation.get("lines") or (0, 0)
    source = shown_path(PurePath(citation.get("source") or "").name)
    where = chapter_label(citation.get("chapter", 0), False)
    if source:
        where += f" · {source}:{lines[0]}-{lines[1]}"
    quote = (citation.get("quote") or "").replace("\n", " ")
    if len(quote) > width:
        quote = quote[: width - 1] + "…"
    return Text.assemble((f"[{n}] ", "bold"), (where, "dim"), "  «", quote, "»")


class CitationList(OptionList):
    """One answer's citations. Posts `CitationList.Opened` for the one chosen."""

    BINDINGS = [
        Binding(str(n), f"open_number({n})", f"open [{n}]", show=False, id=f"citation-{n}",
                tooltip=f"Open citation [{n}] of this answer")
        for n in range(1, 10)
    ]

    @dataclass
    class Opened(Message):
        """The reader wants to see a cited passage."""

        chunk_id: str
        quote: str

    @dataclass
    class TypedOn(Message):
        """A key that opens no citation was typed here: it is the start of a question (after a
        passage is closed the list has the focus, and a newcomer's typing went nowhere)."""

        character: str

    def on_key(self, event: events.Key) -> None:
        if event.is_printable and event.character and event.character not in "123456789":
            event.stop()
            self.post_message(self.TypedOn(event.character))

    def __init__(self, citations: list[Any], **kwargs: Any) -> None:
        self.citations = [citation_fields(c) for c in citations]
        options = [Option(citation_label(i, c), id=str(i - 1))
                   for i, c in enumerate(self.citations, start=1)]
        super().__init__(*options, **kwargs)
        self.tooltip = "Enter or 1-9 opens the cited passage"

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._open(int(event.option.id or 0))

    def action_open_number(self, n: int) -> None:
        if 0 < n <= len(self.citations):
            self._open(n - 1)

    def _open(self, index: int) -> None:
        citation = self.citations[index]
        self.post_message(self.Opened(citation["chunk_id"], citation.get("quote", "")))
