"""Errors the app shows: a notification saying what went wrong and what to do, and the
traceback of anything unexpected in the data dir's log (never on screen)."""

from __future__ import annotations

import time
import traceback
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from sessions.scrub import scrub
from stores.errors import LoreError


class ErrorReports:
    """Mixed into LoreApp (a Textual App with `settings`)."""

    settings: Any

    if TYPE_CHECKING:
        def notify(self, message: str, **kwargs: Any) -> None: ...

    def report_error(self, error: BaseException) -> None:
        """A notification saying what went wrong and what to do; never a traceback."""
        if isinstance(error, LoreError):
            text = f"{error.where}: {error.message}" if error.where else error.message
            if error.hint:
                text += f"\n→ {error.hint}"
        else:
            log = self._log_error(error)
            text = (f"{type(error).__name__}: {error}\n→ this is a bug in Lorekeeper; "
                    f"the details are in {log}")
        self.notify(text, title="Error", severity="error", timeout=15, markup=False)

    def _log_error(self, error: BaseException | None, summary: str = "") -> str:
        """Append `summary` and the error's traceback to the data dir's log; its path."""
        path = self.settings.data_dir / "logs" / "tui.log"
        stamp = time.strftime("%Y-%m-%d %H:%M:%S")
        with suppress(OSError):
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("a", encoding="utf-8") as log:
                log.write(scrub(f"{stamp} {summary}\n" if summary else f"{stamp}\n"))
                if error is not None:
                    log.write(scrub("".join(traceback.format_exception(error)) + "\n"))
        return str(path)
