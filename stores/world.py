"""A world's stores, opened lazily: the catalog and the indexes derived from it."""

from __future__ import annotations

import hashlib
import os
import re
from functools import cached_property
from typing import TYPE_CHECKING

from stores.catalog import Catalog
from stores.config import Settings
from stores.errors import ConfigError, LoreError, StoreHeld

if TYPE_CHECKING:
    from stores.protocols import Embedder, GraphStore, KeywordIndex, VectorIndex

WORLD_NAME = re.compile(r"\w[\w.-]{0,63}")


def check_world_name(name: str) -> str:
    """World names become folder names: letters, digits, '_', '-', '.'."""
    if not WORLD_NAME.fullmatch(name or ""):  # `$` would let "demo\n" through
        raise ConfigError(f"invalid world name {name!r}", where="--world",
                          hint="use letters, digits, '_', '-' or '.', e.g. --world sanguo")
    return name


def collection_name(world: str) -> str:
    """A Qdrant-safe collection name for a world (servers hold many worlds)."""
    slug = re.sub(r"[^A-Za-z0-9_-]", "", world)
    digest = hashlib.sha1(world.encode("utf-8")).hexdigest()[:8]
    return f"lore_{slug}_{digest}" if slug != world else f"lore_{world}"


class WorldStores:
    """Handles to one world's catalog, vector index, keyword index, graph and embedder.

    Each is created on first use, so a command that only lists entities never loads a model.
    """

    def __init__(self, settings: Settings, world: str, catalog: Catalog | None = None) -> None:
        self.settings = settings
        self.world = check_world_name(world)
        self._catalog = catalog
        self.folder = settings.world_dir(world)

    @cached_property
    def catalog(self) -> Catalog:
        return self._catalog or Catalog(self.settings.catalog_path)

    def require(self) -> dict:
        """The world's catalog row; a clear error when the world was never ingested."""
        row = self.catalog.world(self.world)
        if row is None:
            known = ", ".join(w["name"] for w in self.catalog.worlds()) or "none yet"
            raise LoreError(f"no world named {self.world!r} (known worlds: {known})",
                            where="--world",
                            hint=f"ingest it first: lore ingest PATH... --world {self.world}")
        return row

    @cached_property
    def embedder(self) -> Embedder:
        from stores.embedders import make_embedder

        return make_embedder(self.settings.embedder)

    @cached_property
    def vectors(self) -> VectorIndex:
        from stores.vector.qdrant import QdrantVectorIndex

        url = self.settings.vector.url or None
        key = os.environ.get(self.settings.vector.api_key_env) if url else None
        path = None if url else self.folder / "qdrant"
        try:
            return QdrantVectorIndex(path=path, url=url, collection=collection_name(self.world),
                                     api_key=key)
        except StoreHeld as held:  # another lore holds the folder: read its vectors from the
            from stores.vector.catalog_view import CatalogVectors  # catalog; writes wait

            return CatalogVectors(self.catalog, self.world, held)

    @cached_property
    def keywords(self) -> KeywordIndex:
        from stores.keyword.bm25 import BM25Index

        return BM25Index(self.folder / "bm25")

    @cached_property
    def graph(self) -> GraphStore:
        from stores.graph import open_graph

        return open_graph(self.settings, self.world)

    def close(self) -> None:
        """Release every opened store (Qdrant's local mode allows one process per folder)."""
        for name in ("vectors", "keywords", "graph"):
            store = self.__dict__.pop(name, None)
            if store is not None:
                store.close()
        catalog = self.__dict__.pop("catalog", None)
        if catalog is not None and self._catalog is None:
            catalog.close()
