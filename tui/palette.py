"""The command palette's provider: every action of the app, by name."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Provider

if TYPE_CHECKING:
    from tui.app import LoreApp


class LoreCommands(Provider):
    """Offers `LoreApp.palette_commands()`: every action of the app, by title."""

    @property
    def lore(self) -> LoreApp:
        return self.app  # type: ignore[return-value]

    async def discover(self) -> Hits:
        for title, help_text, action in self.lore.palette_commands():
            yield DiscoveryHit(title, partial(self.lore.run_palette_command, action),
                               help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, action in self.lore.palette_commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title),
                          partial(self.lore.run_palette_command, action), help=help_text)
