"""What of a streaming answer may be shown, piece by piece: redacted, capped, in linear time.

A model's answer arrives in pieces of a few characters (agent.answer.streaming). Redacting each piece
on its own would show a key split across two pieces in clear, so the tail that could still be
the first half of a secret is held back until the next piece (or the final answer) shows what
it is: the last few runs of ASCII without spaces (keys, URLs with a password, `Basic <pair>`,
`api_key: value`) and any secret `sessions.scrub` finds across the cut. Nothing past
`model.max_answer_chars` is shown: the final answer (agent/answer/cap.py) is cut there too.
Each piece is handled once, so a long answer costs its length, not its length squared.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sessions.scrub import scrub, secret_env_values, secret_spans

if TYPE_CHECKING:  # agent.answer.streaming imports pydantic-ai: the chat pane must not wait for it
    from agent.answer.streaming import Draft

# The end of the text that may be the start of a secret: up to four runs of printable ASCII
# with a little space between them ("Authorization: Basic dXNl…"), the last one unfinished.
_OPEN_TAIL = re.compile(r"(?:[!-~]+[ \t]{1,3}){0,3}[!-~]*\Z")
_ASCII_RUN = re.compile(r"[!-~]*")
HOLD_MAX = 512
"""The most held back: a secret is shorter. Past it, a run of ASCII is shown down to
HOLD_MAX // 2 held, so that the held text is searched again only every HOLD_MAX // 2
characters however small the pieces."""


@dataclass
class ShownAnswer:
    """One turn's streamed answer as the screen may show it."""

    limit: int = 0
    """model.max_answer_chars: nothing past it is shown (0: no limit)."""
    received: int = 0
    """Characters of the current attempt received so far (shown, held or past the cap)."""
    held: str = ""
    """Received and not shown yet: it may be half of a secret."""
    pieces: list[str] = field(default_factory=list)
    """What was shown, redacted, in the order it was shown."""
    secrets: list[str] = field(default_factory=secret_env_values)
    """The secret values to redact, read from the environment once per answer."""

    @property
    def shown(self) -> str:
        """Everything shown so far (joined once, when asked)."""
        if len(self.pieces) > 1:
            self.pieces[:] = ["".join(self.pieces)]
        return self.pieces[0] if self.pieces else ""

    def feed(self, draft: Draft) -> tuple[bool, str]:
        """(whether the model began its answer again, what to show now after what was shown);
        when it began again, what was shown is to be taken back first."""
        again = draft.at != self.received
        if again:
            self.received, self.held, self.pieces = 0, "", []
        room = draft.added if not self.limit else draft.added[:max(self.limit - self.received, 0)]
        self.received += len(draft.added)
        window = self.held + room
        if (self.held and len(window) <= HOLD_MAX
                and _ASCII_RUN.fullmatch(room)):  # the open tail goes on: nothing to show yet
            self.held = window
            return again, ""
        cut = self._cut(window)  # at the cap too: a half key held back stays hidden
        piece, self.held = scrub(window[:cut], values=self.secrets), window[cut:]
        if piece:
            self.pieces.append(piece)
        return again, piece

    def _cut(self, window: str) -> int:
        """How much of `window` may be shown: not its open tail, never half of a secret."""
        tail = _OPEN_TAIL.search(window)
        cut = tail.start() if tail else len(window)
        if len(window) - cut > HOLD_MAX:
            cut = len(window) - HOLD_MAX // 2
        for start, end in sorted(secret_spans(window, values=self.secrets), reverse=True):
            if start < cut < end:
                cut = start
        return cut
