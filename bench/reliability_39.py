"""The reliability cases of issue 39 (the third probe), run by bench/reliability.py: databases
held locked by another process, a clock before 1970, and a huge sparse file in the corpus.

Each locker is a separate process that holds its lock until told to let go (its stdin closes),
so a case waits on what lore does, never on a clock.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any

LOCKER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
if sys.argv[2] == "exclusive":  # readers are shut out too (WAL lets them read beside a writer)
    db.execute("PRAGMA locking_mode = EXCLUSIVE")
    db.execute("BEGIN EXCLUSIVE")
    db.execute("SELECT count(*) FROM sqlite_master").fetchall()
else:
    db.execute("BEGIN IMMEDIATE")
print("held", flush=True)
sys.stdin.read()
"""


@contextmanager
def locked(path: Path, how: str):
    """`path` held by another process (`exclusive`: nobody may read; `write`: nobody may
    write) until the block ends."""
    proc = subprocess.Popen([sys.executable, "-c", LOCKER, str(path), how], text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        yield
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()


def run_cases(suite: Any, tools: Any) -> None:
    """Add issue 39's rows to `suite` (reliability.py's Suite); `tools` is that module."""
    compare, lore = tools.compare, tools.lore
    demo = {"demo": suite.demo}

    home = suite.home("locked-sessions")
    with locked(home / "sessions.db", "exclusive"):
        doctor = lore(home, "doctor")
    line = next((x for x in doctor.out.splitlines() if "session database" in x), "")
    advice = doctor.out.split("session database", 1)[-1].split("\n", 2)[1:2]
    lost = ("none" if "in use by another process" in line and "aside" not in "".join(advice)
            else "a held lock was called damage")
    suite.add("fault", "sessions.db held locked: lore doctor", doctor, 1, lost,
              saw=line.strip()[:110])

    home = suite.home("locked-catalog")
    with locked(home / "catalog.db", "write"):
        run = lore(home, "ingest", suite.corpus, "--world", "extra")
    again = lore(home, "ingest", suite.corpus, "--world", "extra")
    lost = compare(home, {**demo, "extra": suite.extra}, suite.base_turns)
    if again.code != 0:
        lost = f"re-run failed: {tools.first_line(again)}"
    suite.add("fault", "catalog.db write-locked: lore ingest, then re-run", run, 3, lost)

    _clock(suite, tools)


def _clock(suite: Any, tools: Any) -> None:
    """Two `lore ask --new` with the clock before 1970: both questions stored."""
    if shutil.which("faketime") is None:
        suite.skip("fault", "clock before 1970: lore ask --new twice",
                   "faketime is not installed (apt-get install faketime)")
        return
    home, root = suite.home("clock-1969"), tools.ROOT
    env = {**os.environ, "LORE_HOME": str(home), "LORE_CONFIG": str(root / "config.toml")}
    runs = []
    questions = ("沈砚是谁？(1969a)", "苏绾是谁？(1969b)")
    for question in questions:
        proc = subprocess.run(["faketime", "-f", "@1969-12-31 23:00:00", sys.executable, "-m",
                               "tui", "ask", question, "--world", "demo", "--new"], cwd=root,
                              env=env, capture_output=True, text=True, timeout=600)
        runs.append(tools.Run(proc.returncode, proc.stdout, proc.stderr, 0))
    lost = tools.compare(home, {"demo": suite.demo}, suite.base_turns)
    if not set(questions) <= {t[2] for t in tools.turns(home)}:
        lost = "a question was lost"
    for name, run in zip("ab", runs, strict=True):
        suite.add("fault", f"clock before 1970: lore ask --new ({name})", run, 0, lost)
