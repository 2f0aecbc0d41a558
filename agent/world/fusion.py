"""Reciprocal Rank Fusion: one ranking from several (the vector and the keyword search's, or a
search's passages ranked again by the librarian's strategy)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from stores.protocols import Hit


def rrf(rankings: Sequence[Sequence[Hit]], k: int = 60,
        weights: Sequence[float] = ()) -> list[Hit]:
    """Reciprocal Rank Fusion: score = Σ w / (k + rank), rank starting at 1; each ranking's
    weight w is 1 unless `weights` gives it."""
    scores: dict[str, float] = defaultdict(float)
    for i, ranking in enumerate(rankings):
        weight = weights[i] if i < len(weights) else 1.0
        for rank, hit in enumerate(ranking, start=1):
            scores[hit.chunk_id] += weight / (k + rank)
    return [Hit(cid, s) for cid, s in sorted(scores.items(), key=lambda kv: -kv[1])]
