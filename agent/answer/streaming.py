"""The answer as it streams: the output tool's JSON arguments, read while they arrive.

The agent answers through an output tool (`final_result`) whose arguments are the `Answer`, so
a streaming model sends the answer as deltas of that tool call's JSON. `answer_stream` hands
pydantic-ai an event-stream handler that reads the JSON of the answer's call as it arrives
(agent.answer.fields: each character once, so a long answer costs its length, not its length
squared) and reports each piece of the answer's text as a `Draft`. The lore tools' own calls
are left alone: their steps are reported by the tools themselves (agent.tools.toolset.record_call). A
model that delivers its whole answer in one piece (the librarian, Gemini) reports one Draft.

With `model.output = "text"` the answer is the response's text itself, streamed as it comes;
text that opens like JSON, a code fence or a tag is held back (it may be a tool call written out
as text, which agent.readers.small_context runs as one), and so is the text of a response that also calls a
tool.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterable, Callable
from dataclasses import dataclass, field
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

from agent.answer.fields import AnswerFields
from agent.tools.toolset import TOOL_NAMES


@dataclass(frozen=True)
class Draft:
    """A piece of the answer as it streams."""

    added: str
    """The text this piece adds."""
    at: int = 0
    """Where in the answer `added` begins; 0 for an answer's first piece (a model that begins
    its answer again, its first one rejected, starts again at 0)."""
    resolved_question: str = ""
    """Complete once the text has begun (the Answer schema puts it first)."""


@dataclass
class _Part:
    """One response part that may be the answer: what of it was reported."""

    sent: int = 0
    lead: list[str] = field(default_factory=list)
    """A text part's opening blanks, held until its first visible character."""
    skip: bool = False
    """Text that opens like JSON, a fence or a tag (a tool call written as text)."""
    fields: AnswerFields | None = None
    """The answer call's JSON, read so far (None for a text part)."""


def answer_stream(on_text: Callable[[Draft], Any]) -> Callable[..., Any]:
    """An event_stream_handler for `Agent.run` that calls `on_text` with each new Draft."""

    async def handle(ctx: RunContext[Any], events: AsyncIterable[AgentStreamEvent]) -> None:
        parts: dict[int, _Part] = {}  # part index → what may be the answer
        async for event in events:
            draft = _next_piece(event, parts)
            if draft is not None:
                shown = on_text(draft)
                if inspect.isawaitable(shown):
                    await shown

    return handle


def _next_piece(event: AgentStreamEvent, parts: dict[int, _Part]) -> Draft | None:
    """The piece of the answer `event` brings, if any."""
    if isinstance(event, PartStartEvent) and isinstance(event.part, TextPart):
        parts[event.index] = _Part()
        return _text(parts[event.index], event.part.content)
    if isinstance(event, PartStartEvent) and isinstance(event.part, ToolCallPart):
        for index in [i for i, p in parts.items() if p.fields is None]:
            del parts[index]  # a response that calls a tool: its text is no answer
        if event.part.tool_name in TOOL_NAMES:
            return None
        parts[event.index] = _Part(fields=AnswerFields())
        return _json(parts[event.index],
                     event.part.args_as_json_str() if event.part.args else "")
    part = parts.get(event.index) if isinstance(event, PartDeltaEvent) else None
    if part is None or not isinstance(event, PartDeltaEvent):
        return None
    if isinstance(event.delta, TextPartDelta) and part.fields is None:
        return _text(part, event.delta.content_delta)
    if isinstance(event.delta, ToolCallPartDelta) and part.fields is not None:
        delta = event.delta.args_delta
        if isinstance(delta, str):
            return _json(part, delta)
        if isinstance(delta, dict):  # a provider that merges dicts: read it whole, from the start
            before = part.fields.value("text")
            part.fields, part.sent = AnswerFields(), 0
            whole = part.fields.feed(ToolCallPart("answer", delta).args_as_json_str())
            text = whole.get("text", "")
            if text.startswith(before):  # it goes on from what was reported
                part.sent = len(before)
                return _draft(part, text[len(before):])
            return _draft(part, text)
    return None


def _text(part: _Part, content: str) -> Draft | None:
    if part.skip or not content:
        return None
    if not part.sent:  # nothing visible yet: hold the opening blanks
        part.lead.append(content)
        if not content.strip():
            return None
        content, part.lead = "".join(part.lead), []
        if content.lstrip()[:1] in "{[`<":
            part.skip = True
            return None
    return _draft(part, content)


def _json(part: _Part, piece: str) -> Draft | None:
    assert part.fields is not None
    return _draft(part, part.fields.feed(piece).get("text", ""))


def _draft(part: _Part, added: str) -> Draft | None:
    if not added:
        return None
    fields = part.fields
    resolved = (fields.value("resolved_question")
                if fields is not None and "resolved_question" in fields.closed else "")
    draft = Draft(added, part.sent, resolved)
    part.sent += len(added)
    return draft
