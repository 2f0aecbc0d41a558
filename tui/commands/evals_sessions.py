"""`lore eval dialogues` and `lore eval locomo`: the conversation evaluations.

Both add themselves to the `eval` sub-app of tui.commands.evals; they run in throw-away session
databases, so the user's sessions never see them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tui.commands.defaults import world_option
from tui.commands.evals import eval_app, progress_line
from tui.terminal import echo


@eval_app.command("dialogues")
def dialogues_command(
    ctx: typer.Context,
    world: Annotated[str, typer.Option(
        "--world", callback=world_option,
        help="the world the dialogues are about")],
    dialogues: Annotated[Path, typer.Option("--dialogues", help="dialogues JSONL (DESIGN.md)")],
    k: Annotated[int, typer.Option("--k", help="passages that count", min=1, max=50)] = 5,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Follow-up resolution accuracy and recall@k of each dialogue turn, each dialogue a session."""
    from agent.evals.dialogues import evaluate_dialogues, load_dialogues, render, to_json

    items = load_dialogues(dialogues)
    report = evaluate_dialogues(ctx.obj.settings, world, items, k, progress_line("turns"))
    echo(to_json(report) if as_json else render(report))


@eval_app.command("locomo")
def locomo_command(
    ctx: typer.Context,
    data: Annotated[Path, typer.Option("--data", help="LoCoMo's locomo10.json")],
    k: Annotated[int, typer.Option("--k", help="memories that count", min=1, max=100)] = 10,
    limit_samples: Annotated[int | None, typer.Option(
        "--limit-samples", help="only the first N conversations", min=1)] = None,
    window: Annotated[int | None, typer.Option(
        "--window", help="dialogue turns per stored memory (default 2)", min=1, max=50)] = None,
    abstain_below: Annotated[float | None, typer.Option(
        "--abstain-below", help="score abstaining when the best memory's similarity is below "
        "this (default: no abstention; the similarity does not separate category 5)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Evidence recall@k of recall_session on LoCoMo, per category; category 5 as abstention."""
    from agent.evals.locomo import (
        DEFAULT_ABSTAIN_BELOW,
        DEFAULT_WINDOW,
        evaluate_locomo,
        render,
        to_json,
    )

    report = evaluate_locomo(
        ctx.obj.settings, data, k=k, limit_samples=limit_samples,
        window=DEFAULT_WINDOW if window is None else window,
        abstain_below=DEFAULT_ABSTAIN_BELOW if abstain_below is None else abstain_below,
        progress=progress_line)
    echo(to_json(report) if as_json else render(report))
