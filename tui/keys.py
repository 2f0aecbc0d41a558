"""Every binding of the app by where it applies, and the check of `[keymap]` against them."""

from __future__ import annotations

from collections.abc import Mapping

from textual.binding import Binding

APP_BINDINGS = [
    Binding("ctrl+q,ctrl+c", "quit", "quit", priority=True, id="quit", key_display="^q",
            tooltip="Quit; every turn is saved, an answer still running is saved as "
                    "cancelled"),
    Binding("f1", "help", "help", id="help", tooltip="Show every key and what the panes do"),
]
"""The app's own bindings (LoreApp.BINDINGS): they apply on every screen."""


def binding_groups() -> list[tuple[str, list[Binding]]]:
    """(where it applies, its bindings), for the help screen and the keymap check."""
    from tui.screens.dialogs import ConfirmDialog, ExportMenu, PromptDialog
    from tui.screens.main import MainScreen
    from tui.screens.passage import PassageScreen
    from tui.screens.presence import ChartScreen
    from tui.screens.relmap import MapScreen
    from tui.screens.sessions import SessionPicker
    from tui.screens.welcome import WelcomeScreen
    from tui.widgets.chat import ChatLog
    from tui.widgets.citations import CitationList
    from tui.widgets.stack import EntityStack
    from tui.widgets.timeline import Timeline

    def own(cls: type) -> list[Binding]:
        return [b for b in cls.__dict__.get("BINDINGS", []) if isinstance(b, Binding) and b.id]

    return [
        ("Everywhere", [b for b in APP_BINDINGS if b.id]),
        ("Main screen", own(MainScreen)),
        ("Chat pane", own(ChatLog)),
        ("Citations under an answer", own(CitationList)),
        ("Entities pane", own(EntityStack)),
        ("Timeline pane", own(Timeline)),
        ("Relations map", own(MapScreen)),
        ("Presence chart", own(ChartScreen)),
        ("Passage view", own(PassageScreen)),
        ("Session picker", own(SessionPicker)),
        ("Export menu", own(ExportMenu)),
        ("Dialogs", own(ConfirmDialog) + own(PromptDialog)),
        ("Welcome screen", own(WelcomeScreen)),
    ]


def known_ids() -> set[str]:
    return {b.id for _, bindings in binding_groups() for b in bindings if b.id}


def unknown_ids(keymap: Mapping[str, str]) -> list[str]:
    """Ids in `[keymap]` that name no binding (a typo the user should hear about)."""
    known = known_ids()
    return sorted(k for k in keymap if k not in known)
