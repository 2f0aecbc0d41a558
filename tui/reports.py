"""Errors the app shows: a notification saying what went wrong and what to do, and the
traceback of anything unexpected in the data dir's log (never on screen)."""

from __future__ import annotations

import time
import traceback
from contextlib import suppress
from pathlib import Path

from sessions.scrub import scrub
from stores.errors import LoreError, StoreError
from tui.logs import LOGS, open_log


def error_note(error: BaseException, data_dir: Path) -> str:
    """What the user is told of `error`: the setting or file at fault and what to do; for an
    unexpected error, that it is a bug and where its traceback was logged."""
    if isinstance(error, LoreError):
        text = f"{error.where}: {error.message}" if error.where else error.message
        if error.hint:
            text += f"\n→ {error.hint}"
        return text
    log = log_error(data_dir, error)
    return (f"{type(error).__name__}: {error}\n→ this is a bug in Lorekeeper; "
            f"the details are in {log}")


def failure_reason(error: BaseException) -> str:
    """Why something did not happen, in one or two lines (a LoreError's hint included)."""
    if isinstance(error, LoreError):
        reason = f"{error.where}: {error.message}" if error.where else error.message
        return reason + (f"\n→ {error.hint}" if error.hint else "")
    return f"{type(error).__name__}: {error}"


def log_error(data_dir: Path, error: BaseException | None, summary: str = "") -> str:
    """Append `summary` and the error's traceback to the data dir's log; its path."""
    path = data_dir / LOGS / "tui.log"
    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    text = f"{stamp} {summary}\n" if summary else f"{stamp}\n"
    if error is not None:
        text += "".join(traceback.format_exception(error)) + "\n"
    # no log (a link at its place): the note still shows
    with suppress(StoreError, OSError), open_log(data_dir, "tui.log") as log:
        log.write(scrub(text).encode("utf-8"))
    return str(path)
