"""First run: no world yet. Explains `lore ingest` and offers to ingest the bundled demo."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Markdown, ProgressBar, Static

from tui.messages import DemoRequested

WELCOME = """\
# Welcome to Lorekeeper

Lorekeeper answers questions about a story world — a novel, a game's dialogue, a wiki dump —
and cites the passages each answer stands on. There is no world here yet.

**Ingest your own** (in a shell; it takes about a minute for a long novel):

```
lore ingest PATH... --world NAME [--glossary FILE]
```

`PATH` is files or folders of plain text, Markdown, dialogue scripts or JSONL; a TOML/JSON glossary
or a SillyTavern lorebook adds names and aliases. Then run `lore` again.

**Or try the bundled demo world** 《雁回楼记》 / *The Tower of the Returning Geese*: ten short
chapters in Chinese and English. Press **d** to ingest it now (a few seconds).
"""

STAGES = {"read": "reading files", "entities": "finding entities",
          "embed": "embedding passages", "index": "building indexes"}


class WelcomeScreen(Screen[None]):
    """Shown while no world exists. `d` ingests the demo world in a worker, with progress."""

    BINDINGS = [
        Binding("d", "ingest_demo", "ingest demo world", id="welcome-demo",
                tooltip="Ingest the bundled demo world and open it"),
    ]

    def compose(self) -> ComposeResult:
        with Center(), Vertical(id="welcome-box"):
            yield Markdown(WELCOME, id="welcome-text")
            yield Static("", id="welcome-stage")
            yield ProgressBar(id="welcome-progress", show_eta=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(ProgressBar).display = False

    def action_ingest_demo(self) -> None:
        progress = self.query_one(ProgressBar)
        if progress.display:  # ingesting already (a failure hides the bar again)
            return
        self.query_one("#welcome-stage", Static).update("Starting…")
        progress.display = True
        self.app.post_message(DemoRequested())

    def show_progress(self, stage: str, done: int, total: int) -> None:
        self.query_one("#welcome-stage", Static).update(f"{STAGES.get(stage, stage)} …")
        self.query_one(ProgressBar).update(total=max(total, 1), progress=done if total else 1)

    def show_failed(self) -> None:
        self.query_one("#welcome-stage", Static).update("The demo world could not be ingested "
                                                        "(see the notification). Press d to retry.")
        self.query_one(ProgressBar).display = False
