"""Cypher text and parameters for the entity graph, shared by the ladybug and Neo4j backends.

Every query is a constant template: user input travels only as parameters. A relation type
is checked against RELATION_TYPES before anything is sent (and then passed as a parameter
all the same); the only values spliced into the text are validated ints — the bound of a
variable-length pattern, which cannot be a parameter, and LIMIT, which ladybug plans far
more slowly as a parameter. Where the dialects differ (world scoping, list
filtering, edge direction, shortest paths) the builders take a `Dialect`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from stores.errors import LoreError
from stores.models import BOND_TYPES, RELATION_TYPES, Chunk, Relation

Dialect = Literal["ladybug", "neo4j"]

HARD_MAX_DEPTH = 3
"""No setting may raise the depth of a graph search above this."""
MAX_LIMIT = 1000
STRONGEST = 1e300
"""The strength of the searched entity itself: stronger than any edge."""
_SEP = "\x1f"  # the ASCII unit separator: never part of a name


class GraphQueryError(LoreError):
    """A graph search the store refuses: unknown relation type, depth or limit out of range."""


def validate_relation(relation: str | None, where: str = "graph search") -> str | None:
    """The relation type if it is on the allowlist (None means any type); else GraphQueryError."""
    if relation is None:
        return None
    if not isinstance(relation, str) or relation not in RELATION_TYPES:
        raise GraphQueryError(
            f"unknown relation type {relation!r}", where=where,
            hint="use one of: " + ", ".join(sorted(RELATION_TYPES)))
    return relation


def validate_depth(depth: int, max_depth: int = HARD_MAX_DEPTH) -> int:
    """`depth` as a plain int in 1..min(max_depth, 3); else GraphQueryError naming the setting."""
    bound = min(int(max_depth), HARD_MAX_DEPTH)
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= bound:
        raise GraphQueryError(
            f"graph depth {depth!r} is out of range 1..{bound}", where="graph.max_depth",
            hint=f"ask for a depth between 1 and {bound} (graph.max_depth caps it, at most 3)")
    return depth


def validate_limit(limit: int) -> int:
    """`limit` as a plain int in 1..MAX_LIMIT; else GraphQueryError."""
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise GraphQueryError(f"graph result limit {limit!r} is out of range 1..{MAX_LIMIT}",
                              where="graph search", hint=f"ask for 1 to {MAX_LIMIT} relations")
    return limit


def validate_chapter_max(chapter_max: int | None) -> int | None:
    """The spoiler horizon as a plain int >= 0 (None: no horizon); else GraphQueryError."""
    if chapter_max is None:
        return None
    if isinstance(chapter_max, bool) or not isinstance(chapter_max, int) or chapter_max < 0:
        raise GraphQueryError(f"bad chapter horizon {chapter_max!r}", where="graph search",
                              hint="give the last chapter the reader has reached (0 or more)")
    return chapter_max


def var_length(depth: int) -> str:
    """`*1..N` for a variable-length pattern, N a validated depth (never a parameter)."""
    return f"*1..{validate_depth(depth)}"


# -- dialect fragments -----------------------------------------------------------------------
def _entity(var: str, name: str, dialect: Dialect) -> str:
    """A node pattern for one entity; Neo4j holds many worlds, so it is scoped by `$world`."""
    scope = "world: $world, " if dialect == "neo4j" else ""
    return f"({var}:Entity {{{scope}name: {name}}})"


def _any_entity(var: str, dialect: Dialect) -> str:
    return f"({var}:Entity {{world: $world}})" if dialect == "neo4j" else f"({var}:Entity)"


def _visible_count(items: str, dialect: Dialect) -> str:
    """How many chapter numbers in `items` lie within the horizon `m`."""
    if dialect == "neo4j":
        return f"size([c IN {items} WHERE c <= m])"
    return f"size(list_filter({items}, c -> c <= m))"


def _visible_weight(dialect: Dialect) -> str:
    """The weight scaled to the share of its evidence within the horizon `m` (an edge with
    no evidence keeps its weight: whether it is visible at all is `first_chapter`'s job)."""
    ev = "r.evidence_chapters"
    return (f"CASE WHEN size({ev}) > 0 THEN r.weight * {_visible_count(ev, dialect)} / size({ev})"
            " ELSE r.weight END")


# -- queries ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Query:
    """Cypher text and the parameters it takes."""

    text: str
    params: dict[str, Any]


def _edge_filter(relation: str | None, chapter_max: int | None) -> tuple[str, dict[str, Any]]:
    clauses: list[str] = []
    params: dict[str, Any] = {}
    if relation is not None:
        clauses.append("r.type = $relation")
        params["relation"] = validate_relation(relation)
    if chapter_max is not None:
        clauses.append("r.first_chapter <= m")
        params["chapter_max"] = int(chapter_max)
    return "".join(f" AND {c}" for c in clauses), params


def neighbour_level(dialect: Dialect, frontier: Mapping[str, float],
                    expanded: Mapping[str, float], theta: float, fetch: int,
                    relation: str | None = None, chapter_max: int | None = None) -> Query:
    """One level of the ranked search: the edges of the frontier entities, strongest first.

    `frontier` maps each entity to expand to the strength of the strongest path reaching it;
    an edge scores min(its visible weight, that strength): a path is as strong as its weakest
    edge. Left out: edges scoring <= `theta` (the weakest of the results so far, once there
    are enough), and edges to an entity already expanded at least as strongly (`expanded`),
    which were scored from that side. Rows are light — near, far, kind, weight, score —
    because sorting rows that carry evidence lists costs ladybug ten times more;
    `edge_details` fetches those, and the stored direction, for the few edges kept.
    """
    if dialect == "neo4j":  # UNWIND + MATCH by key is an index seek in Neo4j, a scan in ladybug
        head = (f"UNWIND $frontier AS f MATCH {_entity('x', 'f.name', dialect)}-[r:RELATED]-"
                "(y:Entity) WHERE ")
        strength, known = "f.strength", "coalesce($expanded[y.name], -1.0)"
        params: dict[str, Any] = {
            "frontier": [{"name": n, "strength": float(s)} for n, s in frontier.items()],
            "expanded": {n: float(s) for n, s in expanded.items()}}
    else:
        head = "MATCH (x:Entity)-[r:RELATED]-(y:Entity) WHERE x.name IN $names AND "
        # list_position is 0 when absent, so the strengths carry a -1 in front; the NUL name
        # keeps the list typed (ladybug cannot type an empty list parameter).
        strength = "$strengths[list_position($names, x.name)]"
        known = "$expanded_strengths[list_position($expanded, y.name) + 1]"
        params = {"names": list(frontier), "strengths": [float(s) for s in frontier.values()],
                  "expanded": ["\x00", *expanded],
                  "expanded_strengths": [-1.0, -1.0, *map(float, expanded.values())]}
    where, filter_params = _edge_filter(relation, chapter_max)
    params.update(filter_params, theta=float(theta))
    horizon = chapter_max is not None
    # Only the cheap weight test sits in MATCH: with more conditions there, ladybug picks a
    # plan that reads every candidate's lists and runs ten times slower.
    text = (
        f"{head}r.weight > $theta "
        f"WITH x, y, r, {strength} AS s{', $chapter_max AS m' if horizon else ''} "
        f"WHERE {known} < s{where} "
        f"WITH x, y, r, s, {_visible_weight(dialect) if horizon else 'r.weight'} AS w "
        "WITH x, y, r, w, CASE WHEN w < s THEN w ELSE s END AS score "
        "WHERE score > $theta "
        "RETURN x.name AS near, y.name AS far, r.type AS kind, w AS weight, score "
        # A literal LIMIT: ladybug plans `LIMIT $n` far slower; `fetch` is a validated int.
        f"ORDER BY score DESC, weight DESC, near, far, kind LIMIT {_row_count(fetch)}")
    return Query(text, params)


def edge_details(dialect: Dialect, edges: Sequence[tuple[str, str, str]],
                 floor: float = -1.0) -> Query:
    """Direction, chapters, evidence and the declared flag of edges found from one end, given
    as (near, far, type): rows of (near, far, outgoing, type, chapters, evidence,
    evidence_chapters, declared).

    `floor` (no more than the smallest stored weight wanted) lets the scan skip the weak
    edges of busy entities: ladybug reads a row's lists before any later filter, so the
    MATCH itself must be narrow.
    """
    # ladybug's start_node() answers the bound node on an undirected pattern; the stored
    # source is in the relationship's _SRC.
    outgoing = ("startNode(r) = x" if dialect == "neo4j"
                else "struct_extract(r, '_SRC') = id(x)")
    text = (f"MATCH {_any_entity('x', dialect)}-[r:RELATED]-(y:Entity) "
            "WHERE x.name IN $nears AND r.weight >= $floor "
            "WITH x, y, r WHERE (x.name + $sep + y.name + $sep + r.type) IN $wanted "
            f"RETURN x.name, y.name, {outgoing}, r.type, r.chapters, r.evidence, "
            "r.evidence_chapters, r.declared")
    return Query(text, {"nears": sorted({near for near, _, _ in edges}), "floor": float(floor),
                        "sep": _SEP, "wanted": sorted({_SEP.join(e) for e in edges})})


def _row_count(n: int) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 2 * MAX_LIMIT:
        raise GraphQueryError(f"bad row count {n!r}", where="graph search",
                              hint=f"ask for 1 to {MAX_LIMIT} relations")
    return n


def edges_among(dialect: Dialect, names: Sequence[str]) -> Query:
    """Every edge between two of `names` (each edge once, as stored), strongest first."""
    text = (f"MATCH {_any_entity('x', dialect)}-[r:RELATED]->{_any_entity('y', dialect)} "
            "WHERE x.name IN $names AND y.name IN $names "
            "RETURN x.name, y.name, r.type, r.weight, r.chapters, r.evidence, "
            "r.evidence_chapters, r.declared ORDER BY r.weight DESC, r.type")
    return Query(text, {"names": list(names)})


def shortest_path(dialect: Dialect, a: str, b: str, depth: int) -> Query:
    """The entity names along one shortest RELATED path from a to b of at most `depth` hops."""
    hops = var_length(depth)
    if dialect == "neo4j":
        text = (f"MATCH p = shortestPath({_entity('x', '$a', dialect)}-[:RELATED{hops}]-"
                f"{_entity('y', '$b', dialect)}) RETURN [n IN nodes(p) | n.name] AS names")
    else:
        text = (f"MATCH p = {_entity('x', '$a', dialect)}-[:RELATED* SHORTEST {hops[1:]}]-"
                f"{_entity('y', '$b', dialect)} RETURN properties(nodes(p), 'name') AS names")
    return Query(text, {"a": a, "b": b})


def bond_middles(dialect: Dialect, a: str, b: str, limit: int = 3) -> Query:
    """The entities one bond (BOND_TYPES: kin, marriage, oath, service) away from both a and
    b: A —wife— M —father— B. Rows of (middle, score), the path's weakest edge as its score,
    strongest first."""
    text = (f"MATCH {_entity('x', '$a', dialect)}-[r:RELATED]-{_any_entity('m', dialect)}"
            f"-[s:RELATED]-{_entity('y', '$b', dialect)} "
            "WHERE r.type IN $bonds AND s.type IN $bonds AND m.name <> $a AND m.name <> $b "
            "WITH m.name AS middle, CASE WHEN r.weight < s.weight THEN r.weight ELSE s.weight END"
            " AS score RETURN middle, max(score) AS best "
            f"ORDER BY best DESC, middle LIMIT {_row_count(limit)}")
    return Query(text, {"a": a, "b": b, "bonds": sorted(BOND_TYPES)})


def appearances(dialect: Dialect, entity: str) -> Query:
    """Chunk ids the entity appears in, in story order."""
    chunk = "(c:Chunk {world: $world})" if dialect == "neo4j" else "(c:Chunk)"
    return Query(f"MATCH {_entity('e', '$name', dialect)}-[:APPEARS_IN]->{chunk} "
                 "RETURN c.id ORDER BY c.event_order, c.id", {"name": entity})


def counts(dialect: Dialect) -> dict[str, Query]:
    """One counting query per figure that `GraphStore.counts` reports."""
    chunk = "(c:Chunk {world: $world})" if dialect == "neo4j" else "(c:Chunk)"
    a, b = _any_entity("a", dialect), _any_entity("b", dialect)
    return {"entities": Query(f"MATCH {_any_entity('e', dialect)} RETURN count(e)", {}),
            "chunks": Query(f"MATCH {chunk} RETURN count(c)", {}),
            "related": Query(f"MATCH {a}-[r:RELATED]->{b} RETURN count(r)", {}),
            "appears_in": Query(f"MATCH {a}-[r:APPEARS_IN]->{chunk} RETURN count(r)", {})}


# -- Neo4j writes -----------------------------------------------------------------------------
NEO4J_SCHEMA = (
    "CREATE CONSTRAINT lore_entity_key IF NOT EXISTS FOR (e:Entity)"
    " REQUIRE (e.world, e.name) IS UNIQUE",
    "CREATE CONSTRAINT lore_chunk_key IF NOT EXISTS FOR (c:Chunk)"
    " REQUIRE (c.world, c.id) IS UNIQUE",
)
"""Composite keys: they keep worlds apart and give every lookup by name an index seek."""

NEO4J_DELETE_WORLD = (
    "MATCH (e:Entity {world: $world}) DETACH DELETE e",
    "MATCH (c:Chunk {world: $world}) DETACH DELETE c",
)

NEO4J_CREATE = {
    "entities": "UNWIND $rows AS row "
                "CREATE (:Entity {world: $world, name: row.name, type: row.type})",
    "chunks": "UNWIND $rows AS row CREATE (:Chunk {world: $world, id: row.id, "
              "chapter: row.chapter, event_order: row.event_order})",
    "appears_in": "UNWIND $rows AS row MATCH (e:Entity {world: $world, name: row.source}) "
                  "MATCH (c:Chunk {world: $world, id: row.target}) "
                  "CREATE (e)-[:APPEARS_IN {world: $world}]->(c)",
    "related": "UNWIND $rows AS row MATCH (a:Entity {world: $world, name: row.source}) "
               "MATCH (b:Entity {world: $world, name: row.target}) "
               "CREATE (a)-[:RELATED {world: $world, type: row.type, weight: row.weight, "
               "first_chapter: row.first_chapter, chapters: row.chapters, "
               "evidence: row.evidence, evidence_chapters: row.evidence_chapters, "
               "declared: row.declared}]->(b)",
}
"""One UNWIND statement per kind of row; `rows` is a batch of `GraphRows` dicts."""


# -- rows for bulk loading -------------------------------------------------------------------
@dataclass(slots=True)
class GraphRows:
    """The graph as plain rows, ready for COPY (ladybug) or UNWIND batches (Neo4j)."""

    entities: list[dict[str, Any]]
    chunks: list[dict[str, Any]]
    appears_in: list[dict[str, Any]]
    related: list[dict[str, Any]]


def graph_rows(entities: Iterable[tuple[str, str]], chunks: Iterable[Chunk],
               relations: Iterable[Relation]) -> GraphRows:
    """Deduplicated rows; names only seen in chunks or relations become type `other` entities.

    Each evidence id gets its chunk's chapter (0 when it is not a chunk, e.g. a glossary line,
    which the spoiler horizon never hides). Self-loops are dropped; a relation type off the
    allowlist is a GraphQueryError (whoever made the relation should have refused it).
    """
    types: dict[str, str] = {}
    for name, kind in entities:
        types.setdefault(name, kind or "other")
    chunk_rows: dict[str, dict[str, Any]] = {}
    appears: dict[tuple[str, str], None] = {}
    for chunk in chunks:
        chunk_rows.setdefault(chunk.id, {"id": chunk.id, "chapter": int(chunk.chapter),
                                         "event_order": int(chunk.event_order)})
        for name in chunk.entities:
            types.setdefault(name, "other")
            appears[(name, chunk.id)] = None
    related = []
    for rel in relations:
        validate_relation(rel.type, where=f"relation {rel.source} → {rel.target}")
        if rel.source == rel.target:
            continue
        types.setdefault(rel.source, "other")
        types.setdefault(rel.target, "other")
        related.append(_related_row(rel, chunk_rows))
    return GraphRows(
        entities=[{"name": n, "type": t} for n, t in types.items()],
        chunks=list(chunk_rows.values()),
        appears_in=[{"source": n, "target": c} for n, c in appears],
        related=related)


def _related_row(rel: Relation, chunk_rows: dict[str, dict[str, Any]]) -> dict[str, Any]:
    evidence_chapters = [chunk_rows[e]["chapter"] if e in chunk_rows else 0 for e in rel.evidence]
    chapters = sorted({int(c) for c in rel.chapters})
    first = chapters[0] if chapters else min(evidence_chapters, default=0)
    return {"source": rel.source, "target": rel.target, "type": rel.type,
            "weight": float(rel.weight), "first_chapter": first, "chapters": chapters,
            "evidence": list(rel.evidence), "evidence_chapters": evidence_chapters,
            "declared": bool(rel.declared)}


# -- results ---------------------------------------------------------------------------------
def relation_from_row(row: Sequence[Any], chapter_max: int | None = None) -> Relation:
    """A Relation from an `edges_among` row (source, target, type, weight, chapters, evidence,
    evidence_chapters, declared)."""
    return make_relation((row[0], row[1], row[2]), row[3], row[4:8], chapter_max)


def make_relation(key: tuple[str, str, str], weight: float, details: Sequence[Any],
                  chapter_max: int | None = None) -> Relation:
    """A Relation from its (source, target, type), visible weight and `edge_details` columns
    (chapters, evidence, evidence_chapters, declared), cut to the chapters <= chapter_max."""
    chapters, evidence, evidence_chapters, declared = details
    chapters, evidence = list(chapters or []), list(evidence or [])
    if chapter_max is not None:
        chapters = [c for c in chapters if c <= chapter_max]
        evidence = [e for e, c in zip(evidence, evidence_chapters or [], strict=False)
                    if c <= chapter_max]
    return Relation(source=key[0], target=key[1], type=key[2], weight=float(weight),
                    chapters=chapters, evidence=evidence, declared=bool(declared))
