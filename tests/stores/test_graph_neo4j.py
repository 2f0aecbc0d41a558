"""The Neo4j graph store: the conformance suite against a real server when NEO4J_URI is set,
and always, the Cypher it sends, read off a recording stand-in for the driver."""

from __future__ import annotations

import os
import re
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from stores.config import Settings
from stores.errors import ConfigError, StoreError
from stores.graph import GraphQueryError, open_graph
from stores.graph.neo4j_store import BATCH, Neo4jGraphStore
from tests.stores.graph_conformance import (
    CHUNKS,
    ENTITIES,
    RELATIONS,
    GraphStoreConformance,
    chunk,
    keys,
    rel,
)

# conftest drops NEO4J_URI from each test's environment; read it before that happens.
NEO4J_URI = os.environ.get("NEO4J_URI", "")


@pytest.mark.skipif(not NEO4J_URI, reason="set NEO4J_URI (and NEO4J_PASSWORD) to run the "
                                          "graph conformance suite against a Neo4j server")
class TestNeo4jConformance(GraphStoreConformance):
    @pytest.fixture
    def store(self) -> Iterator[Neo4jGraphStore]:
        store = Neo4jGraphStore.connect(
            NEO4J_URI, os.environ.get("NEO4J_USER", "neo4j"), os.environ.get("NEO4J_PASSWORD"),
            world=f"test-{uuid.uuid4().hex}")
        yield store
        store.rebuild([], [], [])  # deletes this test's world
        store.close()


# -- a recording driver -------------------------------------------------------------------------
Responder = Callable[[str, dict[str, Any]], list[list[Any]]]


class Record:
    def __init__(self, values: list[Any]) -> None:
        self._values = values

    def values(self) -> list[Any]:
        return list(self._values)


class Transaction:
    def __init__(self, driver: RecordingDriver) -> None:
        self.driver = driver
        self.committed = False
        self.closed = False

    def run(self, query: str, parameters: dict[str, Any] | None = None) -> list[Record]:
        return self.driver.record("tx", query, parameters)

    def commit(self) -> None:
        self.committed = True

    def close(self) -> None:
        self.closed = True


class Session:
    def __init__(self, driver: RecordingDriver) -> None:
        self.driver = driver

    def run(self, query: str, parameters: dict[str, Any] | None = None) -> list[Record]:
        return self.driver.record("auto", query, parameters)

    def begin_transaction(self) -> Transaction:
        tx = Transaction(self.driver)
        self.driver.transactions.append(tx)
        return tx

    def close(self) -> None:
        self.driver.sessions_closed += 1


class RecordingDriver:
    """Records (kind, query, parameters); answers with `respond(query, parameters)`."""

    def __init__(self, respond: Responder | None = None) -> None:
        self.respond = respond or (lambda query, params: [])
        self.calls: list[tuple[str, str, dict[str, Any]]] = []
        self.transactions: list[Transaction] = []
        self.sessions_closed = 0
        self.closed = False

    def record(self, kind: str, query: str, parameters: dict[str, Any] | None) -> list[Record]:
        params = dict(parameters or {})
        self.calls.append((kind, query, params))
        return [Record(row) for row in self.respond(query, params)]

    def session(self, **_config: Any) -> Session:
        return Session(self)

    def close(self) -> None:
        self.closed = True


def make_store(respond: Responder | None = None, max_depth: int = 3,
               world: str = "三国") -> tuple[Neo4jGraphStore, RecordingDriver]:
    driver = RecordingDriver(respond)
    return Neo4jGraphStore(driver, world, max_depth=max_depth, where="bolt://test"), driver


def chain(query: str, params: dict[str, Any]) -> list[list[Any]]:
    """Every frontier entity has one new neighbour, so a search goes as deep as it may."""
    if query.startswith("UNWIND $frontier"):
        return [[f["name"], f["name"] + "+", "kin", 5.0, 5.0] for f in params["frontier"]]
    if "IN $nears" in query:
        return [[w.split("\x1f")[0], w.split("\x1f")[1], True, "kin", [1], ["k"], [1], False]
                for w in params["wanted"]]
    return []


