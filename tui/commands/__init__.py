"""The `lore` subcommands, one module per group."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    from tui.commands import ask, card, doctor, evals, pictures, sessions, timeline, world

    world.register(app)
    ask.register(app)
    sessions.register(app)
    timeline.register(app)
    card.register(app)
    pictures.register(app)
    doctor.register(app)
    evals.register(app)
    from tui.commands import evals_sessions  # noqa: F401  (adds eval dialogues, eval locomo)
