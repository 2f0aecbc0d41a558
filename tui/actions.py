"""The app's actions: the modals behind the keys of the main screen and the command palette.

`Actions` is an object the app holds (`app.actions`); the app's `action_*` methods, which
Textual looks up on the app, check that they can run and hand it what they need (attributes
down). What the user picks goes back to the app as a message (messages up): the app opens,
ingests, moves the horizon or exports.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from textual.app import App

from tui.exports import picture_formats
from tui.keys import binding_groups
from tui.messages import (
    DemoRequested,
    ExportRequested,
    HorizonRequested,
    OpenRequested,
)
from tui.screens.dialogs import FORMAT_NAMES, ExportMenu, PromptDialog
from tui.screens.help import HelpScreen
from tui.screens.presence import ChartScreen
from tui.screens.relmap import MapScreen
from tui.screens.sessions import SessionPicker
from tui.screens.worlds import DEMO_OPTION, WorldSwitcher

PaletteCommand = tuple[str, str, str]
"""(title, help, action on the main screen)."""


class Actions:
    """Opens the modals; what the user picks goes back to the app as a message."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app

    def help(self, keymap: Mapping[str, str]) -> None:
        if not isinstance(self.app.screen, HelpScreen):
            self.app.push_screen(HelpScreen(keymap, binding_groups()))

    def sessions(self, world: str, current: str, answering: Callable[[], bool]) -> None:
        """The session picker of `world` (`current` is the session open now, which cannot be
        deleted while `answering()`); resuming another session or starting one reopens it."""

        def chosen(result: tuple[str, str | None] | None) -> None:
            if result is None:
                return
            how, session_id = result
            if how == "resume" and session_id == current:
                return
            self.app.post_message(OpenRequested(world, session_id, new=how == "new"))

        self.app.push_screen(SessionPicker(world, current, answering), chosen)

    def worlds(self, current: str | None) -> None:
        """The world switcher: another world opens, or the demo world is ingested."""

        def chosen(world: str | None) -> None:
            if world == DEMO_OPTION:
                self.app.post_message(DemoRequested())
            elif world is not None and world != current:
                self.app.post_message(OpenRequested(world))

        self.app.push_screen(WorldSwitcher(current), chosen)

    def horizon(self, current: int, last: int) -> None:
        """Ask for the chapter the reader has read up to (`last`: the world's last chapter); the
        conversation refuses one past it (`Conversation.set_horizon`)."""

        def chosen(value: str | None) -> None:
            if value is None:
                return
            typed = value.strip()
            if typed and not typed.isdecimal():
                # a typo keeps the horizon: typed letters used to clear it, silently
                # revealing the whole story (a newcomer's trial)
                shown = f"chapter {current}" if current else "none"
                self.app.notify(f"“{typed[:20]}” is not a chapter: give a chapter from 1 to "
                                f"{last}, or 0 for no horizon (the horizon stays {shown})",
                                severity="error", markup=False)
                return
            self.app.post_message(HorizonRequested(int(typed or 0)))

        self.app.push_screen(PromptDialog(
            f"The chapter you have read up to (1-{last}); empty or 0 = no limit",
            str(current or ""), placeholder="e.g. 5",
            help_text="Answers and timelines reveal nothing after it.  Enter = OK  Esc = cancel"),
            chosen)

    def relation_map(self, entity: str) -> None:
        """The relations map of `entity` (it loads itself: MapScreen.LoadWanted)."""
        self.app.push_screen(MapScreen(entity))

    def presence_chart(self, stack: list[str], entity: str | None) -> None:
        """The presence chart of `entity`; the entity stack's names can be picked beside it."""
        if not entity and not stack:
            self.app.notify("Ask about someone or track an entity first: the chart shows who "
                            "appears when.", severity="warning", markup=False)
            return
        self.app.push_screen(ChartScreen(stack, [entity or stack[0]]))

    def export(self, tracked: str | None) -> None:
        """What to export, and as what (the timeline only when an entity is tracked)."""

        def chosen(choice: tuple[str, str] | None) -> None:
            if choice is not None:
                self.app.post_message(ExportRequested(*choice))

        self.app.push_screen(ExportMenu(tracked), chosen)


def palette_commands() -> list[PaletteCommand]:
    """Every action, for the command palette: (title, help, action on the main screen)."""
    commands = [
        ("Ask a question", "Go to the question box", "focus_pane('question')"),
        ("Cancel the running answer", "The question stays in the session", "cancel"),
        ("Sessions…", "Resume, start, rename or delete a session", "app.sessions"),
        ("New session", "Start a new session of this world", "app.new_session"),
        ("Switch world…", "Open another ingested world", "app.worlds"),
        ("Set the spoiler horizon…", "The chapter you have read up to", "app.horizon"),
        ("Relations map", "The tracked entity's relatives, allies and enemies, by kind, "
         "with the sentences that state them", "relation_map"),
        ("Presence chart", "Who appears in which chapter, shaded by mentions",
         "presence_chart"),
        ("Export…", "The timeline, the session, the map or the chart, to a file",
         "app.export"),
    ]
    for fmt, name in (("md", "Markdown"), ("json", "JSON"), ("csv", "CSV")):
        commands.append((f"Export the timeline as {name}", "The tracked entity's appearances",
                         f"app.export('timeline', '{fmt}')"))
    for fmt, name in (("md", "Markdown"), ("json", "JSON")):
        commands.append((f"Export the session as {name}", "Questions, answers, citations",
                         f"app.export('session', '{fmt}')"))
    pictures = picture_formats()
    for fmt in pictures["map"]:
        commands.append((f"Export the relations map as {FORMAT_NAMES[fmt]}",
                         "The tracked entity's map", f"app.export('map', '{fmt}')"))
    for fmt in pictures["chart"]:
        commands.append((f"Export the presence chart as {FORMAT_NAMES[fmt]}",
                         "The tracked entity's chart", f"app.export('chart', '{fmt}')"))
    commands += [
        ("Track the highlighted entity", "Show its timeline", "track_highlighted"),
        ("Ask about the highlighted entity", "Put its name in the question box",
         "ask_highlighted"),
        ("Citations of the last answer", "Open a cited passage", "citations"),
        ("Show or hide the search steps", "Every step of each answer, or one line",
         "toggle_trace"),
        ("Example questions", "In an empty chat: questions to start with", "examples"),
        ("Go to the entity stack", "Entities of the conversation", "focus_pane('entities')"),
        ("Go to the timeline", "The tracked entity's appearances", "focus_pane('timeline')"),
        ("Go to the chat", "Scroll the conversation", "focus_pane('chat')"),
        ("Scroll the chat up", "A page", "scroll_chat(-1)"),
        ("Scroll the chat down", "A page", "scroll_chat(1)"),
        ("Help", "Every key and what the panes do", "app.help"),
        ("Quit", "Everything is saved", "app.quit"),
    ]
    return commands
