"""The small-model reader (agent.readers.small_context) against the fake OpenAI-compatible server, through the
real openai client, checking what the server receives: a lean first prompt, tool calls written as
JSON text run as tool calls, compact results with no passage sent twice, passage ids expanded into
citations, and the round and time limits ending with the best evidence, marked as such.
"""

from __future__ import annotations

import json
import time
from dataclasses import replace
from typing import Any

import pytest

from agent.conversation.core import ask, build_agent
from agent.readers.json_actions import tool_calls_in
from agent.readers.registry import ReaderContext, make_reader
from agent.readers.settings import ModelSettings
from agent.readers.text_answer import text_answer
from agent.schemas import Passage
from agent.tools.deps import LoreDeps
from agent.world.retrieval import Retriever
from tests.agent.fake_llm import FakeServer

QUESTION = "林澈的师父送给他什么剑？"
LEAN = {"prompt": "lean", "output": "text", "tools": ["vector_search", "keyword_search"],
        "retries": 0}


def agent_for(settings: ModelSettings, retriever: Retriever | None = None):
    """The agent of the reader `settings` name, with the capabilities it brings."""
    return build_agent(make_reader(ReaderContext(settings, retriever)), settings)


def settings(server: FakeServer, **extra: Any) -> ModelSettings:
    return ModelSettings(provider="openai", name="fake-model", base_url=server.url,
                         **(LEAN | extra))


