"""The demo world of the test session (`demo_world_home`, tests/conftest.py: real embedded
stores, offline model); each test gets its own copy of the data dir, so sessions and indexes
never leak between tests."""

from __future__ import annotations

import shutil
from contextlib import suppress
from pathlib import Path

import pytest
from textual.worker import WorkerCancelled, WorkerError, WorkerFailed

from tui.commands.world import DEMO_WORLD, demo_world_path
from tui.settings import AppSettings, load_settings

SIZE = (120, 36)
"""Terminal size of every Pilot and snapshot test."""


def ingest_demo(home: Path) -> None:
    """`lore demo`, in-process: the bundled demo world into the data dir `home` (for a test that
    needs it built with other settings than the session's)."""
    from stores.ingest import ingest

    folder = demo_world_path()
    corpus = [p for p in (folder / "zh", folder / "en", folder / "dialogue") if p.exists()]
    ingest(load_settings(data_dir=home), DEMO_WORLD, corpus, folder / "glossary.toml")


@pytest.fixture
def settings(demo_world_home: Path, lore_home: Path) -> AppSettings:
    """Settings for this test's own LORE_HOME, holding a copy of the ingested demo world."""
    shutil.copytree(demo_world_home, lore_home, dirs_exist_ok=True)
    return load_settings()


async def settle(pilot) -> None:
    """Wait until every worker is done, the world is open and warm, no answer is being built,
    and the screen has caught up with their messages. Bounded by steps, not by time: a loaded
    machine only takes more of them (a worker the app starts from a message, as the warm-up
    after the open, may not exist yet when the one before it has ended)."""
    app = pilot.app
    for _ in range(2_000):
        for worker in list(app.workers):
            with suppress(WorkerFailed, WorkerCancelled, WorkerError):  # the app reports failures
                await worker.wait()
        await pilot.pause()
        if all(w.is_finished for w in app.workers) and not _busy(app):
            return
        await pilot.pause(0.01)


def _busy(app) -> bool:
    """Whether the app is opening or warming a world or building an answer (the LoreApp's own
    flags; a screen before any world, as the welcome, is never busy)."""
    return any(getattr(app, flag, False) for flag in ("opening", "warming", "answering"))


async def ask(pilot, question: str):
    """Type a question into the question box, send it, wait for the answer; the turn's view."""
    app = pilot.app
    await pilot.press("f2")
    app.main.question.value = question
    await pilot.press("enter")
    await settle(pilot)
    return app.main.chat.last_turn


def make_app(settings: AppSettings, world: str | None = None):
    """The real app, recording its notifications so tests can read what the user was told."""
    from tui.app import LoreApp

    class RecordingApp(LoreApp):
        def __init__(self) -> None:
            super().__init__(settings, world=world)
            self.notes: list[tuple[str, str]] = []

        def notify(self, message: str, **kwargs) -> None:
            self.notes.append((kwargs.get("severity", "information"), message))
            super().notify(message, **kwargs)

    return RecordingApp()


@pytest.fixture
def app(settings: AppSettings):
    return make_app(settings)
