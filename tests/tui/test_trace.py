"""The tool trace is quiet: one line per answer in a reader's words, every step on Ctrl+T, never
an internal tool name or a raw list of search words."""

from __future__ import annotations

import re

import pytest

from tests.tui.conftest import SIZE, ask, make_app, settle

# Every test here runs the app under Pilot on a copy of the demo world: slow (pyproject.toml).
pytestmark = pytest.mark.slow

INTERNAL = re.compile(r"vector_search|keyword_search|graph_search|track_entity|graph:|words '|"
                      r"searching '|—\w+→")


def _trace(view) -> str:
    return str(view.query_one(".steps").render())


async def test_one_line_per_answer_and_the_steps_on_ctrl_t(app, settings):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        view = await ask(pilot, "顾怀山是怎么死的？")
        assert view.status == "answered" and view.steps
        line = _trace(view)
        assert len(line.splitlines()) == 1, line
        assert re.search(r"searched \d ways? · \d+ steps · \d+\.\d s", line), line
        await pilot.press("ctrl+t")
        expanded = _trace(view).splitlines()
        assert len(expanded) == 1 + len(view.steps), expanded
        shown = "\n".join(expanded)
        assert not INTERNAL.search(shown), shown
        assert "死 死" not in shown and not re.search(r"'[^'\n]+'", shown), "no raw word list"
        await pilot.press("ctrl+t")
        assert len(_trace(view).splitlines()) == 1
    again = make_app(settings)  # a resumed session's turns are just as quiet
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        resumed = again.main.chat.last_turn
        assert resumed.question == "顾怀山是怎么死的？"
        assert re.search(r"searched \d ways?", _trace(resumed)) and len(
            _trace(resumed).splitlines()) == 1
