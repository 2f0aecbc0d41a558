"""`lore card ENTITY`: what the world says of an entity, as of the spoiler horizon."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer

from stores.lang import in_quotes
from stores.models import chapter_label, chapter_number, shown_path
from tui.commands.defaults import world_option
from tui.terminal import echo


def register(app: typer.Typer) -> None:
    app.command("card")(card_command)


def card_command(
    ctx: typer.Context,
    entity: Annotated[str, typer.Argument(help="a name or alias (孔明, Shen Yan)")],
    world: Annotated[str | None, typer.Option(
        "--world", callback=world_option,
        help="the world (default: the only one, else the one used last)")] = None,
    horizon: Annotated[int | None, typer.Option(
        "--horizon", min=0, help="read only up to this chapter (default: retrieval."
                                 "spoiler_horizon; 0 shows everything)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="the card's facts as JSON")] = False,
) -> None:
    """Who or what the entity is: its lore entry, the sentences that introduce it, offices,
    relations, first and last appearance and key chapters, each with the passage it stands on."""
    import shlex

    from agent.views.card_text import entity_card
    from agent.world.open_world import OpenWorld
    from sessions.store import SessionStore
    from stores.lang import has_han
    from tui.commands.defaults import default_world

    settings = ctx.obj.settings
    if world is None:
        store = SessionStore(settings.sessions_path)
        try:
            world, why = default_world(settings, store, f"lore card {shlex.quote(entity)}",
                                       entity=entity)
        finally:
            store.close()
        echo(f"world: {world} ({why}; --world picks another)", err=True)
    with OpenWorld.open(settings, world) as opened:
        retriever = opened.retriever
        at = (settings.retrieval.spoiler_horizon if horizon is None
              else retriever.within_story(horizon, "--horizon"))
        answer = entity_card(retriever, entity, at)
        if as_json:
            name = retriever.resolve(entity)
            card = retriever.card(name)
            facts = asdict(card.as_of(at)) if card else {}
            for fact in facts.get("facts", []):
                fact["chapter"] = chapter_number(fact["chapter"])
            citations = [{**c.model_dump(), "chapter": chapter_number(c.chapter)}
                         for c in answer.citations]
            echo(json.dumps({"entity": name, "world": world, "horizon": at, "text": answer.text,
                             "citations": citations, "card": facts}, ensure_ascii=False,
                            indent=2))
            return
        chinese = has_han(entity)
        echo(answer.text)
        if answer.citations:
            echo("")
        for i, c in enumerate(answer.citations, start=1):
            where = chapter_label(c.chapter, chinese)
            source = shown_path(Path(c.source).name)
            echo(f"[{i}] {where} · {source}:{c.lines[0]}–{c.lines[1]}")
            echo(f"    {in_quotes(c.quote)}")
