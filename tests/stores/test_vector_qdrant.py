"""The Qdrant vector index: the conformance suite on the embedded store (through the numpy
mirror, and through Qdrant's own filtered search), on a server when QDRANT_URL is set, and
what only the embedded store has — the one-process lock, the payload layout on disk."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from stores.errors import StoreError
from stores.models import Chunk
from stores.protocols import ChunkFilter
from stores.vector import QdrantVectorIndex, point_id, to_qdrant_filter
from stores.vector.filters import entity_condition
from tests.stores.index_conformance import VectorIndexConformance, load_story_chunks, unit_vectors

ROOT = Path(__file__).resolve().parents[2]
# Read at import: the autouse fixture in conftest.py unsets it for every test.
QDRANT_URL = os.environ.get("QDRANT_URL", "")


class TestLocalQdrant(VectorIndexConformance):
    @pytest.fixture
    def open_index(self, tmp_path: Path) -> Callable[[], QdrantVectorIndex]:
        # A small batch so the upserts of the suite span several requests.
        return lambda: QdrantVectorIndex(path=tmp_path / "qdrant", collection="chunks",
                                         batch_size=64)


class TestLocalQdrantOwnFilters(VectorIndexConformance):
    """Without the mirror: Qdrant's query_points evaluates filters.py's translation."""

    @pytest.fixture
    def open_index(self, tmp_path: Path) -> Callable[[], QdrantVectorIndex]:
        return lambda: QdrantVectorIndex(path=tmp_path / "qdrant", collection="chunks",
                                         prefilter=False)


@pytest.mark.skipif(not QDRANT_URL, reason="QDRANT_URL is not set")
class TestServerQdrant(VectorIndexConformance):
    @pytest.fixture
    def open_index(self) -> Iterator[Callable[[], QdrantVectorIndex]]:
        name = f"lore_test_{uuid.uuid4().hex[:10]}"
        key = os.environ.get("QDRANT_API_KEY")
        yield lambda: QdrantVectorIndex(url=QDRANT_URL, collection=name, api_key=key)
        from qdrant_client import QdrantClient

        QdrantClient(url=QDRANT_URL, api_key=key).delete_collection(name)


# --- the embedded store only -----------------------------------------------------------

def test_points_on_disk_use_uuid5_ids_and_the_payload(tmp_path: Path, shared_data: Path) -> None:
    chunks = load_story_chunks(shared_data)[:20]
    index = QdrantVectorIndex(path=tmp_path / "q", collection="chunks")
    index.upsert(chunks, unit_vectors(len(chunks), 16))
    index.close()
    from qdrant_client import QdrantClient

    client = QdrantClient(path=str(tmp_path / "q"))
    try:
        records, _ = client.scroll("chunks", limit=100, with_payload=True)
    finally:
        client.close()
    by_id = {c.id: c for c in chunks}
    assert len(records) == len(chunks)
    for record in records:
        chunk = by_id[record.payload["chunk_id"]]
        assert record.id == point_id(chunk.id)
        assert uuid.UUID(record.id).version == 5
        assert record.payload == {"chunk_id": chunk.id, "chapter": chunk.chapter,
                                  "entities": chunk.entities}


def test_mirror_from_the_collection_arrays_equals_the_scrolled_one(tmp_path: Path,
                                                                  shared_data: Path) -> None:
    chunks = load_story_chunks(shared_data)
    index = QdrantVectorIndex(path=tmp_path / "q", collection="chunks", batch_size=100)
    index.upsert(chunks, unit_vectors(len(chunks), 16))
    index.delete([chunks[2].id, chunks[50].id])
    fast = index._local_rows()
    assert fast is not None
    scrolled = [(r.payload["chunk_id"], r.payload["chapter"], r.payload["entities"], r.vector)
                for r in index._scroll(with_vectors=True)]
    assert sorted((cid, ch, ents) for cid, ch, ents, _ in fast) == \
        sorted((cid, ch, ents) for cid, ch, ents, _ in scrolled)
    by_id = {cid: np.asarray(v) for cid, _, _, v in scrolled}
    for cid, _, _, vector in fast:
        assert np.allclose(vector, by_id[cid], atol=1e-6)
    index.close()


def test_local_storage_is_switched_to_wal(tmp_path: Path, shared_data: Path) -> None:
    chunks = load_story_chunks(shared_data)[:5]
    index = QdrantVectorIndex(path=tmp_path / "q", collection="chunks")
    index.upsert(chunks, unit_vectors(5, 8))
    index.close()
    db = next((tmp_path / "q").rglob("storage.sqlite"))
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


HOLDER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from stores.vector import QdrantVectorIndex
    index = QdrantVectorIndex(path=Path(sys.argv[1]), collection="chunks", owner="lore ingest")
    print("ready", flush=True)
    sys.stdin.read()
    index.close()
""")


