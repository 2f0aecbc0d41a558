"""Which of the librarian's rules and constants earn their keep on books they were not written for.

    .venv/bin/python bench/tune.py ablate [--sets ...] [--home DIR] [--json FILE]
    .venv/bin/python bench/tune.py fit    [--sets ...] [--home DIR] [--json FILE]

`ablate` turns each search rule of the offline reader off in turn (the calls it adds, the
grading, the per-chapter spread, …) and prints recall@5 / MRR per set beside the full system.
`fit` tries each tuned constant over a small range and chooses its value by leave-one-book-out:
for every development set, the value that scores best on the *other* development sets, reported
on the one left out. Held-out sets (bench/questions/README.md) never choose anything: they are
printed with the value the development sets chose, beside the default.

Everything runs in one process over the worlds `bench/retrieval_sets.py` ingests (same --home);
query embeddings are computed once and reused by every variant.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.retrieval_sets import ROOT, QuestionSet, prepare, question_sets  # noqa: E402

Patch = Callable[[], contextlib.AbstractContextManager]


def librarian_modules():
    """The rule-based reader's modules (its package moved once; look in both places)."""
    try:
        from agent.librarian import model, strategy  # type: ignore[attr-defined]
    except ImportError:
        from agent.offline import model, strategy
    return model, strategy


@contextlib.contextmanager
def nothing() -> Iterator[None]:
    yield


def without_steps(*prefixes: str) -> Patch:
    """The librarian makes every call but those whose label starts with one of `prefixes`."""
    model, _ = librarian_modules()
    original = model.Librarian._call

    def call(self, run, steps):
        kept = [s for s in steps if not s.label.startswith(prefixes)]
        return original(self, run, kept or steps[:1])

    return lambda: mock.patch.object(model.Librarian, "_call", call)


def with_constant(module_attr: str, value) -> Patch:
    """One module-level constant of the librarian set to `value`."""
    module, attr = module_attr.split(".")
    owner = importlib.import_module(f"agent.librarian.{module}")
    return lambda: mock.patch.object(owner, attr, value)


def without_grading() -> Patch:
    model, strategy = librarian_modules()
    fuse = strategy.fuse

    def ungraded(plan, results, pool, k=60, grade=None):
        return fuse(plan, results, pool, k, None)

    return lambda: mock.patch.object(model, "fuse", ungraded)


def without_diversity() -> Patch:
    _, strategy = librarian_modules()
    return lambda: mock.patch.object(strategy, "diversify", lambda ranked, *a, **k: ranked)


def without_alias_expansion() -> Patch:
    from agent.world.retrieval import Retriever

    return lambda: mock.patch.object(Retriever, "expand", lambda self, query: query)


def without_question_words() -> Patch:
    """Questions searched and graded with their question words (谁, 什么, which): the world's
    IDF alone weighs them down."""
    from stores.lang import asking

    never = re.compile(r"(?!x)x")

    @contextlib.contextmanager
    def patched() -> Iterator[None]:
        with mock.patch.object(asking, "QUESTION_WORDS_ZH", never), \
                mock.patch.object(asking, "QUESTION_WORDS_EN", never):
            yield

    return patched


def without_untold_death() -> Patch:
    model, _ = librarian_modules()
    return lambda: mock.patch.object(model.Librarian, "_death_untold", lambda self, *a: False)


def ablations() -> dict[str, Patch]:
    """Each rule of the librarian's search, off."""
    return {
        "full": nothing,
        "-quote": without_steps("quote"),
        "-entity": without_steps("entity"),
        "-death": without_steps("death"),
        "-question-words": without_question_words(),
        "-title": without_steps("title:"),
        "-graph": without_steps("graph", "typed"),
        "-kin": without_steps("kin"),
        "-bridge": without_steps("bridge:"),
        "-grading": without_grading(),
        "-diversify": without_diversity(),
        "-alias-expansion": without_alias_expansion(),
        "-en-weights": with_constant("strategy.EN_WEIGHTS", (1.0, 1.0)),
        "-refuse-death": without_untold_death(),
    }


CURRENT: dict = {}
"""The runner being measured (a setting is changed on its retriever)."""


@contextlib.contextmanager
def _retrieval_setting(name: str, value) -> Iterator[None]:
    owner = CURRENT["runner"].retriever.settings
    old = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, old)




