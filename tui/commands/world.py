"""`lore ingest`, `lore prune`, `lore entities`, `lore worlds`, `lore demo`."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from stores.lang.en import counted
from stores.models import shown_path
from tui.commands.defaults import world_option
from tui.terminal import echo, name_width, pad

if TYPE_CHECKING:
    from stores.ingest import IngestReport

DEMO_WORLD = "demo"


def register(app: typer.Typer) -> None:
    app.command("ingest")(ingest_command)
    app.command("prune")(prune_command)
    app.command("entities")(entities_command)
    app.command("worlds")(worlds_command)
    app.command("demo")(demo_command)
    app.command("vectors")(vectors_command)


def ingest_command(
    ctx: typer.Context,
    world: Annotated[str, typer.Option(
        "--world", callback=world_option,
        help="name of the world to create or update")],
    paths: Annotated[list[Path] | None, typer.Argument(
        help="files or folders of the story's text (none with --rebuild)")] = None,
    glossary: Annotated[Path | None, typer.Option(
        "--glossary", help="TOML/JSON glossary or SillyTavern lorebook of names and aliases")] = None,
    rebuild: Annotated[bool, typer.Option(
        "--rebuild", help="rebuild every index of the world from its catalog first")] = False,
) -> None:
    """Ingest a story's text into a world (idempotent; resumes after an interruption)."""
    _ingest(ctx, world, paths, glossary, rebuild)


def _ingest(ctx: typer.Context, world: str, paths: list[Path] | None, glossary: Path | None,
            rebuild: bool = False, vectors: bool = True) -> None:
    """`lore ingest`; `vectors`: go on to the e5 vectors after the fast index (else they are
    left to `lore vectors`, which the app runs in the background)."""
    from tui.progress import ingest_with_progress
    from tui.repairs import rebuild_indexes

    if rebuild:
        rebuild_indexes(ctx.obj.settings, world)
        if not paths:
            return
    report = ingest_with_progress(ctx.obj.settings, world, paths or [], glossary)
    for line in report.repaired:
        echo(f"{world}: rebuilt from the catalog: {line}")
    _tell_identity(report)
    same = report.unchanged + len(report.moved)
    extras = [f"{same} files unchanged" + (
        f" ({len(report.moved)} moved: path updated)" if report.moved else "")] if same else []
    if report.duplicates:
        extras.append(f"{len(report.duplicates)} copies skipped")
    if report.noop and not report.moved:
        copies = "".join(f", {e}" for e in extras[1:])
        current = "" if report.gone else "; the world is up to date"
        echo(f"{world}: nothing changed in {same} files{copies}{current}.")
    elif report.noop:
        echo(f"{world}: {', '.join(extras)}; nothing indexed again.")
    else:
        total = sum(report.seconds.values())
        echo(f"{world}: {len(report.changed)} of {report.files - len(report.duplicates)} "
                   f"files (re)indexed{''.join(f', {e}' for e in extras)}, "
                   f"{counted(report.chunks, 'passage')}, {counted(report.entities, 'entity')}, "
                   f"{relations_read(report)}, "
                   f"{counted(report.embedded, 'passage')} embedded in {total:.1f} s.")
    _tell_gone(world, report.gone)
    _tell_unheaded(world, report.unheaded)
    if vectors:
        _upgrade(ctx.obj.settings, world)


def _tell_unheaded(world: str, unheaded: list[str]) -> None:
    """A long file read as one chapter: every answer would say chapter 1. Say so, and how to
    mark its chapters."""
    for path in unheaded:
        echo(f"{world}: {shown_path(path)} was read as one chapter: no chapter heading was found "
             "in it, so every answer and timeline will say chapter 1.\n"
             "  → put a heading line before each chapter (\"Chapter 1\", \"Chapter 2. Title\", "
             "\"第1回\" or \"# Title\") and run the same lore ingest command again")


def _tell_gone(world: str, gone: list[str], most: int = 10) -> None:
    """Documents whose file was deleted still answer: say so, and how to remove them."""
    if not gone:
        return
    noun = "document's file is" if len(gone) == 1 else "documents' files are"
    echo(f"{world}: {len(gone)} {noun} gone; still answering from the catalog:")
    for path in gone[:most]:
        echo(f"  {shown_path(path)}")
    if len(gone) > most:
        echo(f"  ... and {len(gone) - most} more")
    echo(f"  → lore prune --world {world} removes them (it lists them and asks first)")


