"""The embedded graph: a ladybug (Kùzu fork) database file under the world's folder."""

from __future__ import annotations

import contextlib
import os
import re
import threading
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stores import backends
from stores.errors import REPAIR_HINT, IndexDamaged, StoreError, StoreHeld, disk_full
from stores.graph import cypher
from stores.graph.base import CypherGraphStore
from stores.graph.cypher import GraphRows, Query
from stores.models import Chunk, Relation
from stores.readonly import cannot_write, read_only_error

if TYPE_CHECKING:
    from stores.config import Settings

SCHEMA = (
    "CREATE NODE TABLE IF NOT EXISTS Entity(name STRING, type STRING, PRIMARY KEY(name))",
    "CREATE NODE TABLE IF NOT EXISTS Chunk(id STRING, chapter INT64, event_order INT64,"
    " PRIMARY KEY(id))",
    "CREATE REL TABLE IF NOT EXISTS RELATED(FROM Entity TO Entity, type STRING, weight DOUBLE,"
    " first_chapter INT64, chapters INT64[], evidence STRING[], evidence_chapters INT64[],"
    " declared BOOLEAN)",
    "CREATE REL TABLE IF NOT EXISTS APPEARS_IN(FROM Entity TO Chunk)",
)
# Relationship tables first: a node table cannot be dropped while edges refer to it.
TABLES = ("RELATED", "APPEARS_IN", "Entity", "Chunk")

# ladybug's file lock is per process, so a second Database on the same file in this process
# would succeed and both would write to it; this registry refuses that instead. It holds
# weak references: a store dropped without close() frees its path along with its database.
_OPEN_STORES: dict[Path, weakref.ref[LadybugGraphStore]] = {}
_OPEN_LOCK = threading.Lock()

# A search touches a few hundred edges: one thread answers as fast as two (bench/graph.py)
# and leaves the other core to the app; rebuild lends COPY every core.
QUERY_THREADS = 1


