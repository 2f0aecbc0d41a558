"""Everything the command line prints goes through here, so text from the world (names,
aliases, questions, titles) can never drive the user's terminal.

A name holding ESC ] 52 ; … BEL would write the user's clipboard, ESC [ 2 J would clear the
screen, U+202E would reverse what follows. Control characters are shown as `\\uXXXX` instead:
visible to a person, and still the same character when the line is JSON.
"""

from __future__ import annotations

import re

import typer

# C0 controls except tab and newline, DEL, C1 controls, and the bidi embeddings, overrides and
# isolates (Trojan Source). Zero-width joiners stay: CJK and emoji text uses them.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """`text` with every terminal control character replaced by its `\\uXXXX` escape."""
    return _CONTROL.sub(lambda m: f"\\u{ord(m[0]):04x}", text)


def echo(text: str = "", *, err: bool = False, nl: bool = True) -> None:
    """`typer.echo` of the printable form of `text` (the only way commands print)."""
    typer.echo(printable(text), err=err, nl=nl)