def grids() -> dict[str, dict[str, Patch]]:
    """Each tuned constant over a small range (the default among them)."""
    return {
        "rrf_k": {str(v): _retrieval("rrf_k", v) for v in (20, 60, 120)},
        "GRADE_FLOOR": {str(v): with_constant("strategy.GRADE_FLOOR", v)
                        for v in (0.1, 0.25, 0.5, 1.0)},
        "EN_WEIGHTS": {str(v): with_constant("strategy.EN_WEIGHTS", v)
                       for v in ((1.0, 1.0), (2.0, 0.5), (1.5, 1.0))},
        "SHARED_TITLE_WORD": {str(v): with_constant("strategy.SHARED_TITLE_WORD", v)
                              for v in (1, 3, 6)},
        "HYBRID_WEIGHT": {str(v): with_constant("strategy.HYBRID_WEIGHT", v)
                          for v in (0.3, 0.6, 1.0, 1.5)},
        "ZH_WEIGHTS": {str(v): with_constant("strategy.ZH_WEIGHTS", v)
                       for v in ((1.0, 1.0), (0.5, 1.0), (1.0, 0.5), (2.0, 1.0))},
        "dense_weight": {str(v): _retrieval("dense_weight", v) for v in (0.5, 1.0, 1.5, 2.0)},
    }


def _retrieval(name: str, value) -> Patch:
    return lambda: _retrieval_setting(name, value)


DEFAULTS = {"rrf_k": "60", "GRADE_FLOOR": "0.25", "EN_WEIGHTS": "(2.0, 0.5)",
            "SHARED_TITLE_WORD": "3", "HYBRID_WEIGHT": "0.6", "ZH_WEIGHTS": "(1.0, 1.0)",
            "dense_weight": "1.0"}


@dataclass
class SetRun:
    """One question set opened once, asked under each variant."""

    qs: QuestionSet
    questions: list
    runner: object

    def measure(self, patch: Patch) -> dict:
        from agent.evals.retrieval import score

        CURRENT["runner"] = self.runner
        recall = rr = 0.0
        n = refused = caught = unanswerable = 0
        per_question = {}
        with patch():
            for q in self.questions:
                chapters, stop = self.runner.run(q.question)  # type: ignore[attr-defined]
                if not q.gold_chapters:
                    unanswerable += 1
                    caught += stop == "not_in_text"
                    continue
                s = score(chapters, q.gold_chapters, 5)
                recall, rr, n = recall + s.recall, rr + s.rr, n + 1
                refused += stop == "not_in_text"
                per_question[q.id] = (round(s.recall, 3), round(s.rr, 3))
        return {"recall": recall / n, "mrr": rr / n, "n": n, "refused": refused,
                "unanswerable": unanswerable, "caught": caught, "questions": per_question}


RUNNERS: dict[str, object] = {}
"""One runner per world: two question sets of one book share its stores (one process may open
a Qdrant path once)."""


def open_set(qs: QuestionSet, home: Path, stride: int) -> SetRun:
    from agent.evals.retrieval import load_questions

    if qs.world not in RUNNERS:
        RUNNERS[qs.world] = _runner(qs.world, home)
    questions = load_questions(qs.questions)[::stride]
    return SetRun(qs, questions, RUNNERS[qs.world])


def _runner(world: str, home: Path):
    """The world's runner, its query embeddings computed once for every variant."""
    from agent.evals.runner import AgentRunner
    from tui.settings import load_settings  # the app's settings: config.toml has [keymap]

    runner = AgentRunner(load_settings(data_dir=home), world)
    embedder = runner.retriever.stores.embedder
    embed, memo = embedder.embed, {}

    def cached(texts):
        key = tuple(texts)
        if key not in memo:
            memo[key] = embed(texts)
        return memo[key]

    embedder.embed = cached
    return runner


def close_all() -> None:
    for runner in RUNNERS.values():
        runner.close()  # type: ignore[attr-defined]
    RUNNERS.clear()


def cell(m: dict) -> str:
    return f"{m['recall']:.2f}/{m['mrr']:.2f}"


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def ablate(runs: list[SetRun], only: list[str]) -> dict:
    """Each variant on every set; a variant's row is printed as soon as it is measured."""
    variants = {n: p for n, p in ablations().items() if not only or n in only or n == "full"}
    header = ["variant", *(r.qs.name + ("*" if r.qs.held_out else "") for r in runs),
              "dev mean", "held-out mean"]
    print("recall@5/MRR on answerable questions; * held out (never chooses anything)")
    results = {}
    rows = [header]
    for name, patch in _progress(variants):
        by_set = results[name] = {r.qs.name: r.measure(patch) for r in runs}
        dev = [by_set[r.qs.name] for r in runs if not r.qs.held_out]
        held = [by_set[r.qs.name] for r in runs if r.qs.held_out]
        rows.append([name, *(cell(by_set[r.qs.name]) for r in runs),
                     _mean_cell(dev), _mean_cell(held)])
        print("  ".join(rows[-1]), flush=True)
    print(render(rows))
    print("\n'not in the text': answerable questions refused / unanswerable ones caught (of n)")
    said = [header[:-2]]
    for name, by_set in results.items():
        said.append([name, *(f"{m['refused']} / {m['caught']} of {m['unanswerable']}"
                             for m in (by_set[r.qs.name] for r in runs))])
    print(render(said))
    return results


