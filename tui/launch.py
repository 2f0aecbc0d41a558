"""Start the terminal app (imported only when `lore` runs without a command)."""

from __future__ import annotations

from stores.config import Settings


def launch(settings: Settings, world: str | None) -> None:
    from tui.app import LoreApp

    LoreApp(settings, world=world).run()
