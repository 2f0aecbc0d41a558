"""`lore sessions list | show ID | export ID`: the saved conversations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from stores.lang.en import counted
from tui.commands.defaults import world_option
from tui.terminal import echo, pad

sessions_app = typer.Typer(help="List, show and export saved sessions.", no_args_is_help=True,
                           rich_markup_mode=None)


def register(app: typer.Typer) -> None:
    app.add_typer(sessions_app, name="sessions")


@sessions_app.command("list")
def list_command(
    ctx: typer.Context,
    world: Annotated[str | None, typer.Option(
        "--world", callback=world_option,
        help="only this world's sessions")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Sessions, most recently active first."""
    from sessions.store import SessionStore

    with SessionStore(ctx.obj.settings.sessions_path) as store:
        sessions = store.list_sessions(world)
        firsts = {s.id: _first_question(store, s.id) for s in sessions}
    if world is not None and not sessions:  # "No sessions yet" of a world that is not there
        _require_world(ctx.obj.settings, world)
    if as_json:
        echo(json.dumps([{**s.model_dump(mode="json"), "first_question": firsts[s.id]}
                               for s in sessions], ensure_ascii=False))
        return
    if not sessions:
        echo("No sessions yet. Start one: lore ask \"…\" --world NAME   (or open `lore`)")
        return
    for s in sessions:
        label = s.title or firsts[s.id] or "(no questions yet)"
        echo(f"{s.id}  {pad(s.world, 12)} {counted(s.turn_count, 'turn', 4):<10} "
                   f"{s.updated:%Y-%m-%d %H:%M}  {label}")


def _require_world(settings, world: str) -> None:
    """A world name that is not valid, or names no world, is an error saying so (with the
    known worlds and a near name), as every other command's --world is."""
    from stores.world import WorldStores

    stores = WorldStores(settings, world)
    try:
        stores.require()
    finally:
        stores.close()


def _first_question(store, session_id: str) -> str:
    turns = store.turns(session_id)
    return turns[0].question if turns else ""


@sessions_app.command("show")
def show_command(
    ctx: typer.Context,
    session_id: Annotated[str, typer.Argument(help="session id or a unique prefix")],
) -> None:
    """A session's turns, entity stack and memory."""
    from agent.conversation.exports import export_session
    from sessions.store import SessionStore

    with SessionStore(ctx.obj.settings.sessions_path) as store:
        echo(export_session(store, session_id, "md"), nl=False)


@sessions_app.command("export")
def export_command(
    ctx: typer.Context,
    session_id: Annotated[str, typer.Argument(help="session id or a unique prefix")],
    fmt: Annotated[str, typer.Option("--format", help="md or json")] = "md",
    # only written, never read: a write-only file to overwrite was refused as "not readable"
    out: Annotated[Path | None, typer.Option(
        "--out", readable=False, help="write to this file")] = None,
    force: Annotated[bool, typer.Option("--force", help="overwrite --out if it exists")] = False,
) -> None:
    """Export a session as Markdown or JSON (secrets are never included)."""
    from agent.conversation.exports import export_session
    from sessions.store import SessionStore

    with SessionStore(ctx.obj.settings.sessions_path) as store:
        text = export_session(store, session_id, fmt)  # type: ignore[arg-type]
    write_or_print(text, out, force)


def write_or_print(text: str | bytes, out: Path | None, force: bool = False) -> None:
    """Print `text`, or write it to `out` and say so. An existing `out` is overwritten only
    with `force` or when the user says yes on a terminal. Bytes (a picture) are printed only
    when they are text (SVG)."""
    import sys

    from stores.errors import LoreError

    if out is None:
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError:
                raise LoreError("a PNG picture cannot be printed to the terminal",
                                where="--out", hint="give a file to write it to: --out "
                                                    "picture.png") from None
        echo(text, nl=not text.endswith("\n"))
        return
    from tui.exports import write_error

    try:
        exists = out.exists()
    except OSError as exc:  # a name too long to look up
        raise write_error(exc, out, "give --out another file") from None
    if exists and not force:
        if out.is_dir():
            raise LoreError("--out is a folder", where=out, hint="give a file name")
        asked = sys.stdin.isatty() and sys.stderr.isatty()
        if not (asked and typer.confirm(f"{out} exists. Overwrite it?", default=False,
                                        err=True)):
            raise LoreError("the file exists and was left as it was", where=out,
                            hint="choose another --out, or add --force to overwrite it")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        from stores.atomic import replacing, write_text

        if isinstance(text, bytes):
            with replacing(out, "wb") as f:
                f.write(text)
        else:
            write_text(out, text)  # killed or out of space: the previous file stays whole
    except OSError as exc:
        raise write_error(exc, out, "give --out another file") from None
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8"))
    echo(f"wrote {out} ({size} bytes)")