class LadybugGraphStore(CypherGraphStore):
    """GraphStore over one embedded ladybug database file (one world per file)."""

    dialect = "ladybug"

    @classmethod
    def open(cls, settings: Settings, world: str) -> LadybugGraphStore:
        """`graph.backend = "ladybug"`: the world's database file under its folder."""
        from stores.graph import graph_path

        graph = settings.graph
        return cls(graph_path(settings, world), buffer_pool_mb=graph.buffer_pool_mb,
                   max_depth=graph.max_depth)

    def __init__(self, path: Path, buffer_pool_mb: int = 256,
                 max_depth: int = cypher.HARD_MAX_DEPTH) -> None:
        super().__init__(max_depth)
        self.path = Path(path).resolve()
        self._lock = threading.Lock()  # one connection, used from the TUI's worker threads
        self._db: Any = None
        self._conn: Any = None
        with _OPEN_LOCK:
            holder = _OPEN_STORES.get(self.path)
            if holder is not None and holder() is not None:
                raise StoreError("the graph database is already open in this process",
                                 where=self.path,
                                 hint="close the open graph store (store.close()) or reuse it")
            self._open(buffer_pool_mb)
            _OPEN_STORES[self.path] = weakref.ref(self)

    def _open(self, buffer_pool_mb: int) -> None:
        database = backends.load("ladybug", "Database")
        connection = backends.load("ladybug", "Connection")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = database(str(self.path), buffer_pool_size=buffer_pool_mb << 20)
            self._conn = connection(self._db)
            self._conn.set_max_threads_for_exec(QUERY_THREADS)
            for statement in SCHEMA:
                self._conn.execute(statement)
        except (RuntimeError, OSError) as exc:
            if self._db is not None:
                self._db.close()
            self._db = self._conn = None
            raise _open_error(self.path, exc) from None

    # -- queries -------------------------------------------------------------------------------
    def _run(self, query: Query) -> list[list[Any]]:
        with self._lock:
            conn = self._connection()
            try:
                result = conn.execute(query.text, query.params)
                rows = []
                while result.has_next():
                    rows.append(result.get_next())
                return rows
            except RuntimeError as exc:
                raise StoreError(f"graph query failed: {exc}", where=self.path,
                                 hint=f"if this persists, {REPAIR_HINT}"
                                 ) from None

    def _connection(self) -> Any:
        if self._conn is None:
            raise StoreError("the graph store is closed", where=self.path,
                             hint="open it again with stores.graph.open_graph()")
        return self._conn

    # -- writing -------------------------------------------------------------------------------
    def rebuild(self, entities: Sequence[tuple[str, str]], chunks: Sequence[Chunk],
                relations: Sequence[Relation]) -> None:
        """Replace the graph in one transaction: drop the tables, recreate, bulk COPY.

        COPY from Arrow tables is the fastest load ladybug offers (see bench/graph.py);
        a failure rolls back to the previous graph.
        """
        tables = _arrow_tables(cypher.graph_rows(entities, chunks, relations))
        with self._lock:
            conn = self._connection()
            conn.set_max_threads_for_exec(os.cpu_count() or 1)
            conn.execute("BEGIN TRANSACTION")
            try:
                for table in TABLES:
                    conn.execute(f"DROP TABLE IF EXISTS {table}")
                for statement in SCHEMA:
                    conn.execute(statement)
                for table, frame in tables.items():
                    if frame.num_rows:
                        conn.execute(f"COPY {table} FROM $frame", {"frame": frame})
                conn.execute("COMMIT")
            except RuntimeError as exc:
                with contextlib.suppress(RuntimeError):  # a failed statement rolls back by itself
                    conn.execute("ROLLBACK")
                raise StoreError(f"cannot rebuild the graph: {exc}", where=self.path,
                                 hint="the previous graph is kept; check free disk space and "
                                      "run the ingest again") from None
            finally:
                conn.set_max_threads_for_exec(QUERY_THREADS)

    def close(self) -> None:
        """Close the database and release its file lock; closing twice is harmless."""
        with self._lock:
            if self._db is not None:
                self._conn = None
                self._db.close()
                self._db = None
                with _OPEN_LOCK:
                    _OPEN_STORES.pop(self.path, None)

    def __enter__(self) -> LadybugGraphStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _arrow_tables(rows: GraphRows) -> dict[str, Any]:
    """Typed Arrow tables for COPY; the column order is the table's (FROM, TO, properties)."""
    import pyarrow as pa

    def column(items: list[dict[str, Any]], key: str, kind: Any) -> Any:
        return pa.array([item[key] for item in items], kind)

    text, number, ints = pa.string(), pa.int64(), pa.list_(pa.int64())
    related = rows.related
    return {
        "Entity": pa.table({"name": column(rows.entities, "name", text),
                            "type": column(rows.entities, "type", text)}),
        "Chunk": pa.table({"id": column(rows.chunks, "id", text),
                           "chapter": column(rows.chunks, "chapter", number),
                           "event_order": column(rows.chunks, "event_order", number)}),
        "APPEARS_IN": pa.table({"from": column(rows.appears_in, "source", text),
                                "to": column(rows.appears_in, "target", text)}),
        "RELATED": pa.table({
            "from": column(related, "source", text), "to": column(related, "target", text),
            "type": column(related, "type", text), "weight": column(related, "weight", pa.float64()),
            "first_chapter": column(related, "first_chapter", number),
            "chapters": column(related, "chapters", ints),
            "evidence": column(related, "evidence", pa.list_(text)),
            "evidence_chapters": column(related, "evidence_chapters", ints),
            "declared": column(related, "declared", pa.bool_())}),
    }


def _open_error(path: Path, exc: Exception) -> StoreError:
    message = str(exc)
    if "Could not set lock" in message:
        pid = re.search(r"held by PID (\d+)", message)
        holder = f"process {pid.group(1)}" if pid else "another process"
        return StoreHeld(f"the graph database is locked by {holder}", where=path,
                          hint="close the other Lorekeeper (TUI or `lore` command) using this "
                               "world, then try again")
    if (full := disk_full(exc, path.parent)) is not None:
        return full
    if cannot_write(path.parent):
        return read_only_error(path, "graph database")
    if isinstance(exc, RuntimeError) and path.is_file():
        return IndexDamaged(f"cannot open the graph database: {message}", where=path,
                            hint=REPAIR_HINT)
    return StoreError(f"cannot open the graph database: {message}", where=path,
                      hint="check that the folder is writable")
