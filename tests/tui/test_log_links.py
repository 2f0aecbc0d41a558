"""Logs never follow a symbolic link (issue 39, item 8): a link planted at
`LORE_HOME/logs/vectors.log` made the app's background `lore vectors` child append to the file
it pointed at, outside the data folder. The app now says so and starts no child."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tui.conftest import SIZE, ingest_demo, make_app, settle
from tui.reports import log_error
from tui.settings import load_settings

# ingests the demo world and runs the app under Pilot: slow (pyproject.toml)
pytestmark = pytest.mark.slow


async def test_a_link_at_the_vectors_log_is_not_written_through(
        lore_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LORE_EMBEDDER__BACKEND", "e5")
    ingest_demo(lore_home)  # its e5 vectors left to the app's background child
    outside = tmp_path / "outside.txt"
    outside.write_text("mine\n", encoding="utf-8")
    (lore_home / "logs").mkdir(exist_ok=True)
    (lore_home / "logs" / "vectors.log").symlink_to(outside)
    app = make_app(load_settings())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for _ in range(600):  # told, or (as before) the child writes through the link
            if any("symbolic link" in note for _, note in app.notes):
                break
            if outside.read_text(encoding="utf-8") != "mine\n":
                break
            await pilot.pause(0.1)
        started = app.vector_job.running
        await pilot.press("ctrl+q")
    assert outside.read_text(encoding="utf-8") == "mine\n"
    assert not started
    (note,) = [n for severity, n in app.notes if "symbolic link" in n]
    assert "vectors.log" in note and "rm " in note


def test_the_error_log_is_not_written_through_a_link(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("mine\n", encoding="utf-8")
    home = tmp_path / "home"
    (home / "logs").mkdir(parents=True)
    (home / "logs" / "tui.log").symlink_to(outside)
    log_error(home, ValueError("boom"), "a bug")
    assert outside.read_text(encoding="utf-8") == "mine\n"
