"""The app's plain helpers: which world opens, how the model and sessions are named."""

from __future__ import annotations

from tui.exports import exports_dir
from tui.settings import load_settings
from tui.state import WorldInfo, horizon_label, model_label, pick_world, session_title

ROWS = [{"name": "sanguo", "state": "ingesting", "chunks": 10, "chapters": 2, "entities": 3},
        {"name": "demo", "state": "ready", "chunks": 68, "chapters": 10, "entities": 29},
        {"name": "monte", "state": "ready", "chunks": 5, "chapters": 1, "entities": 1}]


def test_the_world_to_open():
    assert pick_world(ROWS, None, "atlantis") == "atlantis"  # asked for: opening it says why not
    assert pick_world(ROWS, "monte", None) == "monte"  # the last session's world
    assert pick_world(ROWS, "gone", None) == "demo"  # else the newest ready world
    assert pick_world(ROWS[:1], None, None) == "sanguo"  # else any world
    assert pick_world([], None, None) is None  # the welcome screen


def test_names_shown_in_the_status_bar_and_lists():
    settings = load_settings()
    assert model_label(settings) == "built-in"  # no model, not a model that is offline
    settings.model.provider, settings.model.name = "google", "gemini-2.5-flash"
    assert model_label(settings) == "google:gemini-2.5-flash"
    settings.model.provider, settings.model.base_url = "openai", "http://127.0.0.1:11434/v1"
    assert model_label(settings) == "gemini-2.5-flash @ http://127.0.0.1:11434/v1"
    assert horizon_label(0) == horizon_label(None) == "none" and horizon_label(5) == "ch. 5"
    assert WorldInfo.from_row(ROWS[1]).size() == "10 chapters · 68 passages · 29 entities"
    assert session_title("", "沈砚是谁？") == "沈砚是谁？"
    assert session_title("Sworn brothers", "沈砚是谁？") == "Sworn brothers"
    assert session_title("", "") == "new session"
    assert session_title("x" * 60, "", width=10) == "x" * 9 + "…"
    assert exports_dir(settings) == settings.data_dir / "exports"
