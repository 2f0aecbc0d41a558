"""Bad input and interrupted runs: one clear message, a non-zero exit, nothing lost."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from stores.catalog import Catalog
from stores.world import WorldStores
from tests.integration.lore import ROOT, Result, lore
from tui.settings import load_settings

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow


def assert_clear_error(result: Result, *needles: str) -> None:
    assert result.code != 0
    assert "Traceback" not in result.err, result.err
    for needle in needles:
        assert needle in result.err, result.err


@pytest.fixture()
def small_world(tmp_path: Path, shared_data: Path) -> tuple[Path, Path]:
    home, corpus = tmp_path / "home", tmp_path / "corpus"
    corpus.mkdir()
    for n in (1, 2):
        shutil.copy(shared_data / "sanguo_yanyi" / "chapters" / f"{n:03d}.txt", corpus)
    assert lore("ingest", corpus, "--world", "w", home=home).code == 0
    return home, corpus


def snapshot(home: Path) -> tuple[int, int, list[str]]:
    catalog = Catalog(load_settings(data_dir=home).catalog_path)
    chunks = catalog.chunks("w")
    return len(chunks), len(catalog.entities("w")), sorted(c.id for c in chunks)


BAD_FILES = {
    "empty.txt": (b"", "empty.txt"),
    "blank.txt": (b"   \n\n  \n", "blank.txt"),
    "picture.txt": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)), "picture.txt"),
    "records.jsonl": (b'{"text": "a"}\n{"text": "b"}\n{"text": "c"\n', "records.jsonl:3"),
    "lore.json": (b'{"entries": {"0": {"key": ["x"], "content": "y"}', "lore.json"),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_file_names_itself_and_loses_nothing(name: str, small_world: tuple[Path, Path],
                                                 tmp_path: Path) -> None:
    home, corpus = small_world
    before = snapshot(home)
    content, needle = BAD_FILES[name]
    (corpus / name).write_bytes(content)
    assert_clear_error(lore("ingest", corpus, "--world", "w", home=home), needle)
    assert snapshot(home) == before


def test_bad_glossary_relation(small_world: tuple[Path, Path], tmp_path: Path) -> None:
    home, corpus = small_world
    glossary = tmp_path / "g.toml"
    glossary.write_text('[[entity]]\nname = "刘备"\nrelations = [{type = "likes", target = "关羽"}]\n',
                        encoding="utf-8")
    result = lore("ingest", corpus, "--world", "w", "--glossary", glossary, home=home)
    assert_clear_error(result, "g.toml", "likes")


def test_missing_path_bad_world_name_and_unknown_world(tmp_path: Path) -> None:
    assert_clear_error(lore("ingest", tmp_path / "nope", "--world", "w", home=tmp_path),
                       "nope", "no such file")
    (tmp_path / "a.txt").write_text("第一回 开端\n\n某人来了。\n", encoding="utf-8")
    assert_clear_error(lore("ingest", tmp_path / "a.txt", "--world", "a/b", home=tmp_path),
                       "--world")
    assert_clear_error(lore("entities", "--world", "ghost", home=tmp_path), "ghost",
                       "lore ingest")


def test_bad_config_value_names_the_setting(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[embedder]\nbatch_size = 0\n', encoding="utf-8")
    result = lore("--config", config, "worlds", home=tmp_path)
    assert_clear_error(result, "embedder.batch_size", "config.toml")
    result = lore("worlds", home=tmp_path, env={"LORE_GRAPH__BACKEND": "oracle"})
    assert_clear_error(result, "graph.backend")
    config.write_text("[embedder\n", encoding="utf-8")
    assert_clear_error(lore("--config", config, "worlds", home=tmp_path), "config.toml")


def test_unwritable_data_dir(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    (tmp_path / "a.txt").write_text("第一回 开端\n\n某人来了。\n", encoding="utf-8")
    result = lore("ingest", tmp_path / "a.txt", "--world", "w", home=blocker / "home")
    assert_clear_error(result, "home", "--data-dir")


def test_kill_during_embedding_then_resume(tmp_path: Path, shared_data: Path) -> None:
    home, corpus = tmp_path / "home", tmp_path / "corpus"
    corpus.mkdir()
    for n in range(1, 13):
        shutil.copy(shared_data / "sanguo_yanyi" / "chapters" / f"{n:03d}.txt", corpus)
    env = {**os.environ, "LORE_HOME": str(home), "LORE_EMBEDDER__BATCH_SIZE": "16"}
    proc = subprocess.Popen([sys.executable, "-m", "tui", "ingest", str(corpus), "--world", "w"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    catalog_path = home / "catalog.db"
    embedded = _wait_for_some_embeddings(catalog_path, proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert embedded > 0, "the run finished before it could be killed mid-embedding"

    integrity = sqlite3.connect(catalog_path).execute("PRAGMA integrity_check").fetchone()[0]
    assert integrity == "ok"
    resumed = lore("ingest", corpus, "--world", "w", home=home)
    assert resumed.code == 0, resumed.err
    settings = load_settings(data_dir=home)
    stores = WorldStores(settings, "w")
    try:
        ids = {c.id for c in stores.catalog.chunks("w")}
        assert stores.vectors.ids() == ids
        assert stores.graph.counts()["chunks"] == len(ids)
        # the resumed run embedded only what the killed one had not committed
        total = len(ids)
        assert f"{total} passages" in resumed.out
        assert f"{total} passages embedded" not in resumed.out
    finally:
        stores.close()
    assert "nothing changed" in lore("ingest", corpus, "--world", "w", home=home).out


def _wait_for_some_embeddings(path: Path, proc: subprocess.Popen, timeout: float = 120) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with sqlite3.connect(path, timeout=1) as db:
                chunks = db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
                done = db.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0]
            if 0 < done < chunks - 32:
                return done
        except sqlite3.Error:
            pass
        time.sleep(0.05)
    return 0


def test_an_empty_file_in_a_folder_says_how_to_go_on_and_that_works(tmp_path: Path) -> None:
    """"Leave it out of the ingest" could not be done for a folder (lore ingest has no exclude;
    newcomer's trial): the advice is to move the file out, and doing so works."""
    folder = tmp_path / "story"
    folder.mkdir()
    (folder / "01.txt").write_text("The fox crossed the river at dawn.\n", encoding="utf-8")
    (folder / "notes.txt").write_text("", encoding="utf-8")
    home = tmp_path / "home"
    result = lore("ingest", folder, "--world", "w", home=home)
    assert_clear_error(result, f"{folder / 'notes.txt'}: the file is empty", "move it out")
    (folder / "notes.txt").rename(tmp_path / "notes.txt")
    again = lore("ingest", folder, "--world", "w", home=home)
    assert again.code == 0, again.err
