"""First run: no world, the welcome screen, and the demo world ingested from it."""

from __future__ import annotations

import pytest
from textual.widgets import ProgressBar

from tests.tui.conftest import SIZE, make_app, settle
from tui.screens.main import MainScreen
from tui.screens.welcome import WelcomeScreen
from tui.settings import load_settings

# The app under Pilot ingesting the demo world, or on a copy of it: slow (pyproject.toml).
pytestmark = pytest.mark.slow


async def test_no_world_shows_the_welcome_screen_and_d_ingests_the_demo(lore_home):
    app = make_app(load_settings())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, WelcomeScreen)
        text = app.screen.query_one("#welcome-text").source
        assert "lore ingest PATH... --world NAME" in text
        stages: list[str] = []
        app.screen.show_progress = (lambda show: lambda stage, done, total: (
            stages.append(stage), show(stage, done, total)))(app.screen.show_progress)
        shown: list[bool] = []
        bar = app.screen.query_one(ProgressBar)
        app.screen.show_progress = (lambda show: lambda stage, done, total: (
            show(stage, done, total), shown.append(bool(bar.display))))(app.screen.show_progress)
        await pilot.press("d")
        # the ingest runs in a worker: on a fast machine it may be over by now, so the
        # progress bar is checked from inside the progress callback, not after the key
        assert app.ingesting or stages
        await settle(pilot)
        assert shown and all(shown)
        assert {"read", "embed"} <= set(stages)
        assert isinstance(app.screen, MainScreen)
        assert app.conversation is not None and app.conversation.world == "demo"
        assert app.main.status.world.passages > 0
        assert any("demo world is ready" in note for _, note in app.notes)


async def test_a_world_that_does_not_exist_is_a_notification_not_a_traceback(settings):
    app = make_app(settings, world="atlantis")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, MainScreen) and app.conversation is None
        errors = [note for severity, note in app.notes if severity == "error"]
        assert errors and "no world named 'atlantis'" in errors[0]
        assert "Ctrl+G" in errors[0] and "known worlds: demo" in errors[0]
        await pilot.press("ctrl+g")
        await settle(pilot)
        await pilot.press("enter")  # the switcher lists demo: open it
        await settle(pilot)
        assert app.conversation is not None and app.conversation.world == "demo"


async def test_the_world_list_stops_at_its_ends_not_on_ingesting_the_demo(lore_home, tmp_path):
    # A newcomer pressed Up twice in the switcher (Ctrl+G): the cursor wrapped onto "+ ingest
    # the bundled demo world", and Enter ingested it into their data dir
    from stores.catalog import Catalog
    from stores.ingest import ingest

    book = tmp_path / "harbour.txt"
    book.write_text("Chapter 1\n\nMara Vell walked the quay before the bells rang.\n",
                    encoding="utf-8")
    settings = load_settings()
    ingest(settings, "harbour", [book])
    app = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+g")
        await settle(pilot)
        listed = app.screen.query_one("#worlds-list")
        assert listed.option_count == 2 and listed.highlighted == 0  # harbour, + the demo
        for _ in range(3):
            await pilot.press("up")
        await pilot.press("enter")
        await settle(pilot)
        assert app.conversation is not None and app.conversation.world == "harbour"
    catalog = Catalog(settings.catalog_path)
    try:
        assert [w["name"] for w in catalog.worlds()] == ["harbour"]  # no demo ingested
    finally:
        catalog.close()
