"""The entity graph on a Neo4j server; many worlds share it, kept apart by a `world` property."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from stores import backends
from stores.errors import ConfigError, StoreError
from stores.graph import cypher
from stores.graph.base import CypherGraphStore
from stores.graph.cypher import Query
from stores.models import Chunk, Relation

if TYPE_CHECKING:
    from stores.config import Settings

BATCH = 5_000
"""Rows per UNWIND statement while rebuilding."""


class Neo4jGraphStore(CypherGraphStore):
    """GraphStore over a Neo4j driver. Every node and edge carries `world`; every query is
    scoped by the `$world` parameter, which `_run` always supplies."""

    dialect = "neo4j"

    def __init__(self, driver: Any, world: str, *, max_depth: int = cypher.HARD_MAX_DEPTH,
                 database: str | None = None, where: str = "neo4j") -> None:
        super().__init__(max_depth)
        self.world = world
        self.where = where
        self._driver = driver
        self._database = database
        self._lock = threading.Lock()

    @classmethod
    def open(cls, settings: Settings, world: str) -> Neo4jGraphStore:
        """`graph.backend = "neo4j"`: the server `graph.neo4j_uri` (or NEO4J_URI) names."""
        graph = settings.graph
        password = os.environ.get(graph.neo4j_password_env) if graph.neo4j_password_env else None
        return cls.connect(graph.neo4j_uri, graph.neo4j_user, password, world,
                           max_depth=graph.max_depth, password_env=graph.neo4j_password_env)

    @classmethod
    def connect(cls, uri: str, user: str, password: str | None, world: str, *,
                max_depth: int = cypher.HARD_MAX_DEPTH,
                password_env: str = "NEO4J_PASSWORD") -> Neo4jGraphStore:
        """Open a driver for `uri` and check the server answers; errors say what to fix."""
        if not uri:
            raise ConfigError("graph.backend is neo4j but no server address is set",
                              where="graph.neo4j_uri",
                              hint='set NEO4J_URI (or graph.neo4j_uri), or use backend = "ladybug"')
        graph_database = backends.load("neo4j", "GraphDatabase")
        from neo4j import exceptions

        try:
            driver = graph_database.driver(uri, auth=(user, password) if password else None)
            driver.verify_connectivity()
        except exceptions.AuthError:
            raise StoreError(f"the Neo4j server refused user {user!r}", where=uri,
                             hint=f"put the password in the {password_env} environment "
                                  "variable (graph.neo4j_password_env names it)") from None
        except (exceptions.Neo4jError, exceptions.DriverError, OSError, ValueError) as exc:
            raise StoreError(f"cannot reach the Neo4j server: {exc}", where=uri,
                             hint="start the server, fix NEO4J_URI, or unset it to use the "
                                  "embedded graph") from None
        return cls(driver, world, max_depth=max_depth, where=uri)

    # -- queries -------------------------------------------------------------------------------
    def _run(self, query: Query) -> list[list[Any]]:
        with self._session() as session:
            result = session.run(query.text, {**query.params, "world": self.world})
            return [list(record.values()) for record in result]

    def _session(self) -> Any:
        if self._driver is None:
            raise StoreError("the graph store is closed", where=self.where,
                             hint="open it again with stores.graph.open_graph()")
        return _Guarded(self._driver.session(database=self._database), self.where)

    # -- writing -------------------------------------------------------------------------------
    def rebuild(self, entities: Sequence[tuple[str, str]], chunks: Sequence[Chunk],
                relations: Sequence[Relation]) -> None:
        """Replace this world's part of the graph in one transaction (UNWIND batches)."""
        rows = cypher.graph_rows(entities, chunks, relations)
        params = {"world": self.world}
        with self._lock, self._session() as session:
            for statement in cypher.NEO4J_SCHEMA:  # schema changes cannot share a transaction
                session.run(statement)
            tx = session.begin_transaction()
            try:
                for statement in cypher.NEO4J_DELETE_WORLD:
                    tx.run(statement, params)
                for kind in ("entities", "chunks", "appears_in", "related"):
                    for batch in _batches(getattr(rows, kind)):
                        tx.run(cypher.NEO4J_CREATE[kind], {**params, "rows": batch})
                tx.commit()
            finally:
                tx.close()  # rolls back unless committed

    def close(self) -> None:
        """Close the driver; closing twice is harmless."""
        if self._driver is not None:
            self._driver.close()
            self._driver = None


def _batches(rows: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    for start in range(0, len(rows), BATCH):
        yield rows[start:start + BATCH]


class _Guarded:
    """A session whose driver errors come out as StoreErrors naming the server."""

    def __init__(self, session: Any, where: str) -> None:
        self.session = session
        self.where = where

    def __enter__(self) -> Any:
        return self.session

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: object) -> None:
        self.session.close()
        if exc is None:
            return
        from neo4j import exceptions

        if isinstance(exc, exceptions.ServiceUnavailable | exceptions.SessionExpired):
            raise StoreError(f"lost the Neo4j server: {exc}", where=self.where,
                             hint="check the server is running, then try again") from exc
        if isinstance(exc, exceptions.Neo4jError | exceptions.DriverError):
            raise StoreError(f"graph query failed: {exc}", where=self.where,
                             hint="check the server's log; rebuild the graph with `lore ingest` "
                                  "if the data is damaged") from exc
