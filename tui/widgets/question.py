"""The question box: one line; a paste keeps its order without control characters and its lines
joined (with a notice), and a length counter appears as the question nears its limit."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.widgets import Input

from tui.paste import joined_paste

COUNTER_FROM = 0.8
"""The counter shows from this share of the limit on."""


class QuestionBox(Input):
    """`limit`: the most characters a question may have (sessions.max_question_chars).

    Coming back to the box puts the cursor after what it holds, never selects it: a selected
    draft is replaced by the first key typed (a newcomer's trial: the name `a` put there for a
    question about 韩峥 was typed over)."""

    def __init__(self, limit: int, **kwargs: Any) -> None:
        super().__init__(select_on_focus=False, **kwargs)
        self.limit = limit

    def _on_paste(self, event: events.Paste) -> None:
        event.stop()
        event.prevent_default()  # Input's own paste keeps only the first line
        text, lines = joined_paste(event.text)
        if not text:
            return
        if self.selection.is_empty:
            self.insert_text_at_cursor(text)
        else:
            self.replace(text, *self.selection)
        if lines > 1:
            self.notify(f"Pasted {lines} lines, joined into one question.", markup=False)

    def _on_input_changed(self, event: Input.Changed) -> None:
        self.border_subtitle = self.counter(len(self.value))

    def counter(self, length: int) -> str:
        """`2,150 / 2,000 characters: too long` near or over the limit, else ''."""
        if length < self.limit * COUNTER_FROM:
            return ""
        over = ": too long, shorten it" if length > self.limit else ""
        return f"{length:,} / {self.limit:,} characters{over}"
