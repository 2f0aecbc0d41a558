"""Small things that looked broken to a newcomer: resuming shows the last turn, an exported
session has the name the session list shows, timeline rows start with their own words, and a
narrow terminal gives the chat the room."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tui.conftest import SIZE, ask, make_app, settle
from tui.state import session_title

# Every test here runs the app under Pilot on a copy of the demo world: slow (pyproject.toml).
pytestmark = pytest.mark.slow

CLOSING = "”’」』）》"
"""Closing quotes and brackets (ASCII quotes open as often as they close)."""


async def test_resuming_a_session_scrolls_to_its_last_turn(app, settings):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for question in ("沈砚是谁？", "苏绾是谁？", "韩峥是谁？", "Who is Eleanor Vance?"):
            await ask(pilot, question)
    again = make_app(settings)
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        chat = again.main.chat
        assert len(chat.turns) == 4 and chat.max_scroll_y > 0, "the session is taller than the pane"
        assert chat.scroll_y == chat.max_scroll_y, "the latest turn is in view"


async def test_after_a_resize_the_latest_answer_stays_in_view(app):
    # seen in tmux: two answers fit at 180x50; at 80x24 the chat showed the first one and
    # the latest was out of view
    async with app.run_test(size=(180, 50)) as pilot:
        await settle(pilot)
        for question in ("沈砚是谁？", "Who is Su Wan?"):
            await ask(pilot, question)
        chat = app.main.chat
        for size in ((80, 24), (50, 14), (120, 36)):
            await pilot.resize_terminal(*size)
            await settle(pilot)
            assert chat.max_scroll_y > 0, f"at {size} the turns are taller than the pane"
            assert chat.scroll_y == chat.max_scroll_y, f"at {size} the latest turn is in view"


async def test_an_exported_session_has_the_name_the_session_list_shows(app):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await ask(pilot, "沈砚是谁？")
        await app.main.run_action("app.export('session', 'md')")
        await settle(pilot)
        (path,) = [n.split("\n", 1)[1] for _, n in app.notes if n.startswith("Session saved")]
        first_line = Path(path).read_text(encoding="utf-8").splitlines()[0]
        assert first_line == f"# {session_title('', '沈砚是谁？')}"


async def test_timeline_rows_start_with_their_own_words(app):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await ask(pilot, "沈砚和韩峥是什么关系？")
        stack = app.main.stack
        stack.highlighted = stack.entities.index("沈砚")
        await pilot.press("f3", "enter")
        await settle(pilot)
        events = app.main.timeline.events
        assert len(events) > 20
        assert not [e.gist for e in events if e.gist[:1] in CLOSING]


async def test_a_narrow_terminal_gives_the_chat_the_width(app):
    async with app.run_test(size=(50, 14)) as pilot:
        await settle(pilot)
        main = app.main
        assert main.chat.size.width >= 44, "the chat keeps (nearly) the whole width"
        side = main.query_one("#side")
        assert side.region.y >= main.chat.region.bottom, "the side panes sit below it"
        await pilot.resize_terminal(120, 36)
        await settle(pilot)
        assert side.region.x >= main.chat.region.right, "and beside it again when there is room"


async def test_the_spoiler_horizon_stays_in_view_on_an_80_column_status_line(app):
    # a newcomer's trial at 80x24: the e5 upgrade's progress pushed the horizon off the line
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        status = app.main.status
        status.horizon = 3
        status.vectors = "vectors: e5 41% · searching with the fast index (use-m3)"
        await pilot.pause()
        line = status.render().plain
        assert line.index("horizon ch. 3") + len("horizon ch. 3") <= status.size.width
