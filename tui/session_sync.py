"""The session on screen kept in step with the session store, which other processes write too:
a turn asked with `lore ask --session ID` in another terminal, while the app has that session
open, is shown in the chat and moves the entity stack, without a restart. (The app's next
follow-up was already read against it: the stack comes from the store. Unseen, "↳ read as: …"
named someone the chat had never mentioned.)

The app holds a `SessionSync` (`app.sync`): the ended turns its chat shows, as (id, status).
Every SYNC_EVERY_S, when no answer of its own is being built, a worker reads the store's and
the chat is drawn again from the store if they differ. A turn still pending in another process
shows once it has ended. No Textual here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sessions.records import Turn

SYNC_EVERY_S = 2.0
"""How often the app reads which turns of its session have ended (one small query)."""

TurnState = tuple[str, str]
"""(turn id, status) of an ended turn."""


class SessionSync:
    """The ended turns the chat shows, in order."""

    def __init__(self) -> None:
        self.shown: list[TurnState] = []

    def showing(self, turns: list[Turn]) -> None:
        """The chat was drawn from these turns of the store."""
        self.shown = [(t.id, t.status) for t in turns if t.status != "pending"]

    def ended(self, turn_id: str, status: str) -> None:
        """A turn the app asked has ended on screen with `status`."""
        self.shown = [s for s in self.shown if s[0] != turn_id] + [(turn_id, status)]

    def behind(self, stored: list[TurnState]) -> bool:
        """Whether the store holds ended turns the chat does not show as they are."""
        return stored != self.shown
