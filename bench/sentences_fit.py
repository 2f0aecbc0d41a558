"""Fit the offline reader's sentence ranking (agent/librarian/ranking.py), book by book.

    .venv/bin/python bench/sentences_fit.py [--home DIR] [--sets ...] [--write] [--json FILE]
    .venv/bin/python bench/sentences_fit.py --rows rows.jsonl     # refit without asking again

Every answerable question runs once through the librarian; each sentence its ranking reads is
kept with its features and whether it holds the gold answer (`lore eval answers`' key: the
answer's names, number or words — or the question's evidence quote). A logistic model is then
fitted on the sentences, without running anything again:

- each development set is ranked with the weights fitted on the *other* development sets
  (leave-one-book-out): the figure a book nobody tuned on would see;
- held-out sets (bench/questions/README.md) are only ranked, with the weights every development
  set gives;
- "what each feature adds": every feature left out in turn, refitted the same way.

Printed per set: the share of answerable questions whose best sentence holds the answer (the
first line), whose best three do, and whose sentences hold it at all (the context). `--write`
stores the all-development weights in agent/librarian/ranking_weights.json.
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

L2 = 1.0
WEIGHTS = Path(__file__).resolve().parents[1] / "agent/librarian/ranking_weights.json"


@dataclass
class Asked:
    """One answerable question and the sentences the librarian ranked for it."""

    set: str
    id: str
    vectors: list[list[float]] = field(default_factory=list)
    right: list[bool] = field(default_factory=list)


def collect(run) -> list[Asked]:
    from agent.evals.answers import gold_key, holds
    from agent.librarian import ranking

    runner = run.runner
    seen: list = []
    original = ranking.gather

    def spy(plan, ranked, reading, top=ranking.TOP):
        found = original(plan, ranked, reading, top)
        seen.append((plan.question, found))
        return found

    rows = []
    with mock.patch.object(ranking, "gather", spy):
        for q in run.questions:
            if not q.gold_chapters:
                continue
            seen.clear()
            runner.ask(q.question)
            found = next((f for question, f in reversed(seen) if question == q.question),
                         seen[-1][1] if seen else [])
            key = gold_key(q, runner.retriever)
            row = Asked(run.qs.name, q.id)
            for s in found:
                row.vectors.append(s.vector())
                row.right.append(holds(s.text, key, q.evidence))
            rows.append(row)
    return rows


def fit(rows: list[Asked], keep: list[int]) -> np.ndarray:
    """Weights over the features `keep` that rank each question's sentences holding the answer
    first: a conditional logit (softmax over one question's sentences), so a question counts
    once however many sentences it has, and each set weighs the same however many questions."""
    groups = [(np.array([[v[i] for i in keep] for v in r.vectors], dtype=float),
               np.array(r.right, dtype=bool), r.set) for r in rows if any(r.right) and
              not all(r.right)]
    w = np.zeros(len(keep))
    if not groups:
        return w
    sizes: dict[str, int] = {}
    for _, _, name in groups:
        sizes[name] = sizes.get(name, 0) + 1
    for _ in range(400):
        grad = np.zeros_like(w)
        for x, right, name in groups:
            z = x @ w
            p = np.exp(z - z.max())
            p /= p.sum()
            q = np.where(right, p, 0.0)
            q /= q.sum()
            grad += (x.T @ (p - q)) / (sizes[name] * len(sizes))
        grad += L2 * np.r_[0.0, w[1:]] / len(groups)
        w -= 2.0 * grad
    return w


def ranks(rows: list[Asked], w: np.ndarray, keep: list[int]) -> dict:
    """Per question: does the best sentence hold the answer, do the best three, does any."""
    first = three = any_ = 0
    for row in rows:
        if not row.vectors:
            continue
        x = np.array([[v[i] for i in keep] for v in row.vectors])
        # ties keep the reading order (best passage first): a stable sort
        order = np.argsort(-(x @ w), kind="stable")
        first += row.right[order[0]]
        three += any(row.right[i] for i in order[:3])
        any_ += any(row.right)
    n = len(rows)
    return {"n": n, "first": first / n if n else 0.0, "three": three / n if n else 0.0,
            "context": any_ / n if n else 0.0}


def out_of_fold(rows: dict[str, list[Asked]], dev: list[str], keep: list[int]) -> dict:
    return {name: ranks(rows[name], fit([r for n in dev if n != name for r in rows[n]], keep),
                        keep) for name in dev}


def main() -> None:
    from agent.librarian.ranking import FEATURES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    set_options(parser)
    parser.add_argument("--write", action="store_true", help="store the development weights")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument("--dump", type=Path, help="write every question's sentences here")
    parser.add_argument("--rows", type=Path, help="fit on a --dump file instead of asking")
    args = parser.parse_args()
    sets = chosen_sets(args)
    held = {qs.name for qs in sets if qs.held_out}
    rows: dict[str, list[Asked]] = {}
    if args.rows:
        for line in args.rows.read_text().splitlines():
            row = Asked(**json.loads(line))
            rows.setdefault(row.set, []).append(row)
    else:
        for qs in sets:
            try:
                rows[qs.name] = collect(opened(qs, args))
            finally:
                close_all()
            print(f"{qs.name}: {len(rows[qs.name])} answerable questions", file=sys.stderr)
    if args.dump:
        args.dump.write_text("".join(json.dumps(asdict(r)) + "\n" for rs in rows.values()
                                     for r in rs))
    dev = [n for n in rows if n not in held]
    every = list(range(len(FEATURES)))
    table = [("set", "weights from", "first line", "best three", "context")]
    figures: dict[str, dict] = {}
    for name, f in out_of_fold(rows, dev, every).items():
        figures[name] = f
        table.append((name, "the others", f"{f['first']:.0%}", f"{f['three']:.0%}",
                      f"{f['context']:.0%} of {f['n']}"))
    w = fit([r for n in dev for r in rows[n]], every)
    for name in rows:
        if name in held:
            f = figures[name] = {**ranks(rows[name], w, every), "held_out": True}
            table.append((name + " (held out)", "all development", f"{f['first']:.0%}",
                          f"{f['three']:.0%}", f"{f['context']:.0%} of {f['n']}"))
    weights = {name: round(float(v), 4) for name, v in zip(FEATURES, w, strict=True)}
    print("weights from every development set (" + ", ".join(dev) + "):")
    print("  " + ", ".join(f"{k} {v:+.2f}" for k, v in weights.items()))
    print(render(table))
    print("\nwhat each feature adds (development, out of fold: mean first-line share)")
    base = np.mean([figures[n]["first"] for n in dev]) if dev else 0.0
    lines = [("left out", "first line", "change")]
    for i, feature in enumerate(FEATURES[1:], start=1):
        keep = [j for j in every if j != i]
        without = out_of_fold(rows, dev, keep)
        share = float(np.mean([without[n]["first"] for n in dev]))
        lines.append((feature, f"{share:.1%}", f"{base - share:+.1%}"))
    print(render(lines))
    if args.write:
        WEIGHTS.write_text(json.dumps({
            "weights": weights,
            "fitted": f"bench/sentences_fit.py on {', '.join(dev)}"}, indent=1) + "\n")
        print(f"wrote {WEIGHTS}")
    if args.json:
        args.json.write_text(json.dumps({"weights": weights, "sets": figures}, indent=1))


if __name__ == "__main__":
    main()
