"""The help screen: what each pane is for and every key, as remapped by `[keymap]`."""

from __future__ import annotations

from collections.abc import Mapping

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Markdown

BindingGroups = list[tuple[str, list[Binding]]]
"""(where they apply, their bindings): tui.keys.binding_groups()."""

INTRO = """\
# Lorekeeper — keys

Type a question and press **Enter**. Follow-ups may use pronouns (他, she, it): the entity stack
on the right says who they refer to (*as she*: the word that last meant that entry; *likely
answer?*: the one the reader found likeliest for an answer it did not state, which the next
he or she means), and an answer shows **↳ read as** when the question was rewritten. Answers
cite passages as [1], [2]; the citations under an answer open the passage.
**Tab** / **Shift+Tab** move between the question box, the chat, its citations, the entity stack
and the timeline. **Ctrl+R** draws the tracked entity's **relations map** (parents and children,
brothers and sisters, spouses, masters and disciples, allies, enemies — each with the sentence
that states it;
`m` on an entity does too), and **Ctrl+Y** its **presence chart** (who appears in which chapter).
**Ctrl+P** opens the command palette with every action. Ctrl+C and Ctrl+Q quit;
every turn is saved as it happens, and an answer still running is saved as cancelled.

Remap any key in `config.toml`: `[keymap]` with `binding-id = "key"`, e.g. `sessions = "f6"`.
"""


def keys_for(binding: Binding, keymap: Mapping[str, str]) -> str:
    """The keys that trigger a binding once `[keymap]` is applied, as the help shows them."""
    keys = keymap.get(binding.id or "", binding.key)
    return ", ".join(k.strip() for k in keys.split(","))


def help_markdown(keymap: Mapping[str, str], groups: BindingGroups) -> str:
    """The intro and one table of keys per place they apply."""
    parts = [INTRO]
    for where, bindings in groups:
        if not bindings:
            continue
        parts.append(f"\n## {where}\n\n| keys | id | does |\n| --- | --- | --- |")
        for b in bindings:
            keys = keys_for(b, keymap).replace("|", "\\|")
            parts.append(f"| `{keys}` | `{b.id}` | {b.tooltip or b.description} |")
    return "\n".join(parts)


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,f1,q", "dismiss", "close", id="help-close",
                        tooltip="Close the help")]

    def __init__(self, keymap: Mapping[str, str], groups: BindingGroups) -> None:
        super().__init__(classes="dialog")
        self.keymap, self.groups = keymap, groups

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box"), VerticalScroll(id="help-scroll"):
            yield Markdown(help_markdown(self.keymap, self.groups))
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#help-scroll").focus()
