"""When should the librarian state a who-question's answer? Thresholds by leave-one-book-out.

    .venv/bin/python bench/stating.py [--home DIR] [--sets ...] [--ftqa-stride N]

Every question runs once through the offline reader with stating always on (the two thresholds
of agent/offline/compose.py at 0 and 1), recording for each stated name its support (the largest share
of the question's words one sentence naming it holds) and its runner-up's share of its votes;
`lore eval answers`' grading says whether the name is right. Each pair of thresholds is then
scored without running anything again: how many answers are stated, and how many of those are
right. For every development set, the pair chosen on the *other* development sets (the most
answers stated with at least 90% of them right, else the most right) is reported on the one left
out; held-out sets are only reported, with the pair all development sets choose.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.tune import (  # noqa: E402
    chosen_sets,
    close_all,
    librarian_modules,
    opened,
    render,
    set_options,
)

SUPPORTS = (None, 0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
"""None: only what a relation gives is stated."""
MARGINS = (1.0, 0.8, 0.6, 0.5, 0.4, 0.3)
PRECISION = 0.9


@dataclass
class Statement:
    """One stated answer under the always-state run."""

    set: str
    id: str
    right: bool
    support: float
    ratio: float
    """Runner-up's votes over the first's (0 with no runner-up)."""
    many: bool
    related: bool
    """The name is the other end of a relation of the kind asked for (declared or stated)."""
    name: str = ""
    sentences: int = 0
    """Sentences of the best passages naming it beside at least half the question's words."""
    beside_names: bool = False
    """One such sentence also names every entity the question names."""
    first: bool = False
    """It stands in the first passage's sentences."""


def compose_module():
    model, _ = librarian_modules()
    return sys.modules[model.compose.__module__]


def collect(run) -> list[Statement]:
    from agent.evals.answers import gold_key, names, stated

    compose = compose_module()
    seen: dict = {}
    weigh, related = compose.weigh_people, compose.related_answers

    def weigh_people(plan, ranked, words, names_in, *args, **kwargs):
        seen["candidates"] = weigh(plan, ranked, words, names_in, *args, **kwargs)
        seen["context"] = (plan, ranked, words, names_in)
        return seen["candidates"]

    def related_answers(plan, relations):
        found = related(plan, relations)
        seen["related"] = bool(found)
        return found

    statements = []
    with mock.patch.object(compose, "STATED_SUPPORT", 0.0), \
            mock.patch.object(compose, "STATED_MARGIN", 1.0), \
            mock.patch.object(compose, "weigh_people", weigh_people), \
            mock.patch.object(compose, "related_answers", related_answers):
        for q in run.questions:
            if not q.gold_chapters:
                continue
            seen.clear()
            result = run.runner.ask(q.question)
            cands = seen.get("candidates") or []
            if not cands or result.answer.stop_reason != "answered" or not stated(result).strip():
                continue
            key = gold_key(q, run.runner.retriever)
            statements.append(Statement(
                run.qs.name, q.id, names(result, key), cands[0].support,
                cands[1].votes / cands[0].votes if len(cands) > 1 else 0.0,
                bool(compose.MANY.search(q.question)), seen.get("related", False),
                cands[0].name, *context_features(cands[0].name, *seen["context"])))
    return statements


def context_features(name, plan, ranked, words, names_in) -> tuple[int, bool, bool]:
    compose = compose_module()
    total = sum(len(w) for w in words) or 1
    count, beside, first = 0, False, False
    for rank, passage in enumerate(ranked[:5]):
        for sentence in compose.sentences(passage.text):
            named = names_in(sentence)
            if name not in named:
                continue
            first = first or rank == 0
            if sum(len(w) for w in words if w in sentence) * 2 >= total:
                count += 1
                beside = beside or all(e in named for e in plan.entities)
    return count, beside, first


def passes(s: Statement, support: float | None, margin: float) -> bool:
    if s.related:
        return True
    return support is not None and s.support >= support and (s.many or s.ratio <= margin)


def tally(statements: list[Statement], support: float | None, margin: float) -> tuple[int, int]:
    chosen = [s for s in statements if passes(s, support, margin)]
    return len(chosen), sum(s.right for s in chosen)


def choose(statements: list[Statement]) -> tuple[float | None, float]:
    def goodness(pair: tuple[float | None, float]) -> tuple:
        n, right = tally(statements, *pair)
        precise = n > 0 and right / n >= PRECISION
        return (precise, right if precise else right / max(n, 1), n)

    return max(((s, m) for s in SUPPORTS for m in MARGINS), key=goodness)


def cell(statements: list[Statement], pair: tuple[float | None, float]) -> str:
    n, right = tally(statements, *pair)
    return f"{right}/{n} right" + (f" ({right / n:.0%})" if n else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    set_options(parser)
    parser.add_argument("--dump", type=Path, help="write every statement to this JSONL file")
    args = parser.parse_args()
    sets = chosen_sets(args)
    by_set: dict[str, list[Statement]] = {}
    held = {qs.name for qs in sets if qs.held_out}
    for qs in sets:
        try:
            by_set[qs.name] = collect(opened(qs, args))
        finally:
            close_all()
        print(f"{qs.name}: {len(by_set[qs.name])} who-answers stated when always stating",
              file=sys.stderr)
    if args.dump:
        args.dump.write_text("".join(json.dumps(asdict(s), ensure_ascii=False) + "\n"
                                     for ss in by_set.values() for s in ss))
    dev = [n for n in by_set if n not in held]
    default = (compose_module().STATED_SUPPORT, compose_module().STATED_MARGIN)
    rows = [("set", "always stating", f"default {default}", "chosen on the others", "its result")]
    for name in dev:
        others = [s for n in dev if n != name for s in by_set[n]]
        pair = choose(others)
        rows.append((name, cell(by_set[name], (0.0, 1.0)), cell(by_set[name], default),
                     str(pair), cell(by_set[name], pair)))
    everything = [s for n in dev for s in by_set[n]]
    pair = choose(everything)
    for name in by_set:
        if name in held:
            rows.append((name + "*", cell(by_set[name], (0.0, 1.0)), cell(by_set[name], default),
                         str(pair), cell(by_set[name], pair)))
    print(f"stated who-answers right (support, margin); * held out; all development sets "
          f"choose {pair}: {cell(everything, pair)}")
    print(render(rows))


if __name__ == "__main__":
    main()
