"""Benchmark the retrieval stores: the USE embedder, the Qdrant vector index, BM25.

Uses the whole 三国演义 from ../shared/data cut into 350-character passages (~1,750),
with entity lists from a small alias table, so filters have a novel's selectivity.

  1. USE throughput on 350-char Chinese passages: batch sizes × BLAS thread counts, and the
     embedder's own adaptive choice; the single-query latency the tools pay.
  2. Qdrant local mode: upsert of 1,800 points × 512-d with payload (WAL tuning on / off);
     search p50/p95 over 1,800 and 4,000 points, unfiltered and filtered (chapter range +
     entity), through the numpy mirror and through Qdrant's own filtered search.
  3. BM25: name recall of the segmentation variants, build and load time, search p50/p95
     unfiltered and filtered, and what over-fetching instead of masking would miss.

    .venv/bin/python bench/retrieval_stores.py            # everything (~2 minutes)
    .venv/bin/python bench/retrieval_stores.py --only use|qdrant|bm25 [--quick]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from stores.models import Chunk  # noqa: E402
from stores.protocols import ChunkFilter  # noqa: E402

DATA = Path(os.environ.get("LORE_SHARED_DATA", ROOT.parent / "shared" / "data"))
ALIASES = {"刘备": ("刘备", "玄德"), "关羽": ("关羽", "云长", "关公"), "张飞": ("张飞", "翼德"),
           "曹操": ("曹操", "孟德"), "诸葛亮": ("诸葛亮", "孔明"), "孙权": ("孙权", "仲谋"),
           "周瑜": ("周瑜", "公瑾"), "赵云": ("赵云", "子龙"), "吕布": ("吕布", "奉先"),
           "董卓": ("董卓",), "袁绍": ("袁绍", "本初"), "司马懿": ("司马懿", "仲达"),
           "鲁肃": ("鲁肃", "子敬"), "马超": ("马超", "孟起"), "姜维": ("姜维", "伯约"),
           "貂蝉": ("貂蝉",), "孟获": ("孟获",), "黄忠": ("黄忠", "汉升")}
UNADDED = ["张角", "张宝", "何进", "王允", "李傕", "郭汜", "陈宫", "高顺", "张辽", "许褚", "典韦",
           "夏侯惇", "袁术", "刘表", "孙坚", "孙策", "太史慈", "公孙瓒", "陶谦", "糜竺"]


def sanguo_chunks(size: int = 350) -> list[Chunk]:
    out: list[Chunk] = []
    for path in sorted((DATA / "sanguo_yanyi" / "chapters").glob("*.txt")):
        lines = path.read_text(encoding="utf-8").splitlines()
        chapter = int(path.stem)
        body = "".join(line.strip() for line in lines[1:])
        for start in range(0, len(body), size):
            text = body[start:start + size]
            names = [n for n, spellings in ALIASES.items() if any(s in text for s in spellings)]
            out.append(Chunk(id=f"sg-{chapter:03d}-{start // size:03d}", world="bench",
                             document=str(path), chapter=chapter, chapter_title=lines[0], scene=1,
                             chunk_order=len(out), text=text, line_start=1, line_end=1,
                             entities=names))
    return out


def percentiles(fn: Callable[[int], object], n: int) -> tuple[float, float]:
    times = []
    for i in range(n):
        began = time.perf_counter()
        fn(i)
        times.append((time.perf_counter() - began) * 1e3)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


# --- 1. USE -------------------------------------------------------------------------------

def bench_use(chunks: list[Chunk], quick: bool) -> None:
    from stores.embedders.use import ThreadChooser, UseEmbedder

    print("\n== USE (use-m3) on 350-char Chinese passages ==")
    texts = [c.text for c in chunks[200:]]
    embedder = UseEmbedder()
    began = time.perf_counter()
    embedder.load()
    print(f"load: {time.perf_counter() - began:.2f} s")
    n = 96 if quick else 256
    backend = embedder._model._model
    for threads in (1, 2, 4):
        backend.threads = threads
        count = n if threads < 4 else 48   # 4 threads on 2 cores crawls: keep it short
        for batch in (16, 64, 256):
            if threads == 4 and batch != 16:
                continue
            began, cpu = time.perf_counter(), time.process_time()
            for start in range(0, count, batch):
                embedder._model.encode(texts[start:min(start + batch, count)])
            wall = time.perf_counter() - began
            print(f"  BLAS threads {threads}, batch {batch:>3}: {count / wall:6.1f} passages/s "
                  f"(cpu/wall {(time.process_time() - cpu) / wall:.2f}, {load()})")
    for _ in range(2):
        embedder.chooser = ThreadChooser(embedder.chooser.candidates)
        count = 2 * n
        began = time.perf_counter()
        embedder.embed(texts[:count])
        wall = time.perf_counter() - began
        rates = {k: round(v) for k, v in embedder.chooser.rate.items()}
        print(f"  adaptive (embed): {count / wall:6.1f} passages/s, chars/s per setting {rates} "
              f"({load()})")
    p50, p95 = percentiles(lambda i: embedder.embed_query(f"刘备第{i}次见到了谁？"), 50)
    print(f"  embed_query (one short question): p50 {p50:.1f} ms, p95 {p95:.1f} ms")


# --- 2. Qdrant ------------------------------------------------------------------------------

def _grow(chunks: list[Chunk], n: int) -> list[Chunk]:
    out = list(chunks)
    copy = 1
    while len(out) < n:
        out += [dataclasses.replace(c, id=f"{c.id}-{copy}") for c in chunks[: n - len(out)]]
        copy += 1
    return out[:n]


def _time_search(index: object, queries: np.ndarray, filters: list[ChunkFilter | None],
                 runs: int) -> tuple[float, float]:
    def one(i: int) -> object:
        return index.search(queries[i % len(queries)], 10, filters[i % len(filters)])  # type: ignore[attr-defined]
    return percentiles(one, runs)


def bench_qdrant(chunks: list[Chunk], quick: bool) -> None:
    from stores.vector import QdrantVectorIndex

    print("\n== Qdrant, local mode, 512-d ==")
    rng = np.random.default_rng(0)
    filters = [ChunkFilter(chapter_min=20, chapter_max=80, entity="关羽"),
               ChunkFilter(chapter_min=1, chapter_max=60, entity="诸葛亮"),
               ChunkFilter(chapter_max=40, entity="貂蝉")]
    for n in (1800, 4000):
        points = _grow(chunks, n)
        vectors = rng.standard_normal((n, 512)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        queries = vectors[rng.integers(0, n, 200)]
        for tune in ((True, False) if n == 1800 else (True,)):
            folder = Path(tempfile.mkdtemp()) / "qdrant"
            index = QdrantVectorIndex(path=folder, collection="bench")
            if not tune:
                index._tune_local_storage = lambda client: None  # type: ignore[method-assign]
            began = time.perf_counter()
            index.upsert(points, vectors)
            upsert = time.perf_counter() - began
            print(f"{n} points: upsert {upsert:.2f} s ({'WAL, synchronous=NORMAL' if tune else 'library default: a commit + fsync per point'})")
            if not tune:
                index.close()
                continue
            index.close()
            began = time.perf_counter()
            index = QdrantVectorIndex(path=folder, collection="bench")
            opened = time.perf_counter() - began
            began = time.perf_counter()
            index.search(queries[0], 10)
            print(f"  reopen {opened * 1e3:.0f} ms, first search (builds the mirror) "
                  f"{(time.perf_counter() - began) * 1e3:.0f} ms")
            runs = 50 if quick else 200
            for route in ("mirror", "qdrant"):
                index.prefilter = route == "mirror"
                for label, flts in (("unfiltered", [None]), ("chapter range + entity", filters)):
                    p50, p95 = _time_search(index, queries, flts, runs if route == "mirror" else 60)
                    print(f"  {route:<8} {label:<24} p50 {p50:6.2f} ms  p95 {p95:6.2f} ms")
            index.close()


# --- 3. BM25 --------------------------------------------------------------------------------

def _name_recall(texts: list[str], names: list[str], cut: Callable[[str], list[str]]) -> float:
    docs = [set(cut(t)) for t in texts]
    found = total = 0
    for name in names:
        query = set(cut(name))
        for doc, text in zip(docs, texts, strict=True):
            if name in text:
                total += 1
                found += query <= doc
    return found / max(total, 1)


def bench_bm25(chunks: list[Chunk], quick: bool) -> None:
    import rjieba

    from stores.keyword import BM25Index

    print("\n== BM25 (bm25s) ==")
    texts = [c.text for c in chunks if c.chapter <= 40]
    added = [s for spellings in ALIASES.values() for s in spellings]
    plain, named = rjieba.Jieba(), rjieba.Jieba()
    for name in added:
        named.add_word(name, None, None)
    print(f"name recall, chapters 1-40 ({len(texts)} passages): names in the dictionary / not")
    for label, cut in (("cut", lambda s: plain.cut(s)),
                       ("cut_for_search", lambda s: plain.cut_for_search(s)),
                       ("cut_for_search + names, HMM", lambda s: named.cut_for_search(s)),
                       ("cut_for_search + names, no HMM (used)", lambda s: named.cut_for_search(s, False))):
        print(f"  {label:<40} {_name_recall(texts, added, cut):.3f} / "
              f"{_name_recall(texts, UNADDED, cut):.3f}")

    folder = Path(tempfile.mkdtemp()) / "bm25"
    began = time.perf_counter()
    BM25Index(folder).build(chunks, added)
    print(f"build {len(chunks)} passages: {time.perf_counter() - began:.2f} s")
    index = BM25Index(folder)
    began = time.perf_counter()
    index.search("玄德", 5)
    print(f"load in a fresh handle + first search: {(time.perf_counter() - began) * 1e3:.0f} ms")
    queries = ["玄德", "关公 赤兔马", "孔明 借箭", "诸葛亮 五丈原 病", "曹操 许昌 天子", "单刀赴会",
               "貂蝉 吕布 董卓", "七擒孟获", "滚滚长江东逝水", "火烧 赤壁"]
    where = [ChunkFilter(chapter_min=20, chapter_max=80, entity="关羽"),
             ChunkFilter(chapter_max=60, entity="诸葛亮"), ChunkFilter(chapter_min=90)]
    runs = 100 if quick else 400
    p50, p95 = percentiles(lambda i: index.search(queries[i % len(queries)], 10), runs)
    print(f"  search unfiltered          p50 {p50:.2f} ms  p95 {p95:.2f} ms")
    p50, p95 = percentiles(lambda i: index.search(queries[i % len(queries)], 10,
                                                  where[i % len(where)]), runs)
    print(f"  search chapter + entity    p50 {p50:.2f} ms  p95 {p95:.2f} ms  (mask over all scores)")
    missed = total = 0
    for query in queries:
        for flt in where:
            exact = {h.chunk_id for h in index.search(query, 10, flt)}
            pool = index.search(query, 40)   # top_k 10 × overfetch 4, then filter
            by_id = {c.id: c for c in chunks}
            kept = {h.chunk_id for h in pool if flt.admits(by_id[h.chunk_id].chapter,
                                                            by_id[h.chunk_id].entities)}
            total += len(exact)
            missed += len(exact - kept)
    print(f"  over-fetch ×4 then filter would miss {missed}/{total} of the exact filtered hits")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("use", "qdrant", "bm25"))
    parser.add_argument("--quick", action="store_true", help="fewer passages and queries")
    args = parser.parse_args()
    chunks = sanguo_chunks()
    print(f"三国演义: {len(chunks)} passages of <= 350 chars; cpus {os.cpu_count()}; {load()}")
    if args.only in (None, "use"):
        bench_use(chunks, args.quick)
    if args.only in (None, "qdrant"):
        bench_qdrant(chunks, args.quick)
    if args.only in (None, "bm25"):
        bench_bm25(chunks, args.quick)


if __name__ == "__main__":
    main()
