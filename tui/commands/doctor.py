"""`lore doctor`: check the config, the data folder, each world's stores and the models."""

from __future__ import annotations

import functools
import os
import sqlite3
import tempfile
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from stores.errors import ConfigError, LoreError, StoreError, StoreHeld, disk_full, is_locked
from tui.commands.defaults import world_option
from tui.settings import AppSettings
from tui.terminal import clean, echo


@dataclass
class Check:
    """One line of the doctor's report: what was checked, whether it is fine, what to do."""

    name: str
    ok: bool
    detail: str
    fix: str = ""
    busy: bool = False
    """In use by another process, so not checked: said, not failed (nothing says it is
    damaged)."""


def register(app: typer.Typer) -> None:
    app.command("doctor")(doctor_command)


def doctor_command(
    ctx: typer.Context,
    world: Annotated[str | None, typer.Option(
        "--world", callback=world_option,
        help="check only this world")] = None,
    repair: Annotated[bool, typer.Option(
        "--repair", help="rebuild from the catalog every index that disagrees with it")] = False,
) -> None:
    """Check configuration, stores and models, and say what to fix."""
    try:
        settings: AppSettings = ctx.obj.settings
    except ConfigError as exc:  # nothing else can be checked without settings: report this one
        _report([Check("config", False, f"{exc.where}: {exc.message}" if exc.where else exc.message,
                       exc.hint)])
        raise typer.Exit(1) from None
    checks = [_config(settings), _packages(), _pictures(), _data_dir(settings),
              _database("catalog", settings.catalog_path),
              _database("session database", settings.sessions_path),
              _embedder(settings), _chat_model(settings)]
    if repair:
        _repair(settings, world)
    checks += _worlds(settings, world)
    _report(checks)
    if not all(c.ok for c in checks):
        raise typer.Exit(1)


def _report(checks: list[Check]) -> None:
    for check in checks:
        mark = (typer.style("busy", fg="yellow") if check.busy else
                typer.style("ok  ", fg="green") if check.ok else typer.style("FAIL", fg="red"))
        typer.echo(f"{mark} {clean(f'{check.name}: {check.detail}')}")
        if (check.busy or not check.ok) and check.fix:
            echo(f"     → {check.fix}")


def _guard(name: str, fn: Callable[[], Check], fix: str) -> Check:
    try:
        return fn()
    except StoreHeld as exc:  # another Lorekeeper has it open: busy, not broken
        return Check(name, True, f"{exc.message.splitlines()[0]}, so its indexes were not "
                     "checked", "to check them, close that Lorekeeper and run lore doctor again",
                     busy=True)
    except LoreError as exc:  # its own advice fits better than the check's generic one
        return Check(name, False, exc.message.splitlines()[0], exc.hint or fix)
    except Exception as exc:  # the doctor reports every failure instead of stopping at one
        return Check(name, False, f"{type(exc).__name__}: {exc}".splitlines()[0], fix)


def _config(settings: AppSettings) -> Check:
    source = settings.config_file or "built-in defaults (no config.toml found)"
    return Check("config", True, f"{source}; model provider {settings.model.provider}, "
                 f"embedder {settings.embedder.backend}, graph {settings.graph.backend}")


def _packages() -> Check:
    from tui.commands import packages

    found = packages.drift()
    listed = ", ".join(f"{name} {version or 'not installed'}"
                       for name, version in found.versions.items())
    if not found.locked:
        return Check("packages", True, f"{listed} (no {packages.LOCK.name} beside the code to "
                     "compare with)")
    if not found.differ:
        return Check("packages", True, f"all {found.locked} match {packages.LOCK.name}: {listed}")
    differ = ", ".join(f"{name} {have or 'not installed'} (lock {want})"
                       for name, want, have in found.differ)
    return Check("packages", False, f"{len(found.differ)} of {found.locked} differ from "
                 f"{packages.LOCK.name}: {differ}",
                 f"reinstall the locked set: make clean && make test (or .venv/bin/pip install "
                 f"-r {packages.LOCK})")


def _pictures() -> Check:
    """Graphviz's dot draws the maps and charts as SVG and PNG; without it everything else
    works (the app's map and chart, the dot, mermaid, json and csv exports), so it is said,
    not failed."""
    import shutil

    dot = shutil.which("dot")
    if dot is None:
        return Check("pictures", True, "Graphviz's dot is not installed: lore map / lore chart "
                     "and the app's exports write dot, mermaid, json and csv, but no SVG or PNG "
                     "(apt-get install graphviz)")
    from agent.views.pictures import missing_font

    fonts = missing_font("png", "中文")
    if fonts:  # said, not failed: SVG and every other format draw Chinese names
        return Check("pictures", True, f"Graphviz's dot at {dot} draws the SVG and PNG pictures, "
                     f"but {fonts}")
    return Check("pictures", True, f"Graphviz's dot at {dot} draws the SVG and PNG pictures")


def _data_dir(settings: AppSettings) -> Check:
    def probe() -> Check:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=settings.data_dir):
            pass
        return Check("data folder", True, str(settings.data_dir))

    return _guard("data folder", probe,
                  f"make {settings.data_dir} writable or choose another with --data-dir / LORE_HOME")


