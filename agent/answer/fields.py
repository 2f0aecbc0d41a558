"""The answer's fields read from the output tool's JSON arguments while they arrive.

A streaming model sends the `Answer` as pieces of JSON. Parsing the whole prefix again after
every piece costs the length of the answer each time (quadratic in it); `AnswerFields` reads
each character once and hands out the new characters of the top-level string fields it was
asked for (`text`), decoded (escapes, surrogate pairs split across pieces included).
"""

from __future__ import annotations

import re

_SPECIAL = re.compile(r'["\\]')
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r",
            "t": "\t"}


class AnswerFields:
    """Top-level string fields of one JSON object, read piece by piece."""

    def __init__(self, wanted: tuple[str, ...] = ("text", "resolved_question")) -> None:
        self.wanted = wanted
        self._values: dict[str, list[str]] = {}
        self.closed: set[str] = set()
        """The wanted fields whose string has ended."""
        self._depth = 0
        self._key = ""  # the last key read at the top level
        self._after_colon = False  # a top-level value is due
        self._role = ""  # the open string: "key", "value" or "skip" ("" when none is open)
        self._key_chars: list[str] = []
        self._added: dict[str, list[str]] = {}
        self._escape = ""  # an escape sequence begun in one piece and ended in the next
        self._high = ""  # a high surrogate waiting for its low half

    def value(self, name: str) -> str:
        """What field `name` holds so far."""
        parts = self._values.get(name, [])
        if len(parts) > 1:
            parts[:] = ["".join(parts)]
        return parts[0] if parts else ""

    def feed(self, piece: str) -> dict[str, str]:
        """Read `piece`; the characters it added to each wanted field."""
        self._added = {}
        i, n = 0, len(piece)
        while i < n:
            if self._role:
                i = self._in_string(piece, i)
                continue
            ch = piece[i]
            i += 1
            if ch == '"':
                self._open_string()
            elif ch in "{[":
                self._depth += 1
            elif ch in "}]":
                self._depth -= 1
                self._after_colon = False
            elif self._depth == 1 and ch == ":":
                self._after_colon = True
            elif self._depth == 1 and ch == ",":
                self._after_colon = False
        return {name: "".join(chars) for name, chars in self._added.items() if chars}

    def _open_string(self) -> None:
        if self._depth == 1 and not self._after_colon:
            self._role, self._key_chars = "key", []
        elif self._depth == 1 and self._key in self.wanted and self._key not in self.closed:
            self._role = "value"
        else:
            self._role = "skip"

    def _emit(self, text: str) -> None:
        if self._role == "value":
            self._values.setdefault(self._key, []).append(text)
            self._added.setdefault(self._key, []).append(text)
        elif self._role == "key":
            self._key_chars.append(text)

    def _in_string(self, piece: str, i: int) -> int:
        """Read string characters from `piece[i:]`; where reading stopped."""
        if self._escape:
            return self._go_on_escaping(piece, i)
        found = _SPECIAL.search(piece, i)
        end = found.start() if found else len(piece)
        if end > i:
            self._flush_high()
            self._emit(piece[i:end])
        if found is None:
            return end
        if found[0] == "\\":
            self._escape = "\\"
        else:
            self._close_string()
        return end + 1

    def _go_on_escaping(self, piece: str, i: int) -> int:
        """Read on into an escape sequence (\\n, \\u4e2d) that may have begun in an earlier piece."""
        if len(self._escape) == 1:
            self._escape += piece[i]
            i += 1
        need = 6 if self._escape[1] == "u" else 2
        take = min(len(piece) - i, need - len(self._escape))
        self._escape += piece[i:i + take]
        if len(self._escape) == need:
            escape, self._escape = self._escape, ""
            self._decoded(escape)
        return i + take

    def _decoded(self, escape: str) -> None:
        if escape[1] != "u":
            self._flush_high()
            self._emit(_ESCAPES.get(escape[1], escape[1]))
            return
        try:
            code = int(escape[2:], 16)
        except ValueError:
            code = 0xFFFD
        if 0xD800 <= code < 0xDC00:
            self._flush_high()
            self._high = chr(code)
        elif 0xDC00 <= code < 0xE000 and self._high:
            high, self._high = ord(self._high), ""
            self._emit(chr(0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)))
        else:
            self._flush_high()
            self._emit("\ufffd" if 0xD800 <= code < 0xE000 else chr(code))

    def _flush_high(self) -> None:
        if self._high:
            self._high = ""
            self._emit("\ufffd")  # half of a surrogate pair: not text

    def _close_string(self) -> None:
        self._flush_high()
        if self._role == "key":
            self._key = "".join(self._key_chars)
        elif self._role == "value":
            self.closed.add(self._key)
            self._after_colon = False
        self._role = ""
