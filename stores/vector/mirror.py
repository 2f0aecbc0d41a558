"""An in-memory copy of a local Qdrant collection, searched with numpy.

Qdrant's local mode evaluates payload filters in Python, point by point: a chapter range
plus an entity costs 20–30 ms over 1,800 points and 40–45 ms over 4,000 (p95 up to 110 ms),
where the unfiltered search costs 2–4 ms. Local mode searches by brute force anyway, so
this mirror does the same exact search with the filter as a numpy mask: under 0.1 ms at
p50, filtered or not (bench/retrieval_stores.py). The collection stays the store of record;
the mirror is rebuilt from it (about 10 ms) after any write.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import ArrayLike

from stores.protocols import ChunkFilter, Hit

GATHER_SHARE = 4
"""A filter admitting fewer than 1/GATHER_SHARE of the rows gathers them before scoring; more,
and every row is scored and the admitted ones picked (bench/growth.py --scan: gathering half of
a million rows copied 730 MB per query)."""


class VectorMirror:
    """Vectors and filter columns of every point, in one matrix and a few arrays."""

    def __init__(self, rows: Iterable[tuple[str, int, Sequence[str], ArrayLike]],
                 dim: int) -> None:
        ids: list[str] = []
        chapters: list[int] = []
        vectors: list[ArrayLike] = []
        by_entity: dict[str, list[int]] = {}
        for row, (chunk_id, chapter, entities, vector) in enumerate(rows):
            ids.append(chunk_id)
            chapters.append(chapter)
            vectors.append(vector)
            for name in set(entities):
                by_entity.setdefault(name, []).append(row)
        self.ids = ids
        self.chapters = np.asarray(chapters, dtype=np.int32)
        matrix = np.asarray(vectors, dtype=np.float32).reshape(len(ids), dim)
        # Cosine distance, as the collection is configured: compare unit vectors.
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        self.matrix = matrix / np.where(norms == 0, 1, norms)
        self.by_entity = {k: np.asarray(v, dtype=np.int64) for k, v in by_entity.items()}

    def __len__(self) -> int:
        return len(self.ids)

    def rows(self, where: ChunkFilter | None) -> np.ndarray | None:
        """Row numbers `where` admits, or None for all rows."""
        if where is None or (where.chapter_min is None and where.chapter_max is None
                             and where.entity is None):
            return None
        if where.entity is not None:
            rows = self.by_entity.get(where.entity, np.empty(0, dtype=np.int64))
        else:
            rows = np.arange(len(self.ids))
        chapters = self.chapters[rows]
        keep = np.ones(len(rows), dtype=bool)
        if where.chapter_min is not None:
            keep &= chapters >= where.chapter_min
        if where.chapter_max is not None:
            keep &= chapters <= where.chapter_max
        return rows[keep]

    def search(self, vector: np.ndarray, limit: int, where: ChunkFilter | None = None) -> list[Hit]:
        """The `limit` nearest admitted points by cosine similarity, best first."""
        if limit <= 0 or not self.ids:
            return []
        query = np.asarray(vector, dtype=np.float32).ravel()
        norm = float(np.linalg.norm(query))
        if norm == 0:
            return []
        rows = self.rows(where)
        if rows is not None and len(rows) == 0:
            return []
        unit = query / norm
        if rows is None:
            scores = self.matrix @ unit
        elif len(rows) * GATHER_SHARE < len(self.ids):
            scores = self.matrix[rows] @ unit  # a few rows: copy them, then score
        else:  # most rows (a chapter range): score all, keep the admitted, copy no matrix
            scores = (self.matrix @ unit)[rows]
        top = np.arange(len(scores))
        if len(scores) > limit:
            kth = np.partition(scores, len(scores) - limit)[len(scores) - limit]
            top = np.flatnonzero(scores >= kth)  # ties with the k-th score stay in
        # Best first; equal scores in row order, whatever the limit.
        top = top[np.lexsort((top, -scores[top]))][:limit]
        picked = top if rows is None else rows[top]
        return [Hit(self.ids[r], float(scores[t])) for r, t in zip(picked.tolist(), top.tolist(), strict=True)]
