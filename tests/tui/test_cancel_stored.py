"""Esc cancels a turn in the session as on screen (issue 39, item 3): pressed once the answer is
being stored but before it is on screen, the chat said "cancelled — the question is kept in the
session", yet the store kept the answer, and after a restart the turn came back answered. What
the chat says of every turn is what the session holds."""

from __future__ import annotations

import threading

import pytest

import agent.memory.summaries
from sessions.store import SessionStore
from tests.tui.conftest import SIZE, make_app, settle

# the app under Pilot on a copy of the demo world: slow (pyproject.toml)
pytestmark = pytest.mark.slow


class HeldSummary:
    """The session summary written after a stored answer, held until the test lets it go: the
    moment between storing the answer and showing it lasts as long as the test needs, however
    fast or loaded the machine is."""

    def __init__(self, summarise_due) -> None:
        self.summarise_due = summarise_due
        self.entered, self.released = threading.Event(), threading.Event()

    def __call__(self, *args, **kwargs):
        self.entered.set()
        self.released.wait(120)  # bounded: a test that forgets to release still ends
        return self.summarise_due(*args, **kwargs)


async def _esc_once_stored(pilot, held: HeldSummary, question: str) -> None:
    """Ask, and press Esc while the store holds the answer and its summary is being written."""
    app = pilot.app
    held.entered.clear()
    held.released.clear()
    assert await app.submit_question(question)
    for _ in range(20_000):
        await pilot.pause(0.01)
        if held.entered.is_set():
            break
    assert held.entered.is_set(), "the answer never reached its summary"
    stored = app.conversation.store.get_turn(app.conversation.current_turn.id)
    assert (stored.question, stored.status) == (question, "answered")
    assert app.answering  # not on screen yet
    await pilot.press("escape")
    held.released.set()


async def test_esc_after_the_answer_is_stored_stores_it_cancelled(settings, monkeypatch):
    settings = settings.model_copy(update={"sessions": settings.sessions.model_copy(
        update={"summary_every": 1})})
    held = HeldSummary(agent.memory.summaries.summarise_due)
    monkeypatch.setattr(agent.memory.summaries, "summarise_due", held)
    app = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for question in ["Who is Su Wan?", "沈砚是谁？"]:
            await _esc_once_stored(pilot, held, question)
            await settle(pilot)
            view, session = app.main.chat.last_turn, app.conversation.session.id
            stored = app.conversation.turns()[-1]
            assert (view.question, view.status) == (stored.question, stored.status)
        held.released.set()
        shown = [(t.question, t.status) for t in app.main.chat.turns]
        stack = list(app.main.stack.entities)
    assert shown == [("Who is Su Wan?", "cancelled"), ("沈砚是谁？", "cancelled")]
    with SessionStore(settings.sessions_path) as store:  # as a restart reads it
        assert [(t.question, t.status) for t in store.turns(session)] == shown
        assert [e.entity for e in store.stack(session)] == stack
