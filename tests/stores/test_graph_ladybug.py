"""The embedded ladybug graph store: the conformance suite plus what only a file-backed
database has — locking, reopening, settings."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from stores.config import Settings
from stores.errors import StoreError
from stores.graph import GraphQueryError, graph_path, open_graph
from stores.graph.ladybug_store import LadybugGraphStore
from tests.graph_holder import graph_held
from tests.stores.graph_conformance import (
    CHUNKS,
    ENTITIES,
    RELATIONS,
    GraphStoreConformance,
    keys,
)


class TestLadybugConformance(GraphStoreConformance):
    @pytest.fixture
    def store(self, tmp_path: Path) -> Iterator[LadybugGraphStore]:
        store = LadybugGraphStore(tmp_path / "graph.lbug", buffer_pool_mb=64)
        yield store
        store.close()


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "home")


def test_open_graph_creates_the_world_folder_and_sizes_the_buffer_pool(settings: Settings) -> None:
    settings.graph.buffer_pool_mb = 48
    store = open_graph(settings, "三国")
    try:
        assert isinstance(store, LadybugGraphStore)
        assert store.path == graph_path(settings, "三国").resolve()
        assert store.path.parent == (settings.data_dir / "worlds" / "三国").resolve()
        assert store._db.buffer_pool_size == 48 * 1024 * 1024
    finally:
        store.close()
    assert store.path.exists()


def test_max_depth_setting_bounds_the_search(settings: Settings) -> None:
    settings.graph.max_depth = 2
    with open_graph(settings, "w") as store:  # type: ignore[attr-defined]
        store.rebuild(ENTITIES, CHUNKS, RELATIONS)
        assert store.neighbours("张飞", depth=2)
        with pytest.raises(GraphQueryError, match=r"1\.\.2"):
            store.neighbours("张飞", depth=3)
        assert store.relations_between("张飞", "孙权") == []  # needs three hops


def test_graph_survives_close_and_reopen(settings: Settings) -> None:
    store = open_graph(settings, "w")
    store.rebuild(ENTITIES, CHUNKS, RELATIONS)
    before = store.counts()
    store.close()
    store.close()  # harmless
    again = open_graph(settings, "w")
    try:
        assert again.counts() == before
        assert keys(again.neighbours("刘备", limit=1)) == [("刘备", "关羽", "sworn_sibling")]
    finally:
        again.close()


def test_opening_twice_in_one_process_is_refused(settings: Settings) -> None:
    store = open_graph(settings, "w")
    try:
        with pytest.raises(StoreError) as caught:
            open_graph(settings, "w")
        assert "already open in this process" in str(caught.value)
        assert str(graph_path(settings, "w").resolve()) in str(caught.value)
        assert "close" in caught.value.hint
        other = open_graph(settings, "another world")  # other files are fine
        other.close()
    finally:
        store.close()


def test_a_closed_store_says_so(settings: Settings) -> None:
    store = open_graph(settings, "w")
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.counts()
    with pytest.raises(StoreError, match="closed"):
        store.rebuild([], [], [])


def test_a_database_held_by_another_process_is_reported(settings: Settings) -> None:
    path = graph_path(settings, "w")
    open_graph(settings, "w").close()
    with graph_held(path) as pid:
        with pytest.raises(StoreError) as caught:
            open_graph(settings, "w")
        message = str(caught.value)
        assert f"locked by process {pid}" in message
        assert str(path.resolve()) in message
        assert "close the other Lorekeeper" in caught.value.hint
    open_graph(settings, "w").close()  # the lock went with the other process


def test_a_damaged_database_file_is_reported(settings: Settings) -> None:
    path = graph_path(settings, "w")
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a graph" * 100)
    with pytest.raises(StoreError) as caught:
        open_graph(settings, "w")
    assert str(path.resolve()) in str(caught.value)
    assert "lore doctor --repair" in caught.value.hint  # issue 25: a step that works
    path.unlink()
    open_graph(settings, "w").close()  # a failed open leaves nothing registered


def test_a_store_dropped_without_close_frees_its_file(settings: Settings) -> None:
    store = open_graph(settings, "w")
    store.rebuild(ENTITIES, CHUNKS, RELATIONS)
    del store
    gc.collect()
    again = open_graph(settings, "w")
    try:
        assert again.counts()["entities"] == len(ENTITIES)
    finally:
        again.close()


def test_a_failed_rebuild_keeps_the_previous_graph(settings: Settings,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import pyarrow as pa

    from stores.graph import ladybug_store

    store = open_graph(settings, "w")
    try:
        store.rebuild(ENTITIES, CHUNKS, RELATIONS)
        before = store.counts()
        real = ladybug_store._arrow_tables

        def duplicate_chunks(rows: object) -> dict[str, pa.Table]:
            tables = real(rows)  # type: ignore[arg-type]
            tables["Chunk"] = pa.concat_tables([tables["Chunk"], tables["Chunk"]])
            return tables

        monkeypatch.setattr(ladybug_store, "_arrow_tables", duplicate_chunks)
        with pytest.raises(StoreError, match="cannot rebuild the graph") as caught:
            store.rebuild([("宋江", "person")], CHUNKS, [])
        assert "previous graph is kept" in caught.value.hint
        assert store.counts() == before
        assert keys(store.neighbours("刘备", limit=1)) == [("刘备", "关羽", "sworn_sibling")]
    finally:
        store.close()
