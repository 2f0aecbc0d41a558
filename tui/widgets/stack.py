"""The entity-stack pane: who the conversation is about, most recent first, with aliases."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from tui.messages import CardRequested, MapRequested

if TYPE_CHECKING:
    from agent.conversation.session import Conversation
    from sessions.records import StackEntry

GUESS = "likely answer?"
"""After the name of the reader's likely answer, which the answer did not state."""


def entry_label(entity: str, referred_as: str, aliases: list[str], tracked: bool,
                guess: bool = False) -> Text:
    """`沈砚  as 他`, or `苏绾  likely answer?` for a guess, and, dimmed on the next line, a few
    aliases."""
    label = Text.assemble(("● " if tracked else "  ", "bold"), (entity, "bold"))
    if guess:  # first after the name: the pane cuts long lines short
        label.append(f"  {GUESS}", style="italic dim")
    if referred_as and referred_as != entity:
        label.append(f"  as {referred_as}", style="italic")
    shown = [a for a in aliases if a != entity]
    if shown:
        label.append("\n    " + " · ".join(shown), style="dim")
    return label


EMPTY = "Who and what you ask about\ngathers here, newest first:\na follow-up's he / she / 他 / 她\nmeans the top one."


class EntityStack(OptionList):
    """Enter tracks the highlighted entity; `c` opens its card; `a` starts a question about it."""

    BINDINGS = [
        Binding("enter", "track", "track", id="stack-track",
                tooltip="Track this entity: show its appearances in the Timeline pane"),
        Binding("a", "ask_about", "ask about", id="stack-ask",
                tooltip="Start a question about this entity in the question box"),
        Binding("c", "card", "card", id="stack-card",
                tooltip="Open this entity's card: who it is, as of the spoiler horizon"),
        Binding("m", "relation_map", "map", id="stack-map",
                tooltip="Open this entity's relations map"),
    ]

    @dataclass
    class TrackRequested(Message):
        """Show this entity's timeline (and remember it as the session's tracked entity)."""

        entity: str

    @dataclass
    class AskRequested(Message):
        """Put this entity into the question box."""

        entity: str

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.entities: list[str] = []
        self.entries: list[Any] = []

    def show(self, stack: list[Any], aliases: dict[str, list[str]], tracked: str | None) -> None:
        """Replace the list with the session's stack (StackEntry records, most recent first)."""
        highlighted = self.highlighted_entity
        self.entries = list(stack)
        self.entities = [entry.entity for entry in stack]
        self.set_options(
            Option(entry_label(e.entity, e.referred_as, aliases.get(e.entity, []),
                               e.entity == tracked, e.guess), id=str(i))
            for i, e in enumerate(stack))
        if highlighted in self.entities and self.has_focus:  # the reader is moving in it
            self.highlighted = self.entities.index(highlighted)
        elif self.entities:  # else the newest, what the next he / she means, in view
            self.highlighted = 0
        else:  # an empty pane says how to fill it
            self.add_option(Option(Text(EMPTY, style="dim italic"), disabled=True))

    @property
    def conversation_entity(self) -> str | None:
        """The newest entity the conversation is about, a likely answer's guess aside."""
        return followed_entity(self.entries)

    @property
    def highlighted_entity(self) -> str | None:
        if self.highlighted is None or not self.entities:
            return None
        return self.entities[min(self.highlighted, len(self.entities) - 1)]

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()  # a click selects: the same as Enter
        self.action_track()

    def action_track(self) -> None:
        if (entity := self.highlighted_entity) is not None:
            self.post_message(self.TrackRequested(entity))

    def action_card(self) -> None:
        if (entity := self.highlighted_entity) is not None:
            self.post_message(CardRequested(entity))

    def action_relation_map(self) -> None:
        if (entity := self.highlighted_entity) is not None:
            self.post_message(MapRequested(entity))

    def action_ask_about(self) -> None:
        if (entity := self.highlighted_entity) is not None:
            self.post_message(self.AskRequested(entity))


def followed_entity(stack: list[Any]) -> str | None:
    """The newest entity on a stack (StackEntry records, most recent first) that is not a guess:
    whom the timeline follows."""
    return next((entry.entity for entry in stack if not entry.guess), None)


def stack_aliases(conversation: Conversation, stack: list[StackEntry]) -> dict[str, list[str]]:
    """The stack's entities' aliases as the reader may see them under the horizon."""
    return conversation.retriever.aliases_as_of([e.entity for e in stack],
                                                conversation.horizon or 0)
