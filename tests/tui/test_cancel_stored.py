"""Esc cancels a turn in the session as on screen (issue 39, item 3): pressed once the answer is
being stored but before it is on screen, the chat said "cancelled — the question is kept in the
session", yet the store kept the answer, and after a restart the turn came back answered. What
the chat says of every turn is what the session holds."""

from __future__ import annotations

import pytest

from sessions.store import SessionStore
from tests.tui.conftest import SIZE, make_app, settle

# the app under Pilot on a copy of the demo world: slow (pyproject.toml)
pytestmark = pytest.mark.slow

QUESTIONS = ["Who is Su Wan?", "Who is Shen Yan?", "Who is Han Zheng?", "Where is Hongzhou?",
             "Who is Eleanor Vance?", "沈砚是谁？", "苏绾是谁？", "韩峥是谁？"]


async def _esc_once_stored(pilot, question: str) -> bool:
    """Ask, and press Esc as soon as the store holds the answer while the app still builds it
    (a summary is written after each turn: summary_every = 1). True when Esc came then."""
    app = pilot.app
    assert await app.submit_question(question)
    for _ in range(20_000):
        await pilot.pause(0)
        turn = app.conversation.current_turn
        if not app.answering:
            return False  # the answer was on screen first: nothing to cancel
        if turn is not None and turn.question == question:
            stored = app.conversation.store.get_turn(turn.id)
            if stored is not None and stored.status == "answered":
                await pilot.press("escape")
                return True
    return False


async def test_esc_after_the_answer_is_stored_stores_it_cancelled(settings):
    settings = settings.model_copy(update={"sessions": settings.sessions.model_copy(
        update={"summary_every": 1})})
    app = make_app(settings)
    caught = 0
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for question in QUESTIONS:
            caught += await _esc_once_stored(pilot, question)
            await settle(pilot)
            view, session = app.main.chat.last_turn, app.conversation.session.id
            stored = app.conversation.turns()[-1]
            assert (view.question, view.status) == (stored.question, stored.status)
            if caught >= 2:
                break
        shown = [(t.question, t.status) for t in app.main.chat.turns]
        stack = list(app.main.stack.entities)
    assert caught, "Esc never came between storing the answer and showing it"
    assert ("cancelled" in {s for _, s in shown})
    with SessionStore(settings.sessions_path) as store:  # as a restart reads it
        assert [(t.question, t.status) for t in store.turns(session)] == shown
        assert [e.entity for e in store.stack(session)] == stack
