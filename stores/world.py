"""A world's stores, opened lazily: the catalog and the indexes derived from it."""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from functools import cached_property
from typing import TYPE_CHECKING

from stores.catalog import Catalog
from stores.config import Settings
from stores.errors import ConfigError, LoreError, StoreHeld

if TYPE_CHECKING:
    from pathlib import Path

    from stores.protocols import Embedder, GraphStore, KeywordIndex, VectorIndex

WORLD_NAME = re.compile(r"\w[\w.-]{0,63}")
WORLD_NAME_BYTES = 100
"""A world's name is its folder's name and part of export file names (255 bytes at most)."""


LOOK_ALIKE_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")
"""Alphabets with letters that look the same (Latin e, Cyrillic е, Greek ο): a name mixing
them is a look-alike of another name, never a name of its own."""


def normal_world_name(name: str) -> str:
    """A world name in its normal form (NFKC): full-width ｓｍａｌｌ is small, so a name typed
    with an input method names the same world (and lines up in `lore worlds`)."""
    return unicodedata.normalize("NFKC", name)


def check_world_name(name: str) -> str:
    """World names become folder names: letters, digits, '_', '-', '.'. Returns the name in
    its normal form (normal_world_name)."""
    name = normal_world_name(name or "")
    if not WORLD_NAME.fullmatch(name):  # `$` would let "demo\n" through
        raise ConfigError(f"invalid world name {name!r}", where="--world",
                          hint="use letters, digits, '_', '-' or '.', e.g. --world sanguo")
    size = len(name.encode("utf-8"))
    if size > WORLD_NAME_BYTES:  # 64 four-byte characters make a 256-byte folder name
        raise ConfigError(f"the world name is {size} bytes long in UTF-8; at most "
                          f"{WORLD_NAME_BYTES} fit in a folder name with room for exports",
                          where="--world", hint="choose a shorter name, e.g. --world sanguo")
    return name


def collection_name(world: str, slot: str = "") -> str:
    """A Qdrant-safe collection name for a world (servers hold many worlds) and vector slot."""
    slug = re.sub(r"[^A-Za-z0-9_-]", "", world)
    digest = hashlib.sha1(world.encode("utf-8")).hexdigest()[:8]
    name = f"lore_{slug}_{digest}" if slug != world else f"lore_{world}"
    return f"{name}_{slot}" if slot else name


def vector_slot(embedder_name: str) -> str:
    """Where an embedder's vectors live beside the others: e5's apart from the fast index, so
    the background upgrade (stores/upgrade.py) builds them while readers search the fast one."""
    from stores.embedders.e5 import NAME as E5_NAME

    return "e5" if embedder_name == E5_NAME else ""


class WorldStores:
    """Handles to one world's catalog, vector index, keyword index, graph and embedder.

    Each is created on first use, so a command that only lists entities never loads a model.
    """

    def __init__(self, settings: Settings, world: str, catalog: Catalog | None = None) -> None:
        self.settings = settings
        self.world = check_world_name(world)
        self._catalog = catalog
        self.folder = settings.world_dir(world)
        self._index_embedder: Embedder | None = None
        self._bm25_only = False

    def index_with(self, embedder: Embedder | None) -> None:
        """Read and write the vectors of `embedder` (None: none, BM25 alone) from now on,
        instead of those the world's catalog row records; ingest and the upgrade use it."""
        old = self.__dict__.pop("vectors", None)
        if old is not None:
            old.close()
        self.__dict__.pop("embedder", None)
        self._index_embedder, self._bm25_only = embedder, embedder is None

    @property
    def has_vectors(self) -> bool:
        """False while a world searches with BM25 alone (embedder.fast_index = "bm25")."""
        if self._bm25_only:
            return False
        if self._index_embedder is not None:
            return True
        row = self.catalog.world(self.world)
        return not (row and row["state"] == "ready" and row["embedder"] == "")

    @cached_property
    def catalog(self) -> Catalog:
        return self._catalog or Catalog(self.settings.catalog_path)

    def require(self) -> dict:
        """The world's catalog row; a clear error when the world was never ingested."""
        row = self.catalog.world(self.world)
        if row is None:
            names = [w["name"] for w in self.catalog.worlds()]
            known = ", ".join(names) or "none yet"
            near = _near(self.world, names)
            hint = f"ingest it first: lore ingest PATH... --world {self.world}"
            if near:  # a typo (demoo, Demo) is not a world to make
                hint = f"did you mean --world {near}? Else {hint}"
            raise LoreError(f"no world named {self.world!r} (known worlds: {known})",
                            where="--world", hint=hint)
        return row

    @cached_property
    def embedder(self) -> Embedder:
        """The embedder of the vectors this handle searches: the one the world's catalog row
        says built them, so a query is never embedded in another space than its passages."""
        from stores.embedders import embedder_named, make_embedder

        if self._index_embedder is not None:
            return self._index_embedder
        row = self.catalog.world(self.world)
        if row and row["embedder"]:
            return embedder_named(row["embedder"], self.settings.embedder, self.world)
        return make_embedder(self.settings.embedder)

    @property
    def vector_folder(self) -> Path | None:
        """The embedded vector index's folder: `qdrant`, or `qdrant-<slot>` for the vectors of
        another embedder (e5); None with a server."""
        if self.settings.vector.url:
            return None
        slot = vector_slot(self.embedder.name)
        return self.folder / (f"qdrant-{slot}" if slot else "qdrant")

    @cached_property
    def vectors(self) -> VectorIndex:
        from stores.vector.qdrant import QdrantVectorIndex

        slot = vector_slot(self.embedder.name)
        url = self.settings.vector.url or None
        key = os.environ.get(self.settings.vector.api_key_env) if url else None
        path = self.vector_folder
        try:
            return QdrantVectorIndex(path=path, url=url,
                                     collection=collection_name(self.world, slot), api_key=key)
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


def refuse_look_alike(name: str, names: list[str]) -> None:
    """A new world's name may not mix the letters of alphabets that look alike (dеmo, with a
    Cyrillic е, beside demo): it would look like another world and be another."""
    scripts: dict[str, str] = {}
    for ch in name:
        script = unicodedata.name(ch, "").split(" ")[0]
        if ch.isalpha() and script in LOOK_ALIKE_SCRIPTS:
            scripts.setdefault(script, ch)
    if len(scripts) < 2:
        return
    shown = ", ".join(f"{script.title()} {ch!r} (U+{ord(ch):04X})"
                      for script, ch in scripts.items())
    near = _near(name, [n for n in names if n != name])
    raise ConfigError(f"the world name {name!r} mixes alphabets that look alike: {shown}",
                      where="--world", hint=(f"did you mean --world {near}? Else " if near
                                             else "") + "spell the name in one alphabet")


def _near(name: str, names: list[str]) -> str | None:
    """The known world a mistyped name most likely means (Demo, demoo → demo), if any."""
    import difflib

    folded = {n.casefold(): n for n in names}
    found = difflib.get_close_matches(name.casefold(), list(folded), n=1, cutoff=0.75)
    return folded[found[0]] if found else None
