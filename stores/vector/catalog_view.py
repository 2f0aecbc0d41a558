"""The vector index read from the catalog, for a process that finds the embedded Qdrant folder
held by another (the app open in one terminal, `lore ask` in another).

The catalog keeps every passage's vector (the embedding cache ingestion fills), so a reader
needs no lock: it searches the same vectors in memory, as Qdrant's local mode does itself
(VectorMirror). Writing is for the holder only: a write here raises the holder's error, so an
ingest waits for that process instead of writing somewhere no one reads.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from stores.catalog import Catalog
from stores.errors import StoreHeld
from stores.models import Chunk
from stores.protocols import ChunkFilter, Hit
from stores.vector.mirror import VectorMirror


class CatalogVectors:
    """A read-only VectorIndex over the catalog's vectors of one world."""

    def __init__(self, catalog: Catalog, world: str, held: StoreHeld) -> None:
        self.held = held
        """Why Qdrant could not be opened (raised again by any write)."""
        row = catalog.world(world) or {}
        rows = catalog.vector_rows(world, row.get("embedder") or "")
        self._mirror = VectorMirror(rows, int(row.get("dim") or (len(rows[0][3]) if rows else 0)))

    def reset(self, dim: int) -> None:
        raise self.held

    def upsert(self, chunks: Sequence[Chunk], vectors: np.ndarray) -> None:
        raise self.held

    def delete(self, chunk_ids: Sequence[str]) -> None:
        raise self.held

    def ids(self) -> set[str]:
        return set(self._mirror.ids)

    def search(self, vector: np.ndarray, limit: int, where: ChunkFilter | None = None) -> list[Hit]:
        return self._mirror.search(vector, limit, where)

    def close(self) -> None:
        """Nothing is held."""
