"""Count what a world holds in every store: the catalog, the embedding cache, Qdrant, BM25, graph.

Tests compare a census before and after a command: equal means nothing was added, lost or left
behind anywhere.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from stores.world import WorldStores
from tui.settings import load_settings


def census(home: Path, world: str) -> dict[str, Any]:
    """Counts (and the chunk ids) of `world` in every store under the data dir `home`."""
    settings = load_settings(data_dir=home)
    stores = WorldStores(settings, world)
    try:
        db = stores.catalog.db

        def one(sql: str) -> Any:
            return db.execute(sql, [world]).fetchone()[0]

        chunk_ids = sorted(c.id for c in stores.catalog.chunks(world))
        entities = stores.catalog.entities(world)
        bm25 = json.loads((stores.folder / "bm25" / "docs.json").read_text(encoding="utf-8"))
        return {
            "documents": one("SELECT COUNT(*) FROM documents WHERE world = ?"),
            "chunks": len(chunk_ids),
            "chunk_ids": chunk_ids,
            "glossary": one("SELECT COUNT(*) FROM glossary WHERE world = ?"),
            "entities": len(entities),
            "mentions": sum(e.mentions for e in entities),
            "relations": one("SELECT COUNT(*) FROM relations WHERE world = ?"),
            "declared": one("SELECT COUNT(*) FROM relations WHERE world = ? AND declared = 1"),
            "embeddings": db.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0],
            "texts": one("SELECT COUNT(DISTINCT text_hash) FROM chunks WHERE world = ?"),
            "vector_ids": sorted(stores.vectors.ids()),
            "bm25_ids": sorted(bm25["ids"]),
            "graph": stores.graph.counts(),
        }
    finally:
        stores.close()


def paths(home: Path, world: str) -> list[str]:
    """The stored path of every document of the world."""
    settings = load_settings(data_dir=home)
    stores = WorldStores(settings, world)
    try:
        return sorted(r["path"] for r in stores.catalog.document_rows(world))
    finally:
        stores.close()


def assert_consistent(found: dict[str, Any]) -> None:
    """Every index holds exactly the catalog's chunks."""
    assert found["vector_ids"] == found["chunk_ids"]
    assert found["bm25_ids"] == found["chunk_ids"]
    assert found["graph"]["chunks"] == found["chunks"]
    assert found["embeddings"] == found["texts"]  # one embedder, one world: no stale vectors
