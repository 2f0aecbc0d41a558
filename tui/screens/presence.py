"""The presence chart: chapters across, a handful of entities down, each cell shaded by the
entity's mentions in that chapter; the highlighted cell's passages are listed under the grid.

The entities are picked on the left (the tracked one and the entity stack's: Space picks or
drops one); the arrow keys move over the grid (a DataTable: Textual's own keyboard grid), Enter
goes to the cell's passages and Enter there opens one. The screen asks the app for its chart
(`ChartScreen.LoadWanted`); a worker answers with `ChartScreen.Loaded`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, OptionList, SelectionList, Static
from textual.widgets.option_list import Option

from tui.messages import ExportRequested, PassageRequested

if TYPE_CHECKING:
    from agent.views.presence import Presence

SHADES = ("", "#deebf7", "#9ecae1", "#6baed6", "#3182bd", "#08519c")
"""Cell backgrounds from one mention to the most (agent.views.presence.SHADES without the white)."""
MAX_PICKED = 6
"""agent.views.presence.MAX_ENTITIES: more rows stop being comparable."""


def cell(count: int, shade: int, width: int = 3) -> Text:
    """A cell: its count on its shade, light ink on the dark shades; blank when absent."""
    if not count:
        return Text("·".rjust(width), style="dim")
    ink = "white" if shade >= 4 else "black"
    return Text(f"{count:>{width}}", style=f"{ink} on {SHADES[shade]}")


def column_width(chart: Presence) -> int:
    """Wide enough for the longest count or chapter number and a space before it: three
    figures side by side ran together (ch. 26-28 of 关羽 read '92 61120 96')."""
    counts = (chart.count(e, c) for e in chart.entities for c in chart.chapters)
    longest = max((len(str(n)) for n in (*chart.chapters, *counts)), default=2)
    return max(3, longest + 1)


class ChartScreen(Screen[None]):
    """Esc goes back to the chat."""

    BINDINGS = [
        Binding("escape,q", "close", "close", id="chart-close", tooltip="Back to the chat"),
        Binding("ctrl+s", "export", "export SVG", id="chart-export",
                tooltip="Save this chart as an SVG picture (the export menu has PNG, CSV, JSON)"),
        Binding("p", "pick", "pick names", id="chart-pick",
                tooltip="Go to the names beside the chart: Space adds or removes a row"),
    ]

    @dataclass
    class LoadWanted(Message):
        """The screen wants the chart of these entities (a `Loaded` back)."""

        screen: ChartScreen
        entities: list[str]

    @dataclass
    class Loaded(Message):
        chart: Presence

    def __init__(self, choices: list[str], picked: list[str]) -> None:
        super().__init__()
        self.choices = list(dict.fromkeys([*picked, *choices]))
        self.picked = picked[:MAX_PICKED]
        self.chart: Presence | None = None

    def compose(self) -> ComposeResult:
        yield Static("Presence · drawing…", id="chart-heading")
        with Horizontal(id="chart-body"):
            yield SelectionList[str](*[(name, name, name in self.picked)
                                       for name in self.choices], id="chart-pick")
            yield DataTable(id="chart-grid", cursor_type="cell", cell_padding=0,
                            zebra_stripes=False)
        yield OptionList(id="chart-passages")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#chart-pick").border_title = "names · p, Space"
        self.query_one("#chart-passages").border_title = "passages"
        self.post_message(self.LoadWanted(self, self.picked))

    @on(Loaded)
    def _loaded(self, event: Loaded) -> None:
        chart = self.chart = event.chart
        self.query_one("#chart-heading", Static).update(Text(chart.heading(), style="bold"))
        grid = self.query_one("#chart-grid", DataTable)
        grid.clear(columns=True)
        width = column_width(chart)
        for chapter in chart.chapters:
            grid.add_column(Text(f"{chapter:>{width}}"), key=str(chapter), width=width)
        for entity in chart.entities:
            grid.add_row(*(cell(chart.count(entity, c), chart.shade(chart.count(entity, c)), width)
                           for c in chart.chapters), key=entity, label=Text(entity, style="bold"))
        grid.focus()
        self._list(0, 0)

    @on(DataTable.CellHighlighted)
    def _cell(self, event: DataTable.CellHighlighted) -> None:
        self._list(event.coordinate.row, event.coordinate.column)

    @on(DataTable.CellSelected)
    def _open_cell(self, event: DataTable.CellSelected) -> None:
        passages = self.query_one("#chart-passages", OptionList)
        if passages.option_count and not passages.get_option_at_index(0).disabled:
            passages.highlighted = 0
            passages.focus()

    def _list(self, row: int, column: int) -> None:
        """List the passages of the cell at (row, column)."""
        chart = self.chart
        passages = self.query_one("#chart-passages", OptionList)
        if chart is None or not chart.entities or not chart.chapters:
            passages.set_options([])
            return
        entity = chart.entities[min(row, len(chart.entities) - 1)]
        chapter = chart.chapters[min(column, len(chart.chapters) - 1)]
        found = chart.passages.get((entity, chapter), [])
        title = chart.titles.get(chapter, "")
        passages.border_title = (f"ch. {chapter}{' · ' + title if title else ''} · {entity}: "
                                 f"{chart.count(entity, chapter)} mentions in {len(found)} "
                                 f"passage{'s' if len(found) != 1 else ''}")
        passages.set_options([Option(Text(e.gist.replace("\n", " ")), id=e.chunk_id)
                              for e in found] or
                             [Option(Text(f"{entity} is not named in ch. {chapter}.",
                                          style="dim italic"), disabled=True)])

    @on(OptionList.OptionSelected, "#chart-passages")
    def _open_passage(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.app.post_message(PassageRequested(event.option.id, ""))

    @on(SelectionList.SelectedChanged)
    def _picked(self, event: SelectionList.SelectedChanged) -> None:
        chosen = [str(name) for name in event.selection_list.selected]
        if len(chosen) > MAX_PICKED:
            event.selection_list.deselect(chosen[-1])
            self.notify(f"A chart holds {MAX_PICKED} entities at most: drop one first.",
                        severity="warning")
            return
        if chosen and chosen != self.picked:
            self.picked = chosen
            self.post_message(self.LoadWanted(self, chosen))

    def action_export(self) -> None:
        if self.chart is not None:
            self.app.post_message(ExportRequested("chart", "svg",
                                                  entities=tuple(self.chart.entities)))

    def action_pick(self) -> None:
        """To the names: a newcomer pressed Space on the chart and nothing said where to."""
        self.query_one("#chart-pick").focus()

    def action_close(self) -> None:
        self.dismiss()
