"""The terminal driver: Textual's Linux driver with a PasteGuard in front of its input parser,
so a paste holding escape sequences arrives whole and in order (tui/paste_guard.py says why),
and an app that ends when its terminal goes away.

A terminal that is closed (its window, `tmux kill-session`, an ssh link that drops) hangs up:
reads then return nothing, or fail with EIO, and so do writes. Textual's driver took the empty
read for "stdin is piped" and selected again at once, for ever: the app spun at a full core
with no one to see it (the hang-up signal went to `make`, its session leader, not to it). Here
the end of input, or an I/O error either way, tells the app once (`TerminalGone`), which quits
as Ctrl+Q does; writes after that are dropped, so the quit never blocks on a full queue.
"""

from __future__ import annotations

import os
import selectors
import threading
from codecs import getincrementaldecoder
from collections.abc import Callable
from contextlib import suppress
from typing import IO, Any, cast

from textual._parser import ParseError
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver

from tui.messages import TerminalGone
from tui.paste_guard import PasteGuard


class TerminalOutput:
    """The terminal's output stream for Textual's writer thread: an I/O error on it (the
    terminal hung up) is reported once through `gone`, and every later write is dropped."""

    def __init__(self, file: IO[str], gone: Callable[[str], None]) -> None:
        self._file, self._gone = file, gone
        self.lost = False

    def write(self, text: str) -> int:
        """Write `text`, or nothing once the terminal is gone."""
        if not self.lost:
            try:
                return self._file.write(text)
            except OSError as exc:
                self._lose(exc)
        return len(text)

    def flush(self) -> None:
        """Flush, unless the terminal is gone."""
        if not self.lost:
            try:
                self._file.flush()
            except OSError as exc:
                self._lose(exc)

    def _lose(self, exc: OSError) -> None:
        self.lost = True
        self._gone(f"an I/O error writing to the terminal ({exc.strerror or exc})")

    def fileno(self) -> int:
        return self._file.fileno()

    def isatty(self) -> bool:
        return self._file.isatty()

    def __getattr__(self, name: str) -> Any:  # encoding, errors …: the real stream's
        return getattr(self._file, name)


class LoreDriver(LinuxDriver):
    """LinuxDriver whose input thread reads through a PasteGuard and which tells the app when
    its terminal is gone (the rest is Textual's own)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._told = threading.Event()
        if self._file is not None:  # Textual types it as the real stream; its writer thread
            # only writes, flushes and asks for fileno / isatty, which the wrapper passes on
            self._file = cast(Any, TerminalOutput(self._file, self.terminal_gone))

    def terminal_gone(self, why: str) -> None:
        """Tell the app, once, that its terminal is gone (`why`: how it went)."""
        if not self._told.is_set():
            self._told.set()
            self._app.post_message(TerminalGone(why))

    def run_input_thread(self) -> None:
        """Wait for input and dispatch events (as LinuxDriver does, guarded); the end of
        input or an error reading it ends the loop and tells the app."""
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        parser = XTermParser(self._debug)
        guard = PasteGuard()
        decode = getincrementaldecoder("utf-8")().decode

        def process(ready: list[tuple[selectors.SelectorKey, int]], final: bool = False) -> bool:
            """Feed what is ready to the parser; False once the input has ended."""
            for _key, mask in ready:
                if mask & selectors.EVENT_READ:
                    try:
                        raw = os.read(self.fileno, 1024 * 4)
                    except OSError as exc:
                        self.terminal_gone(f"an I/O error reading the terminal "
                                           f"({exc.strerror or exc})")
                        return False
                    if not raw:  # a hung-up terminal, or the end of piped input
                        self.terminal_gone("the end of its input")
                        return False
                    # a lone ESC is held back whole: feeding the parser the empty rest would
                    # tell it the input had ended, and the next key would raise ParseError
                    if guarded := guard(decode(raw, final=final)):
                        for event in parser.feed(guarded):
                            self.process_message(event)
            if not ready and (held := guard.flush()):  # the terminal went quiet: an Esc key
                for event in parser.feed(held):
                    self.process_message(event)
            for event in parser.tick():
                self.process_message(event)
            return True

        try:
            while not self.exit_event.is_set():
                # a held ESC is an Esc key unless the rest of a paste marker follows at once
                if not process(selector.select(0.02 if guard.held else 0.1)):
                    return
            selector.unregister(self.fileno)
            process(selector.select(0.1), final=True)
        finally:
            selector.close()
            with suppress(EOFError, ParseError):
                for _event in parser.feed(""):
                    pass
