"""The session picker: the world's sessions with title, date and turn count.

Enter resumes, `n` starts a new one, `r` renames, `d` deletes (after a confirmation).
The picker asks the app for its rows (`SessionPicker.LoadWanted`) and sends it the edits
(`SessionPicker.EditWanted`); the app's workers answer with `SessionPicker.Loaded`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import DataTable, Footer, Static

from stores.lang.en import counted
from tui.screens.dialogs import ConfirmDialog, PromptDialog


@dataclass
class SessionRow:
    """One session as the picker lists it."""

    id: str
    title: str
    updated: datetime
    turns: int


def when(moment: datetime) -> str:
    """Local date and time to the minute: `2025-03-01 14:05`."""
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


class SessionPicker(ModalScreen[tuple[str, str | None] | None]):
    """Dismisses with ("resume", id), ("new", None) or None (closed)."""

    BINDINGS = [
        Binding("enter", "resume", "resume", id="session-resume",
                tooltip="Continue the highlighted session"),
        Binding("n", "new", "new", id="session-new", tooltip="Start a new session of this world"),
        Binding("r", "rename", "rename", id="session-rename",
                tooltip="Give the highlighted session a title"),
        Binding("d", "delete", "delete", id="session-delete",
                tooltip="Delete the highlighted session (asks first)"),
        Binding("escape", "close", "close", id="session-close", tooltip="Back to the chat"),
    ]

    @dataclass
    class Loaded(Message):
        """The world's sessions, newest first."""

        rows: list[SessionRow]

    @dataclass
    class LoadWanted(Message):
        """The picker wants its rows (a `Loaded` back)."""

        picker: SessionPicker

    @dataclass
    class EditWanted(Message):
        """Rename or delete a session; the rows come back in a `Loaded`."""

        picker: SessionPicker
        op: str
        """"rename" or "delete"."""
        session_id: str
        title: str = ""

    def __init__(self, world: str, current: str | None,
                 answering: Callable[[], bool] = lambda: False) -> None:
        super().__init__(classes="dialog")
        self.world, self.current = world, current
        self.answering = answering
        """Whether an answer is being built now (in the current session)."""
        self.rows: list[SessionRow] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="sessions-box"):
            yield Static(f"Sessions of {self.world}", classes="dialog-title")
            yield DataTable(id="sessions-table", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column("", key="mark", width=1)
        table.add_column("Title", key="title", width=50)
        table.add_column("Last active", key="updated", width=16)
        table.add_column("Turns", key="turns", width=5)
        table.focus()
        self.app.post_message(self.LoadWanted(self))

    @on(Loaded)
    def _loaded(self, event: Loaded) -> None:
        table = self.query_one(DataTable)
        keep = self.highlighted_id or self.current
        self.rows = event.rows
        table.clear()
        for row in self.rows:
            mark = Text("●", style="bold") if row.id == self.current else ""
            table.add_row(mark, row.title, when(row.updated), Text(str(row.turns), justify="right"),
                          key=row.id)
        ids = [row.id for row in self.rows]
        if keep in ids:
            table.move_cursor(row=ids.index(keep))

    @property
    def highlighted_id(self) -> str | None:
        table = self.query_one(DataTable)
        if not self.rows or table.cursor_row < 0 or table.cursor_row >= len(self.rows):
            return None
        return self.rows[table.cursor_row].id

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_resume()

    def action_resume(self) -> None:
        if (session_id := self.highlighted_id) is not None:
            self.dismiss(("resume", session_id))

    def action_new(self) -> None:
        self.dismiss(("new", None))

    def action_close(self) -> None:
        self.dismiss(None)

    def action_rename(self) -> None:
        session_id = self.highlighted_id
        if session_id is None:
            return
        row = self.rows[[r.id for r in self.rows].index(session_id)]

        def renamed(title: str | None) -> None:
            if title is not None and title.strip():
                self.app.post_message(self.EditWanted(self, "rename", session_id, title.strip()))

        self.app.push_screen(PromptDialog("Title of the session", row.title), renamed)

    def action_delete(self) -> None:
        session_id = self.highlighted_id
        if session_id is None:
            return
        if session_id == self.current and self.answering():
            self.notify("An answer is being built in this session: wait for it or cancel it "
                        "(Esc) first.", severity="warning")
            return
        row = self.rows[[r.id for r in self.rows].index(session_id)]

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.app.post_message(self.EditWanted(self, "delete", session_id))

        message = (f"Delete the session “{row.title}” with its {counted(row.turns, 'turn')}?"
                   + ("\nIt is the session open now; a new one takes its place."
                      if session_id == self.current else ""))
        self.app.push_screen(ConfirmDialog(message), confirmed)
