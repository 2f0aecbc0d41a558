"""`lore eval retrieval` (and the other evaluations as they arrive)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer

from tui.terminal import echo

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
    from agent.evaluation import evaluate, load_questions, render, to_json

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
    echo(to_json(report) if as_json else render(report))


class AgentRunner:
    """Runs single questions through the configured agent and returns the evidence chapters."""

    def __init__(self, settings, world: str) -> None:
        from agent.core import build_agent
        from agent.models import make_model
        from agent.offline.model import Librarian
        from agent.retrieval import Retriever
        from stores.world import WorldStores

        self.stores = WorldStores(settings, world)
        self.stores.require()
        self.retriever = Retriever(self.stores, settings.retrieval)
        self.librarian = Librarian(self.retriever) if settings.model.provider == "offline" else None
        model = self.librarian.model() if self.librarian else make_model(settings.model)
        self.agent = build_agent(model, settings.model)
        self.loop = asyncio.new_event_loop()

    def run(self, question: str) -> tuple[list[int], str]:
        from agent.core import ask
        from agent.deps import LoreDeps

        deps = LoreDeps(retriever=self.retriever)
        result = self.loop.run_until_complete(ask(self.agent, deps, question))
        if self.librarian is not None:
            evidence = self.librarian.last_evidence
        else:
            evidence = sorted(deps.seen.values(), key=lambda p: -getattr(p, "score", 0.0))
        cited = [c.chapter for c in result.answer.citations]
        chapters = cited if self.librarian is None else []
        chapters += [p.chapter for p in evidence if hasattr(p, "chapter")]
        return chapters, result.answer.stop_reason

    def close(self) -> None:
        self.loop.close()
        self.stores.close()
