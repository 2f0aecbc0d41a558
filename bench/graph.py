"""Benchmark the entity graph: rebuild time and neighbour-query latency.

Builds a synthetic world the size of the whole 三国演义 (1,000 entities, 1,800 chunks, 9,000
APPEARS_IN and 20,000 RELATED edges, popularity skewed like a novel's cast) and times
`rebuild`, then `neighbours` at depth 1-3 with and without a spoiler horizon and
`relations_between`, for entities drawn mostly from the popular cast (what users ask about).
Target: rebuild in a few seconds, neighbours p50 <= 10 ms at depth 1 and 2 (2 cores).

    .venv/bin/python bench/graph.py             # embedded ladybug store in a temp dir
    .venv/bin/python bench/graph.py --loaders   # also time UNWIND batches against COPY
    NEO4J_URI=bolt://... NEO4J_PASSWORD=... .venv/bin/python bench/graph.py --backend neo4j
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from stores.models import Chunk, Relation  # noqa: E402

CHAPTERS = 120
CHUNKS_PER_CHAPTER = 15
ENTITIES = 1_000
ENTITIES_PER_CHUNK = 5
RELATED = 20_000
DECLARED_TYPES = ("kin", "ally", "enemy", "serves", "lord_of", "sworn_sibling")


def synthetic_world(seed: int = 7) -> tuple[list[tuple[str, str]], list[Chunk], list[Relation]]:
    """Entities (name, type), chunks with entity lists, and relations of novel-like shape.

    Mentions follow a Zipf law, so a few protagonists co-occur with hundreds of others, as 刘备
    and 曹操 do; co-occurrence edges come from the same or the next passage of a chapter.
    """
    rng = random.Random(seed)
    names = [f"人物{i:04d}" for i in range(ENTITIES)]
    popularity = [1.0 / (i + 1) for i in range(ENTITIES)]
    chunks: list[Chunk] = []
    for chapter in range(1, CHAPTERS + 1):
        for n in range(CHUNKS_PER_CHAPTER):
            cast: list[str] = []
            while len(cast) < ENTITIES_PER_CHUNK:
                name = rng.choices(names, popularity)[0]
                if name not in cast:
                    cast.append(name)
            order = len(chunks)
            chunks.append(Chunk(id=f"c{order:05d}", world="bench", document="bench.txt",
                                chapter=chapter, chapter_title=f"第{chapter}回", scene=1,
                                chunk_order=n, text="", line_start=order, line_end=order,
                                event_order=order, entities=cast))
    evidence: dict[tuple[str, str], list[Chunk]] = {}
    for i, chunk in enumerate(chunks):
        window = set(chunk.entities)
        if i + 1 < len(chunks) and chunks[i + 1].chapter == chunk.chapter:
            window |= set(chunks[i + 1].entities)
        for a, b in combinations(sorted(window), 2):
            evidence.setdefault((a, b), []).append(chunk)
    strongest = sorted(evidence.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:RELATED - 200]
    relations = [Relation(source=a, target=b, type="co_occurs", weight=float(len(ev)),
                          chapters=sorted({c.chapter for c in ev}), evidence=[c.id for c in ev])
                 for (a, b), ev in strongest]
    for _ in range(200):
        a, b = rng.sample(names[:300], 2)
        chapter = rng.randint(1, CHAPTERS)
        relations.append(Relation(source=a, target=b, type=rng.choice(DECLARED_TYPES),
                                  weight=1.0, chapters=[chapter], declared=True,
                                  evidence=[f"glossary.toml:{chapter}"]))
    return [(name, "person") for name in names], chunks, relations


def unwind_load_seconds(entities: list[tuple[str, str]], chunks: list[Chunk],
                        relations: list[Relation], directory: Path, batch: int = 5_000) -> float:
    """The alternative to COPY FROM Arrow: UNWIND $rows batches into a fresh ladybug file."""
    import ladybug

    from stores.graph import cypher
    from stores.graph.ladybug_store import SCHEMA

    start = time.perf_counter()
    rows = cypher.graph_rows(entities, chunks, relations)
    db = ladybug.Database(str(directory / "unwind.lbug"), buffer_pool_size=256 << 20)
    conn = ladybug.Connection(db)
    for statement in SCHEMA:
        conn.execute(statement)
    creates = {
        "entities": "UNWIND $rows AS row CREATE (:Entity {name: row.name, type: row.type})",
        "chunks": "UNWIND $rows AS row CREATE (:Chunk {id: row.id, chapter: row.chapter, "
                  "event_order: row.event_order})",
        "appears_in": "UNWIND $rows AS row MATCH (e:Entity {name: row.source}), "
                      "(c:Chunk {id: row.target}) CREATE (e)-[:APPEARS_IN]->(c)",
        "related": "UNWIND $rows AS row MATCH (a:Entity {name: row.source}), "
                   "(b:Entity {name: row.target}) CREATE (a)-[:RELATED {type: row.type, "
                   "weight: row.weight, first_chapter: row.first_chapter, chapters: row.chapters, "
                   "evidence: row.evidence, evidence_chapters: row.evidence_chapters, "
                   "declared: row.declared}]->(b)",
    }
    for kind, text in creates.items():
        items = getattr(rows, kind)
        for i in range(0, len(items), batch):
            conn.execute(text, {"rows": items[i:i + batch]})
    seconds = time.perf_counter() - start
    db.close()
    return seconds


def _percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"p50 {statistics.median(ordered) * 1000:6.2f} ms   p95 {p95 * 1000:6.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("ladybug", "neo4j"), default="ladybug")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rebuilds", type=int, default=3)
    parser.add_argument("--loaders", action="store_true",
                        help="also time loading ladybug with UNWIND batches instead of COPY")
    args = parser.parse_args()

    from stores.config import Settings
    from stores.graph import open_graph

    entities, chunks, relations = synthetic_world()
    appears = sum(len(set(c.entities)) for c in chunks)
    print(f"world: {len(entities)} entities, {len(chunks)} chunks, {appears} APPEARS_IN, "
          f"{len(relations)} RELATED")
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp))
        settings.graph.backend = args.backend
        settings.graph.neo4j_uri = os.environ.get("NEO4J_URI", "")
        store = open_graph(settings, "bench")
        try:
            for n in range(args.rebuilds):
                start = time.perf_counter()
                store.rebuild(entities, chunks, relations)
                print(f"rebuild #{n + 1}: {time.perf_counter() - start:6.2f} s")
            print("counts:", store.counts())
            if args.loaders:
                seconds = unwind_load_seconds(entities, chunks, relations, Path(tmp))
                print(f"ladybug UNWIND $rows batches of 5000 (for comparison): {seconds:6.2f} s")
            rng = random.Random(1)
            # Mostly the popular cast (what users ask about), with some of the long tail.
            probes = [entities[min(int(rng.paretovariate(1.0)) - 1, ENTITIES - 1)][0]
                      for _ in range(args.queries)]
            for depth in (1, 2, 3):
                for horizon in (None, 60):
                    samples = []
                    for name in probes:
                        start = time.perf_counter()
                        store.neighbours(name, depth=depth, limit=50, chapter_max=horizon)
                        samples.append(time.perf_counter() - start)
                    print(f"neighbours depth {depth} chapter_max {horizon!s:>4}: "
                          f"{_percentiles(samples)}")
            samples = []
            for a, b in zip(probes, reversed(probes), strict=True):
                start = time.perf_counter()
                store.relations_between(a, b)
                samples.append(time.perf_counter() - start)
            print(f"relations_between:                   {_percentiles(samples)}")
        finally:
            store.close()


if __name__ == "__main__":
    main()
