"""Signals that end the app as Ctrl+Q does: SIGHUP (its terminal hung up: the window closed,
`tmux kill-session`, an ssh link dropped) and SIGTERM (`kill`, a logout, a service manager).

Python's default for either ends the process on the spot: a running answer stays pending, the
background `lore vectors` child is left to its own devices, and under `make run` — where the
hang-up goes to make, the session leader, not to the app — nothing ends it at all. Here each
becomes a `TerminalGone` message, so quitting saves and stops what Ctrl+Q saves and stops.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable
from contextlib import suppress

from tui.messages import TerminalGone

SIGNALS = {signal.SIGHUP: "a hang-up signal (SIGHUP)",
           signal.SIGTERM: "a termination signal (SIGTERM)"}


def end_on_signals(post: Callable[[TerminalGone], object]) -> Callable[[], None]:
    """Post a TerminalGone for each ending signal from now on (in the running event loop);
    returns what puts the previous handling back."""
    loop = asyncio.get_running_loop()
    installed = []

    def ended(why: str) -> None:
        post(TerminalGone(why))

    for number, why in SIGNALS.items():
        # only the main thread may handle signals (a Pilot test in another thread: none)
        with suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(number, ended, why)
            installed.append(number)

    def restore() -> None:
        for number in installed:
            with suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(number)

    return restore
