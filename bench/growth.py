"""How cost grows with a world's size: ingest time, peak RSS, size on disk and query latency at
1×, 4× and 10× a novel's worth of text in one world.

    .venv/bin/python bench/growth.py [--home DIR] [--sizes 1,4,10] [--unit-chars 600000]
                                     [--backend use] [--json FILE]
    .venv/bin/python bench/growth.py --scan 20000,200000,1000000   # the vector search alone

One world grows in steps. Its text is the shared novels' chapters one after another (三国演义,
Pride and Prejudice, 红楼梦, Monte Cristo: about 4.7 million characters), then the same chapters
again with an edit (each copy's paragraphs in reverse order under a line naming the copy), so no
two files are one text and every passage is new to the indexes. At each size the chapters are
added to the corpus folder and `lore ingest` runs on it in a subprocess, as a user would run it
again after adding files: its wall time, its own peak RSS and the world's size on disk (catalog
and indexes) are recorded; then `bench/tools.py --json` times every tool on the grown world with
the 三国演义 development questions (vector_search, keyword_search, graph, track, read) and whole
offline answers.

The embedder defaults to `use`: with the default `e5`, `lore ingest` goes on to compute every
passage's e5 vectors (about 3.5 passages/s on two cores, linear in passages: 95 minutes for the
20,000 passages of 10×), which would measure that one constant rate many times over. `--backend
e5` measures it anyway. The vector search is Qdrant's local mode, a brute-force scan over every
vector of the world, so its latency is the figure to watch as the world grows.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("LORE_SHARED_DATA", ROOT.parent / "shared" / "data"))
NOVELS = ("sanguo_yanyi", "pride_and_prejudice", "hongloumeng", "monte_cristo")
QUESTIONS = ROOT / "bench" / "questions" / "sanguo.jsonl"
WORLD = "growth"


def chapters() -> Iterator[tuple[str, str]]:
    """(file name, text) of every chapter of the shared novels, then edited copies, forever."""
    sources = [path for novel in NOVELS for path in sorted((DATA / novel / "chapters").glob("*"))]
    if not sources:
        raise SystemExit(f"no chapters under {DATA}: put ../shared beside the project, or set "
                         "LORE_SHARED_DATA to its data folder")
    copy = 0
    while True:
        for path in sources:
            text = path.read_text(encoding="utf-8")
            if copy:
                paragraphs = [p for p in text.split("\n\n") if p.strip()]
                text = f"Copy {copy} of {path.name}\n\n" + "\n\n".join(reversed(paragraphs))
            yield f"{copy:02d}-{path.parent.parent.name}-{path.name}", text
        copy += 1


def ingest(home: Path, corpus: Path, backend: str) -> dict:
    """Run `lore ingest` on the corpus folder; its wall seconds and its own peak RSS."""
    env = {**os.environ, "LORE_HOME": str(home), "LORE_EMBEDDER__BACKEND": backend}
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "tui", "ingest", str(corpus), "--world", WORLD],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stderr = proc.stderr.read() if proc.stderr else b""
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"lore ingest failed:\n{stderr.decode(errors='replace')[-2000:]}")
    return {"ingest_s": round(time.perf_counter() - started, 1),
            "peak_rss_mb": round(usage.ru_maxrss / 1024)}


def disk_mb(home: Path) -> float:
    files = [home / "catalog.db", *(home / "worlds" / WORLD).rglob("*")]
    return round(sum(f.stat().st_size for f in files if f.is_file()) / 2**20, 1)


def latencies(home: Path, backend: str) -> dict:
    env = {**os.environ, "LORE_EMBEDDER__BACKEND": backend}
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "tools.py"), "--data-dir",
                           str(home), "--world", WORLD, "--questions", str(QUESTIONS), "--json"],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"bench/tools.py failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout)


def scan_curve(sizes: list[int], dim: int = 384, queries: int = 40) -> list[dict]:
    """The local vector search beyond any ingested size: the exact search the local store runs
    (stores/vector/mirror.py, a matrix product over every vector) over N random unit vectors,
    unfiltered and with a chapter range, and the matrix's memory. Qdrant's local collection
    keeps its own copy of the same vectors beside it, so a world holds them twice."""
    import numpy as np

    sys.path.insert(0, str(ROOT))
    from stores.protocols import ChunkFilter
    from stores.vector.mirror import VectorMirror

    rng = np.random.default_rng(7)
    rows = []
    for n in sizes:
        vectors = rng.standard_normal((n, dim), dtype=np.float32)
        mirror = VectorMirror(((f"c{i}", i % 120 + 1, (), vectors[i]) for i in range(n)), dim)
        del vectors
        timings: dict[str, list[float]] = {"all": [], "chapters": []}
        for q in rng.standard_normal((queries, dim), dtype=np.float32):
            for label, where in (("all", None), ("chapters", ChunkFilter(chapter_max=60))):
                started = time.perf_counter()
                mirror.search(q, 20, where)
                timings[label].append((time.perf_counter() - started) * 1000)
        row = {"vectors": n, "matrix_mb": round(mirror.matrix.nbytes / 2**20)}
        for label, ms in timings.items():
            ms.sort()
            row[label] = {"p50": round(ms[len(ms) // 2], 1),
                          "p95": round(ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))], 1)}
        rows.append(row)
        print(f"{n:>9,} vectors ({row['matrix_mb']} MB): search p50/p95 {row['all']['p50']}/"
              f"{row['all']['p95']} ms, with a chapter range {row['chapters']['p50']}/"
              f"{row['chapters']['p95']} ms", flush=True)
        del mirror
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, default=ROOT / "bench/results/growth",
                        help="the data folder the world grows in (kept: a later run goes on)")
    parser.add_argument("--sizes", default="1,4,10", help="multiples of --unit-chars")
    parser.add_argument("--unit-chars", type=int, default=600_000,
                        help="a novel's worth of text (三国演义 is about 593,000 characters)")
    parser.add_argument("--backend", default="use", help="embedder.backend (see the docstring)")
    parser.add_argument("--json", type=Path, help="also write the rows to this file")
    parser.add_argument("--scan", default="",
                        help="only time the local vector search over this many random vectors "
                             "each (e.g. 20000,200000,1000000); nothing is ingested")
    args = parser.parse_args(argv)
    if args.scan:
        rows = scan_curve([int(n) for n in args.scan.split(",")])
        if args.json:
            args.json.write_text(json.dumps(rows, indent=1))
        return 0

    corpus = args.home / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    written = sum(len(p.read_text(encoding="utf-8")) for p in corpus.glob("*"))
    stream = chapters()
    for _ in corpus.glob("*"):  # the chapters an earlier run wrote are the stream's first ones
        next(stream)
    rows = []
    total_s = 0.0
    for size in (float(s) for s in args.sizes.split(",")):
        before = written
        while written < size * args.unit_chars:
            name, text = next(stream)
            (corpus / name).write_text(text, encoding="utf-8")
            written += len(text)
        row = {"size": size, "chars": written, "files": len(list(corpus.glob("*"))),
               **ingest(args.home, corpus, args.backend), "disk_mb": disk_mb(args.home)}
        total_s += row["ingest_s"]
        row |= {"ingest_total_s": round(total_s, 1),
                "s_per_100k_chars": round(row["ingest_s"] / max(1, written - before) * 1e5, 2)}
        report = latencies(args.home, args.backend)
        tools = report["tools_ms"]
        row |= {"passages": report["passages"], "startup_ms": report["startup_ms"],
                "vector_search": tools["vector_search"], "keyword_search": tools["keyword_search"],
                "track_entity": tools["track_entity"], "answer": report["answer_ms"]}
        rows.append(row)
        print(f"{size:g}×: {row['chars']:,} chars, {row['passages']:,} passages; ingest "
              f"{row['ingest_s']} s this step ({row['s_per_100k_chars']} s per 100k chars added), "
              f"{row['ingest_total_s']} s in all, peak RSS {row['peak_rss_mb']} MB, disk "
              f"{row['disk_mb']} MB; vector_search p50/p95 {tools['vector_search']['p50']}/"
              f"{tools['vector_search']['p95']} ms, keyword {tools['keyword_search']['p50']}/"
              f"{tools['keyword_search']['p95']} ms, track {tools['track_entity']['p50']}/"
              f"{tools['track_entity']['p95']} ms, offline answer {report['answer_ms']['p50']}/"
              f"{report['answer_ms']['p95']} ms", flush=True)
        if args.json:
            args.json.write_text(json.dumps(rows, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
