"""The e5 path end to end on the demo world, as a user meets it: `lore demo` builds the fast
index and then the e5 vectors; a run killed during the upgrade leaves a world that searches with
the fast index, the next run carries on without embedding anything twice, and the world then
searches with e5 — whatever the settings say later (a query never mixes spaces). The fast
index is BM25 alone by default; the USE one is tested too."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.integration.lore import ROOT, lore

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow

E5 = {"LORE_EMBEDDER__BACKEND": "e5"}


def e5_vectors(home: Path) -> dict[str, bytes]:
    """The e5 vectors in the catalog's cache, by text hash."""
    with sqlite3.connect(home / "catalog.db") as db:
        return dict(db.execute("SELECT text_hash, vector FROM embeddings WHERE model = 'e5-small'"))


def worlds(home: Path, env: dict[str, str] | None = None) -> dict[str, dict]:
    result = lore("worlds", "--json", home=home, env=env)
    assert result.code == 0, result.err
    return {w["name"]: w for w in json.loads(result.out)}


def killed_during_upgrade(home: Path) -> None:
    """`lore demo` with e5, killed (SIGKILL) once the upgrade has committed some vectors."""
    env = {**os.environ, **E5, "LORE_HOME": str(home)}
    proc = subprocess.Popen([sys.executable, "-m", "tui", "demo"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and proc.poll() is None:
            with contextlib.suppress(sqlite3.OperationalError):  # tables not created yet
                if (home / "catalog.db").exists() and len(e5_vectors(home)) >= 16:
                    break
            time.sleep(0.2)
        assert proc.poll() is None, f"lore demo ended before it could be killed: {proc.stderr}"
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(timeout=30)


@pytest.fixture(scope="module")
def upgraded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    home = tmp_path_factory.mktemp("e5-home")
    killed_during_upgrade(home)
    before = e5_vectors(home)
    during = worlds(home, E5)["demo"]
    asked = lore("ask", "Who keeps the lighthouse?", "--world", "demo", "--json", home=home,
                 env=E5)
    resumed = lore("demo", "--if-needed", home=home, env=E5)
    return {"home": home, "before": before, "during": during, "asked": asked,
            "resumed": resumed, "after": e5_vectors(home)}


def test_a_killed_upgrade_leaves_a_world_searching_with_the_fast_index(upgraded: dict) -> None:
    during = upgraded["during"]
    assert during["state"] == "ready" and during["embedder"] == ""
    assert 0 < during["upgrade_percent"] < 100
    assert during["vectors"].startswith("vectors: e5 ") and "(BM25 alone)" in during["vectors"]
    asked = upgraded["asked"]
    assert asked.code == 0, asked.err
    assert json.loads(asked.out)["citations"], asked.out


def test_the_next_run_carries_on_and_switches_to_e5(upgraded: dict) -> None:
    resumed, before, after = upgraded["resumed"], upgraded["before"], upgraded["after"]
    assert resumed.code == 0, resumed.err
    # Nothing is lost or done twice: the killed run's vectors are kept as they were, and this
    # run embedded exactly the rest.
    assert all(after[h] == v for h, v in before.items())
    assert f"{len(after) - len(before)} passages embedded with e5-small" in resumed.out
    world = worlds(upgraded["home"], E5)["demo"]
    assert world["embedder"] == "e5-small" and world["upgrade_percent"] is None
    assert world["vectors"] == "vectors: e5-small"
    assert lore("demo", "--if-needed", home=upgraded["home"], env=E5).out == ""
    again = lore("vectors", "--world", "demo", home=upgraded["home"], env=E5)
    assert again.out.strip() == "demo: nothing to compute; it searches with e5-small."
    nowhere = lore("vectors", "--world", "nowhere", home=upgraded["home"], env=E5)
    assert nowhere.code != 0 and "no world named 'nowhere' (known worlds: demo)" in nowhere.err


def test_an_e5_world_is_searched_with_e5_whatever_the_settings_say(upgraded: dict) -> None:
    dense = []
    for env in (E5, {"LORE_EMBEDDER__BACKEND": "use"}):
        result = lore("eval", "retrieval", "--world", "demo", "--questions",
                      ROOT / "stores/demo_world/questions.jsonl", "--json",
                      home=upgraded["home"], env=env)
        assert result.code == 0, result.err
        dense.append(json.loads(result.out)["baselines"]["dense"]["answerable"])
    # e5 alone finds the gold chapter in its top five for most demo questions (0.88 measured)
    assert dense[0]["recall"] >= 0.75, dense[0]
    assert dense[1] == dense[0]  # the USE setting did not change the space of the queries


def test_a_world_can_search_with_use_vectors_until_its_e5_vectors_are_done(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from stores.ingest import ingest
    from tui.commands.world import DEMO_WORLD, demo_world_path
    from tui.settings import load_settings

    env = {**E5, "LORE_EMBEDDER__FAST_INDEX": "use"}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    folder = demo_world_path()
    # The fast stage only, as `lore ingest` runs it before it goes on to the e5 vectors.
    ingest(load_settings(data_dir=tmp_path), DEMO_WORLD,
           [folder / "zh", folder / "en", folder / "dialogue"], folder / "glossary.toml")
    world = worlds(tmp_path, env)["demo"]
    assert world["state"] == "ready" and world["embedder"] == "use-m3"
    assert world["vectors"] == "vectors: e5 0% · searching with the fast index (use-m3)"
    assert not e5_vectors(tmp_path) and (tmp_path / "worlds" / "demo" / "qdrant").is_dir()
    asked = lore("ask", "Who is Eleanor Vance?", "--world", "demo", "--json", home=tmp_path,
                 env=env)
    assert asked.code == 0, asked.err
    assert json.loads(asked.out)["citations"], asked.out


def test_passages_with_e5_vectors_are_indexed_with_e5_at_once_and_a_small_edit_inline(
        upgraded: dict, tmp_path: Path) -> None:
    import shutil

    from tui.commands.world import demo_world_path

    home = upgraded["home"]
    corpus = tmp_path / "copy"
    shutil.copytree(demo_world_path() / "en", corpus)
    # Every passage's e5 vector is in the data dir's cache already: no fast index, no upgrade.
    first = lore("ingest", corpus, "--world", "copy", home=home, env=E5)
    assert first.code == 0, first.err
    assert "0 passages embedded" in first.out and "searchable now" not in first.out
    assert worlds(home, E5)["copy"]["embedder"] == "e5-small"
    chapter = corpus / "chapter-07.md"
    chapter.write_text(chapter.read_text() + "\n\nThe harbour master wrote down the name of "
                       "the ship, the Wayfarer, in his ledger.\n")
    edited = lore("ingest", corpus, "--world", "copy", home=home, env=E5)
    assert edited.code == 0, edited.err
    # The few changed passages were embedded with e5 in the ingest itself.
    assert "searchable now" not in edited.out and " 0 passages embedded" not in edited.out
    assert worlds(home, E5)["copy"]["embedder"] == "e5-small"
    asked = lore("ask", "Who wrote the ship's name in his ledger?", "--world", "copy", "--json",
                 home=home, env=E5)
    assert asked.code == 0 and "harbour master" in asked.out, asked.out


def test_the_app_computes_the_vectors_a_world_waits_for_and_stops_when_it_quits(
        tmp_path: Path) -> None:
    """`make run` prepares the demo with `--vectors-later`: searchable in seconds, its e5
    vectors left to the app. The app computes them in a child process while the user reads
    (the status line counts up), quitting stops the child with its batches kept, and the next
    start carries on until the world searches with e5 and the status line says nothing more."""
    import shutil

    from tests.tui.test_smoke_tmux import Tmux

    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (apt-get install tmux)")
    prepared = lore("demo", "--if-needed", "--vectors-later", home=tmp_path, env=E5)
    assert prepared.code == 0, prepared.err
    assert "the app computes the e5 vectors in the background" in prepared.out
    assert worlds(tmp_path, E5)["demo"]["embedder"] == ""  # BM25 alone for now
    tmux = Tmux()

    def percent(screen: str) -> int:
        found = re.findall(r"vectors: e5 (\d+)%", screen)
        return int(found[0]) if found else -1

    try:
        tmux.start_lore(tmp_path, "LORE_EMBEDDER__BACKEND=e5")
        tmux.wait_for(lambda s: percent(s) > 0, "the vectors counting up", timeout=300)
        tmux("send-keys", "-t", "smoke", "C-q")
        deadline = time.monotonic() + 30
        while tmux.alive() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not tmux.alive(), "Ctrl+Q should quit the app"
        time.sleep(1)
        kept = e5_vectors(tmp_path)
        assert 0 < len(kept) < 95 and worlds(tmp_path, E5)["demo"]["embedder"] == ""
        tmux.start_lore(tmp_path, "LORE_EMBEDDER__BACKEND=e5")
        deadline = time.monotonic() + 600
        while worlds(tmp_path, E5)["demo"]["embedder"] != "e5-small":
            assert time.monotonic() < deadline, f"the vectors were not done:\n{tmux.screen()}"
            time.sleep(3)
        # the status line polls every 10 s: then it has nothing more to say
        tmux.wait_for(lambda s: "Ask about demo" in s and "vectors: e5" not in s,
                      "the status line to clear", timeout=30)
    finally:
        tmux("kill-server")
    after = e5_vectors(tmp_path)
    assert all(after[h] == v for h, v in kept.items())  # nothing computed twice
    assert "passages embedded with e5-small" in (tmp_path / "logs" / "vectors.log").read_text()
