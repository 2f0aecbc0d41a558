"""The small seams between the ingestion pipeline / tools and each store backend."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from stores.models import Chunk, Relation

if TYPE_CHECKING:
    from stores.config import EmbedderSettings, Settings


@dataclass(slots=True, frozen=True)
class Hit:
    """A retriever's answer: a chunk id and its score (higher is better)."""

    chunk_id: str
    score: float


@dataclass(slots=True, frozen=True)
class ChunkFilter:
    """Restrictions every retriever honours: an inclusive chapter range and an entity."""

    chapter_min: int | None = None
    chapter_max: int | None = None
    entity: str | None = None
    """Canonical entity name that must be mentioned in the chunk."""

    def admits(self, chapter: int, entities: Sequence[str]) -> bool:
        if self.chapter_min is not None and chapter < self.chapter_min:
            return False
        if self.chapter_max is not None and chapter > self.chapter_max:
            return False
        return self.entity is None or self.entity in entities


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors."""

    name: str
    """Identifies the model; embeddings are cached per name."""

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Passages (the texts searched) → (n, dim) vectors."""

    def embed_query(self, text: str) -> np.ndarray:
        """A question → (dim,) vector; retrieval models embed questions differently (e5's
        `query:` prefix, BGE's instruction)."""


class EmbedderBackend(Protocol):
    """What a `lorekeeper.embedders` entry point names (stores.plugins): an embedder class."""

    @classmethod
    def configured(cls, settings: EmbedderSettings) -> Embedder:
        """The embedder `embedder.backend` = this backend makes from the settings (nothing is
        loaded before its first `embed`); a ConfigError for settings it cannot honour."""

    @classmethod
    def named(cls, name: str, settings: EmbedderSettings) -> Embedder | None:
        """The embedder whose vectors are named `name` (`Embedder.name`, as a world's catalog
        records it), when it is one of this backend's; None otherwise."""


@runtime_checkable
class VectorIndex(Protocol):
    """Dense vectors with a chunk payload, searched by cosine similarity."""

    def reset(self, dim: int) -> None:
        """Drop everything and create an empty index for vectors of `dim`."""

    def upsert(self, chunks: Sequence[Chunk], vectors: np.ndarray) -> None: ...

    def delete(self, chunk_ids: Sequence[str]) -> None: ...

    def ids(self) -> set[str]: ...

    def search(self, vector: np.ndarray, limit: int, where: ChunkFilter | None = None) -> list[Hit]: ...

    def close(self) -> None: ...


@runtime_checkable
class KeywordIndex(Protocol):
    """BM25 over segmented text."""

    def build(self, chunks: Sequence[Chunk], names: Iterable[str] = ()) -> None:
        """Replace the index with these chunks and persist it; `names` (the world's entity
        names and aliases) are kept whole by its segmenter, saved with it."""

    def search(self, query: str, limit: int, where: ChunkFilter | None = None) -> list[Hit]: ...

    def tokens(self, text: str) -> list[str]:
        """`text` cut as the index cuts its passages (the world's names kept whole), so other
        text — a conversation's summaries — can be ranked by the same words."""

    def close(self) -> None: ...


class GraphBackend(Protocol):
    """What a `lorekeeper.graphs` entry point names (stores.plugins): a graph store class."""

    @classmethod
    def open(cls, settings: Settings, world: str) -> GraphStore:
        """The world's graph store as the settings say ([graph])."""


@runtime_checkable
class GraphStore(Protocol):
    """Entities, chunks, APPEARS_IN and RELATED edges; Cypher underneath."""

    def rebuild(self, entities: Sequence[tuple[str, str]], chunks: Sequence[Chunk],
                relations: Sequence[Relation]) -> None:
        """Replace the graph: entities as (name, type), chunks with their entity lists."""

    def neighbours(self, entity: str, relation: str | None = None, depth: int = 1,
                   limit: int = 50, chapter_max: int | None = None) -> list[Relation]:
        """Relations reachable from `entity` within `depth` hops, strongest first."""

    def relations_between(self, a: str, b: str) -> list[Relation]: ...

    def appearances(self, entity: str) -> list[str]:
        """Chunk ids the entity appears in."""

    def counts(self) -> dict[str, int]:
        """Node and edge counts, for `lore doctor` and tests."""

    def close(self) -> None: ...
