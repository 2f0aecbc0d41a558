"""The longest answer Lorekeeper keeps: `model.max_answer_chars`.

A model can reply with 100,000 words (a loop, a runaway generation); without a cap that reply
was printed, stored as "answered" and sent back as history on every later turn. The answer is
cut at the cap, and says so and which setting cut it; so is what the model wrote in the run's
messages, which are stored too.
"""

from __future__ import annotations

import json
from typing import Any

from agent.schemas import Answer


def cut_text(text: str, limit: int) -> str:
    """`text`, or its first `limit` characters — exactly what a stream capped at `limit`
    showed — and a note naming the setting; 0 is no limit."""
    if not limit or len(text) <= limit:
        return text
    return (f"{text[:limit]}\n[… the answer was cut at {limit:,} characters "
            f"(model.max_answer_chars); the rest was not kept]")


def cap_answer(answer: Answer, limit: int) -> Answer:
    """`answer` with its text cut to `limit` characters (citations cited past it are dropped)."""
    text = cut_text(answer.text, limit)
    if text == answer.text:
        return answer
    kept = [c for i, c in enumerate(answer.citations, start=1) if f"[{i}]" in text]
    return answer.model_copy(update={"text": text, "citations": kept or answer.citations[:0]})


def cap_messages(messages_json: bytes | str, limit: int) -> bytes | str:
    """The run's messages (pydantic-ai JSON, kept as the next turn's history) with what the
    model wrote cut like its answer: the text and arguments of its replies, and the retry
    prompts that quote a rejected reply back. A rejected 100,000-word reply is otherwise kept
    whole and sent again with every later question."""
    if not limit:
        return messages_json
    try:
        messages = json.loads(messages_json)
    except ValueError:
        return messages_json
    if not isinstance(messages, list):
        return messages_json
    changed = False
    for message in messages:
        for part in message.get("parts", []) if isinstance(message, dict) else []:
            if not isinstance(part, dict):
                continue
            field = _MODEL_WRITTEN.get(part.get("part_kind", ""))
            if field and field in part:
                capped = _cap_value(part[field], limit, parse=field == "args")
                changed |= capped != part[field]
                part[field] = capped
    if not changed:
        return messages_json
    text = json.dumps(messages, ensure_ascii=False)
    return text.encode() if isinstance(messages_json, bytes) else text


# Part kinds whose field holds what the model wrote (or quotes it back to it).
_MODEL_WRITTEN = {"text": "content", "thinking": "content", "tool-call": "args",
                  "retry-prompt": "content", "retry-feedback": "content"}


def _cap_value(value: Any, limit: int, parse: bool = False) -> Any:
    """`value` with every string in it cut to `limit`; a string of JSON arguments is cut
    inside, so that it stays JSON."""
    if isinstance(value, str):
        if parse and len(value) > limit:
            try:
                inner = json.loads(value)
            except ValueError:
                return cut_text(value, limit)
            return json.dumps(_cap_value(inner, limit), ensure_ascii=False)
        return cut_text(value, limit)
    if isinstance(value, list):
        return [_cap_value(v, limit) for v in value]
    if isinstance(value, dict):
        return {k: _cap_value(v, limit) for k, v in value.items()}
    return value
