"""Errors reach the user as notifications that say what to do; the question is never lost."""

from __future__ import annotations

import socket

import pytest

from tests.tui.conftest import SIZE, ask, make_app, settle

# Every test here runs the app under Pilot on a copy of the demo world: slow (pyproject.toml).
pytestmark = pytest.mark.slow


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again when the block ends: connections are refused


async def test_a_model_server_that_is_down_fails_the_turn_with_a_hint(settings):
    settings.model.provider = "openai"
    settings.model.base_url = f"http://127.0.0.1:{_closed_port()}/v1"
    settings.model.name = "qwen2.5:7b"
    settings.model.retries = 0
    app = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "qwen2.5:7b @ http://127.0.0.1" in str(app.main.status.render())
        view = await ask(pilot, "沈砚的结义兄弟是谁？")
        assert view.status == "failed"
        errors = [note for severity, note in app.notes if severity == "error"]
        assert errors and "→" in errors[-1], errors  # what went wrong, then what to do
        assert "Traceback" not in errors[-1]
        turn = app.conversation.turns()[-1]
        assert (turn.question, turn.status) == ("沈砚的结义兄弟是谁？", "failed")
        assert not app.answering
        await pilot.press("f2", *"still typing")
        assert app.main.question.value == "still typing"


async def test_a_bad_model_setting_is_reported_when_the_world_opens(settings):
    settings.model.provider = "openai"  # and no base_url
    app = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.conversation is not None  # the world still opens for reading
        errors = [note for severity, note in app.notes if severity == "error"]
        assert any("model.base_url" in e and "Ollama" in e for e in errors), errors
