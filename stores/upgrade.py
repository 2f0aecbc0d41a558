"""Fast first, better soon: a world searches with a fast index until its e5 vectors are complete.

multilingual-e5-small embeds about 3–6 passages a second on two cores (minutes for a novel),
while the Universal Sentence Encoder takes about 40 s and BM25 alone nothing. So with
`embedder.backend = "e5"`, ingest builds BM25 and the fast index (`embedder.fast_index`) and
marks the world ready at once; `upgrade` then computes the e5 vectors into the catalog's
embedding cache a small batch at a time (each batch committed: a kill loses at most the batch
in flight, and a vector is never computed twice — the cache is keyed by model and text hash,
and one process at a time computes a world's: stores/job_lock.py; the others follow it), writes
them into their own index beside the fast one (world.vector_slot), and only then
switches the world's catalog row to e5. A reader that opened the world before keeps the fast
index it opened; the next one searches e5. A query never mixes spaces: WorldStores embeds it
with the embedder the row records.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from stores.config import Settings
from stores.indexing import Progress, no_progress, write_vectors
from stores.world import WorldStores

if TYPE_CHECKING:
    from stores.catalog import Catalog
    from stores.job_lock import JobLock
    from stores.protocols import Embedder

INLINE = 32
"""A re-ingest that leaves at most this many passages without e5 vectors embeds them at once
(about 10 s) instead of going back to the fast index."""
BATCH = 16
"""Passages embedded and committed together by the upgrade (about 3–5 s of work)."""

FOLLOW_POLL_S = 1.0
"""How often a pass waiting for another process's pass of the same world reads its progress."""

Following = Callable[[str], None]
"""Told once whom a pass follows ("pid 1234") when another process computes the vectors."""


def _quiet_following(holder: str) -> None:
    return None


def upgrades(settings: Settings) -> bool:
    """Whether the configured embedder is built in the background after a fast index."""
    return settings.embedder.backend == "e5"


def first_index(stores: WorldStores, may_embed: bool = True) -> Embedder | None:
    """The embedder ingest builds the world's vector index with now: the configured one, or —
    when that is e5 and more than INLINE passages lack e5 vectors, or any do and `may_embed`
    is False (another process's e5 pass runs) — the fast one (None: BM25 alone) until
    `upgrade` has computed them."""
    from stores.embedders import fast_embedder, make_embedder

    target = make_embedder(stores.settings.embedder)
    if not upgrades(stores.settings):
        return target
    missing = len(stores.catalog.missing_embeddings(stores.world, target.name))
    if missing == 0 or (may_embed and missing <= INLINE):
        return target
    return fast_embedder(stores.settings.embedder)


@dataclass(frozen=True)
class VectorStatus:
    """How far a world's e5 vectors are, for `lore worlds`, `lore ingest` and the app."""

    target: str
    """The embedder being upgraded to."""
    done: int
    """Distinct passages with a target vector."""
    total: int
    """Distinct passages of the world."""
    searching_with: str
    """The embedder the world searches with meanwhile ("" for BM25 alone)."""

    @property
    def percent(self) -> int:
        return int(100 * self.done / self.total) if self.total else 100

    def line(self) -> str:
        """`vectors: e5 41% · searching with the fast index (use-m3)`."""
        fast = self.searching_with or "BM25 alone"
        return (f"vectors: {self.target.split('-')[0]} {self.percent}% · searching with the "
                f"fast index ({fast})")


def vector_status(catalog: Catalog, settings: Settings, world: str) -> VectorStatus | None:
    """None when the world searches with the configured embedder (or is not ready yet)."""
    from stores.embedders import make_embedder

    row = catalog.world(world)
    if row is None or row["state"] != "ready" or not upgrades(settings):
        return None
    target = make_embedder(settings.embedder).name  # constructing loads nothing
    if row["embedder"] == target:
        return None
    total, done = catalog.db.execute(
        "SELECT COUNT(DISTINCT c.text_hash), COUNT(DISTINCT e.text_hash) FROM chunks c"
        " LEFT JOIN embeddings e ON e.model = ? AND e.text_hash = c.text_hash"
        " WHERE c.world = ?", [target, world]).fetchone()
    return VectorStatus(target, done, total, row["embedder"] or "")


