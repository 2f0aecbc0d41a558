"""The app ends with its terminal (issue 39, item 0): a tmux session killed under `make run` and
under plain `lore`, while an answer is being built and the background `lore vectors` child
computes the demo's e5 vectors. No process of the data dir may be left, and the question is
kept as on Ctrl+Q (cancelled, or answered if it came in time), never left pending.

Under `make run` the hang-up went to make, the session leader; the app read the dead terminal's
end of input over and over, at a full core, for ever."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from tests.agent.fake_llm import FakeServer
from tests.integration.lore import lore
from tests.tui.test_smoke_tmux import ROOT, Tmux

pytestmark = [pytest.mark.slow,  # the app in a real terminal, the demo world ingested for it
              pytest.mark.skipif(shutil.which("tmux") is None,
                                 reason="tmux is not installed (apt-get install tmux)")]

QUESTION = "Who is Su Wan?"
GONE_LIMIT_S = 180.0
"""How long the processes may take to end once the terminal is gone (a loaded machine)."""


def processes_of(home: Path) -> list[int]:
    """Every live process whose environment says LORE_HOME=home: make, lore and its children
    (each inherits it). Processes this user may not read are not ours."""
    mark = f"LORE_HOME={home}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if mark in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def describe(pids: list[int]) -> str:
    lines = []
    for pid in pids:
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0]
        except OSError:
            continue
        lines.append(f"{pid} [{state}] {cmd}")
    return "\n".join(lines)


def wait_until(predicate: Any, what: str, limit: float = 120.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    pytest.fail(f"gave up waiting for {what}")


def stored_turns(home: Path) -> list[tuple[str, str]]:
    path = home / "sessions.db"
    if not path.exists():
        return []
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)) as db:
        return [tuple(r) for r in db.execute("SELECT question, status FROM turns")]


@pytest.fixture
def slow_model() -> Iterator[dict[str, str]]:
    """A model server that holds every request until the test ends: the answer is still being
    built when the terminal goes."""
    release = threading.Event()

    def brain(body: dict[str, Any], n: int) -> dict[str, Any]:
        release.wait(600)
        return {"content": "Su Wan."}

    with FakeServer("openai", brain=brain) as server:
        yield {"LORE_MODEL__PROVIDER": "openai", "LORE_MODEL__NAME": "fake-model",
               "LORE_MODEL__BASE_URL": server.url, "LORE_MODEL__RETRIES": "0",
               "LORE_MODEL__TIMEOUT_S": "900", "LORE_MODEL__TOTAL_TIMEOUT_S": "900"}
        release.set()


def kill_the_terminal_while_answering(tmux: Tmux, home: Path, command: str) -> None:
    """Start `command` (the app) in tmux, ask, and kill the tmux session once the question is
    saved and the vectors child runs; then every process of `home` must end."""
    try:
        tmux("new-session", "-d", "-s", "smoke", "-x", "120", "-y", "36", command)
        tmux.wait_for(lambda s: "Ask about demo" in s and "opening" not in s, "the demo world",
                      timeout=600)  # make run ingests the demo first
        tmux("send-keys", "-t", "smoke", "-l", QUESTION)
        tmux("send-keys", "-t", "smoke", "Enter")
        wait_until(lambda: (QUESTION, "pending") in stored_turns(home), "the question saved")
        wait_until(lambda: "vectors" in describe(processes_of(home)),
                   "the background lore vectors child")
        tmux("kill-session", "-t", "smoke")
        deadline = time.monotonic() + GONE_LIMIT_S
        while processes_of(home) and time.monotonic() < deadline:
            time.sleep(0.5)
        left = processes_of(home)
        assert not left, f"still running after the terminal went:\n{describe(left)}"
    finally:
        for pid in processes_of(home):  # never leave a spinning app behind a failed test
            os.kill(pid, signal.SIGKILL)
        tmux("kill-server")
    (status,) = [s for q, s in stored_turns(home) if q == QUESTION]
    assert status in ("cancelled", "answered"), f"the question was left {status}"


def test_killing_the_terminal_of_make_run_ends_everything(tmp_path: Path,
                                                          slow_model: dict[str, str]) -> None:
    home = tmp_path / "home"  # empty: make run ingests the demo, its e5 vectors left for later
    env = " ".join(f"{k}={v}" for k, v in slow_model.items())
    command = (f"cd {ROOT} && exec env -u COLUMNS -u LINES -u LORE_EMBEDDER__BACKEND "
               f"LORE_HOME={home} LORE_CONFIG={ROOT / 'config.toml'} {env} make run")
    kill_the_terminal_while_answering(Tmux(), home, command)


def test_killing_the_terminal_of_lore_ends_everything(tmp_path: Path,
                                                      slow_model: dict[str, str]) -> None:
    home = tmp_path / "home"
    made = lore("demo", "--vectors-later", home=home, env={"LORE_EMBEDDER__BACKEND": "e5"})
    assert made.code == 0, made.err
    env = " ".join(f"{k}={v}" for k, v in slow_model.items())
    command = (f"cd {ROOT} && exec env -u COLUMNS -u LINES LORE_EMBEDDER__BACKEND=e5 "
               f"LORE_HOME={home} LORE_CONFIG={ROOT / 'config.toml'} {env} "
               f"{Path(sys.executable).parent / 'lore'}")
    kill_the_terminal_while_answering(Tmux(), home, command)


def test_the_vectors_child_of_a_killed_app_stops(tmp_path: Path) -> None:
    """kill -9 of the app leaves no one to stop its `lore vectors` child: the child sees it is
    orphaned and stops at its next batch, instead of computing on for minutes (a novel's take
    a quarter of an hour) with no app to show them."""
    home = tmp_path / "home"
    made = lore("demo", "--vectors-later", home=home, env={"LORE_EMBEDDER__BACKEND": "e5"})
    assert made.code == 0, made.err
    tmux = Tmux()
    # the shell stays, as a user's does: the terminal's session goes on, and no hang-up comes
    command = (f"cd {ROOT} && env -u COLUMNS -u LINES LORE_EMBEDDER__BACKEND=e5 "
               f"LORE_HOME={home} LORE_CONFIG={ROOT / 'config.toml'} "
               f"{Path(sys.executable).parent / 'lore'}; sleep 600")
    try:
        tmux("new-session", "-d", "-s", "smoke", "-x", "120", "-y", "36", command)
        wait_until(lambda: "vectors" in describe(processes_of(home)),
                   "the background lore vectors child")
        (app,) = [p for p in processes_of(home) if "vectors" not in describe([p])]
        os.kill(app, signal.SIGKILL)
        deadline = time.monotonic() + GONE_LIMIT_S
        while processes_of(home) and time.monotonic() < deadline:
            time.sleep(0.5)
        left = processes_of(home)
        assert not left, f"still running after the app was killed:\n{describe(left)}"
    finally:
        for pid in processes_of(home):
            os.kill(pid, signal.SIGKILL)
        tmux("kill-server")
    with closing(sqlite3.connect(home / "catalog.db")) as db:
        (searching,) = db.execute("SELECT embedder FROM worlds WHERE name = 'demo'").fetchone()
    assert searching == "", "the orphaned child computed every vector instead of stopping"
