"""Sessions: the app reopens the last session after a restart; the picker resumes, starts,
renames and deletes sessions (with a confirmation)."""

from __future__ import annotations

import pytest

from sessions.store import SessionStore
from tests.tui.conftest import SIZE, ask, make_app, settle
from tui.screens.dialogs import ConfirmDialog, PromptDialog
from tui.screens.sessions import SessionPicker

# Every test here runs the app under Pilot on a copy of the demo world: slow (pyproject.toml).
pytestmark = pytest.mark.slow


async def test_restarting_the_app_resumes_the_session_with_its_stack_and_timeline(settings):
    first = make_app(settings)
    async with first.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await ask(pilot, "沈砚的结义兄弟是谁？")
        await ask(pilot, "他为什么要毒死师父？")
        stack = list(first.main.stack.entities)
        first.main.stack.highlighted = stack.index("韩峥")
        await pilot.press("f3", "enter")
        await settle(pilot)
        session_id = first.conversation.session.id
        events = [e.chunk_id for e in first.main.timeline.events]
        await pilot.press("ctrl+q")
    assert first.conversation is None  # closed on the way out

    again = make_app(settings)
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert again.conversation.session.id == session_id
        turns = again.main.chat.turns
        assert [t.question for t in turns] == ["沈砚的结义兄弟是谁？", "他为什么要毒死师父？"]
        assert all(t.status == "answered" for t in turns)
        assert "韩峥" in str(turns[1].query_one(".resolved").render())
        assert again.main.stack.entities == stack
        assert again.main.timeline.entity == "韩峥"
        assert [e.chunk_id for e in again.main.timeline.events] == events
        assert "2 turns" in again.main.status.session
        # the user is told the last session goes on, and how to start another
        told = [n.message for n in again._notifications]
        assert any("Continuing the last session of demo (2 turns)" in m and "Ctrl+N" in m
                   for m in told), told


async def _open_picker(pilot) -> SessionPicker:
    await pilot.press("ctrl+o")
    await settle(pilot)
    assert isinstance(pilot.app.screen, SessionPicker)
    return pilot.app.screen


async def test_the_session_picker_starts_renames_resumes_and_deletes(app, settings):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await ask(pilot, "断鸿剑原本是谁的？")
        old = app.conversation.session.id

        await _open_picker(pilot)
        await pilot.press("n")  # a new session
        await settle(pilot)
        new = app.conversation.session.id
        assert new != old and app.main.chat.turns == []
        await ask(pilot, "韩夫人是谁？")

        picker = await _open_picker(pilot)
        assert [r.id for r in picker.rows] == [new, old]  # most recent first
        assert [(r.title, r.turns) for r in picker.rows] == [("韩夫人是谁？", 1),
                                                             ("断鸿剑原本是谁的？", 1)]
        await pilot.press("down", "r")
        assert isinstance(app.screen, PromptDialog)
        await pilot.press("ctrl+u", *"sword", "enter")
        await settle(pilot)
        assert picker.rows[1].title == "sword"

        await pilot.press("d")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")  # declined: nothing deleted
        await settle(pilot)
        assert len(picker.rows) == 2

        await pilot.press("enter")  # resume the old session
        await settle(pilot)
        assert app.conversation.session.id == old
        assert [t.question for t in app.main.chat.turns] == ["断鸿剑原本是谁的？"]
        assert app.main.status.session.startswith("sword")

        picker = await _open_picker(pilot)
        picker.query_one("DataTable").move_cursor(row=[r.id for r in picker.rows].index(new))
        await pilot.press("d", "y")
        await settle(pilot)
        assert [r.id for r in picker.rows] == [old]
        await pilot.press("escape")
        assert app.conversation.session.id == old
    with SessionStore(settings.sessions_path) as store:
        assert [s.id for s in store.list_sessions("demo")] == [old]
        assert store.get_session(old).title == "sword"


async def test_deleting_the_open_session_moves_to_another(app, settings):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await ask(pilot, "顾怀山死在哪里？")
        doomed = app.conversation.session.id
        await _open_picker(pilot)
        await pilot.press("d")
        assert "open now" in app.screen.message
        await pilot.press("y")
        await settle(pilot)
        assert app.conversation.session.id != doomed
        assert app.main.chat.turns == []


async def test_a_new_session_while_the_last_is_empty_is_that_one(app, settings):
    """Ctrl+N on a session nothing was asked in opens that same one: pressing it again and again
    left a row of '(no questions yet)' sessions in the picker (a newcomer's trial)."""
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        first = app.conversation.session.id
        for _ in range(3):
            await pilot.press("ctrl+n")
            await settle(pilot)
        assert app.conversation.session.id == first
        await ask(pilot, "韩夫人是谁？")
        await pilot.press("ctrl+n")  # after a question, a new one
        await settle(pilot)
        assert app.conversation.session.id != first
    with SessionStore(settings.sessions_path) as store:
        assert len(store.list_sessions("demo")) == 2
