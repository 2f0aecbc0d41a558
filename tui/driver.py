"""The terminal driver: Textual's Linux driver with a PasteGuard in front of its input parser,
so a paste holding escape sequences arrives whole and in order (tui/paste_guard.py says why)."""

from __future__ import annotations

import os
import selectors
from codecs import getincrementaldecoder
from contextlib import suppress

from textual._parser import ParseError
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver

from tui.paste_guard import PasteGuard


class LoreDriver(LinuxDriver):
    """LinuxDriver whose input thread reads through a PasteGuard (the rest is Textual's own)."""

    def run_input_thread(self) -> None:
        """Wait for input and dispatch events (as LinuxDriver does, guarded)."""
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        parser = XTermParser(self._debug)
        guard = PasteGuard()
        decode = getincrementaldecoder("utf-8")().decode

        def process(ready: list[tuple[selectors.SelectorKey, int]], final: bool = False) -> None:
            for _key, mask in ready:
                if mask & selectors.EVENT_READ:
                    data = decode(os.read(self.fileno, 1024 * 4), final=final)
                    if not data:  # stdin is piped
                        break
                    # a lone ESC is held back whole: feeding the parser the empty rest would
                    # tell it the input had ended, and the next key would raise ParseError
                    if guarded := guard(data):
                        for event in parser.feed(guarded):
                            self.process_message(event)
            if not ready and (held := guard.flush()):  # the terminal went quiet: an Esc key
                for event in parser.feed(held):
                    self.process_message(event)
            for event in parser.tick():
                self.process_message(event)

        try:
            while not self.exit_event.is_set():
                # a held ESC is an Esc key unless the rest of a paste marker follows at once
                process(selector.select(0.02 if guard.held else 0.1))
            selector.unregister(self.fileno)
            process(selector.select(0.1), final=True)
        finally:
            selector.close()
            with suppress(EOFError, ParseError):
                for _event in parser.feed(""):
                    pass
