"""The world switcher: the ingested worlds with their size; Enter opens one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.state import WorldInfo

DEMO_OPTION = "+demo"


def world_label(info: WorldInfo, current: bool) -> Text:
    label = Text.assemble(("● " if current else "  ", "bold"), (info.name, "bold"),
                          ("  " + info.size(), "dim"))
    if info.state != "ready":
        label.append(f"  ({info.state}: run lore ingest again)", style="red")
    return label


class WorldList(OptionList):
    """The worlds, a cursor that stops at either end: Up past the first world wrapped onto the
    last line, "+ ingest the bundled demo world", and one Enter then ingested it (a newcomer's
    trial, pressing Up twice to reach the top)."""

    def action_cursor_up(self) -> None:
        if self.highlighted:
            super().action_cursor_up()

    def action_cursor_down(self) -> None:
        if self.highlighted is None or self.highlighted < self.option_count - 1:
            super().action_cursor_down()


class WorldSwitcher(ModalScreen[str | None]):
    """Dismisses with the chosen world's name, DEMO_OPTION to ingest the demo, or None."""

    BINDINGS = [Binding("escape", "close", "close", id="worlds-close",
                        tooltip="Back without switching")]

    @dataclass
    class Loaded(Message):
        """The ingested worlds, newest first."""

        worlds: list[WorldInfo]

    @dataclass
    class LoadWanted(Message):
        """The switcher wants the worlds (a `Loaded` back, from the app's workers)."""

        switcher: WorldSwitcher

    def __init__(self, current: str | None) -> None:
        super().__init__(classes="dialog")
        self.current = current
        self.names: list[str] = []

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Static("Worlds", classes="dialog-title")
            yield WorldList(id="worlds-list")
            yield Static("Enter = open    Esc = back    new worlds: lore ingest PATH... --world NAME",
                         classes="dialog-keys")

    def on_mount(self) -> None:
        self.query_one(WorldList).focus()
        self.app.post_message(self.LoadWanted(self))

    @on(Loaded)
    def _loaded(self, event: Loaded) -> None:
        menu = self.query_one(WorldList)
        options: list[Any] = [Option(world_label(w, w.name == self.current), id=w.name)
                              for w in event.worlds]
        self.names = [w.name for w in event.worlds]
        if "demo" not in self.names:
            options.append(Option("  + ingest the bundled demo world", id=DEMO_OPTION))
        menu.set_options(options)
        if self.current in self.names:
            menu.highlighted = self.names.index(self.current)
        elif options:
            menu.highlighted = 0

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_close(self) -> None:
        self.dismiss(None)
