"""Worlds ingested once per test session from the real novels (a few chapters each)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.integration.lore import lore

SANGUO_CHAPTERS = [1, 2, 5, 36, 37, 38, 77, 104]
MONTE_CRISTO_CHAPTERS = [1, 2, 3, 4, 5]


def _copy(src: Path, numbers: list[int], width: int, dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    for n in numbers:
        shutil.copy(src / f"{n:0{width}d}.txt", dest)
    return dest


@pytest.fixture(scope="session")
def sanguo_home(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> Path:
    """A data dir holding world `sanguo`: 三国演义 chapters 1, 2, 5, 36–38, 77, 104."""
    home = tmp_path_factory.mktemp("sanguo-home")
    corpus = _copy(shared_data / "sanguo_yanyi" / "chapters", SANGUO_CHAPTERS, 3,
                   home.parent / f"{home.name}-corpus")
    result = lore("ingest", corpus, "--world", "sanguo", home=home)
    assert result.code == 0, result.err
    return home


@pytest.fixture(scope="session")
def sanguo_corpus(sanguo_home: Path) -> Path:
    return sanguo_home.parent / f"{sanguo_home.name}-corpus"


@pytest.fixture(scope="session")
def monte_cristo_home(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> Path:
    """A data dir holding world `monte`: Monte Cristo chapters 1–5."""
    home = tmp_path_factory.mktemp("monte-home")
    corpus = _copy(shared_data / "monte_cristo" / "chapters", MONTE_CRISTO_CHAPTERS, 3,
                   home.parent / f"{home.name}-corpus")
    result = lore("ingest", corpus, "--world", "monte", home=home)
    assert result.code == 0, result.err
    return home
