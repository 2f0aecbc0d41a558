"""What every GraphStore backend must do. A backend's test module subclasses
`GraphStoreConformance` and provides a `store` fixture yielding an empty, open store.

The small world below is built so that every answer can be worked out by hand; a larger
random world checks the ranked search against a brute-force reference.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from stores.errors import LoreError
from stores.graph import GraphQueryError
from stores.models import RELATION_TYPES, Chunk, Relation
from stores.protocols import GraphStore


def chunk(cid: str, chapter: int, order: int, *entities: str) -> Chunk:
    return Chunk(id=cid, world="test", document="sanguo.txt", chapter=chapter,
                 chapter_title=f"第{chapter}回", scene=1, chunk_order=order, text="",
                 line_start=order, line_end=order, event_order=order, entities=list(entities))


# Chunk ids deliberately do not sort in story order: appearances must follow event_order.
CHUNKS = [
    chunk("k9", 1, 0, "刘备", "关羽", "张飞"),
    chunk("k3", 2, 1, "刘备", "关羽"),
    chunk("k7", 2, 2, "关羽", "曹操", "吕布"),
    chunk("k1", 3, 3, "刘备", "诸葛亮"),
    chunk("k5", 4, 4, "刘备", "关羽", "诸葛亮"),
    chunk("k2", 5, 5, "曹操", "孙权"),
]
ENTITIES = [("刘备", "person"), ("关羽", "person"), ("张飞", "person"), ("诸葛亮", "person"),
            ("曹操", "person"), ("孙权", "person"), ("吕布", "person"), ("貂蝉", "person"),
            ("周瑜", "person")]


def rel(source: str, target: str, kind: str, weight: float, chapters: Sequence[int],
        evidence: Sequence[str] = (), declared: bool = False) -> Relation:
    return Relation(source=source, target=target, type=kind, weight=weight,
                    chapters=list(chapters), evidence=list(evidence), declared=declared)


RELATIONS = [
    rel("刘备", "关羽", "sworn_sibling", 9.0, [1], ["k9"], declared=True),
    rel("刘备", "张飞", "sworn_sibling", 8.0, [1], ["k9"], declared=True),
    rel("刘备", "关羽", "co_occurs", 3.0, [1, 2, 4], ["k9", "k3", "k5"]),
    rel("关羽", "张飞", "co_occurs", 1.0, [1], ["k9"]),
    rel("刘备", "诸葛亮", "co_occurs", 2.0, [3, 4], ["k1", "k5"]),
    rel("诸葛亮", "刘备", "serves", 6.0, [3], ["glossary.toml:7"], declared=True),
    rel("关羽", "曹操", "co_occurs", 2.5, [2], ["k7"]),
    rel("曹操", "吕布", "enemy", 1.5, [2], ["k7"]),
    rel("张飞", "吕布", "enemy", 0.5, [2]),
    rel("曹操", "孙权", "enemy", 4.0, [5], ["k2"]),
    rel("孙权", "周瑜", "lord_of", 7.0, []),  # timeless: no chapters, no evidence
    rel("貂蝉", "貂蝉", "co_occurs", 1.0, [2]),  # a self-loop: dropped
]


def keys(relations: Sequence[Relation]) -> list[tuple[str, str, str]]:
    return [(r.source, r.target, r.type) for r in relations]


def brute_force(relations: Sequence[Relation], start: str, depth: int) -> dict[tuple[str, str, str], float]:
    """Every edge on a path of at most `depth` hops from `start`, with its score: the
    bottleneck of the widest such path ending in it (Bellman-Ford over depth - 1 rounds)."""
    widest = {start: float("inf")}
    for _ in range(depth - 1):
        nxt = dict(widest)
        for r in relations:
            for a, b in ((r.source, r.target), (r.target, r.source)):
                if a in widest and min(widest[a], r.weight) > nxt.get(b, -1.0):
                    nxt[b] = min(widest[a], r.weight)
        widest = nxt
    return {(r.source, r.target, r.type):
            min(r.weight, max(widest.get(r.source, -1.0), widest.get(r.target, -1.0)))
            for r in relations if r.source in widest or r.target in widest}


def random_world(seed: int = 3) -> tuple[list[tuple[str, str]], list[Chunk], list[Relation]]:
    rng = random.Random(seed)
    names = [f"n{i:02d}" for i in range(40)]
    chunks = [chunk(f"r{i}", 1 + i // 10, i, *rng.sample(names, 3)) for i in range(100)]
    relations, seen = [], set()
    while len(relations) < 160:
        a, b = rng.sample(names[:20], 2) if rng.random() < 0.6 else rng.sample(names, 2)
        if (a, b) in seen or (b, a) in seen:
            continue
        seen.add((a, b))
        ev = rng.sample(chunks, rng.randint(1, 4))
        # distinct weights so that "strongest first" has exactly one answer
        relations.append(rel(a, b, "co_occurs", len(relations) * 0.37 % 17 + len(ev) / 1000,
                             sorted({c.chapter for c in ev}), [c.id for c in ev]))
    return [(n, "person") for n in names], chunks, relations


class GraphStoreConformance:
    """Subclasses provide a `store` fixture (empty, open; closed afterwards)."""

    @pytest.fixture
    def world(self, store: GraphStore) -> GraphStore:
        store.rebuild(ENTITIES, CHUNKS, RELATIONS)
        return store

    def test_is_a_graph_store(self, store: GraphStore) -> None:
        assert isinstance(store, GraphStore)

    def test_empty_store_answers_empty(self, store: GraphStore) -> None:
        assert store.counts() == {"entities": 0, "chunks": 0, "related": 0, "appears_in": 0}
        assert store.neighbours("刘备") == []
        assert store.appearances("刘备") == []
        assert store.relations_between("刘备", "关羽") == []

    def test_rebuild_counts(self, world: GraphStore) -> None:
        appears = sum(len(c.entities) for c in CHUNKS)
        assert world.counts() == {"entities": len(ENTITIES), "chunks": len(CHUNKS),
                                  "related": len(RELATIONS) - 1, "appears_in": appears}

    def test_rebuild_adds_entities_only_named_by_chunks_or_relations(self, store: GraphStore) -> None:
        store.rebuild([("刘备", "person")], [chunk("a", 1, 0, "刘备", "刘禅")],
                      [rel("刘备", "黄忠", "ally", 1.0, [1])])
        assert store.counts()["entities"] == 3
        assert keys(store.neighbours("黄忠")) == [("刘备", "黄忠", "ally")]
        assert store.appearances("刘禅") == ["a"]

    def test_rebuild_replaces_the_old_graph(self, world: GraphStore) -> None:
        world.rebuild([("宋江", "person"), ("李逵", "person")], [chunk("s1", 1, 0, "宋江")],
                      [rel("宋江", "李逵", "lord_of", 2.0, [1], ["s1"])])
        assert world.counts() == {"entities": 2, "chunks": 1, "related": 1, "appears_in": 1}
        assert world.neighbours("刘备") == []
        assert world.appearances("刘备") == []
        assert keys(world.neighbours("李逵")) == [("宋江", "李逵", "lord_of")]

    def test_neighbours_depth_one_strongest_first_each_edge_once(self, world: GraphStore) -> None:
        found = world.neighbours("刘备")
        assert keys(found) == [("刘备", "关羽", "sworn_sibling"), ("刘备", "张飞", "sworn_sibling"),
                               ("诸葛亮", "刘备", "serves"), ("刘备", "关羽", "co_occurs"),
                               ("刘备", "诸葛亮", "co_occurs")]
        first = found[0]
        assert (first.weight, first.chapters, first.evidence, first.declared) == (9.0, [1], ["k9"], True)
        assert found[3].evidence == ["k9", "k3", "k5"] and not found[3].declared

    def test_neighbours_keeps_the_stored_direction(self, world: GraphStore) -> None:
        serves = [r for r in world.neighbours("诸葛亮") if r.type == "serves"]
        assert [(r.source, r.target) for r in serves] == [("诸葛亮", "刘备")]

    def test_neighbours_relation_filter(self, world: GraphStore) -> None:
        assert keys(world.neighbours("刘备", relation="sworn_sibling")) == [
            ("刘备", "关羽", "sworn_sibling"), ("刘备", "张飞", "sworn_sibling")]
        assert world.neighbours("刘备", relation="enemy") == []
        # the filter holds on every hop: 张飞 -enemy- 吕布 -enemy- 曹操, not via 关羽
        assert set(keys(world.neighbours("张飞", relation="enemy", depth=3))) == {
            ("张飞", "吕布", "enemy"), ("曹操", "吕布", "enemy"), ("曹操", "孙权", "enemy")}

    def test_neighbours_limit(self, world: GraphStore) -> None:
        assert keys(world.neighbours("刘备", limit=2)) == [
            ("刘备", "关羽", "sworn_sibling"), ("刘备", "张飞", "sworn_sibling")]

    def test_neighbours_depth_two_and_three(self, world: GraphStore) -> None:
        two = world.neighbours("张飞", depth=2)
        assert set(keys(two)) == set(brute_force(RELATIONS[:-1], "张飞", 2))
        assert len(two) == len(set(keys(two)))
        assert ("曹操", "孙权", "enemy") not in keys(two)
        three = world.neighbours("张飞", depth=3)
        assert ("曹操", "孙权", "enemy") in keys(three)
        assert ("孙权", "周瑜", "lord_of") not in keys(three)  # four hops away
        # a path is as strong as its weakest edge: 张飞-刘备 (8) then 刘备-关羽 (9) scores 8
        assert keys(two)[:2] == [("刘备", "张飞", "sworn_sibling"), ("刘备", "关羽", "sworn_sibling")]

    def test_neighbours_from_unknown_or_isolated_entity(self, world: GraphStore) -> None:
        assert world.neighbours("无名氏", depth=3) == []
        assert world.neighbours("貂蝉", depth=2) == []

    def test_chapter_max_hides_later_edges_and_cuts_visible_parts(self, world: GraphStore) -> None:
        early = {(r.source, r.target, r.type): r for r in world.neighbours("刘备", chapter_max=1)}
        assert set(early) == {("刘备", "关羽", "sworn_sibling"), ("刘备", "张飞", "sworn_sibling"),
                              ("刘备", "关羽", "co_occurs")}
        seen = early[("刘备", "关羽", "co_occurs")]
        assert (seen.chapters, seen.evidence) == ([1], ["k9"])
        assert seen.weight == pytest.approx(1.0)  # one of its three evidence chunks
        later = {(r.source, r.target, r.type): r for r in world.neighbours("刘备", chapter_max=3)}
        assert later[("刘备", "诸葛亮", "co_occurs")].evidence == ["k1"]
        assert later[("诸葛亮", "刘备", "serves")].evidence == ["glossary.toml:7"]
        assert later[("诸葛亮", "刘备", "serves")].weight == 6.0

    def test_chapter_max_applies_to_every_hop(self, world: GraphStore) -> None:
        found = keys(world.neighbours("关羽", depth=2, chapter_max=1))
        assert ("关羽", "曹操", "co_occurs") not in found
        assert ("曹操", "吕布", "enemy") not in found
        assert ("刘备", "张飞", "sworn_sibling") in found
        assert keys(world.neighbours("孙权", chapter_max=1)) == [("孙权", "周瑜", "lord_of")]

    def test_ranked_search_matches_brute_force(self, store: GraphStore) -> None:
        entities, chunks, relations = random_world()
        store.rebuild(entities, chunks, relations)
        for start in ("n00", "n05", "n33"):
            for depth in (1, 2, 3):
                everything = store.neighbours(start, depth=depth, limit=1000)
                expected = brute_force(relations, start, depth)
                assert set(keys(everything)) == set(expected)
                assert len(everything) == len(expected)
                scores = [expected[k] for k in keys(everything)]
                assert scores == sorted(scores, reverse=True)
                for limit in (1, 7, 25):  # pruning never changes the head of the ranking
                    assert keys(store.neighbours(start, depth=depth, limit=limit)) == \
                        keys(everything)[:limit]
            weights = [r.weight for r in store.neighbours(start)]
            assert weights == sorted(weights, reverse=True)

    def test_an_edge_stored_both_ways_comes_back_both_ways(self, store: GraphStore) -> None:
        store.rebuild([], [], [rel("刘备", "孙权", "ally", 3.0, [50]),
                               rel("孙权", "刘备", "ally", 2.0, [51]),
                               rel("刘备", "孙权", "enemy", 1.0, [80])])
        assert set(keys(store.neighbours("孙权"))) == {
            ("刘备", "孙权", "ally"), ("孙权", "刘备", "ally"), ("刘备", "孙权", "enemy")}
        assert len(store.neighbours("孙权", limit=1)) == 1
        assert len(store.relations_between("孙权", "刘备")) == 3

    def test_rebuild_refuses_unknown_relation_types_and_keeps_the_graph(
            self, world: GraphStore) -> None:
        before = world.counts()
        with pytest.raises(GraphQueryError, match="friend"):
            world.rebuild(ENTITIES, CHUNKS, [*RELATIONS, rel("刘备", "曹操", "friend", 1.0, [1])])
        assert world.counts() == before

    @pytest.mark.parametrize("chapter_max", [-1, True, 2.5, "3"])
    def test_bad_chapter_horizon_is_rejected(self, world: GraphStore, chapter_max: object) -> None:
        with pytest.raises(GraphQueryError, match="horizon"):
            world.neighbours("刘备", chapter_max=chapter_max)  # type: ignore[arg-type]

    def test_relations_between_direct_edges(self, world: GraphStore) -> None:
        assert keys(world.relations_between("关羽", "刘备")) == [
            ("刘备", "关羽", "sworn_sibling"), ("刘备", "关羽", "co_occurs")]

    def test_two_who_only_share_passages_come_with_the_bonds_through_a_third(
            self, world: GraphStore) -> None:
        # 关羽 and 张飞 share a passage, and each is 刘备's sworn brother: that says how they
        # are related; 关羽 and 曹操 share one too, and an enmity of 曹操's is no bond
        assert keys(world.relations_between("关羽", "张飞")) == [
            ("关羽", "张飞", "co_occurs"), ("刘备", "关羽", "sworn_sibling"),
            ("刘备", "张飞", "sworn_sibling")]
        assert keys(world.relations_between("关羽", "曹操")) == [("关羽", "曹操", "co_occurs")]

    def test_relations_between_shortest_path(self, world: GraphStore) -> None:
        path = world.relations_between("诸葛亮", "吕布")  # the one path of three hops
        assert keys(path) == [("诸葛亮", "刘备", "serves"), ("刘备", "张飞", "sworn_sibling"),
                              ("张飞", "吕布", "enemy")]  # the strongest edge of each hop
        assert path[1].evidence == ["k9"] and path[1].declared
        assert len(world.relations_between("张飞", "孙权")) == 3  # two paths of three hops

    def test_relations_between_nothing_within_three_hops(self, world: GraphStore) -> None:
        assert world.relations_between("张飞", "周瑜") == []  # four hops
        assert world.relations_between("刘备", "貂蝉") == []
        assert world.relations_between("刘备", "无名氏") == []
        assert world.relations_between("刘备", "刘备") == []

    def test_appearances_in_story_order(self, world: GraphStore) -> None:
        assert world.appearances("刘备") == ["k9", "k3", "k1", "k5"]
        assert world.appearances("孙权") == ["k2"]
        assert world.appearances("周瑜") == []

    @pytest.mark.parametrize("relation", ["friend", "CO_OCCURS", "co_occurs' OR 1=1 //",
                                          "co_occurs}]-() DETACH DELETE r //", ""])
    def test_unknown_relation_type_is_rejected(self, world: GraphStore, relation: str) -> None:
        with pytest.raises(GraphQueryError) as caught:
            world.neighbours("刘备", relation=relation)
        assert isinstance(caught.value, LoreError)
        assert all(kind in str(caught.value) for kind in RELATION_TYPES)
        assert world.counts()["related"] == len(RELATIONS) - 1

    @pytest.mark.parametrize("depth", [0, -1, 4, 10, True, 2.0, "2"])
    def test_depth_out_of_range_is_rejected(self, world: GraphStore, depth: object) -> None:
        with pytest.raises(GraphQueryError, match="depth"):
            world.neighbours("刘备", depth=depth)  # type: ignore[arg-type]

    @pytest.mark.parametrize("limit", [0, -5, 10_000])
    def test_limit_out_of_range_is_rejected(self, world: GraphStore, limit: int) -> None:
        with pytest.raises(GraphQueryError, match="limit"):
            world.neighbours("刘备", limit=limit)

    def test_names_are_data_not_cypher(self, store: GraphStore) -> None:
        odd = "x'}) DETACH DELETE n //"
        store.rebuild([(odd, "other"), ('引号"名', "other")], [chunk("c'1", 1, 0, odd)],
                      [rel(odd, '引号"名', "ally", 1.0, [1], ["c'1"])])
        assert keys(store.neighbours(odd)) == [(odd, '引号"名', "ally")]
        assert store.appearances(odd) == ["c'1"]
        assert store.counts()["entities"] == 2
