"""The timeline pane: the tracked entity's appearances in story order; Enter opens one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from tui.messages import CardRequested, MapRequested


def event_label(event: Any) -> Text:
    """`ch. 3  gist of the passage`"""
    label = Text.assemble((f"ch. {event.chapter:<3}", "bold"), " ", event.gist.replace("\n", " "))
    return label


EMPTY = "No entity tracked yet.\nF3 goes to Entities: pick one,\npress Enter, and its appearances\nshow here in story order."
EMPTY_TRACKED = "No appearances of {}\nup to the spoiler horizon\n(Ctrl+B moves it)."


class Timeline(OptionList):
    """Posts `Timeline.PassageRequested` for the appearance chosen; `c` asks for the card."""

    BINDINGS = [
        Binding("enter", "select", "open passage", id="timeline-open",
                tooltip="Open the passage of this appearance"),
        Binding("c", "card", "card", id="timeline-card",
                tooltip="Open the tracked entity's card: who it is, as of the spoiler horizon"),
        Binding("m", "relation_map", "map", id="timeline-map",
                tooltip="Open the tracked entity's relations map"),
    ]

    @dataclass
    class PassageRequested(Message):
        """Show the passage of one appearance."""

        chunk_id: str

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.entity: str | None = None
        self.events: list[Any] = []

    def show(self, entity: str | None, events: list[Any]) -> None:
        """Replace the list with an entity's TimelineEvents (story order)."""
        self.entity, self.events = entity, list(events)
        self.set_options(Option(event_label(e), id=str(i)) for i, e in enumerate(self.events))
        if self.events:
            self.highlighted = 0
        else:  # an empty pane says how to fill it
            self.add_option(Option(Text(EMPTY_TRACKED.format(entity) if entity else EMPTY,
                                        style="dim italic"), disabled=True))

    def action_card(self) -> None:
        if self.entity:
            self.post_message(CardRequested(self.entity))

    def action_relation_map(self) -> None:
        if self.entity:
            self.post_message(MapRequested(self.entity))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        chosen = self.events[int(event.option.id or 0)]
        self.post_message(self.PassageRequested(chosen.chunk_id))
