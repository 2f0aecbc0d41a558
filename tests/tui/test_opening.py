"""Opening a world on a slow or busy machine: progress instead of a give-up, and when it does
fail, the reason stays on screen and in the data dir's log (issue 15)."""

from __future__ import annotations

import time

import pytest

from stores.errors import StoreError
from tests.tui.conftest import SIZE, ask, make_app, settle
from tui import workers

# Every test here runs the app under Pilot on a copy of the demo world: slow (pyproject.toml).
pytestmark = pytest.mark.slow


async def watch_opening(pilot) -> set[str]:
    """Every status-bar activity shown until the world is open and its indexes loaded (at most
    10 s): the world shows first, the indexes and the model load while the user types."""
    app, seen = pilot.app, set()
    for _ in range(100):
        await pilot.pause(0.1)
        seen.add(str(app.main.status.activity))
        if app.conversation is not None and not app.warming:
            break
    await settle(pilot)
    return seen


async def test_a_slow_open_shows_progress_and_opens(settings, monkeypatch):
    real_warm = workers.warm

    def slow_warm(conversation):  # a machine with a load average of 6 on 2 cores
        time.sleep(3.5)
        real_warm(conversation)

    monkeypatch.setattr(workers, "warm", slow_warm)
    app = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        seen = await watch_opening(pilot)
        assert app.conversation is not None and app.conversation.world == "demo"
        # the stage and the seconds so far (how they count: test_the_opening_line_counts_…)
        assert any(a.startswith("opening demo: loading the passages") and a.endswith(" s")
                   for a in seen), seen
        assert not [n for sev, n in app.notes if sev == "error"]
        view = await ask(pilot, "沈砚的师父是谁？")
        assert view.status == "answered"


async def test_stores_held_by_another_process_are_waited_for(settings, monkeypatch):
    real_warm = workers.warm
    calls = []

    def held_then_free(conversation):
        calls.append(time.monotonic())
        if len(calls) <= 3:
            raise StoreError("the vector index is in use by process 4242 (lore ask, since now)",
                             where=settings.world_dir("demo") / "qdrant", hint="close it")
        real_warm(conversation)

    monkeypatch.setattr(workers, "warm", held_then_free)
    monkeypatch.setattr(workers, "LOCK_RETRY_S", 0.3)
    app = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        seen = await watch_opening(pilot)
        assert len(calls) == 4 and app.conversation is not None
        assert any("waiting: the vector index is in use by process 4242" in a for a in seen), seen
        assert not [n for sev, n in app.notes if sev == "error"]


async def test_a_failed_open_keeps_the_reason_on_screen_and_in_the_log(settings, monkeypatch):
    def broken(conversation):
        raise StoreError("the vector index is unreadable (ValueError: bad meta.json)",
                         where=settings.world_dir("demo") / "qdrant",
                         hint="delete that folder, then re-run `lore ingest` for this world")

    monkeypatch.setattr(workers, "warm", broken)
    app = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for _ in range(30):  # long after the notification has gone
            await pilot.pause(0.1)
        assert app.conversation is None and not app.opening
        hint = app.main.chat.hint_text
        assert "Could not open demo" in hint and "the vector index is unreadable" in hint
        assert "re-run `lore ingest`" in hint and "Ctrl+G" in hint
        log = settings.data_dir / "logs" / "tui.log"
        assert str(log) in hint
        text = log.read_text(encoding="utf-8")
        assert "could not open demo after" in text and "bad meta.json" in text
        assert "StoreError" in text  # with the traceback, for a bug report
        assert app.main.status.activity == ""
        # the rest of the data dir is untouched: the world opens once the fault is gone
        monkeypatch.undo()
        await pilot.press("ctrl+g")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert app.conversation is not None and app.conversation.world == "demo"


async def test_the_world_shows_while_its_indexes_load_and_a_question_waits_for_them(
        settings, monkeypatch):
    real_warm = workers.warm

    def slow_warm(conversation):  # the embedder and the indexes take their time
        time.sleep(3.0)
        real_warm(conversation)

    monkeypatch.setattr(workers, "warm", slow_warm)
    app = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(100):
            await pilot.pause(0.05)
            if app.conversation is not None:
                break
        assert app.warming, "the world is on screen before its indexes are loaded"
        assert "雁回楼记" in app.main.chat.hint_text and app.focused is app.main.question
        assert "(you can type)" in str(app.main.status.activity)
        await pilot.press(*"Who is Su Wan?", "enter")
        assert any("goes out as soon as it is ready" in n for _, n in app.notes)
        await settle(pilot)
        assert not app.warming and app.main.status.activity == ""
        turn = app.main.chat.last_turn
        assert turn.question == "Who is Su Wan?" and turn.status == "answered"
