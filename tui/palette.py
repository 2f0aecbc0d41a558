"""The command palette's provider: every action of the app, by name."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from tui.actions import palette_commands
from tui.screens.main import MainScreen


class LoreCommands(Provider):
    """Offers `tui.actions.palette_commands()`: every action of the app, by title."""

    def run(self, action: str) -> None:
        """Run a palette command's action on the main screen (after the palette closes)."""
        main = next(s for s in self.app.screen_stack if isinstance(s, MainScreen))
        self.app.call_next(main.run_action, action)

    async def discover(self) -> Hits:
        for title, help_text, action in palette_commands():
            yield DiscoveryHit(title, partial(self.run, action), help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, action in palette_commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), partial(self.run, action),
                          help=help_text)
