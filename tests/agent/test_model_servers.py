"""`ask` end to end through the real openai and google-genai clients, against fake HTTP servers.

The servers (tests/agent/fake_llm.py) answer the first request with a vector_search call and the
second with the output tool, quoting a passage they received in the tool result.
"""

from __future__ import annotations

import json
from dataclasses import replace

import anyio
import pytest

from agent.answer.streaming import Draft
from agent.conversation.core import ask, build_agent
from agent.readers.chat_models import ModelUnavailable, make_model
from agent.readers.settings import ModelSettings
from agent.tools.deps import LoreDeps
from stores.errors import ConfigError
from tests.agent.fake_llm import FakeServer, passages_in

APIS = ["openai", "gemini"]
QUESTION = "林澈的师父送给他什么剑？"


def settings_for(server: FakeServer, monkeypatch: pytest.MonkeyPatch, **extra: object) -> ModelSettings:
    if server.api == "gemini":
        monkeypatch.setenv("GEMINI_API_KEY", "test-key")
        return ModelSettings(provider="google", name="gemini-fake", base_url=server.url, **extra)
    return ModelSettings(provider="openai", name="fake-model", base_url=server.url, **extra)


@pytest.mark.parametrize("api", APIS)
async def test_a_tool_round_then_a_cited_answer(api: str, deps: LoreDeps,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeServer(api) as server:
        settings = settings_for(server, monkeypatch)
        result = await ask(build_agent(make_model(settings), settings), deps, QUESTION)

    assert [(c.tool, c.args["query"]) for c in result.tool_calls] == [("vector_search", QUESTION)]
    assert len(server.requests) == 2
    first = json.dumps(server.requests[0]["body"], ensure_ascii=False)
    for tool in ("vector_search", "keyword_search", "graph_search", "track_entity",
                 "read_passage", "recall_session", "final_result"):
        assert tool in first  # every tool was declared to the model
    sent = list(passages_in(server.requests[1]["body"]))
    assert sent and {p["chunk_id"] for p in sent} <= {p.chunk_id for p in result.read}

    answer = result.answer
    assert answer.stop_reason == "answered" and len(answer.citations) == 1
    cited = answer.citations[0]
    chunk = deps.retriever.chunks[cited.chunk_id]
    assert cited.chunk_id == sent[0]["chunk_id"] and cited.quote in chunk.text
    assert (cited.chapter, cited.lines) == (chunk.chapter, (chunk.line_start, chunk.line_end))
    assert json.loads(result.messages_json)[-1]["kind"] == "request"  # the output tool's return


@pytest.mark.parametrize("api", APIS)
async def test_the_answer_streams_through_both_clients(api: str, deps: LoreDeps,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    drafts: list[Draft] = []
    deps = replace(deps, on_text=drafts.append)
    with FakeServer(api, failures=[429], retry_after_ms=20) as server:
        settings = settings_for(server, monkeypatch)
        result = await ask(build_agent(make_model(settings), settings, backoff_s=30), deps,
                           QUESTION)
    assert server.statuses == [429, 200, 200]  # a streamed request is retried the same way
    assert drafts and "".join(d.added for d in drafts) == result.answer.text
    assert [d.at for d in drafts] == [sum(len(d.added) for d in drafts[:i]) for i in range(len(drafts))]
    assert drafts[-1].resolved_question == result.resolved_question == QUESTION
    streamed = [r for r in server.requests if r["body"].get("stream")
                or "streamGenerateContent" in r["path"]]
    assert len(streamed) == len(server.requests) == 3
    if api == "openai":  # sent a few characters at a time; Gemini sends a call whole
        assert len(drafts) > 3


@pytest.mark.parametrize("api", APIS)
async def test_rate_limit_then_success_honours_retry_after(
        api: str, deps: LoreDeps, monkeypatch: pytest.MonkeyPatch) -> None:
    # Without the server's Retry-After (20 ms) the backoff would wait 30 s: the wait itself is
    # what is checked (a wall-clock bound fails on a loaded machine).
    waits: list[float] = []
    real_sleep = anyio.sleep

    async def recorded(seconds: float) -> None:
        waits.append(seconds)
        await real_sleep(seconds)

    monkeypatch.setattr("agent.readers.chat_models.anyio.sleep", recorded)
    with FakeServer(api, failures=[429], retry_after_ms=20) as server:
        settings = settings_for(server, monkeypatch, retries=2)
        result = await ask(build_agent(make_model(settings), settings, backoff_s=30), deps, QUESTION)
    assert server.statuses == [429, 200, 200]
    assert result.answer.stop_reason == "answered" and waits == [pytest.approx(0.02, abs=0.005)]


@pytest.mark.parametrize("api", APIS)
async def test_persistent_server_errors_end_in_model_unavailable(
        api: str, deps: LoreDeps, monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeServer(api, failures=[500] * 10) as server:
        settings = settings_for(server, monkeypatch, retries=2)
        with pytest.raises(ModelUnavailable) as raised:
            await ask(build_agent(make_model(settings), settings, backoff_s=0.01), deps, QUESTION)
    assert server.statuses == [500, 500, 500]  # one try and two retries, then no more
    message = str(raised.value)
    provider = "google:gemini-fake" if api == "gemini" else "openai:fake-model"
    assert f"model {provider} at http://127.0.0.1:" in message
    assert "after 3 attempts: HTTP 500: the fake server is failing" in message
    assert "your question is saved" in message and raised.value.exit_code == 4
    assert deps.question == ""  # the caller's inputs are never written


@pytest.mark.parametrize("api", APIS)
async def test_a_silent_server_times_out(api: str, deps: LoreDeps,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeServer(api, delay_s=1.5) as server:
        settings = settings_for(server, monkeypatch, retries=1, timeout_s=0.3)
        with pytest.raises(ModelUnavailable) as raised:
            await ask(build_agent(make_model(settings), settings, backoff_s=0.01), deps, QUESTION)
    assert len(server.requests) == 2
    assert "no response in time" in str(raised.value) and "model.timeout_s" in str(raised.value)


def test_missing_settings_are_config_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("GEMINI_API_KEY", "GOOGLE_API_KEY", "MY_KEY"):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(ConfigError, match="GEMINI_API_KEY / GOOGLE_API_KEY is not set"):
        make_model(ModelSettings(provider="google"))
    with pytest.raises(ConfigError, match="MY_KEY") as raised:
        make_model(ModelSettings(provider="google", api_key_env="MY_KEY"))
    assert raised.value.where == "model.api_key_env"
    with pytest.raises(ConfigError) as raised:
        make_model(ModelSettings(provider="openai", name="qwen2.5:7b"))
    assert raised.value.where == "model.base_url" and "11434" in raised.value.hint
    with pytest.raises(ConfigError) as raised:
        make_model(ModelSettings(provider="openai", base_url="http://127.0.0.1:9/v1"))
    assert raised.value.where == "model.name"
    monkeypatch.setenv("GOOGLE_API_KEY", "k")
    assert make_model(ModelSettings(provider="google")).model_name == "gemini-2.5-flash"
