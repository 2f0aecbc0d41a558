"""The raw terminal input with escape sequences taken out of bracketed pastes.

Textual's input parser reads an ESC inside a paste as the start of a key sequence: the pasted
text after it comes out as typed keys *before* the paste itself (`Who is ESC[31mSu Wan` showed
as `^[31mSu Wan…Who is`). The guard sits in front of the parser and drops those sequences in
place, so a paste reaches the app whole and in order. No Textual here.
"""

from __future__ import annotations

import re

from tui.paste import ESCAPE

PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"
INCOMPLETE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*)?$")
"""An escape sequence cut off at the end of a read (the rest comes with the next one)."""


class PasteGuard:
    """Call it with each decoded read of the terminal; it returns what the parser should see."""

    def __init__(self) -> None:
        self.pasting = False
        self.held = ""
        """The end of the last read inside a paste, when it may be a sequence cut in two."""

    def flush(self) -> str:
        """What is held outside a paste, once the terminal has gone quiet: an Esc key press
        that only looked like the start of a paste."""
        if self.pasting:
            return ""
        held, self.held = self.held, ""
        return held

    def __call__(self, data: str) -> str:
        data, self.held = self.held + data, ""
        out: list[str] = []
        while data:
            if not self.pasting:
                start = data.find(PASTE_START)
                if start < 0:  # outside a paste everything passes as it came (an Esc key too)
                    keep = _cut_start(data)
                    out.append(data[: len(data) - keep])
                    self.held = data[len(data) - keep:]
                    break
                out.append(data[: start + len(PASTE_START)])
                data, self.pasting = data[start + len(PASTE_START):], True
                continue
            end = data.find(PASTE_END)
            if end < 0:
                cut = INCOMPLETE.search(data)
                if cut is not None:
                    data, self.held = data[: cut.start()], data[cut.start():]
                out.append(ESCAPE.sub("", data))
                break
            out.append(ESCAPE.sub("", data[:end]) + PASTE_END)
            data, self.pasting = data[end + len(PASTE_END):], False
        return "".join(out)


def _cut_start(data: str) -> int:
    """How many characters at the end of `data` may begin a paste's start marker."""
    for size in range(len(PASTE_START) - 1, 0, -1):
        if data.endswith(PASTE_START[:size]):
            return size
    return 0
