"""The conversation so far as pydantic-ai `message_history`, within a token budget.

The newest answered turns go back to the model as they were (the latest one with its tool calls
and the passages they returned, older ones as question and answer only, so a long conversation
does not resend every passage), as many as fit in `model.history_tokens`. The turns left out
are not forgotten: the session's summaries (agent.memory.summaries) of them, and a one-line memory of
those not summarised yet, stand in for them as one system message at the start.

Tokens are estimated from characters (no tokenizer is installed for every model): a CJK
character is about one token, other text about four characters a token.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace

from pydantic_ai import ModelMessage, ModelMessagesTypeAdapter, ModelRequest, SystemPromptPart

from agent.memory.summaries import turn_line
from agent.tools.toolset import TOOL_NAMES
from sessions.records import Summary, Turn
from stores.lang import WIDE

log = logging.getLogger(__name__)

EARLIER = "Earlier in this conversation (a summary of the turns not shown):"


def estimate_tokens(text: str) -> int:
    """About how many tokens `text` is for a chat model: CJK characters one each, the rest four
    characters a token (rounded up)."""
    cjk = len(WIDE.findall(text))
    return cjk + -(-(len(text) - cjk) // 4)


def message_tokens(messages: Sequence[ModelMessage]) -> int:
    """The estimate for messages as they are sent (their JSON: parts, tool arguments, results)."""
    return estimate_tokens(ModelMessagesTypeAdapter.dump_json(list(messages)).decode())


def without_tools(messages: Sequence[ModelMessage]) -> list[ModelMessage]:
    """Messages without the lore tools' calls and returns (calls and returns go together)."""
    kept: list[ModelMessage] = []
    for message in messages:
        parts = [p for p in message.parts if getattr(p, "tool_name", None) not in TOOL_NAMES]
        if parts:
            kept.append(replace(message, parts=parts))  # type: ignore[arg-type]
    return kept


def message_history(turns: Sequence[Turn], summaries: Sequence[Summary],
                    budget: int) -> list[ModelMessage]:
    """The messages of the newest answered `turns` that fit in `budget` tokens, after a system
    message that sums up the answered turns left out."""
    answered = [t for t in turns if t.status == "answered" and t.messages_json]
    kept: list[list[ModelMessage]] = []
    used, cut = 0, 0  # cut: the newest turn left out (0: none)
    for turn in reversed(answered):
        try:
            messages = ModelMessagesTypeAdapter.validate_json(turn.messages_json)
        except ValueError:  # written by another pydantic-ai version: skip that turn
            log.warning("skipping unreadable messages of turn %d", turn.n)
            continue
        if kept:  # only the latest turn keeps its tool calls and their passages
            messages = without_tools(messages)
        cost = message_tokens(messages)
        if used + cost > budget:
            cut = turn.n
            break
        kept.append(messages)
        used += cost
    history = [m for messages in reversed(kept) for m in messages]
    earlier = _earlier(answered, summaries, cut)
    if earlier:
        history.insert(0, ModelRequest(parts=[SystemPromptPart(earlier)]))
    return history


def _earlier(answered: Sequence[Turn], summaries: Sequence[Summary], cut: int) -> str:
    """The summaries of turns up to `cut`, then a line for each such turn no summary covers."""
    if not cut:
        return ""
    covering = [s for s in summaries if s.from_turn <= cut]
    covered = max((s.to_turn for s in covering), default=0)
    lines = [s.text for s in covering]
    lines += [turn_line(t) for t in answered if covered < t.n <= cut]
    return "\n".join([EARLIER, *lines]) if lines else ""
