"""A clock that is wrong (issue 39, item 6): set before 1970, every id of a process came out
the same, and the second `lore ask --new` lost its question to "UNIQUE constraint failed:
sessions.id"; two days behind, a plain `lore ask` continued an older session instead of the
newest. Sessions are ordered by when they were active, not by what the clock said."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.lore import ROOT, Result, lore

pytestmark = [pytest.mark.slow,  # `lore` in subprocesses
              pytest.mark.skipif(shutil.which("faketime") is None,
                                 reason="faketime is not installed (apt-get install faketime)")]


def at(clock: str, home: Path, *args: str) -> Result:
    """`lore ARGS` with the process's clock at `clock` (libfaketime: "@1969-12-31 23:00:00"
    for a fixed start, "-2d" for two days behind)."""
    env = {**os.environ, "LORE_HOME": str(home)}
    proc = subprocess.run(["faketime", "-f", clock, sys.executable, "-m", "tui", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    return Result(proc.returncode, proc.stdout, proc.stderr)


def sessions(home: Path) -> list[dict]:
    listed = lore("sessions", "list", "--json", home=home)
    assert listed.code == 0, listed.err
    return json.loads(listed.out)


def questions(home: Path, session: str) -> list[str]:
    shown = lore("sessions", "export", session, "--format", "json", home=home)
    assert shown.code == 0, shown.err
    return [t["question"] for t in json.loads(shown.out)["turns"]]


def test_a_clock_before_1970_loses_no_question(demo_copy: Path) -> None:
    before = len(sessions(demo_copy))
    for question in ("沈砚是谁？", "苏绾是谁？"):
        asked = at("@1969-12-31 23:00:00", demo_copy, "ask", question, "--world", "demo",
                   "--new")
        assert asked.code == 0, asked.err
    made = sessions(demo_copy)
    assert len(made) == before + 2
    assert sorted(q for s in made[:2] for q in questions(demo_copy, s["id"])) == [
        "沈砚是谁？", "苏绾是谁？"]


def test_a_clock_two_days_behind_continues_the_newest_session(demo_copy: Path) -> None:
    assert lore("ask", "沈砚是谁？", "--world", "demo", "--new", home=demo_copy).code == 0
    newest = at("-2d", demo_copy, "ask", "苏绾是谁？", "--world", "demo", "--new")
    assert newest.code == 0, newest.err
    session = newest.err.split("new session ", 1)[1].split()[0]
    again = at("-2d", demo_copy, "ask", "她的师父是谁？", "--world", "demo")
    assert again.code == 0, again.err
    assert questions(demo_copy, session) == ["苏绾是谁？", "她的师父是谁？"]
    assert sessions(demo_copy)[0]["id"] == session  # listed first: the last one active
