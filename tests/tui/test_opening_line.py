"""The status bar's line while a world opens counts the seconds since the open began, by the
clock it is given (tests/tui/test_opening.py shows the line under Pilot on a slow open)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tui import opening
from tui.opening import Opening


def test_the_opening_line_counts_the_seconds_since_the_open_began(
        monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    monkeypatch.setattr(opening, "time", SimpleNamespace(monotonic=lambda: now[0]))
    begun = Opening(None, "demo", started=100.0, stage="loading the passages")
    now[0] = 102.4
    assert begun.progress(warming=False) == "opening demo: loading the passages… 2 s"
    now[0] = 103.6
    assert begun.progress(warming=True) == (
        "opening demo: loading the passages (you can type)… 4 s")
