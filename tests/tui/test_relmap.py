"""The relations map and the presence chart in the app (Pilot, the demo world): opened by their
keys and from the palette, moved over with the keyboard alone at 80×24, the sentence behind a
relation opened, the map exported by the app's own export key as an SVG that holds every
relation the screen shows; and snapshots of both screens at 80×24."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sessions.records import StackEntry
from sessions.store import SessionStore
from tests.tui.conftest import make_app, settle
from tui.screens.help import HelpScreen
from tui.screens.passage import PassageScreen
from tui.screens.presence import ChartScreen
from tui.screens.relmap import COLUMNS, MapScreen

# Every test here runs the app under Pilot on a copy of the demo world: slow (pyproject.toml).
pytestmark = pytest.mark.slow

SMALL = (80, 24)
NEEDS_DOT = pytest.mark.skipif(shutil.which("dot") is None,
                               reason="Graphviz's dot is not installed (apt-get install graphviz)")


def _track(settings, entity: str = "沈砚") -> None:
    """A session of the demo world tracking `entity`, its stack holding three people."""
    with SessionStore(settings.sessions_path) as store:
        session = store.create_session("demo", "map")
        turn = store.begin_turn(session.id, "沈砚的结义兄弟是谁？")
        store.finish_turn(turn.id, resolved_question="沈砚的结义兄弟是谁？", answer="韩峥。",
                          messages_json="[]", citations=[], tool_calls=[],
                          stack=[StackEntry(entity="韩峥"), StackEntry(entity="沈砚"),
                                 StackEntry(entity="苏绾")])
        store.set_tracked(session.id, entity)


@pytest.fixture
def tracked(settings):
    _track(settings)
    return settings


async def _map(pilot) -> MapScreen:
    await settle(pilot)
    await pilot.press("ctrl+r")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, MapScreen) and screen.map is not None
    return screen


def _shown(screen: MapScreen) -> set[tuple[str, str, str]]:
    """Every relation the map screen lists, as (source, type, target)."""
    return {tie.key for rows in screen.rows.values() for row in rows if row.link
            for tie in row.link.ties}


async def test_the_map_opens_on_the_tracked_entity_and_the_keys_move_over_it(tracked):
    app = make_app(tracked)
    async with app.run_test(size=SMALL) as pilot:
        screen = await _map(pilot)
        assert screen.map.centre == "沈砚" and screen.map.hops == 1
        kinds = {kind.title for kind, _ in screen.map.groups}
        assert {"sworn brothers", "master and disciple", "allies", "enemies and rivals"} <= kinds
        # the glossary's relations of 沈砚, from either end, each once
        assert {("沈砚", "mentor", "苏绾"), ("顾怀山", "mentor", "沈砚"),
                ("沈砚", "sworn_sibling", "韩峥"), ("沈砚", "enemy", "裴昭"),
                ("沈砚", "ally", "顾青禾"), ("Eleanor Vance", "ally", "沈砚"),
                ("沈砚", "rival", "韩峥")} <= _shown(screen)  # symmetric: ends in name order
        heading = str(screen.query_one("#map-heading").render())
        assert "沈砚 · 1 hop · whole story" in heading
        # the first column with relations has focus; right and left move between columns
        start = screen.focused
        assert f"#{start.id}" in (COLUMNS[0], COLUMNS[2]) and screen.row is not None
        await pilot.press("right")
        await pilot.press("left")
        await pilot.press("left")
        visited = screen.focused
        assert f"#{visited.id}" in COLUMNS and screen.row is not None
        # the detail line says what the highlighted relation is and where it is stated
        detail = str(screen.query_one("#map-detail").render())
        assert screen.row.name in detail
        # Enter recentres on the highlighted name; Backspace comes back
        name = screen.row.name
        await pilot.press("enter")
        await settle(pilot)
        assert screen.map.centre == name and screen.history == ["沈砚"]
        await pilot.press("backspace")
        await settle(pilot)
        assert screen.map.centre == "沈砚"
        # h: two hops, each relative's own relations under it
        await pilot.press("h")
        await settle(pilot)
        assert screen.map.hops == 2
        assert any(link.onward for _, links in screen.map.groups for link in links)
        assert "2 hops" in str(screen.query_one("#map-heading").render())
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, MapScreen)


async def test_s_opens_the_sentence_that_states_the_relation(tracked):
    app = make_app(tracked)
    async with app.run_test(size=SMALL) as pilot:
        screen = await _map(pilot)
        # go to 苏绾, the disciple: her relation is stated by 沈砚's glossary entry
        for column in COLUMNS:
            rows = screen.rows[column]
            at = next((i for i, r in enumerate(rows) if r.link and r.name == "苏绾"), None)
            if at is not None:
                view = screen.query_one(column)
                view.focus()
                view.highlighted = at
                break
        await pilot.pause()
        tie = screen.row.link.ties[0]
        assert tie.sentence == "苏绾之师，韩峥的结义大哥。"
        await pilot.press("s")
        await settle(pilot)
        passage = app.screen
        assert isinstance(passage, PassageScreen)
        assert passage.quote == tie.sentence and tie.sentence in passage.passage.text
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen  # back on the map, where it was


@NEEDS_DOT
async def test_the_export_key_writes_an_svg_holding_every_relation_on_screen(tracked):
    app = make_app(tracked)
    async with app.run_test(size=SMALL) as pilot:
        screen = await _map(pilot)
        await pilot.press("h")
        await settle(pilot)
        shown = _shown(screen)
        await pilot.press("ctrl+s")
        await settle(pilot)
    path = Path(next(note for _, note in app.notes if "saved to" in note).split("\n")[1])
    assert path.name == "demo-map-沈砚-2hop.svg"
    svg = ET.parse(path).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    edges = {g.get("id") for g in svg.iter(f"{ns}g") if "edge" in (g.get("class") or "")}
    assert {f"rel:{s}|{t}|{o}" for s, t, o in shown} <= edges
    texts = {t.text for t in svg.iter(f"{ns}text")}
    assert {name for s, _, o in shown for name in (s, o)} <= texts
    # nothing else is drawn as a relation (co-occurrence edges are "co:", apart)
    assert all(e.startswith(("rel:", "co:")) for e in edges)


def _box_shown(pick, index: int) -> bool:
    """Whether the X in the selection box of the list's line `index` stands out of its box."""
    strip = pick.render_line(index)
    x = next(seg for seg in strip if seg.text == "X")
    return x.style.color != x.style.bgcolor