@dataclass
class UpgradeReport:
    """What an upgrade did."""

    world: str
    target: str = ""
    embedded: int = 0
    """Passages embedded by this run (earlier runs' vectors are kept, not redone)."""
    switched: bool = False
    """The world now searches with the target's vectors (switched by this run)."""
    followed: str = ""
    """Whom this run waited for ("pid 1234") while another process computed the vectors."""
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    """CPU time of this process: on a shared machine, wall time says more about the others."""


def upgrade(settings: Settings, world: str, progress: Progress = no_progress,
            limit: int | None = None, following: Following = _quiet_following) -> UpgradeReport:
    """Compute the world's missing e5 vectors and switch the world to them once complete.

    One pass per world at a time (stores/job_lock.py): while another process computes them,
    this one follows its progress from the catalog (`following` is told whom, once, and
    `progress` sees stage "follow"), then takes over what is left, if anything, so every
    vector is computed once. `limit` stops after about that many passages (tests, and a
    caller that wants to share the machine); a later call carries on. Does nothing for a
    world that is not ready or already searches with the configured embedder.
    """
    from stores.embedders import make_embedder
    from stores.job_lock import e5_lock

    report = UpgradeReport(world=world)
    began, cpu = time.perf_counter(), time.process_time()
    lock = e5_lock(settings.data_dir, world)
    stores = WorldStores(settings, world)
    try:
        stores.require()
        _wait_for(lock, stores, report, progress, following)
        row = stores.require()  # read again: the one followed may have switched it
        target = make_embedder(settings.embedder)
        report.target = target.name
        if row["state"] != "ready" or not upgrades(settings) or row["embedder"] == target.name:
            return report
        report.embedded = _embed(stores, target, progress, limit)
        if stores.catalog.missing_embeddings(world, target.name):
            return report
        _switch(stores, target, progress)
        report.switched = True
        return report
    finally:
        report.seconds = round(time.perf_counter() - began, 3)
        report.cpu_seconds = round(time.process_time() - cpu, 3)
        stores.close()
        lock.release()


def _wait_for(lock: JobLock, stores: WorldStores, report: UpgradeReport, progress: Progress,
              following: Following) -> None:
    """Take the world's e5 lock, following the holder's progress until it lets go."""
    while not lock.acquire():
        if not report.followed:
            report.followed = lock.holder()
            following(report.followed)
        status = vector_status(stores.catalog, stores.settings, stores.world)
        if status is not None:
            progress("follow", status.done, status.total)
        time.sleep(FOLLOW_POLL_S)


def _embed(stores: WorldStores, target: Embedder, progress: Progress, limit: int | None) -> int:
    catalog = stores.catalog
    missing = catalog.missing_embeddings(stores.world, target.name)
    status = vector_status(catalog, stores.settings, stores.world)
    total = status.total if status else len(missing)
    already = total - len(missing)
    embedded = 0
    for start in range(0, len(missing), BATCH):
        if limit is not None and embedded >= limit:
            break
        progress("upgrade", already + embedded, total)
        batch = missing[start:start + BATCH]
        vectors = target.embed([text for _, text in batch])
        catalog.save_embeddings(target.name, [h for h, _ in batch], vectors)
        embedded += len(batch)
    progress("upgrade", already + embedded, total)
    return embedded


def _switch(stores: WorldStores, target: Embedder, progress: Progress) -> None:
    """Write every vector into the target's own index, then point the world's row at it."""
    stores.index_with(target)
    write_vectors(stores, target, _index_progress(progress))
    leftovers = stores.vectors.ids() - {c.id for c in stores.catalog.chunks(stores.world)}
    if leftovers:
        stores.vectors.delete(sorted(leftovers))
    # Release the index before the row points at it: a reader searching with BM25 alone opens
    # it on its next query (WorldStores.has_vectors reads the row), and the embedded store
    # serves one process at a time.
    stores.index_with(target)
    stores.catalog.set_world(stores.world, embedder=target.name, dim=target.dim)


def _index_progress(progress: Progress) -> Progress:
    def report(stage: str, done: int, total: int) -> None:
        progress("switch", done, total)
    return report


def describe(status: VectorStatus | None, row: dict[str, Any]) -> str:
    """One phrase for a world's vectors: the upgrade's progress, or the embedder in use."""
    if status is not None:
        return status.line()
    return f"vectors: {row.get('embedder') or 'none (BM25 alone)'}"
