"""Each index of a world checked against the catalog, and rebuilt from it where they disagree.

The catalog is the source of truth (DESIGN.md): an index file truncated, deleted or left behind
by an older run is rebuilt from it, never from the corpus files, so no file is read again. The
check runs at the start of every `lore ingest`, and on request from `lore doctor --repair` and
`lore ingest --rebuild`.

What is compared, per index:
- vectors: the ids of the points against the catalog's indexed passages, and the vector size
  against the world's embedder;
- keywords (BM25): the ids of its documents, in order, against the catalog's passages;
- graph: its counts of entities, passages, RELATED and APPEARS_IN edges against the rows the
  catalog would load into it.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from stores.errors import IndexDamaged, StoreError
from stores.indexing import Progress, no_progress, open_indexes, rebuild_indexes
from stores.upgrade import first_index
from stores.world import WorldStores


@dataclass
class IndexCheck:
    """One index of one world against the catalog."""

    index: str
    """`vectors`, `keywords` or `graph`."""
    ok: bool
    detail: str
    """What was found: the counts compared, or what could not be read."""
    unreadable: bool = False
    """The store could not be opened or read as an index (it is rebuilt from empty)."""


def check_indexes(stores: WorldStores) -> list[IndexCheck]:
    """Compare the world's three indexes with its catalog; nothing is written."""
    return [_check_vectors(stores), _check_keywords(stores), _check_graph(stores)]


def mend_indexes(stores: WorldStores, force: bool = False) -> list[IndexCheck]:
    """Check the indexes and make each one that disagrees (all of them with `force`) ready to
    be rebuilt by the ingest pipeline's index stage: an unreadable store is moved out of the
    way and opened empty, passages missing from the vector index are marked to be indexed
    again (their cached embeddings are reused). Returns the checks that failed (or all, forced);
    the caller must then run the index stage (`stores.indexing.rebuild_indexes`)."""
    checks = check_indexes(stores)
    failed = [c for c in checks if force or not c.ok]
    for check in failed:
        if check.index == "vectors":
            _mend_vectors(stores, force or check.unreadable)
        elif check.index == "graph" and check.unreadable:
            _discard_graph(stores)
        # the keyword index is rebuilt whole by the index stage, whatever state it is in
    return failed


def rebuild_world(stores: WorldStores, force: bool,
                  progress: Progress | None = None) -> list[IndexCheck]:
    """Mend and rebuild the world's indexes from its catalog (no corpus file is read).
    Returns what was found wrong (everything when `force`); nothing is done when all agree."""
    stores.require()
    failed = mend_indexes(stores, force)
    if failed:
        open_indexes(stores)
        stores.catalog.set_world(stores.world, state="ingesting")
        rebuild_indexes(stores, first_index, progress or no_progress)
    return failed


# -- checks ---------------------------------------------------------------------------------
def _indexed_ids(stores: WorldStores) -> set[str]:
    rows = stores.catalog.db.execute(
        "SELECT id FROM chunks WHERE world = ? AND indexed = 1", [stores.world]).fetchall()
    return {row[0] for row in rows}


def _check_vectors(stores: WorldStores) -> IndexCheck:
    try:
        vectors = stores.vectors
        have = vectors.ids()
        dim = getattr(vectors, "dim", lambda: None)()  # the protocol leaves it optional
    except IndexDamaged as exc:
        return IndexCheck("vectors", False, exc.message, unreadable=True)
    want = _indexed_ids(stores)
    row = stores.catalog.world(stores.world) or {}
    if want and row.get("dim") and dim is not None and dim != row["dim"]:
        return IndexCheck("vectors", False, f"{dim}-d vectors, the world's embedder makes "
                          f"{row['dim']}-d ones", unreadable=True)
    missing = len(want - have)
    if missing:
        return IndexCheck("vectors", False, f"{len(have)} vectors, {missing} of the catalog's "
                          f"{len(want)} indexed passages missing")
    return IndexCheck("vectors", True, f"{len(have)} vectors")


