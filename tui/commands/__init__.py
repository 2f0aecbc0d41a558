"""The `lore` subcommands, one module per group."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    from tui.commands import doctor, evals, world

    world.register(app)
    doctor.register(app)
    evals.register(app)
