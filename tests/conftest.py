"""Shared fixtures: every test gets its own LORE_HOME; the real corpora live in ../shared/data;
the bundled demo world is ingested once per test session (`demo_world_home`)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("LORE_SHARED_DATA", ROOT.parent / "shared" / "data"))


@pytest.fixture(scope="session", autouse=True)
def fast_embedder() -> Iterator[None]:
    """Worlds of tests that are not about the embedder are built with the fast one (USE: about
    40 s for a novel, where e5 takes minutes); the e5 tests set LORE_EMBEDDER__BACKEND back.
    Session-scoped and autouse, so it holds for the session-scoped worlds too."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LORE_EMBEDDER__BACKEND", "use")
        yield


@pytest.fixture(autouse=True)
def lore_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """All state of a test under one temporary folder; no config.toml from the working dir."""
    home = tmp_path_factory.mktemp("lore-home")
    monkeypatch.setenv("LORE_HOME", str(home))
    monkeypatch.setenv("LORE_CONFIG", str(ROOT / "config.toml"))
    for var in ("QDRANT_URL", "NEO4J_URI"):
        if not os.environ.get(f"LORE_TEST_KEEP_{var}"):
            monkeypatch.delenv(var, raising=False)
    return home


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """../shared/data (SOURCES.md there). CI always has it beside the clone."""
    if not (SHARED_DATA / "sanguo_yanyi" / "chapters").is_dir():
        pytest.fail(f"{SHARED_DATA} is missing: clone the project next to ../shared "
                    "or set LORE_SHARED_DATA to the data folder")
    return SHARED_DATA


@pytest.fixture(scope="session")
def demo_world_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data dir holding the bundled demo world, made by `lore demo` once per test session
    (about 10 s) for every test that reads it: the CLI tests, the app's Pilot tests, the
    follow-up tests. Never written to: a test that changes anything, a session included, works
    on its own copy (see `demo_copy` and `demo_home` in tests/integration, `settings` in
    tests/tui). Tests of the demo command itself make their own."""
    from tests.integration.lore import lore

    home = tmp_path_factory.mktemp("demo-world-home")
    result = lore("demo", home=home)
    assert result.code == 0, result.err
    return home


class _Plugged:
    """An entry point a test registers: `load` gives the object itself."""

    def __init__(self, name: str, value: object) -> None:
        self.name, self.value = name, value

    def load(self) -> object:
        return self.value


@pytest.fixture
def plug(monkeypatch: pytest.MonkeyPatch) -> Callable[[str, str, object], None]:
    """`plug(group, name, value)` registers `value` in an entry-point group for the test, as a
    package that names it in its metadata would (stores.plugins)."""
    from stores import plugins

    added: dict[str, dict[str, _Plugged]] = {}
    real = plugins.registered

    def registered(group: str) -> dict[str, object]:
        return {**real(group), **added.get(group, {})}

    monkeypatch.setattr(plugins, "registered", registered)

    def add(group: str, name: str, value: object) -> None:
        added.setdefault(group, {})[name] = _Plugged(name, value)

    return add
