"""What a paste into the question box keeps: its text in order, without terminal escape
sequences or control characters, its lines joined into one question.

No Textual here: the question box (tui/widgets/question.py) and the terminal driver
(tui/driver.py) both read pasted text through these functions.
"""

from __future__ import annotations

import re

ESCAPE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]?|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-_]?)")
"""A terminal escape sequence: CSI (colours, cursor moves), OSC (titles, links), or a lone ESC."""
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Control characters other than tab and newline (C0, DEL, C1)."""
LINE_BREAK = re.compile(r"\r\n|\r|\n|\u2028|\u2029")


def printable_paste(text: str) -> str:
    """`text` without escape sequences and control characters, everything else in place."""
    return CONTROL.sub("", ESCAPE.sub("", text))


def joined_paste(text: str) -> tuple[str, int]:
    """A paste as one line (its non-blank lines joined by a space) and how many lines it had."""
    lines = [" ".join(printable_paste(line).split()) for line in LINE_BREAK.split(text)]
    kept = [line for line in lines if line]
    return " ".join(kept), len(kept)
