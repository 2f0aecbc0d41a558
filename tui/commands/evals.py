"""`lore eval retrieval` (and the other evaluations as they arrive)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

eval_app = typer.Typer(help="Measure retrieval and conversation quality.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(eval_app, name="eval")


@eval_app.command("retrieval")
def retrieval_command(
    ctx: typer.Context,
    world: Annotated[str, typer.Option("--world", help="the world the questions are about")],
    questions: Annotated[Path, typer.Option("--questions", help="questions JSONL (DESIGN.md)")],
    k: Annotated[int, typer.Option("--k", help="passages that count", min=1, max=50)] = 5,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    no_baselines: Annotated[bool, typer.Option("--no-baselines",
                                               help="skip plain BM25 / dense")] = False,
) -> None:
    """Recall@k, hit@k and MRR of the agent's evidence, per question type, with baselines."""
    from agent.evals.retrieval import evaluate, load_questions, render, to_json
    from agent.evals.runner import AgentRunner

    settings = ctx.obj.settings
    items = load_questions(questions)
    runner = AgentRunner(settings, world)
    try:
        baselines = {} if no_baselines else {
            "bm25": lambda q: [p.chapter for p in runner.retriever.keyword(q, k)],
            "dense": lambda q: [p.chapter for p in runner.retriever.dense(q, k)],
        }
        report = evaluate(items, runner.run, baselines, k)
    finally:
        runner.close()
    typer.echo(to_json(report) if as_json else render(report))