# -- the Cypher it sends ----------------------------------------------------------------------
def test_every_query_is_scoped_to_the_world() -> None:
    def respond(query: str, params: dict[str, Any]) -> list[list[Any]]:
        return [[0]] if "count(" in query else chain(query, params)

    store, driver = make_store(respond)
    store.neighbours("刘备", depth=2, chapter_max=3)
    store.relations_between("刘备", "关羽")
    store.appearances("刘备")
    store.counts()
    assert len(driver.calls) >= 9
    for _, query, params in driver.calls:
        assert params["world"] == "三国"
        assert re.search(r"\((\w+):(Entity|Chunk) \{world: \$world", query), query


def test_entity_names_travel_only_as_parameters() -> None:
    odd = "刘备'}) DETACH DELETE x //"
    store, driver = make_store(chain)
    store.neighbours(odd, depth=3)
    store.relations_between(odd, "关羽")
    store.appearances(odd)
    store.rebuild([(odd, "person")], [chunk("c1", 1, 0, odd)], [rel(odd, "关羽", "ally", 1, [1])])
    carried = 0
    for _, query, params in driver.calls:
        assert "刘备" not in query and "DETACH DELETE x" not in query
        carried += odd in repr(params)
    assert carried >= 8  # 3 levels, details, direct edges, path, appearances, rebuild rows
    assert driver.calls[0][2]["frontier"] == [{"name": odd, "strength": 1e300}]


def test_relation_type_is_checked_then_sent_as_a_parameter() -> None:
    store, driver = make_store(chain)
    store.neighbours("刘备", relation="sworn_sibling", depth=2)
    levels = [(q, p) for _, q, p in driver.calls if q.startswith("UNWIND $frontier")]
    assert len(levels) == 2
    for query, params in levels:
        assert "r.type = $relation" in query and "sworn_sibling" not in query
        assert params["relation"] == "sworn_sibling"


@pytest.mark.parametrize("relation", ["friend", "kin' OR true //", "KIN"])
def test_unknown_relation_type_sends_nothing(relation: str) -> None:
    store, driver = make_store(chain)
    with pytest.raises(GraphQueryError) as caught:
        store.neighbours("刘备", relation=relation)
    assert "sworn_sibling" in caught.value.hint and "co_occurs" in caught.value.hint
    assert driver.calls == []


def test_rebuild_refuses_an_unknown_relation_type() -> None:
    store, driver = make_store()
    with pytest.raises(GraphQueryError, match="friend"):
        store.rebuild(ENTITIES, CHUNKS, [rel("刘备", "关羽", "friend", 1.0, [1])])
    assert driver.calls == []


@pytest.mark.parametrize(("max_depth", "depth"), [(3, 4), (3, 0), (2, 3), (1, 2)])
def test_depth_beyond_the_bound_sends_nothing(max_depth: int, depth: int) -> None:
    store, driver = make_store(chain, max_depth=max_depth)
    with pytest.raises(GraphQueryError, match="depth"):
        store.neighbours("刘备", depth=depth)
    assert driver.calls == []


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_search_stops_at_the_depth_asked(depth: int) -> None:
    store, driver = make_store(chain)
    found = store.neighbours("刘备", depth=depth, limit=10)
    levels = [q for _, q, _ in driver.calls if q.startswith("UNWIND $frontier")]
    assert len(levels) == depth
    assert keys(found) == [("刘备" + "+" * i, "刘备" + "+" * (i + 1), "kin") for i in range(depth)]


@pytest.mark.parametrize("max_depth", [1, 2, 3])
def test_shortest_path_bound_is_the_validated_setting(max_depth: int) -> None:
    store, driver = make_store(max_depth=max_depth)
    assert store.relations_between("刘备", "孙权") == []
    paths = [q for _, q, _ in driver.calls if "shortestPath" in q]
    assert len(paths) == 1 and f"[:RELATED*1..{max_depth}]" in paths[0]
    assert "$a" in paths[0] and "$b" in paths[0] and "孙权" not in paths[0]


