"""Questions to start with, shown in an empty chat: ↓ from the question box, Enter asks one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option


class ExampleQuestions(OptionList):
    """Posts `ExampleQuestions.Chosen` for the question picked."""

    BINDINGS = [
        Binding("enter", "select", "ask it", id="example-ask",
                tooltip="Ask this example question"),
    ]

    @dataclass
    class Chosen(Message):
        """Ask this question."""

        question: str

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.questions: list[str] = []

    def show(self, questions: list[str]) -> None:
        self.questions = list(questions)
        self.set_options(Option(f"› {q}", id=str(i)) for i, q in enumerate(self.questions))
        self.highlighted = 0 if self.questions else None

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Chosen(self.questions[int(event.option.id or 0)]))
