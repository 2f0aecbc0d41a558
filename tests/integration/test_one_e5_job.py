"""One e5 pass per world (issue 39, item 1): whoever starts a second one — `lore vectors` twice,
`lore ingest` beside `lore vectors`, `lore vectors` beside the app's background child, the app
opened while `lore ingest` computes — it follows the first and computes only what is left, so
the passages each process says it embedded add up to the world's passages, once. Every process
ends with its line saying so."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.integration.lore import ROOT, lore
from tui.commands.world import demo_world_path

pytestmark = pytest.mark.slow  # `lore` in subprocesses computing e5 vectors: minutes

E5 = {"LORE_EMBEDDER__BACKEND": "e5"}
EMBEDDED = re.compile(r"(\d+) passages embedded with e5-small")
DEMO = demo_world_path()
DEMO_INGEST = (DEMO / "zh", DEMO / "en", DEMO / "dialogue", "--glossary", DEMO / "glossary.toml",
               "--world", "demo")


@pytest.fixture(scope="module")
def waiting_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo world searchable with BM25 alone, its e5 vectors all still to compute."""
    home = tmp_path_factory.mktemp("e5-waiting")
    made = lore("demo", "--vectors-later", home=home, env=E5)
    assert made.code == 0, made.err
    return home


@pytest.fixture
def home(waiting_home: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "home"
    shutil.copytree(waiting_home, copy)
    return copy


def passages(home: Path) -> int:
    with contextlib.closing(sqlite3.connect(home / "catalog.db")) as db:
        return db.execute("SELECT COUNT(DISTINCT text_hash) FROM chunks WHERE world = 'demo'"
                          ).fetchone()[0]


def e5_count(home: Path) -> int:
    with contextlib.suppress(sqlite3.OperationalError), \
            contextlib.closing(sqlite3.connect(home / "catalog.db", timeout=30)) as db:
        return db.execute("SELECT COUNT(*) FROM embeddings WHERE model = 'e5-small'"
                          ).fetchone()[0]
    return 0


def searches_with(home: Path) -> str:
    with contextlib.closing(sqlite3.connect(home / "catalog.db", timeout=30)) as db:
        return db.execute("SELECT embedder FROM worlds WHERE name = 'demo'").fetchone()[0]


def start(home: Path, *args: str | Path) -> subprocess.Popen[str]:
    env = {**os.environ, **E5, "LORE_HOME": str(home)}
    return subprocess.Popen([sys.executable, "-m", "tui", *map(str, args)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_until(done: Callable[[], bool], what: str, limit: float = 600.0) -> None:
    """Poll `done` (a loaded machine makes e5 slow: the limit is only against a hang)."""
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.2)


def computing(home: Path, proc: subprocess.Popen[str] | None = None) -> None:
    """Wait until a first batch of e5 vectors is committed (the first pass is under way)."""
    wait_until(lambda: e5_count(home) >= 16 or (proc is not None and proc.poll() is not None),
               "the first pass to commit a batch")
    assert proc is None or proc.poll() is None, "the first pass ended before the second began"


def embedded(output: str) -> int:
    """What one process says it embedded (its last line); it must say it."""
    found = EMBEDDED.findall(output)
    assert found, f"no final line saying how many passages were embedded:\n{output[-600:]}"
    return int(found[-1])


def finished(proc: subprocess.Popen[str]) -> str:
    out, err = proc.communicate(timeout=900)
    assert proc.returncode == 0, err
    return out


def test_two_lore_vectors_of_one_world_compute_each_vector_once(home: Path) -> None:
    first = start(home, "vectors", "--world", "demo")
    computing(home, first)
    second = lore("vectors", "--world", "demo", home=home, env=E5)
    assert second.code == 0, second.err
    assert "another process (pid" in second.out and "following its progress" in second.out
    counts = [embedded(finished(first)), embedded(second.out)]
    assert sum(counts) == passages(home), counts
    assert searches_with(home) == "e5-small"


def test_lore_ingest_while_lore_vectors_runs_follows_it(home: Path) -> None:
    vectors = start(home, "vectors", "--world", "demo")
    computing(home, vectors)
    ingested = lore("ingest", *DEMO_INGEST, home=home, env=E5)
    assert ingested.code == 0, ingested.err
    counts = [embedded(finished(vectors)), embedded(ingested.out)]
    assert sum(counts) == passages(home), counts


def _app_log(home: Path) -> str:
    log = home / "logs" / "vectors.log"
    return log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""


def test_the_app_and_the_command_line_share_one_pass(home: Path) -> None:
    """The app computing the vectors in the background, then `lore vectors`; and the app
    opened while `lore ingest` computes them (its child must follow, not start over)."""
    from tests.tui.test_smoke_tmux import Tmux

    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (apt-get install tmux)")
    tmux = Tmux()
    try:
        tmux.start_lore(home, "LORE_EMBEDDER__BACKEND=e5")
        computing(home)
        cli = lore("vectors", "--world", "demo", home=home, env=E5)
        assert cli.code == 0, cli.err
        wait_until(lambda: EMBEDDED.search(_app_log(home)) is not None, "the app's child")
        counts = [embedded(_app_log(home)), embedded(cli.out)]
        assert sum(counts) == passages(home), counts
    finally:
        tmux("kill-server")


def test_the_app_opened_while_lore_ingest_computes_follows_it(home: Path) -> None:
    from tests.tui.test_smoke_tmux import Tmux

    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (apt-get install tmux)")
    ingest = start(home, "ingest", *DEMO_INGEST)
    computing(home, ingest)
    tmux = Tmux()
    try:
        tmux.start_lore(home, "LORE_EMBEDDER__BACKEND=e5")
        wait_until(lambda: "vectors" in _app_log(home), "the app's child to start")
        out = finished(ingest)
        wait_until(lambda: EMBEDDED.search(_app_log(home)) is not None, "the app's child")
        counts = [embedded(out), embedded(_app_log(home))]
        assert sum(counts) == passages(home), counts
    finally:
        tmux("kill-server")
