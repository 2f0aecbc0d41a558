"""Latency of the agent's tools and of an offline answer on a whole-novel world.

Times what each tool runs (agent.world.retrieval.Retriever, the stores behind it) over realistic
inputs: the development questions as queries, the most-mentioned entities as names, random
passages to read. Then whole offline answers: `agent.conversation.core.ask` with the built-in model, the
same loop `lore ask` runs (tool rounds, grading, citation check), after start-up.

    .venv/bin/python bench/tools.py --data-dir /tmp/bench-sanguo --world bench
    .venv/bin/python bench/tools.py                      # ingests the whole 三国演义 first (with
                                                         # its e5 vectors: minutes)
    .venv/bin/python bench/tools.py --data-dir D --world monte \\
        --questions bench/questions/monte_cristo.jsonl

Targets (issue 3, 2 cores, no reranker): each tool p50 <= 30 ms and p95 <= 80 ms; an offline
answer p50 <= 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_CORPUS = ROOT.parent / "shared" / "data" / "sanguo_yanyi" / "chapters"
DEFAULT_QUESTIONS = ROOT / "bench" / "questions" / "sanguo.jsonl"


def percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"p50": round(statistics.median(ordered), 1), "p95": round(p95, 1), "n": len(ordered)}


def timed(fn: Callable[[], object], repeat: int = 1) -> float:
    """Milliseconds of one call (the best of `repeat`, to keep other processes' noise out)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        best = min(best, (time.perf_counter() - started) * 1000)
    return best


def tool_latencies(retriever, questions: list[str], rng: random.Random) -> dict[str, dict]:
    """p50/p95 per tool over the questions, the busiest entities and random passages."""
    from agent.schemas import ChapterRange

    counts: dict[str, int] = {}
    for chunk in retriever.story:
        for name in chunk.entities:
            counts[name] = counts.get(name, 0) + 1
    people = sorted(counts, key=lambda n: -counts[n])[:30]
    ids = rng.sample(list(retriever.chunks), min(60, len(retriever.chunks)))
    last = max(c.chapter for c in retriever.story)
    cases: dict[str, list[Callable[[], object]]] = {
        "vector_search": [lambda q=q: retriever.hybrid(q, 10) for q in questions],
        "vector_search(entity)": [lambda q=q, e=e: retriever.hybrid(q, 10, None, e)
                                  for q, e in zip(questions, people * 3, strict=False)],
        "keyword_search": [lambda q=q: retriever.keyword(q, 10) for q in questions],
        "keyword_search(chapters)": [
            lambda q=q: retriever.keyword(q, 10, ChapterRange(start=1, end=last // 2))
            for q in questions],
        "graph_search depth 1": [lambda e=e: retriever.graph(e, None, 1) for e in people],
        "graph_search depth 2": [lambda e=e: retriever.graph(e, None, 2) for e in people],
        "graph_search(other)": [lambda a=a, b=b: retriever.between(a, b)
                                for a, b in zip(people, people[1:], strict=False)],
        "track_entity": [lambda e=e: retriever.track(e) for e in people],
        "read_passage": [lambda i=i: retriever.read(i, 1, 1) for i in ids],
    }
    for calls in cases.values():  # load every index and cache before timing
        calls[0]()
    return {tool: percentiles([timed(call) for call in calls]) for tool, calls in cases.items()}


def answer_latencies(retriever, questions: list[str]) -> dict[str, float]:
    """p50/p95 of whole offline answers through the agent loop (after one warm-up answer)."""
    from agent.conversation.core import ask, build_agent
    from agent.librarian.reader import librarian_reader
    from agent.readers.registry import ReaderContext
    from agent.readers.settings import ModelSettings
    from agent.tools.deps import LoreDeps

    agent = build_agent(librarian_reader(ReaderContext(ModelSettings(), retriever)))
    loop = asyncio.new_event_loop()

    def answer(question: str) -> None:
        loop.run_until_complete(ask(agent, LoreDeps(retriever=retriever), question,
                                    time_limit_s=ModelSettings().answer_timeout_s))

    try:
        answer(questions[0])
        return percentiles([timed(lambda q=q: answer(q)) for q in questions])
    finally:
        loop.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, help="an existing LORE_HOME with the world")
    parser.add_argument("--world", default="bench")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS,
                        help="ingested into a temp dir when --data-dir is not given")
    parser.add_argument("--questions", type=Path, default=DEFAULT_QUESTIONS)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    from agent.readers.settings import AgentSettings
    from agent.world.open_world import OpenWorld

    with tempfile.TemporaryDirectory(prefix="lore-tools-") as tmp:
        home = args.data_dir or Path(tmp)
        settings = AgentSettings(data_dir=home)
        if args.data_dir is None:
            from stores.ingest import ingest
            from stores.upgrade import upgrade

            print(f"ingesting {args.corpus} …", file=sys.stderr)
            ingest(settings, args.world, [args.corpus])
            upgrade(settings, args.world)  # the e5 vectors, as `lore ingest` computes them
        with OpenWorld.open(settings, args.world) as opened:
            retriever = opened.retriever
            lines = args.questions.read_text(encoding="utf-8").splitlines()
            questions = [json.loads(line)["question"] for line in lines if line.strip()]
            started = time.perf_counter()
            len(retriever.story), retriever.matcher  # noqa: B018  (start-up, timed apart)
            startup = (time.perf_counter() - started) * 1000
            report = {"world": args.world, "passages": len(retriever.chunks),
                      "startup_ms": round(startup, 1),
                      "tools_ms": tool_latencies(retriever, questions, random.Random(3)),
                      "answer_ms": answer_latencies(retriever, questions)}
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return 0
    print(f"{report['world']}: {report['passages']} passages, start-up "
          f"{report['startup_ms']} ms (catalog + alias matcher)")
    width = max(len(t) for t in report["tools_ms"])
    for tool, lat in report["tools_ms"].items():
        print(f"  {tool:<{width}}  p50 {lat['p50']:7.1f} ms   p95 {lat['p95']:7.1f} ms   "
              f"(n={lat['n']})")
    lat = report["answer_ms"]
    print(f"  {'offline ask':<{width}}  p50 {lat['p50']:7.1f} ms   p95 {lat['p95']:7.1f} ms   "
          f"(n={lat['n']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
