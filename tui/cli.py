"""The `lore` command line. With no command it opens the terminal app.

Settings are built once here (config file, environment, --data-dir) and passed down.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from stores.config import Settings, load_settings
from stores.errors import LoreError

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
        self._settings: Settings | None = None

    @property
    def settings(self) -> Settings:
        if self._settings is None:
            self._settings = load_settings(self._config, self._data_dir)
        return self._settings


@app.callback(invoke_without_command=True)
def root(
    ctx: typer.Context,
    config: Annotated[Path | None, typer.Option("--config", help="config.toml to use")] = None,
    data_dir: Annotated[Path | None, typer.Option(
        "--data-dir", help="folder holding all state (default: LORE_HOME or ~/.lorekeeper)")] = None,
    world: Annotated[str | None, typer.Option("--world", help="world to open in the app")] = None,
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
    # creates (data dir, catalog, sessions.db, index folders, exports) is for the user alone.
    os.umask(0o077)
    _register()
    try:
        # Without standalone mode click returns a command's exit code instead of exiting.
        code = app(args=argv, standalone_mode=False)
        if isinstance(code, int) and code:
            sys.exit(code)
    except LoreError as exc:
        _print_error(exc.render())
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        _print_error("interrupted; everything written so far is kept (run the command again to resume)")
        sys.exit(130)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        sys.exit(1)
    except Exception as exc:  # click usage errors carry their own exit code
        import click

        if isinstance(exc, click.ClickException):
            exc.show()
            sys.exit(exc.exit_code)
        raise


def _print_error(message: str) -> None:
    from rich.console import Console
    from rich.text import Text

    from sessions.scrub import scrub
    from tui.terminal import printable

    # A provider's error may quote the API key; a bad name may hold escape sequences.
    Console(stderr=True, highlight=False, soft_wrap=True).print(
        Text.assemble(("error: ", "bold red"), printable(scrub(message))))
