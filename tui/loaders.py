"""What the panes and the modals ask to see, from the request to the screen that shows it: a
cited passage, an entity's card, a relations map, a presence chart, the session and world lists.

`Loaders` is an object the app holds (`app.loaders`); the app's message handlers, which Textual
routes to the app, hand it what they hear (attributes down). It starts the worker that loads
each thing (tui/workers.py) and opens the screen it is shown on. The map, the chart and the
lists hear back from their workers in their own `Loaded` messages; a passage or a card comes
back to the app (`PassageReady`, `CardReady`), which hands it here to be shown (messages up).
It sees the app as a `Loading`: what it reads of it. Tracking an entity, and the timeline that
comes back, stay on the app: the app also tracks whom the conversation moves to."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from tui.screens.card import CardScreen
from tui.screens.main import MainScreen
from tui.screens.passage import PassageScreen

if TYPE_CHECKING:
    from textual.screen import Screen
    from textual.widget import Widget

    from agent.conversation.session import Conversation
    from agent.schemas import Answer, Passage
    from tui.actions import Actions
    from tui.screens.presence import ChartScreen
    from tui.screens.relmap import MapScreen
    from tui.screens.sessions import SessionPicker
    from tui.screens.worlds import WorldSwitcher
    from tui.workers import Workers


class Loading(Protocol):
    """What the loaders read of the app: its workers, its modals, its screens and focus, and
    the open conversation (None once the user is told that no world is open)."""

    jobs: Workers
    actions: Actions

    @property
    def main(self) -> MainScreen: ...

    @property
    def screen(self) -> Screen[object]: ...

    @property
    def focused(self) -> Widget | None: ...

    def push_screen(self, screen: Screen[Any]) -> Any: ...

    def conversation_or_report(self) -> Conversation | None: ...


class Loaders:
    """Loads what a pane or a modal asks for, and opens the screen that shows it."""

    def __init__(self, app: Loading) -> None:
        self.app = app

    # -- passages and cards (from the chat's citations, the timeline, the map, the chart) ------
    def passage(self, chunk_id: str, quote: str = "") -> None:
        """Read the passage `chunk_id` for the passage view, `quote` highlighted."""
        if conversation := self.app.conversation_or_report():
            self.app.jobs.read_passage(conversation, chunk_id, quote)

    def card(self, entity: str) -> None:
        """Build the card of `entity` for the card view."""
        if conversation := self.app.conversation_or_report():
            self.app.jobs.open_card(conversation, entity)

    def show_passage(self, passage: Passage, quote: str, core: str) -> None:
        """The passage view of a read passage (`core`: its own text, amid its context)."""
        self._keep_focus()
        self.app.push_screen(PassageScreen(passage, quote, core))

    def show_card(self, entity: str, answer: Answer, horizon: int) -> None:
        """The card view of `entity`, as of the chapter `horizon`."""
        self._keep_focus()
        self.app.push_screen(CardScreen(entity, answer, horizon))

    def _keep_focus(self) -> None:
        """Closing what opens next goes back to the list it was opened from (the entities pane:
        `m` after a card's Esc then opens the map, not an "m" in the question box)."""
        if isinstance(self.app.screen, MainScreen):  # another screen keeps its own focus
            self.app.main.return_focus = self.app.focused

    # -- the relations map and the presence chart (tui/screens/relmap.py, presence.py) --------
    def relation_map(self, entity: str) -> None:
        """Open the relations map of `entity`; it asks for its map itself (`load_map`)."""
        if self.app.conversation_or_report():
            self.app.actions.relation_map(entity)

    def load_map(self, screen: MapScreen, entity: str, hops: int) -> None:
        """Build the map of `entity` with `hops` hops for the map `screen`."""
        if conversation := self.app.conversation_or_report():
            self.app.jobs.relation_map(conversation, screen, entity, hops)

    def presence_chart(self, entity: str | None) -> None:
        """Open the presence chart of `entity`, the entity stack's names to pick beside it; it
        asks for its chart itself (`load_chart`)."""
        if self.app.conversation_or_report():
            self.app.actions.presence_chart(self.app.main.stack.entities, entity)

    def load_chart(self, screen: ChartScreen, entities: list[str]) -> None:
        """Build the chart of `entities` for the chart `screen`."""
        if conversation := self.app.conversation_or_report():
            self.app.jobs.presence_chart(conversation, screen, entities)

    # -- the session picker and the world switcher (no world need be open) -------------------
    def sessions(self, picker: SessionPicker) -> None:
        """The session picker's rows."""
        self.app.jobs.load_sessions(picker)

    def edit_session(self, picker: SessionPicker, op: str, session_id: str, title: str) -> None:
        """Rename (`title`) or delete a session; the picker's rows come back."""
        self.app.jobs.edit_session(picker, op, session_id, title)

    def worlds(self, switcher: WorldSwitcher) -> None:
        """The world switcher's worlds."""
        self.app.jobs.load_worlds(switcher)
