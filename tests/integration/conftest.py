"""Worlds ingested once per test session from the real novels (a few chapters each)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.disk import mounted_tmpfs
from tests.integration.lore import lore

SANGUO_CHAPTERS = [1, 2, 5, 36, 37, 38, 77, 104]
MONTE_CRISTO_CHAPTERS = [1, 2, 3, 4, 5]


def _ingested(tmp_path_factory: pytest.TempPathFactory, src: Path, numbers: list[int],
              world: str) -> Path:
    """A fresh data dir holding `world`, ingested by `lore ingest` from chapters `numbers` of
    `src`; the copied chapters stay beside it in `<home>-corpus`."""
    home = tmp_path_factory.mktemp(f"{world}-home")
    corpus = home.parent / f"{home.name}-corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    for n in numbers:
        shutil.copy(src / f"{n:03d}.txt", corpus)
    result = lore("ingest", corpus, "--world", world, home=home)
    assert result.code == 0, result.err
    return home


@pytest.fixture(scope="module")
def demo_home(demo_world_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data dir holding the demo world (a copy of the session's `lore demo`, tests/conftest.py),
    shared by the tests of one module: the sessions they write stay in that module."""
    home = tmp_path_factory.mktemp("demo-home") / "home"
    shutil.copytree(demo_world_home, home)
    return home


@pytest.fixture(scope="session")
def sanguo_home(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> Path:
    """A data dir holding world `sanguo`: 三国演义 chapters 1, 2, 5, 36–38, 77, 104."""
    return _ingested(tmp_path_factory, shared_data / "sanguo_yanyi" / "chapters",
                     SANGUO_CHAPTERS, "sanguo")


@pytest.fixture(scope="session")
def sanguo_corpus(sanguo_home: Path) -> Path:
    return sanguo_home.parent / f"{sanguo_home.name}-corpus"


@pytest.fixture(scope="session")
def monte_cristo_home(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> Path:
    """A data dir holding world `monte`: Monte Cristo chapters 1–5."""
    return _ingested(tmp_path_factory, shared_data / "monte_cristo" / "chapters",
                     MONTE_CRISTO_CHAPTERS, "monte")


@pytest.fixture
def demo_copy(demo_world_home: Path, tmp_path: Path) -> Path:
    """A private copy of the demo data dir, for a test that breaks or fills it."""
    home = tmp_path / "home"
    shutil.copytree(demo_world_home, home)
    return home


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 MB tmpfs mount point; a test sets its size with tests.integration.disk.resize
    (needs root, as in CI's container: skipped elsewhere)."""
    yield from mounted_tmpfs(tmp_path / "disk")
