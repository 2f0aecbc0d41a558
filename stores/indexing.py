"""A world's indexes built from its catalog: story order, entities and cards, vectors, BM25 and
the graph — the stage `lore ingest` ends with, and all that `lore ingest --rebuild`, `lore
prune` and the repair of a damaged index run (stores/ingest.py, stores/repair.py); the e5
upgrade writes its vectors with `write_vectors` (stores/upgrade.py). It imports none of them.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from stores.errors import StoreError
from stores.job_lock import e5_lock
from stores.models import Chunk
from stores.world import WorldStores

if TYPE_CHECKING:
    from stores.protocols import Embedder

Progress = Callable[[str, int, int], None]
"""progress(stage, done, total): stages are read, entities, embed, index."""


def no_progress(stage: str, done: int, total: int) -> None:
    """The progress of a caller that shows none."""
    return None


@dataclass
class Rebuilt:
    """What rebuilding a world's indexes did."""

    entities: int = 0
    relations: int = 0
    stated: int = 0
    """Of the relations, those the text or a glossary states (the rest: names seen together)."""
    embedded: int = 0
    """Passages embedded now (the rest had their vectors cached)."""
    chunks: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    """Each stage's time: entities, cards, embed, index."""


class Clock:
    """Stage times, each from the end of the one before, into `seconds`."""

    def __init__(self, seconds: dict[str, float]) -> None:
        self.seconds, self.last = seconds, time.perf_counter()

    def lap(self, stage: str) -> None:
        now = time.perf_counter()
        self.seconds[stage] = round(now - self.last, 3)
        self.last = now


def open_indexes(stores: WorldStores) -> None:
    """Open the stores that lock their folder now, before the long embedding stage."""
    try:
        _ = stores.vectors, stores.graph
    except StoreError:
        raise
    except Exception as exc:  # a backend's own error type: say which store and what to do
        raise StoreError(f"cannot open the world's indexes: {exc}", where=stores.folder,
                         hint="close other Lorekeeper windows on this world, then retry") from None


def embed_missing(stores: WorldStores, embedder: Embedder | None, progress: Progress) -> int:
    """Embed (and cache) the world's passages that have no vector of `embedder` yet."""
    if embedder is None:
        return 0
    catalog = stores.catalog
    missing = catalog.missing_embeddings(stores.world, embedder.name)
    size = stores.settings.embedder.batch_size
    for start in range(0, len(missing), size):
        progress("embed", start, len(missing))
        batch = missing[start:start + size]
        vectors = embedder.embed([text for _, text in batch])
        catalog.save_embeddings(embedder.name, [h for h, _ in batch], vectors)
    progress("embed", len(missing), len(missing))
    return len(missing)


def sync_indexes(stores: WorldStores, embedder: Embedder | None, progress: Progress) -> None:
    """Bring the vector, keyword and graph indexes up to date with the catalog."""
    catalog, world = stores.catalog, stores.world
    all_chunks = catalog.chunks(world)
    if embedder is not None:
        write_vectors(stores, embedder, progress)
        leftovers = stores.vectors.ids() - {c.id for c in all_chunks}
        if leftovers:
            stores.vectors.delete(sorted(leftovers))
    entities = catalog.entities(world)
    stores.keywords.build(all_chunks, [name for e in entities for name in (e.name, *e.aliases)])
    stores.graph.rebuild([(e.name, e.type) for e in entities], all_chunks,
                         catalog.relations(world))


def write_vectors(stores: WorldStores, embedder: Embedder, progress: Progress) -> list[Chunk]:
    """Bring `stores.vectors` (the index of `embedder`) up to date with the catalog's cached
    vectors: everything again when the world's row records another embedder, else the chunks
    not indexed yet. Returns the chunks written."""
    catalog, world, vectors = stores.catalog, stores.world, stores.vectors
    state = catalog.world(world) or {}
    if state.get("embedder") != embedder.name or state.get("dim") != embedder.dim:
        vectors.reset(embedder.dim)
        catalog.db.execute("UPDATE chunks SET indexed = 0 WHERE world = ?", [world])
    stale = catalog.stale_chunks(world)
    for start in range(0, len(stale), 512):
        progress("index", start, len(stale))
        batch = stale[start:start + 512]
        hashes = [hashlib.sha1(c.text.encode("utf-8")).hexdigest() for c in batch]
        vectors.upsert(batch, catalog.embeddings(embedder.name, hashes))
        catalog.mark_indexed([c.id for c in batch])
    progress("index", len(stale), len(stale))
    return stale


def rebuild_indexes(stores: WorldStores,
                    first_index: Callable[[WorldStores, bool], Embedder | None],
                    progress: Progress = no_progress) -> Rebuilt:
    """Everything derived from the world's chunks: story order, entities, vectors, BM25, graph.
    `first_index(stores, may_embed)` says which embedder builds the vector index now
    (stores.upgrade.first_index: the fast one while e5 vectors are missing; may_embed is False
    while another process's e5 pass holds the world's lock)."""
    done = Rebuilt()
    clock = Clock(done.seconds)
    catalog, world = stores.catalog, stores.world
    catalog.renumber_events(world)
    from stores.ingest_entities import resolve_world_entities

    done.entities, done.relations, done.stated = resolve_world_entities(
        catalog, world, stores.settings, progress)
    clock.lap("entities")
    from stores.card_build import build_cards

    catalog.replace_cards(world, build_cards(catalog.entities(world), catalog.chunks(world),
                                             catalog.relations(world)))
    clock.lap("cards")
    # A few missing e5 vectors are computed here: under the world's e5 lock, or (another
    # process's e5 pass holds it) not at all, so no vector is computed twice (job_lock.py).
    with e5_lock(stores.settings.data_dir, world) as lock:
        embedder = first_index(stores, lock.acquire())
        stores.index_with(embedder)
        done.embedded = embed_missing(stores, embedder, progress)
        clock.lap("embed")
        sync_indexes(stores, embedder, progress)
    catalog.drop_unused_embeddings()
    clock.lap("index")
    done.chunks = catalog.db.execute(
        "SELECT COUNT(*) FROM chunks WHERE world = ?", [world]).fetchone()[0]
    catalog.set_documents_status(world, "ready")
    catalog.set_world(world, state="ready", embedder=embedder.name if embedder else "",
                      dim=embedder.dim if embedder else 0)
    return done
