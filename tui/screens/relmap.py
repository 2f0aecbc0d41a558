"""The relations map: the entity in the middle, its relations around it grouped by kind.

Three columns: kinds on the left, the centre with the names most often in the same passages
(co-occurrence, named as such) under it, kinds on the right (agent.views.relmap puts each kind on the
side with fewer names). Up and down move within a column, left and right between columns;
Enter recentres the map on the highlighted name, `s` opens the sentence that states the
relation, `h` switches between one and two hops. The line under the columns says what the
highlighted relation is, where, and in which words. The screen asks the app for its map
(`MapScreen.LoadWanted`); a worker answers with `MapScreen.Loaded`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from tui.messages import CardRequested, ExportRequested, PassageRequested

if TYPE_CHECKING:
    from agent.views.relmap import Link, RelationMap, Together

COLUMNS = ("#map-left", "#map-together", "#map-right")


@dataclass(frozen=True)
class Row:
    """What one line of a column stands for: a relation link, or a name in the same passages."""

    name: str
    link: Link | None = None
    together: Together | None = None


def link_label(link: Link) -> Text:
    """`韩峥  sworn brother · lore`, a second hop indented under its first: `└ 顾青禾  wife`."""
    indent = "  └ " if link.hop > 1 else ""
    return Text.assemble(indent, (link.far, "bold"), "  ", (link.roles, "italic"),
                         (f" · {link.where}", "dim"))


def together_label(together: Together) -> Text:
    return Text.assemble((together.name, "bold"), (f"  {together.passages} passages", "dim"))


def detail(row: Row | None, found: RelationMap) -> Text:
    """What the highlighted line stands for: the relation, where it is stated, the sentence."""
    if row is None:
        return Text("")
    if row.together is not None:
        t = row.together
        return Text.assemble((f"{found.centre} and {t.name}", "bold"),
                             f" are named together in {t.passages} passages — co-occurrence, "
                             "not a relation the text states.  s: the first of them")
    assert row.link is not None
    lines = Text()
    for n, tie in enumerate(row.link.ties):
        said = (f"“{tie.sentence}”" if tie.sentence else
                f"declared in {tie.declared_in}" if tie.declared_in else "no sentence found")
        lines.append("\n" if n else "")
        lines.append_text(Text.assemble((tie.statement(), "bold"), (f" · {tie.where}: ", "dim"),
                                        said))
    return lines


class MapScreen(Screen[None]):
    """The map of one entity; Esc goes back to the chat."""

    BINDINGS = [
        Binding("escape,q", "close", "close", id="map-close", tooltip="Back to the chat"),
        Binding("left", "column(-1)", "left", show=False, id="map-column-left",
                tooltip="Move to the column on the left"),
        Binding("right", "column(1)", "right", show=False, id="map-column-right",
                tooltip="Move to the column on the right"),
        Binding("s", "sentence", "sentence", id="map-sentence",
                tooltip="Open the passage that states the highlighted relation, at its sentence"),
        Binding("h", "hops", "1/2 hops", id="map-hops",
                tooltip="Draw one hop of relations, or two (the relations of each relative)"),
        Binding("backspace", "back", "back", id="map-back",
                tooltip="Recentre on the entity the map showed before"),
        Binding("c", "card", "card", id="map-card",
                tooltip="Open the highlighted entity's card"),
        Binding("ctrl+s", "export", "export SVG", id="map-export",
                tooltip="Save this map as an SVG picture (the export menu has the other formats)"),
    ]

    @dataclass
    class LoadWanted(Message):
        """The screen wants the map of `entity` with `hops` hops (a `Loaded` back)."""

        screen: MapScreen
        entity: str
        hops: int

    @dataclass
    class Loaded(Message):
        """The map to show."""

        map: RelationMap

    def __init__(self, entity: str, hops: int = 1) -> None:
        super().__init__()
        self.entity, self.hops = entity, hops
        self.map: RelationMap | None = None
        self.rows: dict[str, list[Row]] = {column: [] for column in COLUMNS}
        self.history: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static(f"Relations of {self.entity} · drawing…", id="map-heading")
        with Horizontal(id="map-body"):
            yield OptionList(id="map-left", classes="map-column")
            with Vertical(id="map-middle"):
                yield Static(self.entity, id="map-centre")
                yield OptionList(id="map-together", classes="map-column")
            yield OptionList(id="map-right", classes="map-column")
        yield Static("", id="map-detail")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#map-together").border_title = "same passages"
        self.query_one("#map-together").border_subtitle = "not a relation"
        self.post_message(self.LoadWanted(self, self.entity, self.hops))

    # -- showing a map ------------------------------------------------------------------------
    @on(Loaded)
    def _loaded(self, event: Loaded) -> None:
        from agent.views.pictures import (
            kind_colour,  # here: the app starts without the map's imports
        )

        found = event.map
        if self.map is not None and self.map.centre != found.centre:
            self.history.append(self.map.centre)
        self.map, self.entity, self.hops = found, found.centre, found.hops
        self.query_one("#map-heading", Static).update(Text(f"Relations of {found.heading()}",
                                                           style="bold"))
        self.query_one("#map-centre", Static).update(Text(found.centre, style="bold"))
        sides: dict[bool, list[Row]] = {True: [], False: []}
        labels: dict[bool, list[Option]] = {True: [], False: []}
        for kind, links in found.groups:
            left = found.on_left(kind)
            labels[left].append(Option(Text(f"{kind.title} ({len(links)})",
                                            style=f"bold {kind_colour(kind)}"), disabled=True))
            sides[left].append(Row(""))
            for link in links:
                for each in (link, *link.onward):
                    labels[left].append(Option(link_label(each)))
                    sides[left].append(Row(each.far, link=each))
                if link.more:
                    labels[left].append(Option(Text(f"  └ {link.more} more", style="dim"),
                                               disabled=True))
                    sides[left].append(Row(""))
        if not found.groups:
            scope = f" up to ch. {found.horizon}" if found.horizon else ""
            labels[True].append(Option(Text(f"No relation of {found.centre} was read from the text{scope}.",
                                            style="dim italic"), disabled=True))
            sides[True].append(Row(""))
        together = [Row(t.name, together=t) for t in found.together]
        self._fill("#map-left", labels[True], sides[True])
        self._fill("#map-right", labels[False], sides[False])
        self._fill("#map-together", [Option(together_label(r.together)) for r in together
                                     if r.together], together)
        # the relations first; co-occurrence only when the text states none
        first = next((c for c in (COLUMNS[0], COLUMNS[2], COLUMNS[1])
                      if any(r.name for r in self.rows[c])), COLUMNS[1])
        self.query_one(first, OptionList).focus()
        self._show_detail()

    def _fill(self, column: str, options: list[Option], rows: list[Row]) -> None:
        view = self.query_one(column, OptionList)
        self.rows[column] = rows
        view.set_options(options)
        view.highlighted = next((i for i, r in enumerate(rows) if r.name), None)

    @property
    def row(self) -> Row | None:
        """The line highlighted in the focused column."""
        focused = self.focused
        if not isinstance(focused, OptionList) or focused.highlighted is None:
            return None
        rows = self.rows.get(f"#{focused.id}", [])
        at = focused.highlighted
        return rows[at] if at < len(rows) and rows[at].name else None

    def _show_detail(self) -> None:
        if self.map is not None:
            self.query_one("#map-detail", Static).update(detail(self.row, self.map))

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list is self.focused:
            self._show_detail()

    def on_descendant_focus(self) -> None:
        self._show_detail()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if (row := self.row) is not None:
            self._load(row.name, self.hops)

    def _load(self, entity: str, hops: int) -> None:
        self.query_one("#map-heading", Static).update(f"Relations of {entity} · drawing…")
        self.post_message(self.LoadWanted(self, entity, hops))

    # -- keys --------------------------------------------------------------------------------
    def action_column(self, step: int) -> None:
        """Focus the next column with names in that direction, on the line nearest the one
        highlighted now."""
        focused = self.focused
        current = f"#{focused.id}" if isinstance(focused, OptionList) else COLUMNS[1]
        at = COLUMNS.index(current) if current in COLUMNS else 1
        here = focused.highlighted if isinstance(focused, OptionList) else 0
        for column in COLUMNS[at + step::step] if step > 0 else COLUMNS[:at][::-1]:
            rows = self.rows[column]
            named = [i for i, r in enumerate(rows) if r.name]
            if named:
                view = self.query_one(column, OptionList)
                view.highlighted = min(named, key=lambda i: abs(i - (here or 0)))
                view.focus()
                return

    def action_sentence(self) -> None:
        row = self.row
        if row is None:
            return
        if row.together is not None:
            self.app.post_message(PassageRequested(row.together.chunk_id, row.together.name))
            return
        assert row.link is not None
        tie = next((t for t in row.link.ties if t.chunk_id), None)
        if tie is None:
            self.notify("No passage states this relation.", severity="warning")
            return
        self.app.post_message(PassageRequested(tie.chunk_id, tie.sentence))

    def action_hops(self) -> None:
        self._load(self.entity, 1 if self.hops > 1 else 2)

    def action_back(self) -> None:
        if self.history:
            entity = self.history.pop()
            self.map = None  # recentring back is not a step forward
            self._load(entity, self.hops)

    def action_card(self) -> None:
        row = self.row
        self.app.post_message(CardRequested(row.name if row else self.entity))

    def action_export(self) -> None:
        self.app.post_message(ExportRequested("map", "svg", entities=(self.entity,),
                                              hops=self.hops))

    def action_close(self) -> None:
        self.dismiss()
