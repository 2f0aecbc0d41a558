"""A real model's turn through `Conversation`, pydantic-ai's OpenAIChatModel and the openai client,
against the fake OpenAI-compatible server of tests/agent/fake_llm.py, checking what the server
receives: the user's own words as the last user message, the earlier turns as messages, the entity
stack in the system prompt, and never a rule's rewrite of the follow-up.
"""

from __future__ import annotations

import json
from typing import Any

from agent.answer.streaming import Draft
from agent.conversation.session import Conversation
from agent.readers.settings import AgentSettings, ModelSettings
from agent.world.open_world import OpenWorld
from agent.world.retrieval import Retriever
from sessions import SessionStore
from tests.agent.conftest import mini_retriever, mini_settings  # noqa: F401  (fixtures)
from tests.agent.fake_llm import FakeServer

FIRST = "谁收林澈做了徒弟？"
FOLLOW_UP = "他送给子川什么？"
RULE_REWRITE = "白石翁送给子川什么？"
"""What the librarian's rules make of FOLLOW_UP after FIRST (a real model must not be sent it)."""


def _conversation(settings: AgentSettings, retriever: Retriever, server: FakeServer,
                  **model: Any) -> Conversation:
    remote = settings.model_copy(update={"model": ModelSettings(
        provider="openai", name="fake-model", base_url=server.url, retries=0, **model)})
    store = SessionStore(settings.data_dir / "real-model-sessions.db")
    conversation = Conversation.open(remote, "mini", new=True, store=store,
                                     open_world=OpenWorld(retriever))
    conversation._owns_store = True  # closed with the conversation
    return conversation


def _messages(request: dict[str, Any]) -> list[dict[str, Any]]:
    return request["body"]["messages"]


def _text(message: dict[str, Any]) -> str:
    content = message.get("content") or ""
    return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)


async def test_a_follow_up_reaches_the_model_as_typed_with_the_conversation(
        mini_settings: AgentSettings, mini_retriever: Retriever) -> None:  # noqa: F811
    with FakeServer("openai") as server:
        conv = _conversation(mini_settings, mini_retriever, server)
        try:
            first = await conv.ask(FIRST)
            asked = len(server.requests)
            second = await conv.ask(FOLLOW_UP)
            stored = conv.turns()[-1]
        finally:
            conv.close()
    assert first.answer.stop_reason == "answered" and second.answer.stop_reason == "answered"
    follow = server.requests[asked]  # the follow-up's first request
    messages = _messages(follow)
    users = [_text(m) for m in messages if m["role"] == "user"]
    assert users[-1] == FOLLOW_UP  # the user's own words, last
    assert FIRST in users[:-1]  # the earlier turn, as a message of its own
    assert any(m["role"] == "assistant" for m in messages[:-1])  # with its answer
    assert RULE_REWRITE not in json.dumps(follow["body"], ensure_ascii=False)
    system = "\n".join(_text(m) for m in messages if m["role"] in ("system", "developer"))
    stack = [e.entity for e in first.stack]
    assert stack and "Entities talked about so far, most recent first: " + ", ".join(
        stack[:8]) + "." in system
    assert "resolved_question" in json.dumps(follow["body"]["tools"])  # the model states it
    # The stack and the stored "read as" line come from what the model said it answered (the
    # fake model reads 他 as the entity talked about last).
    said = FOLLOW_UP.replace("他", stack[0])
    assert second.resolved_question == stored.resolved_question == said
    assert second.stack[0].entity == stack[0]


async def test_the_history_keeps_to_its_token_budget_and_summaries_stand_in(
        mini_settings: AgentSettings, mini_retriever: Retriever) -> None:  # noqa: F811
    settings = mini_settings.model_copy(update={"sessions": mini_settings.sessions.model_copy(
        update={"summary_every": 1})})
    with FakeServer("openai") as server:
        conv = _conversation(settings, mini_retriever, server, history_tokens=0)
        try:
            await conv.ask(FIRST)
            asked = len(server.requests)
            await conv.ask(FOLLOW_UP)
        finally:
            conv.close()
    messages = _messages(server.requests[asked])
    users = [_text(m) for m in messages if m["role"] == "user"]
    assert users == [FOLLOW_UP]  # no room for the first turn's messages ...
    system = "\n".join(_text(m) for m in messages if m["role"] in ("system", "developer"))
    assert "Earlier in this conversation" in system and f"{FIRST} → " in system  # ... its summary


async def test_the_answer_streams_to_the_caller_before_it_ends(
        mini_settings: AgentSettings, mini_retriever: Retriever) -> None:  # noqa: F811
    drafts: list[Draft] = []
    with FakeServer("openai", chunk_delay_s=0.0) as server:
        conv = _conversation(mini_settings, mini_retriever, server)
        try:
            result = await conv.ask(FIRST, on_text=drafts.append)
        finally:
            conv.close()
    assert all(r["body"].get("stream") for r in server.requests)
    texts = ["".join(d.added for d in drafts[:i + 1]) for i in range(len(drafts))]
    assert all(d.added for d in drafts)
    assert len(texts) > 2 and texts[-1] == result.answer.text
    assert all(result.answer.text.startswith(t) for t in texts)  # growing, never garbled
    assert len(set(texts)) == len(texts)
    assert drafts[-1].resolved_question == FIRST


async def test_the_cards_of_the_names_asked_about_reach_the_model(
        mini_settings: AgentSettings, mini_retriever: Retriever) -> None:  # noqa: F811
    with FakeServer("openai") as server:
        conv = _conversation(mini_settings, mini_retriever, server)
        try:
            await conv.ask("林澈是谁？")
        finally:
            conv.close()
    system = "\n".join(_text(m) for m in _messages(server.requests[0])
                       if m["role"] in ("system", "developer"))
    card = mini_retriever.card("林澈")
    assert card is not None
    lore = card.of_kind("lore")[0]
    # the glossary's entry, cited by its passage id so the model can cite it
    assert "白石翁之徒" in system and f"[{lore.chunk_id}]" in system
