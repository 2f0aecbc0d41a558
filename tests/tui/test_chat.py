"""Asking, following up, opening a citation, cancelling with Esc and quitting mid-answer."""

from __future__ import annotations

import asyncio
import threading

import pytest

from agent.world.blocking import run_blocking
from sessions.store import SessionStore
from tests.tui.conftest import SIZE, ask, settle
from tui.screens.main import MainScreen
from tui.screens.passage import PassageScreen
from tui.widgets.chat import as_markdown
from tui.widgets.citations import CitationList

# Every test here runs the app under Pilot on a copy of the demo world: slow (pyproject.toml).
pytestmark = pytest.mark.slow


async def test_ask_shows_steps_answer_citations_and_stack(app, settings):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.conversation is not None and app.conversation.world == "demo"
        await pilot.press("f2", *"Who is Eleanor Vance?")  # typed key by key
        assert app.main.question.value == "Who is Eleanor Vance?"
        await pilot.press("enter")
        await settle(pilot)
        view = app.main.chat.last_turn
        assert view.status == "answered"
        assert view.question == "Who is Eleanor Vance?"
        assert view.steps, "the tool steps were shown as they happened"
        stored = app.conversation.turns()[-1]
        assert stored.status == "answered" and stored.question == "Who is Eleanor Vance?"
        assert view.query_one(".answer").source == as_markdown(stored.answer)
        citations = view.query_one(CitationList)
        assert citations.option_count == len(stored.citations) > 0
        assert "[1]" in stored.answer
        assert app.main.stack.entities == [e.entity for e in app.conversation.stack()]
        assert "Eleanor Vance" in app.main.stack.entities
        assert app.main.question.value == ""


async def test_follow_up_with_a_pronoun_shows_how_it_was_read(app):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        first = await ask(pilot, "沈砚的结义兄弟是谁？")
        assert first.status == "answered"
        assert not first.query_one(".resolved").display  # nothing to resolve
        follow = await ask(pilot, "他为什么要毒死师父？")
        assert follow.status == "answered"
        stored = app.conversation.turns()[-1]
        assert "韩峥" in stored.resolved_question
        resolved = follow.query_one(".resolved")
        assert resolved.display and stored.resolved_question in str(resolved.render())
        assert app.main.stack.entities[0] == "韩峥"


async def test_a_citation_opens_its_passage(app):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        view = await ask(pilot, "沈砚在柳溪镇靠什么过活？")
        first = view.query_one(CitationList).citations[0]
        await pilot.press("f5")
        assert app.focused is view.query_one(CitationList)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PassageScreen)
        passage = app.screen.passage
        assert passage.chapter == first["chapter"]
        assert first["quote"] in passage.text
        assert f"Chapter {passage.chapter}" in str(app.screen.query_one("#passage-heading")
                                                   .render())
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)
        # back on the citations, what is typed is a question (a newcomer's went nowhere, and
        # Enter opened the passage again)
        await pilot.press("w", "h", "o")
        await pilot.pause()
        assert app.focused is app.main.question and app.main.question.value == "who"


def _gate(app) -> tuple[threading.Event, asyncio.Task]:
    """Hold the world's store lane with a slow call, as a slow index would: the answer waits."""
    gate = threading.Event()
    blocker = asyncio.ensure_future(run_blocking(app.conversation.retriever, gate.wait))
    return gate, blocker


async def test_escape_cancels_the_answer_and_the_app_stays_responsive(app, settings):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        gate, blocker = _gate(app)
        await asyncio.sleep(0.05)
        app.main.question.value = "沈砚的结义兄弟是谁？"
        await pilot.press("enter")
        await pilot.pause()
        assert app.answering and app.main.status.activity.startswith("answering")
        await pilot.press("f3")  # keys still work while the answer is being built
        assert app.focused is app.main.stack
        await pilot.press("pagedown", "f2", *"abc")
        assert app.main.question.value == "abc"
        await pilot.press("escape")
        gate.set()
        await blocker
        await settle(pilot)
        view = app.main.chat.last_turn
        assert view.status == "cancelled" and not app.answering
        turn = app.conversation.turns()[-1]
        assert (turn.question, turn.status) == ("沈砚的结义兄弟是谁？", "cancelled")
        again = await ask(pilot, "沈砚的结义兄弟是谁？")
        assert again.status == "answered"


async def test_quitting_mid_answer_saves_the_turn_as_cancelled(app, settings):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        session_id = app.conversation.session.id
        gate, blocker = _gate(app)
        await asyncio.sleep(0.05)
        app.main.question.value = "苏绾用什么剑？"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("ctrl+c")
        gate.set()
        await blocker
    with SessionStore(settings.sessions_path) as store:
        turns = store.turns(session_id)
    assert [(t.question, t.status) for t in turns] == [("苏绾用什么剑？", "cancelled")]


async def test_a_long_session_keeps_its_last_turns_on_screen(app, monkeypatch):
    import tui.widgets.chat

    monkeypatch.setattr(tui.widgets.chat, "MAX_TURNS", 2)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for question in ("苏绾是谁？", "韩峥是谁？", "顾青禾是谁？"):
            await ask(pilot, question)
        assert [t.question for t in app.main.chat.turns] == ["韩峥是谁？", "顾青禾是谁？"]
        earlier = app.main.chat.query_one("#chat-earlier")
        assert earlier.display and "1 earlier turn of this session" in str(earlier.render())
        assert app.main.status.session == "苏绾是谁？ · 3 turns"