def fit(runs: list[SetRun], knobs: list[str]) -> dict:
    dev = [r for r in runs if not r.qs.held_out]
    held = [r for r in runs if r.qs.held_out]
    report: dict = {}
    for knob, values in grids().items():
        if knobs and knob not in knobs:
            continue
        measured = {value: {r.qs.name: r.measure(patch) for r in runs}
                    for value, patch in _progress(values, knob)}

        def goodness(value: str, sets: list[SetRun], measured: dict = measured) -> float:
            return mean([(measured[value][r.qs.name]["recall"] + measured[value][r.qs.name]["mrr"])
                         / 2 for r in sets])

        rows = [["left out", "chosen on the others", "its score", "default's score"]]
        for left in dev:
            others = [r for r in dev if r is not left]
            chosen = max(values, key=lambda v, others=others: goodness(v, others))
            rows.append([left.qs.name, chosen, cell(measured[chosen][left.qs.name]),
                         cell(measured[DEFAULTS[knob]][left.qs.name])])
        chosen_all = max(values, key=lambda v: goodness(v, dev))
        for r in held:
            rows.append([r.qs.name + "*", chosen_all, cell(measured[chosen_all][r.qs.name]),
                         cell(measured[DEFAULTS[knob]][r.qs.name])])
        print(f"\n{knob}: default {DEFAULTS[knob]}, chosen on all development sets "
              f"{chosen_all}")
        print("  per value (dev mean | held-out mean): " + "; ".join(
            f"{v}: {_mean_cell([measured[v][r.qs.name] for r in dev])} | "
            f"{_mean_cell([measured[v][r.qs.name] for r in held])}" for v in values))
        print(render(rows))
        report[knob] = {"chosen": chosen_all, "measured": measured}
    return report


def _progress(variants: dict, label: str = "") -> Iterator:
    for name, patch in variants.items():
        started = time.perf_counter()
        yield name, patch
        print(f"  {label} {name}: {time.perf_counter() - started:.0f} s", file=sys.stderr)


def _mean_cell(ms: list[dict]) -> str:
    if not ms:
        return "—"
    return f"{mean([m['recall'] for m in ms]):.3f}/{mean([m['mrr'] for m in ms]):.3f}"


def render(rows: list) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows)


def set_options(parser: argparse.ArgumentParser) -> None:
    """--home, --sets and --ftqa-stride, as bench/answers_fit.py shares them."""
    parser.add_argument("--home", type=Path, default=ROOT / "bench/results/worlds")
    parser.add_argument("--sets", default="", help="comma-separated set names (default: all)")
    parser.add_argument("--ftqa-stride", type=int, default=4,
                        help="ask every Nth FairytaleQA question (866 in all)")


def chosen_sets(args: argparse.Namespace) -> list[QuestionSet]:
    """The sets asked for; LORE_HOME is pointed at --home for the stores opened in-process."""
    os.environ["LORE_HOME"] = str(args.home)
    sets = question_sets(args.home / "ftqa-source")
    return [qs for qs in sets if not args.sets or qs.name in set(args.sets.split(","))]


def opened(qs: QuestionSet, args: argparse.Namespace) -> SetRun:
    """The set's world ingested if needed, then opened with its questions."""
    prepare(qs, args.home, args.home / "ftqa-source")
    return open_set(qs, args.home, args.ftqa_stride if qs.name == "fairytaleqa" else 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("ablate", "fit"))
    set_options(parser)
    parser.add_argument("--only", default="", help="ablate: these variants (and full) only")
    parser.add_argument("--json", type=Path, help="also write the measurements to this file")
    parser.add_argument("--knobs", default="", help="fit: these constants only (default: all)")
    args = parser.parse_args()
    runs = [opened(qs, args) for qs in chosen_sets(args)]
    report = ablate(runs, args.only.split(",") if args.only else []) if args.mode == "ablate" \
        else fit(runs, args.knobs.split(",") if args.knobs else [])
    if args.json:
        args.json.write_text(json.dumps(report, ensure_ascii=False, indent=1, default=str))
    close_all()


if __name__ == "__main__":
    main()