def test_limit_is_spliced_only_as_a_validated_int() -> None:
    store, driver = make_store(chain)
    store.neighbours("刘备", limit=7)
    assert driver.calls[0][1].endswith("LIMIT 7")  # one entity: each edge comes once
    with pytest.raises(GraphQueryError):
        store.neighbours("刘备", limit="7; MATCH (n) DETACH DELETE n")  # type: ignore[arg-type]


def test_relations_come_back_in_their_stored_direction() -> None:
    def respond(query: str, params: dict[str, Any]) -> list[list[Any]]:
        if query.startswith("UNWIND $frontier"):
            return [["刘备", "诸葛亮", "serves", 6.0, 6.0]]
        if "IN $nears" in query:  # startNode(r) = x is false: 诸葛亮 serves 刘备
            return [["刘备", "诸葛亮", False, "serves", [3], ["g:7"], [0], True]]
        return []

    store, _ = make_store(respond)
    [serves] = store.neighbours("刘备")
    assert (serves.source, serves.target, serves.type, serves.declared) == ("诸葛亮", "刘备",
                                                                           "serves", True)


def test_rebuild_is_one_transaction_of_world_scoped_batches() -> None:
    store, driver = make_store()
    many = ENTITIES + [(f"人物{i}", "person") for i in range(2 * BATCH + 10)]
    store.rebuild(many, CHUNKS, RELATIONS)
    schema = [q for kind, q, _ in driver.calls if kind == "auto"]
    assert all(q.startswith("CREATE CONSTRAINT") and "(e.world, e.name)" in q or
               "(c.world, c.id)" in q for q in schema) and len(schema) == 2
    [tx] = driver.transactions
    assert tx.committed and tx.closed
    writes = [(q, p) for kind, q, p in driver.calls if kind == "tx"]
    assert [q for q, _ in writes[:2]] == ["MATCH (e:Entity {world: $world}) DETACH DELETE e",
                                          "MATCH (c:Chunk {world: $world}) DETACH DELETE c"]
    assert all(p["world"] == "三国" for _, p in writes)
    batches = [p["rows"] for q, p in writes if q.startswith("UNWIND $rows")]
    assert max(len(b) for b in batches) == BATCH
    created = sum(len(b) for b in batches)
    assert created == len(many) + len(CHUNKS) + sum(len(c.entities) for c in CHUNKS) \
        + len(RELATIONS) - 1  # less the self-loop


def test_a_failed_rebuild_is_rolled_back_and_reported() -> None:
    from neo4j.exceptions import DatabaseError

    def respond(query: str, params: dict[str, Any]) -> list[list[Any]]:
        if ":RELATED {world" in query:
            raise DatabaseError("disk full")
        return []

    store, driver = make_store(respond)
    with pytest.raises(StoreError, match="disk full") as caught:
        store.rebuild(ENTITIES, CHUNKS, RELATIONS)
    assert caught.value.where == "bolt://test"
    [tx] = driver.transactions
    assert tx.closed and not tx.committed


def test_a_closed_store_says_so() -> None:
    store, driver = make_store()
    store.close()
    store.close()
    assert driver.closed
    with pytest.raises(StoreError, match="closed"):
        store.counts()


# -- connecting -----------------------------------------------------------------------------
def test_connect_needs_an_address() -> None:
    with pytest.raises(ConfigError) as caught:
        Neo4jGraphStore.connect("", "neo4j", None, "w")
    assert caught.value.where == "graph.neo4j_uri" and "NEO4J_URI" in caught.value.hint


def test_open_graph_reports_an_unreachable_server(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings()
    settings.graph.backend = "neo4j"
    settings.graph.neo4j_uri = "bolt://127.0.0.1:9"  # the discard port: nothing listens
    settings.graph.neo4j_password_env = "LORE_TEST_NEO4J_PASSWORD"
    monkeypatch.setenv("LORE_TEST_NEO4J_PASSWORD", "secret")
    with pytest.raises(StoreError) as caught:
        open_graph(settings, "三国")
    assert caught.value.where == "bolt://127.0.0.1:9"
    assert "cannot reach the Neo4j server" in caught.value.message
    assert "secret" not in str(caught.value)
