"""Keys: every binding has an id and a tooltip, `[keymap]` remaps them, the palette offers
every action, the help screen lists every key as remapped."""

from __future__ import annotations

import re

import pytest

from tests.tui.conftest import SIZE, make_app, settle
from tui.actions import palette_commands
from tui.app import LoreApp
from tui.keys import binding_groups, known_ids, unknown_ids
from tui.screens.help import HelpScreen, help_markdown
from tui.screens.main import MainScreen
from tui.screens.sessions import SessionPicker


def test_every_binding_has_a_unique_id_and_a_tooltip():
    ids = [b.id for _, bindings in binding_groups() for b in bindings]
    assert len(ids) > 30
    assert all(b.tooltip for _, bindings in binding_groups() for b in bindings)
    assert len(ids) == len(set(ids)), "binding ids are what [keymap] names: keep them unique"
    every = [b for cls in (LoreApp, MainScreen) for b in cls.BINDINGS]
    assert all(b.id and b.tooltip for b in every)


def test_unknown_keymap_ids_are_found():
    assert unknown_ids({"sessions": "f6", "sesions": "f7"}) == ["sesions"]
    assert {"quit", "help", "sessions", "cancel-answer", "export", "focus-chat"} <= known_ids()


def test_the_palette_offers_every_action_of_the_main_screen():
    offered = {action for _, _, action in palette_commands()}
    for binding in MainScreen.BINDINGS:
        assert binding.action in offered, binding.id
    for binding in LoreApp.BINDINGS:
        assert f"app.{binding.action}" in offered, binding.id


def test_the_help_lists_every_binding_with_its_remapped_keys():
    text = help_markdown({"sessions": "f6"}, binding_groups())
    for _, bindings in binding_groups():
        for b in bindings:
            assert f"`{b.id}`" in text
    assert re.search(r"\| `f6` \| `sessions` \|", text)


@pytest.mark.slow
async def test_keymap_from_config_remaps_a_binding(settings):
    settings.keymap = {"sessions": "f6", "no-such-binding": "f7"}
    app = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert any(severity == "warning" and "no-such-binding" in note
                   for severity, note in app.notes)
        await pilot.press("ctrl+o")  # the old key does nothing now
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        await pilot.press("f6")
        await settle(pilot)
        assert isinstance(app.screen, SessionPicker)
        await pilot.press("escape", "f1")
        assert isinstance(app.screen, HelpScreen)
        assert "| `f6` | `sessions` |" in app.screen.query_one("Markdown").source
