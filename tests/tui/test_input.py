"""The question box behaves: focus comes back to it after Ctrl+N and every dialog, a paste keeps
its order without control characters, a multi-line paste is kept (joined, with a notice), and an
over-long question is refused before it is echoed or counted, staying in the box with a counter."""

from __future__ import annotations

import pytest
from textual import events

from tests.tui.conftest import SIZE, ask, settle
from tui.screens.main import MainScreen

# Every test here runs the app under Pilot on a copy of the demo world: slow (pyproject.toml).
pytestmark = pytest.mark.slow


async def test_focus_returns_to_the_question_box_after_ctrl_n(app):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await ask(pilot, "Who is Eleanor Vance?")
        await pilot.press("f4")  # the reader wandered to the timeline
        await pilot.press("ctrl+n")
        await settle(pilot)
        assert app.focused is app.main.question
        await pilot.press(*"Who is Su Wan?", "enter")
        await settle(pilot)
        assert [t.question for t in app.conversation.turns()] == ["Who is Su Wan?"]


async def test_focus_returns_to_the_question_box_after_every_dialog(app):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for key in ("ctrl+o", "ctrl+b", "ctrl+s", "ctrl+g", "f1"):
            await pilot.press("f3")  # focus elsewhere first
            await pilot.press(key)
            await settle(pilot)
            assert not isinstance(app.screen, MainScreen), key
            await pilot.press("escape")
            await settle(pilot)
            assert isinstance(app.screen, MainScreen), key
            assert app.focused is app.main.question, f"after {key} and Esc"


async def test_a_paste_drops_control_and_escape_characters_in_place(app):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f2", *"Who is ")
        app.main.question.post_message(events.Paste("\x1b[31mSu Wan\x1b[0m\x07?"))
        await pilot.pause()
        assert app.main.question.value == "Who is Su Wan?"
        await pilot.press("enter")  # the first Enter asks
        await settle(pilot)
        assert app.main.chat.last_turn.question == "Who is Su Wan?"


async def test_a_multi_line_paste_is_joined_with_a_notice(app):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f2")
        app.main.question.post_message(events.Paste("Who is Su Wan?\nAnd who\r\nis 沈砚?\n"))
        await pilot.pause()
        assert app.main.question.value == "Who is Su Wan? And who is 沈砚?"
        assert any("3 lines" in note for _, note in app.notes), app.notes


async def test_an_over_long_question_is_refused_before_it_is_echoed(app, settings):
    limit = settings.sessions.max_question_chars
    long_question = "Who is Su Wan? " * (limit // 10)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f2")
        app.main.question.value = long_question
        await pilot.pause()
        counter = str(app.main.question.border_subtitle or "")
        assert f"{len(long_question):,}" in counter and f"{limit:,}" in counter
        await pilot.press("enter")
        await settle(pilot)
        assert app.main.chat.turns == [], "a refused question is not echoed into the chat"
        assert app.conversation.turns() == [], "nor counted as a turn"
        assert app.main.question.value == long_question, "it stays in the box to shorten"
        assert any(sev == "error" and "characters" in note for sev, note in app.notes)
        app.main.question.value = "Who is Su Wan?"
        await pilot.pause()
        assert not app.main.question.border_subtitle
