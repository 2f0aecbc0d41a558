"""A real model's answer streams into the chat: the app talks to the fake OpenAI-compatible server
of tests/agent/fake_llm.py through pydantic-ai's OpenAIChatModel, which sends the answer a few
characters at a time; the chat shows the text before the answer ends, and Esc still cancels."""

from __future__ import annotations

import base64
import threading
from typing import Any

import pytest
from textual.widgets import Static

from agent.readers.settings import AgentSettings, ModelSettings
from tests.agent.fake_llm import FakeServer
from tests.tui.conftest import SIZE, make_app, settle
from tui.widgets.chat import as_markdown

# Every test here runs the app under Pilot on a copy of the demo world: slow (pyproject.toml).
pytestmark = pytest.mark.slow

QUESTION = "沈砚的结义兄弟是谁？"


def remote(settings: AgentSettings, server: FakeServer) -> AgentSettings:
    return settings.model_copy(update={"model": ModelSettings(
        provider="openai", name="fake-model", base_url=server.url, retries=0)})


async def _send(pilot) -> None:
    await settle(pilot)
    await pilot.press("f2")
    pilot.app.main.question.value = QUESTION
    await pilot.press("enter")


async def _drafts_while_pending(pilot, until: int = 1) -> list[str]:
    """The chat's streamed text each time it changed while the turn was still pending."""
    seen: list[str] = []
    for _ in range(400):
        await pilot.pause(0.01)
        view = pilot.app.main.chat.last_turn
        if view is None or view.status != "pending":
            break
        if view.draft and (not seen or seen[-1] != view.draft):
            seen.append(view.draft)
            if len(seen) >= until:
                break
    return seen


async def _drafts_piece_by_piece(pilot, server: FakeServer, until: int) -> list[str]:
    """The chat's streamed text after pieces of the final answer let through one at a time:
    the next piece waits until this one is written and the chat has had a moment to show it
    (a piece the chat has not shown yet is seen with the next one)."""
    assert server.answer_gate is not None
    seen: list[str] = []

    def pending() -> bool:
        view = pilot.app.main.chat.last_turn
        return view is not None and view.status == "pending"

    for piece in range(1, 400):
        server.answer_gate.release()
        for _ in range(1000):
            await pilot.pause(0.01)
            if not pending() or server.pieces_sent >= piece:
                break
        for _ in range(20):
            await pilot.pause(0.01)
            if not pending():
                return seen
            draft = pilot.app.main.chat.last_turn.draft
            if draft and (not seen or seen[-1] != draft):
                seen.append(draft)
                break
        if len(seen) >= until:
            break
    return seen


async def test_answer_text_shows_before_the_answer_ends(settings: AgentSettings) -> None:
    with FakeServer("openai", answer_gate=threading.Semaphore(0)) as server:
        app = make_app(remote(settings, server))
        async with app.run_test(size=SIZE) as pilot:
            await _send(pilot)
            drafts = await _drafts_piece_by_piece(pilot, server, until=3)
            assert server.answer_gate is not None
            server.answer_gate.release(1000)  # the rest of the answer
            await settle(pilot)
            view = app.main.chat.last_turn
            stored = app.conversation.turns()[-1]
            assert view.status == "answered" and stored.status == "answered"
            assert len(drafts) >= 3, "the answer's text was shown while it arrived"
            assert all(stored.answer.startswith(d) and len(d) < len(stored.answer)
                       for d in drafts)
            assert view.draft == ""  # the Markdown answer took its place
            assert view.query_one(".answer").source == as_markdown(stored.answer)
            assert view.steps and "vector_search" not in str(drafts)  # steps stay steps


async def test_escape_mid_stream_cancels_and_keeps_the_turn(settings: AgentSettings) -> None:
    with FakeServer("openai", chunk_delay_s=0.1) as server:
        app = make_app(remote(settings, server))
        async with app.run_test(size=SIZE) as pilot:
            await _send(pilot)
            drafts = await _drafts_while_pending(pilot)
            assert drafts, "text arrived before Esc"
            await pilot.press("escape")
            await settle(pilot)
            view = app.main.chat.last_turn
            assert view.status == "cancelled" and not app.answering
            assert view.draft  # what the user had read stays on screen
            turn = app.conversation.turns()[-1]
            assert (turn.question, turn.status) == (QUESTION, "cancelled")


KEY = "zq7-private-0f3a9c2e11b4d5"
PASSWORD = "hunter2pass"
PAIR = base64.b64encode(f"lore:{PASSWORD}".encode()).decode()


async def test_a_streamed_reply_is_capped_and_shows_no_secret_cut_in_two(
        settings: AgentSettings, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 15,000-character reply streamed six characters at a time, quoting a key, a URL password
    and a basic-auth pair (each arriving cut in two): the chat never shows more than
    model.max_answer_chars of it, nor any of the secrets, while it streams or after."""
    monkeypatch.setenv("LORE_TEST_API_KEY", KEY)
    leak = (f"沈砚的钥匙是{KEY}，网址 http://lore:{PASSWORD}@llm.example/v1 ，"
            f"Authorization: Basic {PAIR} ")

    def brain(body: dict[str, Any], n: int) -> dict[str, Any]:
        if n == 1:
            return {"tool_calls": [{"name": "keyword_search", "arguments": {"query": "沈砚"}}]}
        return {"content": leak + "沈砚 " * 5000}

    shown: list[str] = []
    update = Static.update

    def recording(self: Static, content: Any = "", **kwargs: Any) -> None:
        if self.has_class("draft"):
            shown.append(str(content))
        update(self, content, **kwargs)

    monkeypatch.setattr(Static, "update", recording)
    with FakeServer("openai", brain=brain) as server:
        app = make_app(settings.model_copy(update={"model": ModelSettings(
            provider="openai", name="fake-model", base_url=server.url, retries=0,
            output="text", prompt="lean", tools=["vector_search", "keyword_search"],
            max_answer_chars=2000)}))
        async with app.run_test(size=SIZE) as pilot:
            await _send(pilot)
            await settle(pilot)
            view = app.main.chat.last_turn
            answer = view.query_one(".answer").source
    assert view.status == "answered" and len(server.requests) == 2
    assert shown and "沈砚的钥匙是" in shown[-1]  # it streamed
    assert max(len(text) for text in shown) <= 2000
    assert "cut at 2,000 characters (model.max_answer_chars)" in answer
    for secret in (KEY, PASSWORD, PAIR):
        assert not any(secret in text for text in shown), secret
        assert secret not in answer, secret