def _check_keywords(stores: WorldStores) -> IndexCheck:
    want = [c[0] for c in stores.catalog.db.execute(
        "SELECT id FROM chunks WHERE world = ? ORDER BY event_order, id", [stores.world])]
    try:
        have = stores.keywords.ids()  # type: ignore[attr-defined]
    except IndexDamaged as exc:
        return IndexCheck("keywords", False, exc.message, unreadable=True)
    if sorted(have) != sorted(want):
        return IndexCheck("keywords", False, f"{len(have)} passages in the keyword index, "
                          f"{len(want)} in the catalog")
    return IndexCheck("keywords", True, f"{len(have)} passages")


def _check_graph(stores: WorldStores) -> IndexCheck:
    from stores.graph.cypher import graph_rows

    catalog, world = stores.catalog, stores.world
    try:
        counts = stores.graph.counts()
    except IndexDamaged as exc:
        return IndexCheck("graph", False, exc.message, unreadable=True)
    rows = graph_rows([(e.name, e.type) for e in catalog.entities(world)], catalog.chunks(world),
                      catalog.relations(world))
    want = {"entities": len(rows.entities), "chunks": len(rows.chunks),
            "related": len(rows.related), "appears_in": len(rows.appears_in)}
    differ = [f"{counts.get(k, 0)} {k} (catalog: {n})" for k, n in want.items()
              if counts.get(k, 0) != n]
    if differ:
        return IndexCheck("graph", False, ", ".join(differ))
    return IndexCheck("graph", True, f"{want['entities']} entities, {want['related']} relations")


# -- mending --------------------------------------------------------------------------------
def _mend_vectors(stores: WorldStores, reset: bool) -> None:
    """Mark for indexing the passages whose points are missing; with `reset` (unreadable,
    forced or of the wrong size) start from an empty collection."""
    catalog, world = stores.catalog, stores.world
    if reset:
        try:
            vectors = stores.vectors
            row = catalog.world(world) or {}
            vectors.reset(int(row.get("dim") or stores.embedder.dim))
        except IndexDamaged:
            if (folder := stores.vector_folder) is not None:  # a server's: nothing to move
                _discard(stores, "vectors", folder)
            _ = stores.vectors  # opened afresh; the index stage creates the collection
        catalog.db.execute("UPDATE chunks SET indexed = 0 WHERE world = ?", [world])
        return
    have = stores.vectors.ids()
    missing = [i for i in _indexed_ids(stores) if i not in have]
    with catalog.db.atomic():
        for start in range(0, len(missing), 500):
            batch = missing[start:start + 500]
            catalog.db.execute(f"UPDATE chunks SET indexed = 0 WHERE id IN "
                               f"({', '.join('?' * len(batch))})", batch)


def _discard_graph(stores: WorldStores) -> None:
    if stores.settings.graph.backend != "ladybug":
        return  # a server's graph is rewritten in place by the index stage
    path = stores.folder / "graph.lbug"
    _discard(stores, "graph", path)
    for extra in path.parent.glob(f"{path.name}.*"):  # its write-ahead log, if any
        extra.unlink(missing_ok=True)


def _discard(stores: WorldStores, store: str, path: Path) -> None:
    """Move a damaged store's files aside (`<name>.damaged`, replacing an older one), so it
    opens empty; the catalog rebuilds it."""
    held = stores.__dict__.pop(store, None)
    if held is not None:
        held.close()
    if not path.exists():
        return
    aside = path.with_name(path.name + ".damaged")
    try:
        if aside.is_dir():
            shutil.rmtree(aside)
        elif aside.exists():
            aside.unlink()
        path.rename(aside)
    except OSError as exc:
        raise StoreError(f"cannot move the damaged index aside: {exc.strerror or exc}",
                         where=path, hint="check that the data folder is writable") from None
