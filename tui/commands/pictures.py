"""`lore map ENTITY` and `lore chart ENTITY...`: an entity's relations map and a presence chart,
as pictures (SVG, PNG: drawn by Graphviz's dot) or data, as of the spoiler horizon."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer

from tui.terminal import echo


def register(app: typer.Typer) -> None:
    app.command("map")(map_command)
    app.command("chart")(chart_command)


WorldOption = Annotated[str | None, typer.Option(
    "--world", help="the world (default: the only one, else the one used last)")]
HorizonOption = Annotated[int | None, typer.Option(
    "--horizon", min=0, help="draw only what the text says up to this chapter (default: "
                             "retrieval.spoiler_horizon; 0 draws everything)")]
OutOption = Annotated[Path | None, typer.Option("--out", help="write to this file")]
ForceOption = Annotated[bool, typer.Option("--force", help="overwrite --out if it exists")]


def map_command(
    ctx: typer.Context,
    entity: Annotated[str, typer.Argument(help="a name or alias (玄德, Shen Yan)")],
    world: WorldOption = None,
    hops: Annotated[int, typer.Option("--hops", min=1, max=2,
                                      help="1: its own relations; 2: theirs too")] = 1,
    horizon: HorizonOption = None,
    fmt: Annotated[str | None, typer.Option(
        "--format", help="text, svg, png, dot, mermaid or json (default: text on a terminal, "
                         "else svg)")] = None,
    out: OutOption = None,
    force: ForceOption = False,
) -> None:
    """The entity's relations map: its typed relations grouped by kind, each with its chapter
    and the sentence that states it; names in the same passages apart (co-occurrence, not a
    relation)."""
    from agent.views.pictures import export_map
    from agent.views.relmap import relation_map
    from agent.world.open_world import OpenWorld
    from tui.commands.sessions import write_or_print

    settings = ctx.obj.settings
    world = _world(settings, world, f"lore map {shlex.quote(entity)}")
    with OpenWorld.open(settings, world) as opened:
        at = _horizon(opened.retriever, settings, horizon)
        found = relation_map(opened.retriever, entity, hops, at)
    if fmt is None:  # a reader at a terminal reads lines, a file or a pipe gets the picture
        fmt = "text" if out is None and sys.stdout.isatty() else "svg"
    data = export_map(found, fmt)
    if fmt != "text":
        echo(found.heading(), err=True)  # stderr: stdout may be the picture itself
    write_or_print(data, out, force)
    _font_note(fmt, found.heading())


def chart_command(
    ctx: typer.Context,
    entities: Annotated[list[str], typer.Argument(help="up to six names or aliases")],
    world: WorldOption = None,
    horizon: HorizonOption = None,
    fmt: Annotated[str, typer.Option("--format", help="svg, png, csv or json")] = "svg",
    out: OutOption = None,
    force: ForceOption = False,
) -> None:
    """A presence chart: the chapters across, the entities down, each cell shaded by the
    entity's mentions in that chapter."""
    from agent.views.presence import MAX_ENTITIES, export_chart, presence
    from agent.world.open_world import OpenWorld
    from stores.errors import LoreError
    from tui.commands.sessions import write_or_print

    if len(entities) > MAX_ENTITIES:
        raise LoreError(f"a chart holds {MAX_ENTITIES} entities at most ({len(entities)} given)",
                        where="lore chart", hint="leave some out, or draw two charts")
    settings = ctx.obj.settings
    world = _world(settings, world, "lore chart " + " ".join(map(shlex.quote, entities)))
    with OpenWorld.open(settings, world) as opened:
        at = _horizon(opened.retriever, settings, horizon)
        chart = presence(opened.retriever, entities, at)
    write_or_print(export_chart(chart, fmt), out, force)
    _font_note(fmt, " ".join(entities))


def _font_note(fmt: str, names: str) -> None:
    from agent.views.pictures import missing_font

    if note := missing_font(fmt, names):
        echo(f"note: {note}", err=True)


def _horizon(retriever, settings, horizon: int | None) -> int:
    """--horizon as given (checked against the story's chapters), else the configured one."""
    if horizon is None:
        return settings.retrieval.spoiler_horizon
    return retriever.within_story(horizon, "--horizon")


def _world(settings, world: str | None, command: str) -> str:
    """The world asked for, else the default one (said on stderr, as `lore card` does)."""
    if world is not None:
        return world
    from sessions.store import SessionStore
    from tui.commands.defaults import default_world

    store = SessionStore(settings.sessions_path)
    try:
        world, why = default_world(settings, store, command)
    finally:
        store.close()
    echo(f"world: {world} ({why}; --world picks another)", err=True)
    return world