async def test_the_chart_lists_the_passages_of_the_highlighted_cell(tracked):
    app = make_app(tracked)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+y")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ChartScreen) and screen.chart is not None
        assert screen.chart.entities == ["沈砚"] and screen.chart.chapters == list(range(1, 11))
        # pick 苏绾 from the stack's names too: p goes to them, Space on her line
        await pilot.press("p")
        pick = screen.query_one("#chart-pick")
        assert app.focused is pick
        pick.highlighted = screen.choices.index("苏绾")
        await pilot.press("space")
        await settle(pilot)
        assert screen.chart.entities == ["沈砚", "苏绾"]
        # a name not drawn shows an empty box; a drawn one its X (newcomers read a dim X as
        # ticked: Mansfield Park and a writer's own world)
        drawn, not_drawn = screen.choices.index("苏绾"), next(
            i for i, name in enumerate(screen.choices) if name not in screen.chart.entities)
        assert _box_shown(pick, drawn) and not _box_shown(pick, not_drawn)
        grid = screen.query_one("#chart-grid")
        grid.focus()
        await pilot.press("down", "right", "right")  # 苏绾, chapter 3
        await pilot.pause()
        passages = screen.query_one("#chart-passages")
        events = screen.chart.passages[("苏绾", 3)]
        assert passages.option_count == len(events) > 0
        assert "ch. 3" in passages.border_title and "苏绾" in passages.border_title
        await pilot.press("enter")  # to the passages
        await pilot.press("enter")  # open the first
        await settle(pilot)
        assert isinstance(app.screen, PassageScreen)
        assert app.screen.passage.chunk_id == events[0].chunk_id


def test_three_figure_counts_and_chapters_stand_apart_in_the_chart() -> None:
    # a newcomer's trial on 三国演义: 关羽's chapters 26-28 read '92 61120 96'
    from types import SimpleNamespace

    from tui.screens.presence import cell, column_width

    counts = {26: 92, 27: 61, 28: 120}
    chart = SimpleNamespace(entities=["关羽"], chapters=[26, 27, 28],
                            count=lambda entity, chapter: counts[chapter])
    width = column_width(chart)
    assert width == 4
    row = "".join(cell(counts[c], 1, width).plain for c in chart.chapters)
    assert row.split() == ["92", "61", "120"] and len(row) == 12
    short = SimpleNamespace(entities=["沈砚"], chapters=[1, 10], count=lambda e, c: 5)
    assert column_width(short) == 3  # the demo's chart is drawn as before


async def test_the_help_and_the_palette_name_the_map_and_the_chart(tracked):
    app = make_app(tracked)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.query_one("Markdown").source
        assert "relations map" in text and "`ctrl+r`" in text and "`ctrl+y`" in text
        assert "## Relations map" in text and "`map-sentence`" in text
        await pilot.press("escape")
        await pilot.press("ctrl+p")
        await pilot.press(*"relations map")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, MapScreen) and app.screen.map.centre == "沈砚"


# -- snapshots (pytest-textual-snapshot): update with --snapshot-update after a wanted change --
async def _map_shot(pilot) -> None:
    await _map(pilot)
    pilot.app.clear_notifications()
    await pilot.pause()


async def _chart_shot(pilot) -> None:
    await settle(pilot)
    await pilot.press("ctrl+y")
    await settle(pilot)
    pilot.app.clear_notifications()
    await pilot.pause()


def test_map_snapshot(snap_compare, tracked):
    assert snap_compare(make_app(tracked), terminal_size=SMALL, run_before=_map_shot)


def test_chart_snapshot(snap_compare, tracked):
    assert snap_compare(make_app(tracked), terminal_size=SMALL, run_before=_chart_shot)