def vectors_command(
    ctx: typer.Context,
    world: Annotated[str, typer.Option(
        "--world", callback=world_option,
        help="the world whose vectors to compute")],
    parent: Annotated[int, typer.Option(
        "--parent", hidden=True, help="stop once process PARENT has ended (the app)")] = 0,
) -> None:
    """Compute a world's e5 vectors now and switch it to them: what `lore ingest` does after
    the fast index, and what the app does in the background while a world waits for them.
    Kill it any time: the vectors computed so far are kept. While another process computes
    the same world's, this one follows its progress and then does what is left, if anything."""
    from stores.world import WorldStores

    stores = WorldStores(ctx.obj.settings, world)
    try:
        row = stores.require()
    finally:
        stores.close()
    if not _upgrade(ctx.obj.settings, world, parent):
        echo(f"{world}: nothing to compute; it searches with "
             f"{row['embedder'] or 'BM25 alone'}.")


def _upgrade(settings, world: str, parent: int = 0) -> bool:
    """The e5 vectors after the fast index (stores/upgrade.py), with a bar and an ETA; False
    when there were none to compute. `parent`: the app that started this process, whose end
    ends it too."""
    from stores.upgrade import upgrades

    if not upgrades(settings):
        return False
    from tui.progress import upgrade_with_progress
    from tui.vector_status import world_vector_status

    status = world_vector_status(settings, world)
    if status is None:
        return False
    echo(f"{world} is searchable now ({status.line()}); computing the e5 vectors. "
         "Ctrl+C stops; `lore ingest` with the same arguments carries on from there.")

    def following(holder: str) -> None:
        echo(f"{world}: another process ({holder}) is computing its e5 vectors; following its "
             "progress, then doing what is left (Ctrl+C stops this one only).")

    report = upgrade_with_progress(settings, world, following, parent)
    after = world_vector_status(settings, world)
    others = f" (the others by {report.followed})" if report.followed else ""
    done = (f"{world}: {report.embedded} passages embedded with {report.target or 'e5'}"
            f"{others} in {report.seconds:.1f} s ({report.cpu_seconds:.1f} s of CPU)")
    if after is None:
        echo(f"{done}; the world now searches with {report.target}.")
    else:  # passages added meanwhile by an ingest of another process
        echo(f"{done}; {after.line()}.")
        echo(f"  → run lore vectors --world {world} to compute the rest")
    return True


def _tell_identity(report, most: int = 10) -> None:
    """Moves, copies given twice and documents removed, each naming its paths."""
    lines = [f"moved: {shown_path(old)} -> {shown_path(new)}" for old, new in report.moved]
    lines += [f"same text given twice: {shown_path(skipped)} is a copy of {shown_path(kept)}; "
              "kept once" for skipped, kept in report.duplicates]
    lines += [f"removed from the world: {shown_path(path)} ({why})"
              for path, why in report.dropped]
    for line in lines[:most]:
        echo(line)
    if len(lines) > most:
        echo(f"... and {len(lines) - most} more like these")


def prune_command(
    ctx: typer.Context,
    world: Annotated[str, typer.Option(
        "--world", callback=world_option,
        help="the world to prune")],
    yes: Annotated[bool, typer.Option("--yes", help="do not ask for confirmation")] = False,
) -> None:
    """Remove documents whose files are gone from a world, after listing them."""
    import sys

    from stores.errors import InputError
    from tui.progress import prune_with_progress

    def confirm(paths: list[str]) -> bool:
        noun = "document's file is" if len(paths) == 1 else "documents' files are"
        echo(f"{world}: {len(paths)} {noun} gone and would be removed:")
        for path in paths:
            echo(f"  {shown_path(path)}")
        if yes:
            return True
        if not sys.stdin.isatty():
            raise InputError("not removing anything without a confirmation", where="lore prune",
                             hint=f"run it in a terminal to confirm, or add --yes: "
                                  f"lore prune --world {world} --yes")
        return typer.confirm("Remove them from the world?", default=False)

    report = prune_with_progress(ctx.obj.settings, world, confirm)
    if not report.dropped:
        echo(f"{world}: every document's file is still there; nothing to prune.")
    elif report.noop:
        echo(f"{world}: nothing removed.")
    else:
        echo(f"{world}: removed {len(report.dropped)} of {report.files} documents; "
                   f"{counted(report.chunks, 'passage')}, {counted(report.entities, 'entity')}, "
                   f"{relations_read(report)} remain.")


