"""The `lore` command line. With no command it opens the terminal app.

Settings are built once here (config file, environment, --data-dir) and passed down.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from stores.errors import LoreError
from tui.commands.defaults import world_option
from tui.failures import INTERRUPTED_EXIT, Interrupted, machine_error, with_disk_state
from tui.settings import AppSettings, load_settings

app = typer.Typer(
    name="lore",
    help="Lorekeeper: ask questions about a story world, with cited answers.",
    no_args_is_help=False,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


class Context:
    """What every command gets from the global options."""

    def __init__(self, config: Path | None, data_dir: Path | None) -> None:
        self._config, self._data_dir = config, data_dir
        self._settings: AppSettings | None = None
        _CURRENT["context"] = self

    @property
    def data_dir(self) -> Path | None:
        """The data dir, for messages about it (None when the settings could not be read)."""
        return self._settings.data_dir if self._settings is not None else self._data_dir

    @property
    def settings(self) -> AppSettings:
        if self._settings is None:
            self._settings = load_settings(self._config, self._data_dir)
        return self._settings


_CURRENT: dict[str, Context] = {}
"""The command's Context, so `main` can name the data dir when the machine fails."""


@app.callback(invoke_without_command=True)
def root(
    ctx: typer.Context,
    config: Annotated[Path | None, typer.Option("--config", help="config.toml to use")] = None,
    data_dir: Annotated[Path | None, typer.Option(
        "--data-dir", help="folder holding all state (default: LORE_HOME or ~/.lorekeeper)")] = None,
    world: Annotated[str | None, typer.Option(
        "--world", callback=world_option,
        help="world to open in the app")] = None,
) -> None:
    """Open the terminal app on the last session of the world (or run a command)."""
    ctx.obj = Context(config, data_dir)
    if ctx.invoked_subcommand is None:
        from tui.launch import launch

        launch(ctx.obj.settings, world)


def _register() -> None:
    from tui.commands import register

    register(app)


def main(argv: list[str] | None = None) -> None:
    """Entry point: user errors are printed plainly (no traceback) with a non-zero exit."""
    # Conversations and the catalog are private: every folder and database this process
    # creates (data dir, catalog, sessions.db, index folders) is for the user alone; a file
    # written out (an export) gets the permissions the user's own umask gives.
    from stores.atomic import keep_user_umask

    keep_user_umask(os.umask(0o077))
    from stores.lean_imports import import_sqlite_utils_without_pandas

    import_sqlite_utils_without_pandas()
    from tui.terminal import log_to_stderr

    log_to_stderr()
    _register()
    try:
        _check_utf8(sys.argv[1:] if argv is None else argv)
        # Without standalone mode click returns a command's exit code instead of exiting.
        code = app(args=argv, standalone_mode=False, prog_name="lore")
        if code == INTERRUPTED_EXIT:  # typer turns Ctrl+C into a bare exit code
            raise KeyboardInterrupt
        if isinstance(code, int) and code:
            sys.exit(code)
    except LoreError as exc:
        context = _CURRENT.get("context")
        exc = with_disk_state(exc, context.data_dir if context else None)
        _print_error(exc.render())
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        _print_error(Interrupted("interrupted; everything written so far is kept",
                                 hint="run the same command again: it resumes where it "
                                      "stopped").render())
        sys.exit(INTERRUPTED_EXIT)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        sys.exit(1)
    except Exception as exc:  # click usage errors carry their own exit code
        import click

        # typer 0.29 raises its own vendored click's errors (typer._click), whose base is
        # TyperException, not click.ClickException: either is a usage error, never a traceback
        if isinstance(exc, (click.ClickException, typer.TyperException)) and hasattr(exc, "show"):
            exc.show()
            sys.exit(exc.exit_code)
        context = _CURRENT.get("context")
        failure = machine_error(exc, context.data_dir if context else None)
        if failure is None:
            raise
        _print_error(failure.render())
        sys.exit(failure.exit_code)


def _check_utf8(args: list[str]) -> None:
    """Refuse, before any command runs, an argument whose bytes are not UTF-8 (Python keeps
    them as lone surrogates, which no database, file or terminal accepts): a question typed
    in another encoding would otherwise be lost after its session was created."""
    for i, arg in enumerate(args, start=1):
        if any("\udc80" <= c <= "\udcff" for c in arg):
            shown = arg.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
            raise LoreError(f"argument {i} is not valid UTF-8 text: {shown!r}",
                            where="command line",
                            hint="type it again from a UTF-8 terminal (locale should show "
                                 "UTF-8, e.g. export LANG=C.UTF-8), or convert it with iconv")


def _print_error(message: str) -> None:
    from rich.console import Console
    from rich.text import Text

    from tui.terminal import clean

    # A provider's error may quote the API key; a bad name may hold escape sequences.
    Console(stderr=True, highlight=False, soft_wrap=True).print(
        Text.assemble(("error: ", "bold red"), clean(message)))