def test_a_folder_held_by_another_process_names_it(tmp_path: Path) -> None:
    folder = tmp_path / "qdrant"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder)], cwd=ROOT,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        with pytest.raises(StoreError) as caught:
            QdrantVectorIndex(path=folder, collection="chunks")
        message = str(caught.value)
        assert str(folder) in message
        assert f"process {holder.pid} (lore ingest" in message
        assert "vector.url" in message and "QDRANT_URL" in message
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=20)
    # Released on exit: the folder opens again.
    QdrantVectorIndex(path=folder, collection="chunks").close()


def test_a_second_handle_in_one_process_is_refused_until_close(tmp_path: Path) -> None:
    first = QdrantVectorIndex(path=tmp_path / "q", collection="chunks")
    with pytest.raises(StoreError, match=f"process {os.getpid()}"):
        QdrantVectorIndex(path=tmp_path / "q", collection="chunks")
    first.close()
    first.close()  # twice is fine
    QdrantVectorIndex(path=tmp_path / "q", collection="chunks").close()


def test_unreadable_folder_is_a_store_error(tmp_path: Path) -> None:
    folder = tmp_path / "q"
    folder.mkdir()
    (folder / "meta.json").write_text("{not json")
    with pytest.raises(StoreError, match="lore ingest"):
        QdrantVectorIndex(path=folder, collection="chunks")


def test_unreachable_server_is_a_store_error() -> None:
    index = QdrantVectorIndex(url="http://127.0.0.1:9", collection="chunks")
    with pytest.raises(StoreError) as caught:
        index.ids()
    assert "http://127.0.0.1:9" in str(caught.value) and "vector.url" in str(caught.value)
    index.close()


def test_search_on_a_missing_collection_is_empty(tmp_path: Path) -> None:
    index = QdrantVectorIndex(path=tmp_path / "q", collection="never-built")
    assert index.search(unit_vectors(1, 8)[0], 5, ChunkFilter(entity="刘备")) == []
    assert index.ids() == set() and index.count() == 0
    index.close()


def test_filter_translation() -> None:
    from qdrant_client import models

    assert to_qdrant_filter(None) is None
    assert to_qdrant_filter(ChunkFilter()) is None
    both = to_qdrant_filter(ChunkFilter(chapter_min=3, chapter_max=9, entity="刘备"))
    assert both is not None and isinstance(both.must, list)
    chapter, entity = both.must
    assert chapter.key == "chapter" and chapter.range == models.Range(gte=3, lte=9)
    assert entity.key == "entities" and entity.match == models.MatchValue(value="刘备")
    open_end = to_qdrant_filter(ChunkFilter(chapter_min=3))
    assert open_end is not None and open_end.must[0].range == models.Range(gte=3)
    assert entity_condition(["刘备", "关羽"]).match == models.MatchAny(any=["刘备", "关羽"])


def test_mismatched_vectors_are_a_programming_error(tmp_path: Path, shared_data: Path) -> None:
    chunks: tuple[Chunk, ...] = load_story_chunks(shared_data)[:3]
    index = QdrantVectorIndex(path=tmp_path / "q", collection="chunks")
    with pytest.raises(ValueError):
        index.upsert(chunks, unit_vectors(2, 8))
    index.close()