def entities_command(
    ctx: typer.Context,
    world: Annotated[str, typer.Option("--world", callback=world_option, help="the world to list")],
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    limit: Annotated[int, typer.Option("--limit", help="at most this many (0 = all)",
                                       min=0)] = 0,
) -> None:
    """List a world's entities with their aliases and mention counts."""
    from stores.world import WorldStores

    stores = WorldStores(ctx.obj.settings, world)
    try:
        stores.require()
        entities = stores.catalog.entities(world)
    finally:
        stores.close()
    if limit:
        entities = entities[:limit]
    if as_json:
        rows = [{"name": e.name, "aliases": e.aliases, "type": e.type, "mentions": e.mentions}
                for e in entities]
        echo(json.dumps(rows, ensure_ascii=False, indent=1))
        return
    width = name_width([e.name for e in entities])
    for e in entities:
        aliases = f"  ({', '.join(e.aliases)})" if e.aliases else ""
        echo(f"{pad(e.name, width)} {e.type:<8} {e.mentions:>6}{aliases}")


def worlds_command(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """List the ingested worlds."""
    from stores.catalog import Catalog
    from stores.upgrade import describe, vector_status

    catalog = Catalog(ctx.obj.settings.catalog_path)
    try:
        rows = catalog.worlds()
        status = {r["name"]: vector_status(catalog, ctx.obj.settings, r["name"]) for r in rows}
    finally:
        catalog.close()
    vectors = {r["name"]: describe(status[r["name"]], r) for r in rows}
    if as_json:
        keys = ("name", "state", "documents", "chapters", "chunks", "entities", "embedder")
        echo(json.dumps([{**{k: r[k] for k in keys}, "vectors": vectors[r["name"]],
                          "upgrade_percent": s.percent if (s := status[r["name"]]) else None}
                         for r in rows], ensure_ascii=False))
        return
    if not rows:
        echo("No worlds yet. Try: lore demo   or   lore ingest PATH... --world NAME")
    for r in rows:
        echo(f"{pad(r['name'], 16)} {r['state']:<10} {counted(r['chapters'], 'chapter', 4):<13} "
             f"{counted(r['chunks'], 'passage', 6):<15} {counted(r['entities'], 'entity', 5):<14}  "
             f"{vectors[r['name']]}")


def demo_world_path() -> Path:
    """The bundled demo world (package data of stores/)."""
    return Path(str(resources.files("stores") / "demo_world"))


def demo_command(
    ctx: typer.Context,
    if_needed: Annotated[bool, typer.Option(
        "--if-needed", help="only if the demo world is missing or built by an older version")] = False,
    vectors_later: Annotated[bool, typer.Option(
        "--vectors-later", help="stop once it is searchable; the app computes its e5 vectors "
                                "in the background (or: lore vectors --world demo)")] = False,
) -> None:
    """Ingest the bundled demo world (an original story in Chinese and English)."""
    from stores.catalog import Catalog
    from stores.ingest import is_current

    settings = ctx.obj.settings
    if if_needed:
        catalog = Catalog(settings.catalog_path)
        try:
            row = catalog.world(DEMO_WORLD)
        finally:
            catalog.close()
        from stores.upgrade import vector_status

        catalog = Catalog(settings.catalog_path)
        try:
            pending = vector_status(catalog, settings, DEMO_WORLD)
        finally:
            catalog.close()
        # Also re-run after an upgrade changed the pipeline, and when its e5 vectors are due.
        if is_current(settings, row) and (pending is None or vectors_later):
            return
    folder = demo_world_path()
    corpus = [folder / "zh", folder / "en", folder / "dialogue"]
    _ingest(ctx, DEMO_WORLD, [p for p in corpus if p.exists()], folder / "glossary.toml",
            vectors=not vectors_later)
    if vectors_later:
        from tui.vector_status import world_vector_status

        if (status := world_vector_status(settings, DEMO_WORLD)) is not None:
            echo(f"{DEMO_WORLD} is searchable now ({status.line()}); the app computes the e5 "
                 f"vectors in the background (or now: lore vectors --world {DEMO_WORLD}).")


def relations_read(report: IngestReport) -> str:
    """The relations an ingest made, the ones the text states apart from the names it only
    writes together: "71 relations" beside maps that all said "0 relations" puzzled a newcomer
    (呐喊, where every kinship is told with a pronoun)."""
    return (f"{counted(report.stated, 'relation')} stated, "
            f"{counted(report.relations - report.stated, 'pair')} seen together")
