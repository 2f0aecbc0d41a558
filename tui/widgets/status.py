"""The status bar: the world and its size, the model, the spoiler horizon, the session and
what the app is doing."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from tui.state import WorldInfo, horizon_label


class StatusBar(Static):
    """One line at the bottom of the main screen. Set its attributes; it redraws itself."""

    world: reactive[WorldInfo | None] = reactive(None)
    model: reactive[str] = reactive("")
    horizon: reactive[int] = reactive(0)
    session: reactive[str] = reactive("")
    activity: reactive[str] = reactive("")
    vectors: reactive[str] = reactive("")
    """The e5 upgrade's progress while the world searches with its fast index."""

    def render(self) -> Text:
        world = self.world
        parts: list[tuple[str, str] | str] = []
        if self.activity:  # first, so a narrow terminal never cuts it off
            parts += [(f" {self.activity} ", "bold reverse"), "  "]
        if world is None:
            parts.append(("no world open", "bold"))
        else:
            parts += [(world.name, "bold"), f" · {world.size()}"]
            if world.state != "ready":
                parts.append((f" · {world.state}", "bold red"))
        # the horizon next: a narrow terminal cuts the end of the line, and what guards against
        # spoilers must stay in view
        parts += ["  │  horizon ", (horizon_label(self.horizon), "bold")]
        if world is not None and self.vectors:
            parts += ["  │  ", (self.vectors, "yellow")]
        parts += ["  │  model ", (self.model or "?", "bold")]
        if self.session:
            parts += ["  │  ", self.session]
        text = Text.assemble(*parts)
        text.no_wrap = True
        text.overflow = "ellipsis"
        return text
