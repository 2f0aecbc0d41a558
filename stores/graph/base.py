"""The graph searches both backends share; a backend supplies `_run` and `rebuild`."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from stores.graph import cypher
from stores.graph.cypher import Dialect, Query
from stores.models import BOND_TYPES, Chunk, Relation

_Key = tuple[str, str, str]


class CypherGraphStore(ABC):
    """neighbours / relations_between / appearances / counts over Cypher, for any dialect."""

    dialect: Dialect

    def __init__(self, max_depth: int = cypher.HARD_MAX_DEPTH) -> None:
        self.max_depth = min(int(max_depth), cypher.HARD_MAX_DEPTH)

    @abstractmethod
    def _run(self, query: Query) -> list[list[Any]]:
        """Execute one query and return its rows as lists of values."""

    @abstractmethod
    def rebuild(self, entities: Sequence[tuple[str, str]], chunks: Sequence[Chunk],
                relations: Sequence[Relation]) -> None:
        """Replace the graph: entities as (name, type), chunks with their entity lists."""

    @abstractmethod
    def close(self) -> None:
        """Release the database; the store cannot be used afterwards."""

    def neighbours(self, entity: str, relation: str | None = None, depth: int = 1,
                   limit: int = 50, chapter_max: int | None = None) -> list[Relation]:
        """Relations reachable from `entity` within `depth` hops, strongest first.

        A path is as strong as its weakest edge, and an edge ranks by the strongest path of
        at most `depth` hops that ends in it (ties: fewer hops, then the heavier edge); each
        edge comes once, in its stored direction. The search goes level by level and expands
        only the entities whose paths can still beat the `limit`-th result, so it takes at
        most `depth` + 1 round trips however dense the graph. With `chapter_max`, edges seen
        only in later chapters are invisible, on every hop, and the rest report only their
        visible chapters and evidence and the matching share of their weight.
        """
        relation = cypher.validate_relation(relation)
        depth = cypher.validate_depth(depth, self.max_depth)
        limit = cypher.validate_limit(limit)
        chapter_max = cypher.validate_chapter_max(chapter_max)
        strength: dict[str, float] = {entity: cypher.STRONGEST}  # best path found so far
        expanded: dict[str, float] = {}  # entity -> the strength it was expanded with
        frontier = {entity: cypher.STRONGEST}
        # edge (ends in name order, type) -> (score, level, weight, (near, far, type) as found)
        best: dict[_Key, tuple[float, int, float, _Key]] = {}
        theta = -1.0
        for level in range(1, depth + 1):
            # From one entity each edge comes once; from several, an edge between two of
            # them comes twice, so twice the rows still hold `limit` distinct edges.
            fetch = limit if len(frontier) == 1 else 2 * limit
            query = cypher.neighbour_level(self.dialect, frontier, expanded, theta, fetch,
                                           relation=relation, chapter_max=chapter_max)
            improved: dict[str, None] = {}
            for near, far, kind, weight, score in self._run(query):
                key = (near, far, kind) if near < far else (far, near, kind)  # either direction
                if key not in best or score > best[key][0]:
                    best[key] = (float(score), level, float(weight), (near, far, kind))
                if score > strength.get(far, -1.0):
                    strength[far] = float(score)
                    improved[far] = None
            if len(best) >= limit:
                theta = sorted((b[0] for b in best.values()), reverse=True)[limit - 1]
            expanded.update(frontier)
            # Bellman-Ford rounds: re-expand what a stronger path reached, if it can still win.
            frontier = {n: strength[n] for n in improved if strength[n] > theta}
            if not frontier:
                break
        ranked = sorted(best.items(), key=lambda kv: (-kv[1][0], kv[1][1], -kv[1][2], kv[0]))
        edges = [(found, w) for _, (_, _, w, found) in ranked[:limit]]
        return self._with_details(edges, chapter_max)[:limit]

    def _with_details(self, edges: list[tuple[_Key, float]],
                      chapter_max: int | None) -> list[Relation]:
        """Relations for ranked ((near, far, type) as found, visible weight) pairs, in their
        stored direction; an edge stored both ways (a ally b, b ally a) yields both."""
        if not edges:
            return []
        # a visible weight never exceeds the stored one (beyond float rounding)
        floor = min(w for _, w in edges) * (1 - 1e-9) - 1e-9
        stored: dict[_Key, list[list[Any]]] = {}
        for row in self._run(cypher.edge_details(self.dialect, [e for e, _ in edges], floor)):
            stored.setdefault((row[0], row[1], row[3]), []).append(row)
        relations = []
        for (near, far, kind), weight in edges:
            for row in sorted(stored.get((near, far, kind), []), key=lambda r: not r[2]):
                source, target = (near, far) if row[2] else (far, near)
                relations.append(cypher.make_relation((source, target, kind), weight, row[4:],
                                                      chapter_max))
        return relations

    def relations_between(self, a: str, b: str) -> list[Relation]:
        """The direct edges between a and b, strongest first. When none of them is a typed
        relation (they only share passages), also the bonds (kin, marriage, oath, service)
        through the one person who joins them (A —wife— M —father— B: Mrs. Weston and Frank
        Churchill); without any edge, those of one shortest path of at most `max_depth` hops
        (the strongest edge of each hop) from a."""
        if a == b:
            return []
        direct = [cypher.relation_from_row(row)
                  for row in self._run(cypher.edges_among(self.dialect, [a, b]))]
        if any(r.type != "co_occurs" for r in direct):
            return direct
        middles = self._run(cypher.bond_middles(self.dialect, a, b))
        if middles:
            return direct + self._strongest_hops([a, middles[0][0], b], bonds=True)
        if direct:
            return direct
        paths = self._run(cypher.shortest_path(self.dialect, a, b, self.max_depth))
        return self._strongest_hops(list(paths[0][0]), bonds=False) if paths else []

    def _strongest_hops(self, names: list[str], bonds: bool) -> list[Relation]:
        """The strongest edge of each hop along `names` (only BOND_TYPES', with `bonds`)."""
        strongest: dict[frozenset[str], list[Any]] = {}
        for row in self._run(cypher.edges_among(self.dialect, names)):
            if not bonds or row[2] in BOND_TYPES:
                strongest.setdefault(frozenset(row[:2]), row)  # rows come strongest first
        hops = [frozenset(pair) for pair in zip(names, names[1:], strict=False)]
        return [cypher.relation_from_row(strongest[hop]) for hop in hops if hop in strongest]

    def appearances(self, entity: str) -> list[str]:
        """Chunk ids the entity appears in, in story order (event_order)."""
        return [row[0] for row in self._run(cypher.appearances(self.dialect, entity))]

    def counts(self) -> dict[str, int]:
        """Entities, chunks, RELATED and APPEARS_IN edges, for `lore doctor` and tests."""
        return {name: int(self._run(q)[0][0]) for name, q in cypher.counts(self.dialect).items()}

