"""Progress written as plain lines to a pipe: enough lines to see it is going, not a flood."""

from __future__ import annotations

import pytest

from tui import progress


def test_a_slow_stage_says_it_is_still_going(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    # Monte Cristo's e5 vectors took three minutes a tenth on a busy machine, and a newcomer
    # wondered whether the ingest had hung: a line at least every QUIET_S
    clock = [0.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    lines = progress._Lines()
    for second in range(0, 400, 10):  # 1 of 2589 done each 10 s: within the first tenth
        clock[0] = float(second)
        lines("embed", second // 10, 2589)
    clock[0] = 401.0
    lines("embed", 2589, 2589)
    lines("embed", 2589, 2589)
    out = capsys.readouterr().out.splitlines()
    # the first report, one a minute while in the same tenth, and the end once
    assert len(out) == 1 + 6 + 1, out
    assert out[-1].endswith("2589/2589 (6:41)")
