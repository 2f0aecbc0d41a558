"""The conversation as message history: the newest turns within the token budget, the latest with
its tool calls, and the summaries (or one line a turn) standing in for the turns left out."""

from __future__ import annotations

from datetime import UTC, datetime

from pydantic_ai import (
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    SystemPromptPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)

from agent.memory.history import (
    EARLIER,
    estimate_tokens,
    message_history,
    message_tokens,
    without_tools,
)
from sessions.records import Summary, Turn

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def turn(n: int, question: str, answer: str) -> Turn:
    call = f"c{n}"
    messages = [
        ModelRequest(parts=[UserPromptPart(question)]),
        ModelResponse(parts=[ToolCallPart("vector_search", {"query": question}, tool_call_id=call)]),
        ModelRequest(parts=[ToolReturnPart("vector_search", [{"chunk_id": f"k{n}",
                                                               "text": "passage " * 40}],
                                           tool_call_id=call)]),
        ModelResponse(parts=[ToolCallPart("final_result", {"text": answer}, tool_call_id=f"o{n}")]),
        ModelRequest(parts=[ToolReturnPart("final_result", "Final result processed.",
                                           tool_call_id=f"o{n}")]),
    ]
    return Turn(id=f"t{n}", session_id="s", n=n, question=question, answer=answer,
                status="answered", created=NOW,
                messages_json=ModelMessagesTypeAdapter.dump_json(messages).decode())


TURNS = [turn(1, "谁收林澈做了徒弟？", "白石翁。"), turn(2, "他送了什么？", "断水剑。"),
         turn(3, "后来呢？", "剑断了。")]


def prompts(messages: list) -> list[str]:
    return [p.content for m in messages for p in m.parts if isinstance(p, UserPromptPart)]


def tool_names(messages: list) -> list[str]:
    return [p.tool_name for m in messages for p in m.parts if isinstance(p, ToolCallPart)]


def test_tokens_are_estimated_from_characters() -> None:
    assert estimate_tokens("诸葛亮") == 3 and estimate_tokens("abcd efgh") == 3
    assert estimate_tokens("") == 0


def test_a_roomy_budget_sends_every_turn_and_only_the_latest_keeps_its_tools() -> None:
    history = message_history(TURNS, [], 100_000)
    assert prompts(history) == ["谁收林澈做了徒弟？", "他送了什么？", "后来呢？"]
    assert tool_names(history) == ["final_result", "final_result", "vector_search",
                                   "final_result"]
    assert not any(isinstance(p, SystemPromptPart) for m in history for p in m.parts)


def test_the_turns_left_out_are_summed_up_by_their_summary_and_their_lines() -> None:
    latest = ModelMessagesTypeAdapter.validate_json(TURNS[2].messages_json)
    budget = message_tokens(latest) + 1  # room for the latest turn only
    summary = Summary(id="m1", session_id="s", from_turn=1, to_turn=1, text="谁收林澈做了徒弟？ → 白石翁。",
                      plot_id="p1", created=NOW)
    history = message_history([*TURNS, Turn(id="t4", session_id="s", n=4, question="?",
                                            status="failed", created=NOW)], [summary], budget)
    assert prompts(history) == ["后来呢？"] and "vector_search" in tool_names(history)
    (earlier,) = [p.content for p in history[0].parts if isinstance(p, SystemPromptPart)]
    assert earlier.splitlines() == [EARLIER, summary.text, "他送了什么？ → 断水剑。"]


def test_a_budget_of_nothing_sends_only_the_summary() -> None:
    history = message_history(TURNS, [], 0)
    assert len(history) == 1 and prompts(history) == []
    assert history[0].parts[0].content.count(" → ") == 3


def test_without_tools_keeps_the_answer_call_and_drops_the_lore_tools() -> None:
    messages = ModelMessagesTypeAdapter.validate_json(TURNS[0].messages_json)
    assert tool_names(without_tools(messages)) == ["final_result"]
