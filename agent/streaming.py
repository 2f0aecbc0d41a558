"""The answer as it streams: the output tool's JSON arguments, read while they arrive.

The agent answers through an output tool (`final_result`) whose arguments are the `Answer`, so
a streaming model sends the answer as deltas of that tool call's JSON. `answer_stream` hands
pydantic-ai an event-stream handler that keeps the JSON of the answer's call, parses it as
partial JSON after each delta and reports the answer's fields so far as a `Draft`. The lore
tools' own calls are left alone: their steps are reported by the tools themselves
(agent.tools.record_call). A model that delivers its whole answer in one piece (the librarian,
Gemini) reports one Draft.

With `model.output = "text"` the answer is the response's text itself, streamed as it comes;
text that opens like JSON, a code fence or a tag is held back (it may be a tool call written out
as text, which agent.reading runs as one), and so is the text of a response that also calls a
tool.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterable, Callable
from dataclasses import dataclass
from typing import Any

from pydantic_ai import (
    AgentStreamEvent,
    PartDeltaEvent,
    PartStartEvent,
    RunContext,
    TextPart,
    TextPartDelta,
    ToolCallPart,
    ToolCallPartDelta,
)
from pydantic_core import from_json

from agent.tools import TOOL_NAMES


@dataclass(frozen=True)
class Draft:
    """The answer so far."""

    text: str
    resolved_question: str = ""
    """Complete once `text` has begun (the Answer schema puts it first)."""


def read_draft(args_json: str) -> Draft | None:
    """The answer fields in a prefix of the output tool's JSON arguments (None before any text)."""
    try:
        value = from_json(args_json, allow_partial="trailing-strings")
    except ValueError:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("text"), str):
        return None
    resolved = value.get("resolved_question")
    return Draft(value["text"], resolved if isinstance(resolved, str) else "")


def answer_stream(on_text: Callable[[Draft], Any]) -> Callable[..., Any]:
    """An event_stream_handler for `Agent.run` that calls `on_text` with each new Draft."""

    async def handle(ctx: RunContext[Any], events: AsyncIterable[AgentStreamEvent]) -> None:
        calls: dict[int, str] = {}  # part index → the answer call's JSON so far
        texts: dict[int, str] = {}  # part index → a plain-text answer so far
        last: Draft | None = None
        async for event in events:
            text = _text_so_far(event, texts)
            if text is not None:
                draft = Draft(text) if text.strip() and text.lstrip()[:1] not in "{[`<" else None
                if draft is not None and draft != last:
                    last = draft
                    shown = on_text(draft)
                    if inspect.isawaitable(shown):
                        await shown
                continue
            if isinstance(event, PartStartEvent) and isinstance(event.part, ToolCallPart):
                texts.clear()  # a response that calls a tool: its text is no answer
                if event.part.tool_name in TOOL_NAMES:
                    continue
                calls[event.index] = event.part.args_as_json_str() if event.part.args else ""
            elif (isinstance(event, PartDeltaEvent) and event.index in calls
                  and isinstance(event.delta, ToolCallPartDelta)):
                delta = event.delta.args_delta
                if isinstance(delta, str):
                    calls[event.index] += delta
                elif isinstance(delta, dict):  # a provider that merges dicts: take it whole
                    calls[event.index] = ToolCallPart("answer", delta).args_as_json_str()
            else:
                continue
            draft = read_draft(calls.get(event.index, ""))
            if draft is not None and draft != last:
                last = draft
                shown = on_text(draft)
                if inspect.isawaitable(shown):
                    await shown

    return handle


def _text_so_far(event: AgentStreamEvent, texts: dict[int, str]) -> str | None:
    """The text part's content so far when `event` adds to one (None for any other event)."""
    if isinstance(event, PartStartEvent) and isinstance(event.part, TextPart):
        texts[event.index] = event.part.content
    elif isinstance(event, PartDeltaEvent) and isinstance(event.delta, TextPartDelta) \
            and event.index in texts:
        texts[event.index] += event.delta.content_delta
    else:
        return None
    return texts[event.index]
