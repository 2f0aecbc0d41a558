"""`lore timeline ENTITY`: an entity's appearances in story order."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tui.commands.defaults import world_option


def register(app: typer.Typer) -> None:
    app.command("timeline")(timeline_command)


def timeline_command(
    ctx: typer.Context,
    entity: Annotated[str, typer.Argument(help="a name or alias (关云长, the Count)")],
    world: Annotated[str, typer.Option("--world", callback=world_option, help="the world")],
    fmt: Annotated[str, typer.Option("--format", help="md, json or csv")] = "md",
    # only written, never read: a write-only file to overwrite was refused as "not readable"
    out: Annotated[Path | None, typer.Option(
        "--out", readable=False, help="write to this file")] = None,
    force: Annotated[bool, typer.Option("--force", help="overwrite --out if it exists")] = False,
) -> None:
    """Export the entity's timeline: chapter, title, story order, a gist and the source lines."""
    from agent.conversation.exports import export_timeline
    from agent.world.open_world import OpenWorld
    from tui.commands.sessions import write_or_print

    with OpenWorld.open(ctx.obj.settings, world) as opened:
        text = export_timeline(opened.retriever, entity, fmt,  # type: ignore[arg-type]
                               ctx.obj.settings.retrieval.spoiler_horizon)
    write_or_print(text, out, force)
