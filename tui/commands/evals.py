"""`lore eval retrieval` (and the other evaluations as they arrive)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from tui.commands.defaults import world_option
from tui.terminal import echo

eval_app = typer.Typer(help="Measure retrieval and conversation quality.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(eval_app, name="eval")


def progress_line(label: str):
    """A progress callback that rewrites one line on stderr (only on a terminal)."""
    started = time.perf_counter()
    tty = sys.stderr.isatty()

    def report(done: int, total: int) -> None:
        if not tty and done not in (0, total):
            return
        elapsed = time.perf_counter() - started
        end = "\n" if done == total or not tty else ""
        sys.stderr.write(f"\r{label}: {done}/{total} ({elapsed:.0f} s){end}")
        sys.stderr.flush()

    return report


@eval_app.command("retrieval")
def retrieval_command(
    ctx: typer.Context,
    world: Annotated[str, typer.Option(
        "--world", callback=world_option,
        help="the world the questions are about")],
    questions: Annotated[Path, typer.Option("--questions", help="questions JSONL (DESIGN.md)")],
    k: Annotated[int, typer.Option("--k", help="passages that count", min=1, max=50)] = 5,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    no_baselines: Annotated[bool, typer.Option("--no-baselines",
                                               help="skip plain BM25 / dense / hybrid")] = False,
) -> None:
    """Recall@k, hit@k and MRR of the agent's evidence, per question type, with baselines."""
    from agent.evals.retrieval import evaluate, load_questions, render, to_json
    from agent.evals.runner import AgentRunner

    settings = ctx.obj.settings
    items = load_questions(questions)
    runner = AgentRunner(settings, world)
    retriever, horizon = runner.retriever, runner.horizon
    try:
        baselines = {} if no_baselines else {
            "bm25": lambda q: [p.chapter for p in retriever.keyword(q, k, horizon=horizon)],
            "dense": lambda q: [p.chapter for p in retriever.dense(q, k, horizon=horizon)],
            "hybrid": lambda q: [p.chapter for p in retriever.hybrid(q, k, horizon=horizon)],
        }
        report = evaluate(items, runner.run, baselines, k)
    finally:
        runner.close()
    echo(to_json(report) if as_json else render(report))


@eval_app.command("answers")
def answers_command(
    ctx: typer.Context,
    world: Annotated[str, typer.Option(
        "--world", callback=world_option,
        help="the world the questions are about")],
    questions: Annotated[Path, typer.Option("--questions", help="questions JSONL (DESIGN.md)")],
    as_json: Annotated[bool, typer.Option("--json", help="print JSON, with every question")] = False,
    limit: Annotated[int, typer.Option("--limit", help="only the first N questions (0 = all)",
                                       min=0)] = 0,
) -> None:
    """Whether the answers name the gold answer or say 'not in the text', with their cost."""
    import json

    from agent.evals.answers import grade_all, render, summarise, timed
    from agent.evals.retrieval import load_questions
    from agent.evals.runner import AgentRunner

    settings = ctx.obj.settings
    items = load_questions(questions)
    items = items[:limit] if limit else items
    runner = AgentRunner(settings, world)
    try:
        grades = grade_all(items, runner.retriever, timed(runner.ask), progress_line("questions"))
    finally:
        runner.close()
    report = summarise(grades)
    reader = f"{settings.model.provider}" + (f"/{settings.model.name}" if settings.model.name
                                             else "")
    echo(json.dumps({"reader": reader, **report}, ensure_ascii=False) if as_json
         else render(report, reader))


@eval_app.command("cards")
def cards_command(
    ctx: typer.Context,
    world: Annotated[str, typer.Option(
        "--world", callback=world_option,
        help="the world the people are in")],
    questions: Annotated[Path, typer.Option("--questions", help="a cards JSONL (bench/questions/"
                                                               "README.md)")],
    horizon: Annotated[int, typer.Option("--horizon", min=0, help="chapter for the spoiler check "
                                         "(default: the story's middle chapter)")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON, with every record")] = False,
) -> None:
    """Whether "who is X" says who X is in its first sentence, and whether every card read as of
    a chapter cites nothing later."""
    from agent.evals.cards import (
        grade_cards,
        late_citations,
        load_cards,
        middle_chapter,
        render,
        summarise,
        to_json,
    )
    from agent.evals.runner import AgentRunner

    records = load_cards(questions)
    runner = AgentRunner(ctx.obj.settings, world)
    try:
        grades = grade_cards(records, runner.retriever, runner.ask)
        at = horizon or middle_chapter(runner.retriever)
        checked, late = late_citations(runner.retriever, at)
    finally:
        runner.close()
    report = summarise(grades, checked, late, at)
    echo(to_json(report) if as_json else render(report))


@eval_app.command("entities")
def entities_command(
    ctx: typer.Context,
    world: Annotated[str, typer.Option("--world", help="the world the book was ingested as")],
    merges: Annotated[Path | None, typer.Option("--merges", help="name pairs JSONL (bench/"
                                                "questions/README.md, entity sets)")] = None,
    people: Annotated[Path | None, typer.Option("--people", help="main people JSONL")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON, with every record")] = False,
) -> None:
    """Whether the world knows who is who: name pairs merged into one entity or kept apart
    (precision, recall), and the main people found under their full name."""
    from agent.evals.entities import (
        PAIR_FIELDS,
        PERSON_FIELDS,
        evaluate,
        load_records,
        render,
        to_json,
    )
    from stores.errors import ConfigError
    from stores.world import WorldStores

    if merges is None and people is None:
        raise ConfigError("nothing to measure", where="lore eval entities",
                          hint="give --merges FILE, --people FILE or both")
    pairs = load_records(merges, PAIR_FIELDS) if merges else []
    persons = load_records(people, PERSON_FIELDS) if people else []
    stores = WorldStores(ctx.obj.settings, world)
    try:
        stores.require()
        entities = stores.catalog.entities(world)
    finally:
        stores.close()
    report = evaluate(entities, pairs, persons)
    echo(to_json(report) if as_json else render(report))