def _database(name: str, path: Path) -> Check:
    """SQLite's own check of every page: a truncated or overwritten file opens fine and fails
    only on the first read of a lost page, mid-conversation."""
    if not path.exists():
        return Check(name, True, f"{path} (not created yet)")
    aside = f"move {path} aside (e.g. mv {path} {path}.broken) and restore it from a backup"
    if name == "session database":
        aside += "; without a backup lore starts a new, empty one (the worlds are not affected)"
    else:
        aside += ", or re-run lore ingest for each world (the indexes are rebuilt from it)"
    from stores.readonly import cannot_write, connect_read_only

    try:
        # a read-only folder has no room for SQLite's -shm index: read the file as it is
        conn = (connect_read_only(path, 5) if cannot_write(path.parent) else
                sqlite3.connect(f"file:{path}?mode=ro", uri=True))
        with closing(conn) as db:
            problems = [row[0] for row in db.execute("PRAGMA quick_check")]
    except sqlite3.Error as exc:
        if (full := disk_full(exc, path.parent)) is not None:  # not damaged: keep it
            return Check(name, False, f"{path}: {full.message}", full.hint)
        if is_locked(exc):  # held by another process: nothing says it is damaged
            return Check(name, False, f"{path}: in use by another process, which holds it "
                         f"locked ({exc})", "let the other lore (or whatever has the file open) "
                         "finish, or close it, then run lore doctor again")
        return Check(name, False, f"{path}: cannot be read ({exc})", aside)
    if problems != ["ok"]:
        shown = "; ".join(problems[:2]) + (f" (+{len(problems) - 2} more)" if len(problems) > 2 else "")
        return Check(name, False, f"{path} is damaged: {shown}", aside)
    if name == "session database":
        newer = _newer_sessions(path)
        if newer is not None:
            return Check(name, False, newer.message, newer.hint)
    return Check(name, True, f"{path} (integrity ok)")


def _newer_sessions(path: Path) -> StoreError | None:
    """The store's own refusal of a session database written by a newer version (read-only)."""
    from sqlite_utils import Database

    from sessions.version import refuse_newer
    from stores.readonly import cannot_write, connect_read_only

    conn = (connect_read_only(path, 5) if cannot_write(path.parent) else
            sqlite3.connect(f"file:{path}?mode=ro", uri=True))
    with closing(conn):
        try:
            refuse_newer(Database(conn), path)
        except StoreError as exc:
            return exc
    return None


def _embedder(settings: AppSettings) -> Check:
    def probe() -> Check:
        from stores.embedders import make_embedder

        embedder = make_embedder(settings.embedder)
        vector = embedder.embed(["桃园结义", "The Count of Monte Cristo"])
        return Check("embedder", True, f"{embedder.name}, {vector.shape[1]}-d, loads offline")

    return _guard("embedder", probe, "check [embedder] backend/model in config.toml; the "
                  "offline default is backend = \"use\"")


def _chat_model(settings: AppSettings) -> Check:
    model = settings.model
    if model.provider == "offline":
        return Check("chat model", True, "built-in offline model (extractive, no network)")
    env = model.api_key_env or {"google": "GEMINI_API_KEY", "openai": "OPENAI_API_KEY"}[
        model.provider]
    if model.provider == "google" and not (os.environ.get(env) or os.environ.get("GOOGLE_API_KEY")):
        return Check("chat model", False, f"google/{model.name or '?'}: no API key in ${env}",
                     f"export {env}=… or set [model] provider = \"offline\"")
    if model.provider == "openai" and not model.base_url:
        return Check("chat model", False, "openai-compatible provider without base_url",
                     "set [model] base_url, e.g. http://127.0.0.1:11434/v1 for Ollama")
    return Check("chat model", True, f"{model.provider}/{model.name} {model.base_url}".strip())


def _worlds(settings: AppSettings, only: str | None) -> list[Check]:
    from stores.catalog import Catalog

    catalog = Catalog(settings.catalog_path)
    try:
        rows = [r for r in catalog.worlds() if only in (None, r["name"])]
    finally:
        catalog.close()
    if not rows:
        what = f"no world named {only!r}" if only else "no world ingested yet"
        return [Check("worlds", only is None, what,
                      "lore demo  or  lore ingest PATH... --world NAME")]
    return [_guard(f"world {r['name']}", functools.partial(_world, settings, r),
                   f"close other Lorekeeper windows on this world, then: lore doctor --repair "
                   f"--world {r['name']}") for r in rows]


def _repair(settings: AppSettings, only: str | None) -> None:
    """Rebuild, world by world, the indexes that disagree with the catalog (before the checks,
    so the report shows the result)."""
    from stores.catalog import Catalog
    from tui.repairs import rebuild_indexes

    catalog = Catalog(settings.catalog_path)
    try:
        names = [r["name"] for r in catalog.worlds() if only in (None, r["name"])]
    finally:
        catalog.close()
    for name in names:
        rebuild_indexes(settings, name, force=False)


def _world(settings: AppSettings, row: dict) -> Check:
    from stores.ingest import is_current
    from stores.world import WorldStores

    name = row["name"]
    if row["state"] != "ready":
        return Check(f"world {name}", False, f"ingestion did not finish (state {row['state']})",
                     f"re-run lore ingest ... --world {name}: it resumes where it stopped")
    if not is_current(settings, row):
        return Check(f"world {name}", False, "built by an older version of Lorekeeper or with "
                     "other settings (config.toml embedder, chunking or entities)",
                     f"re-run lore ingest PATH... --world {name}: it keeps the passages and "
                     "reuses cached vectors when the embedder is unchanged")
    from stores.repair import check_indexes

    stores = WorldStores(settings, name)
    try:
        checks = check_indexes(stores)
    finally:
        stores.close()
    found = "; ".join(f"{c.index} {c.detail}" for c in checks)
    detail = f"{row['chapters']} chapters, {row['chunks']} passages; {found}"
    return Check(f"world {name}", all(c.ok for c in checks), detail,
                 f"rebuild the indexes from the catalog: lore doctor --repair --world {name}")
