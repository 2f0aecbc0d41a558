"""The app's actions: the keys of the main screen and the command palette's commands.

Mixed into LoreApp; each opens a modal or asks the workers, and says why when it cannot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.screens.dialogs import ExportMenu, PromptDialog
from tui.screens.help import HelpScreen
from tui.screens.sessions import SessionPicker
from tui.screens.worlds import DEMO_OPTION, WorldSwitcher
from tui.workers import LoreWorkers

if TYPE_CHECKING:
    pass


class LoreActions(LoreWorkers):
    """Actions of LoreApp (a Textual App with LoreWorkers); `self` is the app, and says so."""

    # -- actions (keys, and the command palette) --------------------------------------------------
    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.settings.keymap))

    def _need_conversation(self) -> bool:
        if self.conversation is None:
            self.notify("No world is open yet.\n→ press Ctrl+G to pick one", severity="warning",
                        markup=False)
        return self.conversation is not None

    def action_sessions(self) -> None:
        if not self._need_conversation():
            return

        def chosen(result: tuple[str, str | None] | None) -> None:
            if result is not None:
                self.call_next(self._switch_session, *result)

        self.push_screen(SessionPicker(self.talking.world, self.talking.session.id),
                         chosen)

    async def _switch_session(self, how: str, session_id: str | None) -> None:
        if how == "resume" and session_id == self.talking.session.id:
            return
        await self.cancel_answer(wait=True)
        self._open(self.talking.world, session_id, new=how == "new")

    async def action_new_session(self) -> None:
        if self._need_conversation():
            await self._switch_session("new", None)

    def action_worlds(self) -> None:
        def chosen(world: str | None) -> None:
            if world == DEMO_OPTION:
                self.start_demo_ingest()
            elif world is not None and (self.conversation is None
                                        or world != self.conversation.world):
                self.call_next(self._switch_world, world)

        current = self.conversation.world if self.conversation is not None else None
        self.push_screen(WorldSwitcher(current), chosen)

    async def _switch_world(self, world: str) -> None:
        await self.cancel_answer(wait=True)
        self._open(world)

    def action_horizon(self) -> None:
        if not self._need_conversation():
            return
        if self.answering:
            self.notify("Wait for the answer (or Esc) before moving the horizon.",
                        severity="warning")
            return
        last = self.info.last_chapter if self.info else 0
        current = self.main.status.horizon

        def chosen(value: str | None) -> None:
            if value is not None:
                self.set_horizon(int(value or 0))

        self.push_screen(PromptDialog(
            f"The chapter you have read up to (1-{last}); empty or 0 = no limit",
            str(current or ""), restrict=r"\d{0,4}", placeholder="e.g. 5",
            help_text="Answers and timelines reveal nothing after it.  Enter = OK  Esc = cancel"),
            chosen)

    def action_export(self, kind: str = "", fmt: str = "") -> None:
        if not self._need_conversation():
            return
        if kind:
            self.export(kind, fmt)
            return
        tracked = self.talking.session.tracked_entity

        def chosen(choice: tuple[str, str] | None) -> None:
            if choice is not None:
                self.export(*choice)

        self.push_screen(ExportMenu(tracked), chosen)

    def palette_commands(self) -> list[tuple[str, str, str]]:
        """Every action, for the command palette: (title, help, action on the main screen)."""
        commands = [
            ("Ask a question", "Go to the question box", "focus_pane('question')"),
            ("Cancel the running answer", "The question stays in the session", "cancel"),
            ("Sessions…", "Resume, start, rename or delete a session", "app.sessions"),
            ("New session", "Start a new session of this world", "app.new_session"),
            ("Switch world…", "Open another ingested world", "app.worlds"),
            ("Set the spoiler horizon…", "The chapter you have read up to", "app.horizon"),
            ("Export…", "The timeline or the session, to a file", "app.export"),
        ]
        for fmt, name in (("md", "Markdown"), ("json", "JSON"), ("csv", "CSV")):
            commands.append((f"Export the timeline as {name}", "The tracked entity's appearances",
                             f"app.export('timeline', '{fmt}')"))
        for fmt, name in (("md", "Markdown"), ("json", "JSON")):
            commands.append((f"Export the session as {name}", "Questions, answers, citations",
                             f"app.export('session', '{fmt}')"))
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

    def run_palette_command(self, action: str) -> None:
        """Run a palette command's action on the main screen (after the palette closes)."""
        self.call_next(self.main.run_action, action)
