"""The machine fails under `lore`: a full disk, a read-only data folder, Ctrl+C. One clear message
naming the data dir and what to do, no traceback, and nothing stored before is lost; running the
same command again finishes the job."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest

from tests.agent.fake_llm import FakeServer
from tests.integration.disk import resize
from tests.integration.lore import ROOT, lore
from tests.integration.stored import stored

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow

CHAPTERS = range(1, 9)


def corpus(shared_data: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "sanguo"
    folder.mkdir(parents=True, exist_ok=True)
    for n in CHAPTERS:
        shutil.copy(shared_data / "sanguo_yanyi" / "chapters" / f"{n:03d}.txt", folder)
    return folder


@pytest.fixture(scope="module")
def clean_sanguo(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> dict:
    """What the same ingest stores on a disk with room: the counts to compare with."""
    home = tmp_path_factory.mktemp("clean")
    result = lore("ingest", corpus(shared_data, home.parent / f"{home.name}-c"), "--world",
                  "sanguo", home=home)
    assert result.code == 0, result.err
    return stored(home, "sanguo")


# room left beside the demo world: full while cataloguing / indexing / graph (the demo world is
# about 3 MB, and grows as ingest finds more in it: sizes fixed in MB went stale)
@pytest.mark.parametrize("room_kb", [64, 2048, 5120])
def test_a_full_disk_during_ingest_says_so_and_loses_nothing(
        small_disk: Path, demo_world_home: Path, shared_data: Path, tmp_path: Path,
        clean_sanguo: dict, room_kb: int) -> None:
    home = small_disk / "home"
    shutil.copytree(demo_world_home, home)
    before = stored(home)
    resize(small_disk, f"{shutil.disk_usage(small_disk).used // 1024 + room_kb}k")
    text = corpus(shared_data, tmp_path)
    full = lore("ingest", text, "--world", "sanguo", home=home)
    assert full.code == 3, full.err
    assert "Traceback" not in full.err
    assert "No space left on device" in full.err or "the disk holding the data folder is full" in full.err
    assert str(home) in full.err
    resize(small_disk, "64m")
    assert stored(home) == before  # the demo world and its sessions are untouched
    again = lore("ingest", text, "--world", "sanguo", home=home)
    assert again.code == 0, again.err
    assert stored(home, "sanguo") == clean_sanguo | {"turns": before["turns"]}
    assert stored(home) == before


def test_a_read_only_data_folder_says_so_and_loses_nothing(
        small_disk: Path, demo_world_home: Path, shared_data: Path, tmp_path: Path) -> None:
    home = small_disk / "home"
    shutil.copytree(demo_world_home, home)
    assert lore("ask", "沈砚是谁？", "--world", "demo", home=home).code == 0
    before = stored(home)
    resize(small_disk, "64m", readonly=True)
    for args in (("ingest", corpus(shared_data, tmp_path), "--world", "sanguo"),
                 ("ask", "苏绾是谁？", "--world", "demo")):
        result = lore(*args, home=home)
        assert result.code == 3, result.err
        assert "Traceback" not in result.err and str(home) in result.err
        assert "read-only" in result.err or "readonly" in result.err, result.err
    resize(small_disk, "64m")
    assert stored(home) == before


def _passages(home: Path, world: str) -> int:
    """Passages of `world` the catalog holds so far (0 while it cannot be read)."""
    try:
        with closing(sqlite3.connect(f"file:{home / 'catalog.db'}?mode=ro", uri=True)) as db:
            return db.execute("SELECT count(*) FROM chunks WHERE world = ?", [world]).fetchone()[0]
    except sqlite3.Error:
        return 0


def as_in_a_terminal() -> None:
    """Ctrl+C as a terminal delivers it: a test runner's worker may ignore SIGINT (pytest-xdist's
    do), and a child inherits that, so `lore` would never see the signal."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_during_ingest_says_interrupted_and_resumes(
        demo_copy: Path, shared_data: Path, tmp_path: Path, clean_sanguo: dict) -> None:
    before = stored(demo_copy)
    text = corpus(shared_data, tmp_path)
    env = {**os.environ, "LORE_HOME": str(demo_copy)}
    proc = subprocess.Popen([sys.executable, "-m", "tui", "ingest", str(text), "--world",
                             "sanguo"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=as_in_a_terminal)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not _passages(demo_copy, "sanguo"):
        time.sleep(0.01)  # Ctrl+C once the passages are written, while they are embedded
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    ended = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    assert ended.returncode == 130, ended.stdout
    assert "interrupted; everything written so far is kept" in ended.stderr, ended.stderr
    assert "Traceback" not in ended.stderr
    assert stored(demo_copy) == before
    again = lore("ingest", text, "--world", "sanguo", home=demo_copy)
    assert again.code == 0, again.err
    assert stored(demo_copy, "sanguo") == clean_sanguo | {"turns": before["turns"]}


def test_ctrl_c_during_ask_keeps_the_question(demo_copy: Path) -> None:
    before = stored(demo_copy)
    question = "沈砚后来怎么样了？"
    with FakeServer("openai", delay_s=30) as server:  # a slow model: Ctrl+C lands mid-answer
        env = {**os.environ, "LORE_HOME": str(demo_copy), "LORE_MODEL__PROVIDER": "openai",
               "LORE_MODEL__NAME": "fake-model", "LORE_MODEL__BASE_URL": server.url}
        proc = subprocess.Popen([sys.executable, "-m", "tui", "ask", question, "--world", "demo",
                                 "--new"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, preexec_fn=as_in_a_terminal)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not server.requests:
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted before the answer came" in err and "Traceback" not in err
    assert "your question is saved as turn 1 of session" in err
    after = stored(demo_copy)
    new = [t for s, t in after["turns"].items() if s not in before["turns"]]
    assert new == [[(question, "cancelled")]]
    assert {s: t for s, t in after["turns"].items() if s in before["turns"]} == before["turns"]


def test_a_turn_left_pending_by_a_killed_process_is_marked_interrupted(demo_copy: Path) -> None:
    assert lore("ask", "沈砚是谁？", "--world", "demo", "--new", home=demo_copy).code == 0
    before = stored(demo_copy)
    with FakeServer("openai", delay_s=30) as server:  # the answer is still being made
        env = {**os.environ, "LORE_HOME": str(demo_copy), "LORE_MODEL__PROVIDER": "openai",
               "LORE_MODEL__NAME": "fake-model", "LORE_MODEL__BASE_URL": server.url}
        proc = subprocess.Popen([sys.executable, "-m", "tui", "ask", "苏绾是谁？", "--world",
                                 "demo"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not server.requests:
            time.sleep(0.05)
        proc.kill()
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    session = next(s for s in before["turns"])
    assert stored(demo_copy)["turns"][session][1] == ("苏绾是谁？", "pending")
    again = lore("ask", "苏绾是谁？", "--world", "demo", home=demo_copy)  # asked again
    assert again.code == 0, again.err
    turns = stored(demo_copy)["turns"][session]
    assert turns == [("沈砚是谁？", "answered"), ("苏绾是谁？", "failed"), ("苏绾是谁？", "answered")]
    shown = lore("sessions", "show", session, home=demo_copy).out
    assert "interrupted: the process that asked it" in shown
