"""The longest answer Lorekeeper keeps: `model.max_answer_chars`.

A model can reply with 100,000 words (a loop, a runaway generation); without a cap that reply
was printed, stored as "answered" and sent back as history on every later turn. The answer is
cut at the cap, and says so and which setting cut it.
"""

from __future__ import annotations

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
