"""`lore eval retrieval`: recall@k, hit@k and MRR of the passages an answer is built from.

Each question runs through the agent (the offline model by default) and is scored on the
chapters of the evidence the model ranked; the same run also scores plain BM25 and plain dense
retrieval on the same questions, so every report shows what the tools add.
"""

from __future__ import annotations

import json
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, Field, ValidationError

from stores.errors import InputError

M = TypeVar("M", bound=BaseModel)

QUESTION_TYPES = ("fact", "alias", "relation", "timeline", "multi_hop", "exact", "unanswerable")


class Question(BaseModel):
    """One line of a questions file (see DESIGN.md)."""

    id: str
    type: str = Field(pattern="^(" + "|".join(QUESTION_TYPES) + ")$")
    question: str
    answer: str = ""
    gold_chapters: list[int] = []
    evidence: str = ""


def load_records(path: Path, model: type[M], what: str, hint: str) -> list[M]:
    """Records of one pydantic model from a JSONL file; InputError naming the bad line."""
    if not path.is_file():
        raise InputError(f"no such {what} file", where=path,
                         hint=f"pass a JSONL file with one {what} object per line")
    records = []
    for number, line in enumerate(path.read_text(encoding="utf-8-sig").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(model.model_validate_json(line))
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(map(str, first["loc"]))
            raise InputError(f"bad {what} record: {first['msg']}" + (f" ({field})" if field else ""),
                             where=f"{path}:{number}", hint=hint) from None
    if not records:
        raise InputError(f"the {what}s file is empty", where=path, hint=f"add {what}s")
    return records


def load_questions(path: Path) -> list[Question]:
    """Questions from a JSONL file; InputError naming the line of a bad record."""
    return load_records(path, Question, "question",
                        'each line needs {"id", "type", "question", "gold_chapters"}; '
                        f"type is one of {', '.join(QUESTION_TYPES)}")


@dataclass
class Score:
    """recall@k, hit@k and MRR of one question under one retriever."""

    recall: float
    hit: float
    rr: float


def score(chapters: Sequence[int], gold: Sequence[int], k: int) -> Score:
    """Chapters of the ranked passages against the gold chapters."""
    top = list(chapters[:k])
    gold_set = set(gold)
    recall = len(set(top) & gold_set) / len(gold_set)
    first = next((rank for rank, ch in enumerate(chapters, start=1) if ch in gold_set), None)
    return Score(recall, 1.0 if recall > 0 else 0.0, 1.0 / first if first else 0.0)


@dataclass
class Tally:
    """Scores per question type for one retriever."""

    by_type: dict[str, list[Score]] = field(default_factory=lambda: defaultdict(list))

    def add(self, kind: str, value: Score) -> None:
        self.by_type[kind].append(value)

    def summary(self) -> dict:
        everything = [s for scores in self.by_type.values() for s in scores]
        answerable = [s for kind, scores in self.by_type.items() if kind != "unanswerable"
                      for s in scores]
        return {"overall": _mean(everything), "answerable": _mean(answerable),
                "by_type": {kind: _mean(scores) for kind, scores in sorted(self.by_type.items())}}


def _mean(scores: Sequence[Score]) -> dict:
    n = len(scores)
    if not n:
        return {"recall": 0.0, "hit": 0.0, "mrr": 0.0, "n": 0}
    return {"recall": round(sum(s.recall for s in scores) / n, 3),
            "hit": round(sum(s.hit for s in scores) / n, 3),
            "mrr": round(sum(s.rr for s in scores) / n, 3), "n": n}


Ranker = Callable[[str], list[int]]
"""A question → the chapters of its ranked passages."""


def evaluate(questions: Sequence[Question], agent_run: Callable[[str], tuple[list[int], str]],
             baselines: dict[str, Ranker], k: int = 5,
             progress: Callable[[int, int], None] | None = None) -> dict:
    """Score the agent (and each baseline) on every question; unanswerable questions are scored
    on whether the answer says the text does not tell (stop_reason not_in_text). Answerable
    questions the agent refused anyway are listed under `refused_answerable`: their evidence
    still scores, but the user got no answer."""
    tallies = {"agent": Tally(), **{name: Tally() for name in baselines}}
    latencies: list[float] = []
    refused_answerable: list[str] = []
    for done, q in enumerate(questions):
        if progress:
            progress(done, len(questions))
        started = time.perf_counter()
        chapters, stop_reason = agent_run(q.question)
        latencies.append((time.perf_counter() - started) * 1000)
        if not q.gold_chapters:
            refused = 1.0 if stop_reason == "not_in_text" else 0.0
            tallies["agent"].add(q.type, Score(refused, refused, refused))
            continue
        if stop_reason == "not_in_text":
            refused_answerable.append(q.id)
        tallies["agent"].add(q.type, score(chapters, q.gold_chapters, k))
        for name, ranker in baselines.items():
            tallies[name].add(q.type, score(ranker(q.question), q.gold_chapters, k))
    report = {"k": k, **tallies["agent"].summary(), "latency_ms": percentiles(latencies),
              "refused_answerable": refused_answerable,
              "baselines": {name: tallies[name].summary() for name in baselines}}
    return report


def percentiles(values: Sequence[float], digits: int = 1) -> dict:
    """p50 and p95 of `values` (0.0 for none), rounded to `digits`."""
    if not values:
        return {"p50": 0.0, "p95": 0.0}
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"p50": round(statistics.median(ordered), digits), "p95": round(p95, digits)}


def render(report: dict) -> str:
    """The report as a table for the terminal."""
    rows = [("", "agent", *report["baselines"].keys())]
    kinds = sorted(report["by_type"])
    for kind in [*kinds, "answerable", "overall"]:
        def cell(summary: dict, kind: str = kind) -> str:
            s = summary.get(kind) if kind in ("overall", "answerable") else summary[
                "by_type"].get(kind)
            return "—" if not s else f"{s['recall']:.2f} / {s['mrr']:.2f} (n={s['n']})"
        rows.append((kind, cell(report), *(cell(b) for b in report["baselines"].values())))
    widths = [max(len(str(r[i])) for r in rows) for i in range(len(rows[0]))]
    lines = [f"recall@{report['k']} / MRR per question type (unanswerable: share answered "
             "'not in the text')"]
    for row in rows:
        lines.append("  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)))
    lat = report["latency_ms"]
    lines.append(f"agent latency per question: p50 {lat['p50']} ms, p95 {lat['p95']} ms")
    refused = report.get("refused_answerable", [])
    if refused:
        lines.append(f"answerable questions answered 'not in the text': {len(refused)} "
                     f"({', '.join(refused[:8])}{'…' if len(refused) > 8 else ''})")
    return "\n".join(lines)


def to_json(report: dict) -> str:
    return json.dumps(report, ensure_ascii=False)
