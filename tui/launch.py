"""Start the terminal app (imported only when `lore` runs without a command)."""

from __future__ import annotations

from tui.settings import AppSettings


def launch(settings: AppSettings, world: str | None) -> None:
    from tui.app import LoreApp

    LoreApp(settings, world=world).run()