def results_sent(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The compact tool results (one per tool message) in a request, parsed."""
    return [json.loads(m["content"]) for m in body["messages"] if m["role"] == "tool"]


def first_id(body: dict[str, Any]) -> str:
    return results_sent(body)[-1]["results"][0]["id"]


async def test_a_json_text_tool_call_runs_and_ids_become_quoted_citations(deps: LoreDeps) -> None:
    def brain(body: dict[str, Any], n: int) -> dict[str, Any]:
        if n == 1:  # the call written out as text, as Qwen2.5-Coder does
            return {"content": '```json\n{"name": "vector_search", "arguments": '
                               '{"query": "白石翁 断水剑"}}\n```'}
        return {"content": f"断水剑 [{first_id(body)}]"}

    with FakeServer("openai", brain=brain) as server:
        model = settings(server)
        result = await ask(agent_for(model), deps, QUESTION)

    first = server.requests[0]["body"]
    assert [t["function"]["name"] for t in first["tools"]] == ["vector_search", "keyword_search"]
    assert "final_result" not in json.dumps(first)  # a text answer: no output tool to fill
    assert all(set(t["function"]["parameters"]["properties"]) == {"query"} for t in first["tools"])
    # lean: instructions, 2 short tools and the lead line of the asked name's card (≤ 240)
    assert len(json.dumps(first, ensure_ascii=False)) < 1500 + 300
    assert [c.tool for c in result.tool_calls] == ["vector_search"]
    sent = results_sent(server.requests[1]["body"])[0]["results"]
    assert sent and all(set(row) == {"id", "ch", "text"} for row in sent)
    assert [row["id"] for row in sent] == [f"P{n}" for n in range(1, len(sent) + 1)]

    answer = result.answer
    assert answer.stop_reason == "answered" and answer.text == "断水剑 [1]"
    cited = answer.citations[0]
    chunk = deps.retriever.chunks[cited.chunk_id]
    assert cited.chunk_id == result.read[0].chunk_id  # P1: the first passage the tools returned
    assert cited.quote in chunk.text and "断水剑" in cited.quote  # the sentence that says it
    assert (cited.chapter, cited.lines) == (chunk.chapter, (chunk.line_start, chunk.line_end))


async def test_the_round_limit_ends_with_the_best_evidence_and_no_passage_twice(
        deps: LoreDeps) -> None:
    queries = ["断水剑", "林澈 断水剑", "断水剑 折断"]

    def brain(body: dict[str, Any], n: int) -> dict[str, Any]:  # never answers
        query = queries[min(n, len(queries)) - 1]
        return {"content": f'<tool_call>\n{{"name": "vector_search", "arguments": '
                           f'{{"query": "{query}"}}}}\n</tool_call>'}

    with FakeServer("openai", brain=brain) as server:
        model = settings(server, max_tool_rounds=2)
        result = await ask(agent_for(model), deps, "断水剑后来怎样了？")

    assert [c.args["query"] for c in result.tool_calls] == queries[:2]
    assert "tools" not in server.requests[2]["body"]  # the last request offers no tool
    second = results_sent(server.requests[2]["body"])[1]
    first_ids = {row["id"] for row in results_sent(server.requests[2]["body"])[0]["results"]}
    assert not first_ids & {row["id"] for row in second["results"]}  # nothing sent twice
    assert set(second.get("shown_before", [])) <= first_ids
    answer = result.answer
    assert answer.stop_reason == "max_rounds"
    # evidence, not an answer (the glossary's lore entries are evidence too: [1] 设定：…)
    assert "证据" in answer.text and "\n[1] " in answer.text
    assert answer.citations and "断水剑" in answer.citations[0].quote  # matched to the question
    for c in answer.citations:
        assert c.quote in deps.retriever.chunks[c.chunk_id].text


@pytest.mark.slow
async def test_the_time_limit_ends_the_answer_with_evidence_not_a_hang(deps: LoreDeps) -> None:
    def brain(body: dict[str, Any], n: int) -> dict[str, Any]:
        if n == 1:
            return {"tool_calls": [{"name": "vector_search", "arguments": {"query": "断水剑"}}]}
        time.sleep(60)  # the model is thinking for far longer than the answer may take
        return {"content": "断水剑 [P1]"}

    with FakeServer("openai", brain=brain) as server:
        # 8 s: room for the first round's search on a loaded machine (1.5 s ran out before it)
        model = settings(server, answer_timeout_s=8)
        result = await ask(agent_for(model), deps, QUESTION, time_limit_s=model.answer_timeout_s)
    # The limit, not the model, ended the answer: the model's own reply ("断水剑 [P1]", 60 s
    # away) never became it. No wall-clock bound: machine load would cross it (issue 25 #7).
    assert result.answer.stop_reason == "time_limit" and "证据" in result.answer.text
    assert result.answer.text != "断水剑 [P1]" and len(server.requests) == 2
    assert result.answer.citations and result.evidence


async def test_the_round_budget_and_trimming_keep_results_small(deps: LoreDeps) -> None:
    def brain(body: dict[str, Any], n: int) -> dict[str, Any]:
        if n == 1:
            return {"tool_calls": [{"name": "vector_search",
                                    "arguments": {"query": "断水剑", "top_k": 10}}]}
        return {"content": "NOT IN TEXT"}

    with FakeServer("openai", brain=brain) as server:
        model = settings(server, round_tokens=100)
        result = await ask(agent_for(model), deps, QUESTION)
    reply = results_sent(server.requests[1]["body"])[0]
    assert len(reply["results"]) < 10 and "not_shown" in reply
    assert result.answer.stop_reason == "not_in_text" and not result.answer.citations


async def test_search_first_spares_the_model_its_first_round(deps: LoreDeps) -> None:
    with FakeServer("openai", brain=lambda body, n: {"content": "白石翁 [P1]"}) as server:
        model = settings(server, search_first=True)
        result = await ask(agent_for(model), deps, QUESTION)
    assert len(server.requests) == 1 and results_sent(server.requests[0]["body"])
    assert [(c.tool, c.args["query"]) for c in result.tool_calls] == [("vector_search", QUESTION)]
    assert result.answer.stop_reason == "answered" and result.answer.citations


async def test_the_librarians_search_is_handed_over_as_the_first_round(deps: LoreDeps) -> None:
    librarian = await ask(agent_for(ModelSettings(), deps.retriever),
                          LoreDeps(retriever=deps.retriever), QUESTION)
    best = [p.chunk_id for p in librarian.evidence[:5]]
    with FakeServer("openai", brain=lambda body, n: {"content": "断水剑 [P1]"}) as server:
        model = settings(server, search_first="librarian", round_tokens=4000)
        result = await ask(agent_for(model, deps.retriever), deps, QUESTION)
    assert len(server.requests) == 1  # the model answered from what it was handed
    handed = results_sent(server.requests[0]["body"])[0]["results"]
    assert [r["id"] for r in handed] == [f"P{n}" for n in range(1, len(best) + 1)]
    assert [p.chunk_id for p in result.read] == best  # the librarian's ranking, in its order
    assert len(result.tool_calls) == 1 and "librarian" in result.tool_calls[0].summary
    assert result.answer.citations[0].chunk_id == best[0]


async def test_the_librarians_candidates_are_offered_to_choose_from(deps: LoreDeps) -> None:
    """A who-question: the model is offered the people the librarian reads in what it hands
    over, each with the passage that puts it forward, and told it may choose among them."""
    with FakeServer("openai", brain=lambda body, n: {"content": "白芷 [P1]"}) as server:
        model = settings(server, search_first="librarian", round_tokens=4000)
        await ask(agent_for(model, deps.retriever), deps, "谁送给林澈一包伤药？")
    body = server.requests[0]["body"]
    reply = results_sent(body)[0]
    offered = reply["candidates"]
    assert offered[0]["answer"] == "白芷"
    assert {c["id"] for c in offered} <= {r["id"] for r in reply["results"]}
    assert "林澈" not in [c["answer"] for c in offered]  # the question's own name is no answer
    assert "candidates" in body["messages"][0]["content"]  # the lean prompt says what they are


@pytest.mark.parametrize(("given", "meant"), [(True, "search"), ("false", "off"),
                                              ("librarian", "librarian")])
def test_search_first_takes_the_old_flags_and_a_reader(given: object, meant: str) -> None:
    assert ModelSettings(search_first=given).search_first == meant  # type: ignore[arg-type]


@pytest.mark.parametrize("text", [
    '{"name": "vector_search", "arguments": {"query": "x"}}',
    '<tool_call>{"name": "vector_search", "arguments": "{\\"query\\": \\"x\\"}"}</tool_call>',
    'I will search.\n```json\n{"function": {"name": "vector_search", "parameters": {"query": "x"}}}\n```',
    '[{"tool": "vector_search", "args": {"query": "x"}}]',
])
def test_tool_calls_written_as_text_are_read(text: str) -> None:
    assert tool_calls_in(text, {"vector_search"}) == [("vector_search", {"query": "x"})]
    assert tool_calls_in(text, {"keyword_search"}) == []  # only tools that were offered


def test_ids_expand_in_the_order_cited_and_refusals_cite_nothing(deps: LoreDeps) -> None:
    found = deps.retriever.hybrid("林澈 白芷", 3, None, None)
    seen = {passage.chunk_id: passage for passage in found}
    deps = replace(deps, question="林澈和谁是好友？")
    answer = text_answer("白芷 [P2][P1]，见（P2）", deps, seen)
    assert answer.text == "白芷 [1][2]，见[1]"
    assert [c.chunk_id for c in answer.citations] == [found[1].chunk_id, found[0].chunk_id] or \
        answer.citations[0].chunk_id in {p.chunk_id for p in found}
    assert all(isinstance(seen[c.chunk_id], Passage) for c in answer.citations)
    refusal = text_answer("NOT IN TEXT", deps, seen)
    assert refusal.stop_reason == "not_in_text" and not refusal.citations
    unknown = text_answer("白芷 [P9]", deps, seen)  # an id no tool returned: cited by what it says
    assert unknown.citations and unknown.text.endswith("[1]")
