"""`lore card ENTITY`: what the world says of an entity, as of the spoiler horizon."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer

from stores.models import chapter_label
from tui.terminal import echo


def register(app: typer.Typer) -> None:
    app.command("card")(card_command)


def card_command(
    ctx: typer.Context,
    entity: Annotated[str, typer.Argument(help="a name or alias (孔明, Shen Yan)")],
    world: Annotated[str, typer.Option("--world", help="the world")],
    horizon: Annotated[int | None, typer.Option(
        "--horizon", min=0, help="read only up to this chapter (default: retrieval."
                                 "spoiler_horizon; 0 shows everything)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="the card's facts as JSON")] = False,
) -> None:
    """Who or what the entity is: its lore entry, the sentences that introduce it, offices,
    relations, first and last appearance and key chapters, each with the passage it stands on."""
    from agent.cards import Voice, card_answer
    from agent.retrieval import opened_world
    from agent.stack import lexicon_of
    from stores.lang import has_han

    with opened_world(ctx.obj.settings, world) as retriever:
        if horizon is not None:
            retriever.horizon = horizon
        name = retriever.resolve(entity)
        card = retriever.card(name)
        if card is None:
            raise typer.BadParameter(f"{name} has no card yet: run `lore ingest` on the world "
                                     "again to build the cards", param_hint="ENTITY")
        voice = Voice(has_han(entity), retriever.entities, lexicon_of(retriever).gender)
        answer = card_answer(card, retriever.chunks, voice, retriever.horizon)
        if as_json:
            seen = card.as_of(retriever.horizon)
            echo(json.dumps({"entity": name, "horizon": retriever.horizon, "text": answer.text,
                             "citations": [c.model_dump() for c in answer.citations],
                             "card": asdict(seen)}, ensure_ascii=False, indent=2))
            return
        echo(answer.text)
        if answer.citations:
            echo("")
        for i, c in enumerate(answer.citations, start=1):
            where = chapter_label(c.chapter, voice.chinese)
            echo(f"[{i}] {where} · {Path(c.source).name}:{c.lines[0]}–{c.lines[1]}")
            echo(f"    “{' '.join(c.quote.split())}”")
