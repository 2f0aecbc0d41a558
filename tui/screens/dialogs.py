"""Small modal dialogs: confirm, a one-line prompt, the export menu."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from tui.exports import SESSION_FORMATS, TIMELINE_FORMATS, picture_formats

FORMAT_NAMES = {"md": "Markdown", "json": "JSON", "csv": "CSV", "svg": "SVG", "png": "PNG",
                "mermaid": "Mermaid", "dot": "Graphviz DOT"}
PICTURE_NAMES = {"map": "Relations map", "chart": "Presence chart"}


class ConfirmDialog(ModalScreen[bool]):
    """`y` confirms, `n` or Esc declines."""

    BINDINGS = [
        Binding("y", "answer(True)", "yes", id="confirm-yes", tooltip="Yes, do it"),
        Binding("n,escape", "answer(False)", "no", id="confirm-no", tooltip="No, leave it"),
    ]

    def __init__(self, message: str) -> None:
        super().__init__(classes="dialog")
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Static(self.message, classes="dialog-text")
            yield Static("y = yes    n / Esc = no", classes="dialog-keys")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class PromptDialog(ModalScreen[str | None]):
    """One line of text; Enter accepts, Esc cancels (None)."""

    BINDINGS = [Binding("escape", "cancel", "cancel", id="prompt-cancel",
                        tooltip="Close without changing anything")]

    def __init__(self, title: str, value: str = "", *, placeholder: str = "",
                 restrict: str | None = None, help_text: str = "") -> None:
        super().__init__(classes="dialog")
        self.title_text, self.value, self.placeholder = title, value, placeholder
        self.restrict, self.help_text = restrict, help_text

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Static(self.title_text, classes="dialog-title")
            yield Input(self.value, placeholder=self.placeholder, restrict=self.restrict,
                        id="prompt-input")
            yield Static(self.help_text or "Enter = OK    Esc = cancel", classes="dialog-keys")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _accept(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ExportMenu(ModalScreen[tuple[str, str] | None]):
    """Choose what to export: ("timeline", fmt) or ("session", fmt)."""

    BINDINGS = [Binding("escape", "cancel", "cancel", id="export-cancel",
                        tooltip="Close without exporting")]

    def __init__(self, tracked: str | None) -> None:
        super().__init__(classes="dialog")
        self.tracked = tracked

    def compose(self) -> ComposeResult:
        options = []
        for fmt in TIMELINE_FORMATS:
            label = (f"Timeline of {self.tracked} as {FORMAT_NAMES[fmt]}" if self.tracked else
                     f"Timeline as {FORMAT_NAMES[fmt]} (track an entity first: Enter in Entities)")
            options.append(Option(label, id=f"timeline:{fmt}", disabled=not self.tracked))
        options += [Option(f"This session as {FORMAT_NAMES[fmt]}", id=f"session:{fmt}")
                    for fmt in SESSION_FORMATS]
        # the pictures last: the timeline and session entries keep their places
        for kind, fmt in ((k, f) for k, formats in picture_formats().items() for f in formats):
            what = PICTURE_NAMES[kind]
            label = (f"{what} of {self.tracked} as {FORMAT_NAMES[fmt]}" if self.tracked else
                     f"{what} as {FORMAT_NAMES[fmt]} (track an entity first)")
            options.append(Option(label, id=f"{kind}:{fmt}", disabled=not self.tracked))
        with Vertical(classes="dialog-box"):
            yield Static("Export", classes="dialog-title")
            yield OptionList(*options, id="export-options")
            yield Static("Enter = export    Esc = cancel", classes="dialog-keys")

    def on_mount(self) -> None:
        menu = self.query_one(OptionList)
        menu.highlighted = 0 if self.tracked else len(TIMELINE_FORMATS)
        menu.focus()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        kind, fmt = (event.option.id or "").split(":")
        self.dismiss((kind, fmt))

    def action_cancel(self) -> None:
        self.dismiss(None)
