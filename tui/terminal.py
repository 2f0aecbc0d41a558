"""Everything the command line prints goes through here, so text from the world (names,
aliases, questions, titles) can never drive the user's terminal.

A name holding ESC ] 52 ; … BEL would write the user's clipboard, ESC [ 2 J would clear the
screen, U+202E would reverse what follows. Control characters are shown as `\\uXXXX` instead:
visible to a person, and still the same character when the line is JSON.
"""

from __future__ import annotations

import logging
import sys

import typer

from sessions.scrub import ScrubFilter, scrub
from stores.models import escape_controls


def printable(text: str) -> str:
    """`text` with every terminal control character but tab and newline replaced by its
    `\\uXXXX` escape (stores.models.escape_controls; a path keeps no newline: shown_path)."""
    return escape_controls(text, keep="\t\n")


def pad(text: str, width: int) -> str:
    """`text` padded with spaces to `width` terminal columns: a Han or full-width character
    takes two, so `f"{name:<16}"` pushed the next column out of line (lore worlds)."""
    from rich.cells import cell_len

    return text + " " * max(0, width - cell_len(text))


NAME_WIDTHS = (12, 28)
"""A listed name's column is as wide as the longest name, within these columns."""


def name_width(names: list[str]) -> int:
    """The columns a list of names takes (Han characters count two): the longest, within
    NAME_WIDTHS, so "Frank Churchill" does not push its row's columns out of line."""
    from rich.cells import cell_len

    low, high = NAME_WIDTHS
    return max(low, min(high, max((cell_len(n) for n in names), default=0)))


def clean(text: str) -> str:
    """What may reach the terminal or a log: secrets redacted (sessions.scrub), then every
    control character escaped. The one gate for text leaving through the terminal."""
    return printable(scrub(text))


def echo(text: str = "", *, err: bool = False, nl: bool = True) -> None:
    """`typer.echo` of the clean form of `text` (the only way commands print)."""
    try:
        typer.echo(clean(text), err=err, nl=nl)
    except BrokenPipeError:
        raise
    except OSError as exc:  # stdout on a full disk (> /dev/full): not the data folder's disk
        from stores.errors import LoreError

        stream = "standard error" if err else "standard output"
        raise LoreError(f"cannot write the output: {exc.strerror or exc}", where=stream,
                        hint="check where the output is redirected (a full disk?), or send "
                             "it elsewhere, e.g. --out FILE on another disk") from None


class _CleanFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return printable(super().format(record))


def log_to_stderr() -> None:
    """Warnings and errors of any library go to stderr through the same gate as `echo`
    (Python's last-resort handler would print them as they come: keys and escapes included)."""
    root = logging.getLogger()
    if any(isinstance(h.formatter, _CleanFormatter) for h in root.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setLevel(logging.WARNING)
    handler.addFilter(ScrubFilter())
    handler.setFormatter(_CleanFormatter("%(message)s"))
    root.addHandler(handler)
