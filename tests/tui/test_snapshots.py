"""Layout snapshots of the main screen and the session picker (pytest-textual-snapshot).

The sessions are written straight into the session store with fixed texts and dates, so the
shots depend on the layout and the demo world only (not on the offline model's wording or the
clock). Update after an intended change: pytest tests/tui/test_snapshots.py --snapshot-update
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from agent.schemas import Citation
from agent.world.retrieval import Retriever
from sessions.records import StackEntry
from sessions.store import SessionStore
from stores.world import WorldStores
from tests.tui.conftest import SIZE, make_app, settle
from tui.screens.sessions import SessionPicker

# Every test here runs the app under Pilot on a copy of the demo world: slow (pyproject.toml).
pytestmark = pytest.mark.slow

ANSWER = ("韩峥，字定远。十二年前二人在澹烟湖畔的老柳树下结为异姓兄弟，沈砚为兄，韩峥为弟 [1]。"
          "两人又同是顾怀山的徒弟 [2]。")


def _seed(settings) -> list[str]:
    """Three sessions of the demo world with fixed contents and dates; the open one last."""
    stores = WorldStores(settings, "demo")
    try:
        events = Retriever(stores, settings.retrieval).track("沈砚")
    finally:
        stores.close()
    citations = [Citation(chunk_id=e.chunk_id, chapter=e.chapter, source=e.source,
                          lines=e.lines, quote=e.gist.rstrip("…")[:24]) for e in events[:2]]
    ids = []
    with SessionStore(settings.sessions_path) as store:
        for day, (title, questions) in enumerate([
                ("Who poisoned the old master", ["顾怀山是怎么死的？"]),
                ("", ["Who is Eleanor Vance?", "What ship does she sail?"]),
                ("", ["沈砚的结义兄弟是谁？", "他们是怎么认识的？"])], start=1):
            session = store.create_session("demo", title)
            for n, question in enumerate(questions):
                turn = store.begin_turn(session.id, question)
                store.finish_turn(turn.id, resolved_question=question.replace("他们", "沈砚和韩峥"),
                                  answer=ANSWER, messages_json="[]", citations=citations,
                                  tool_calls=[{"tool": "vector_search", "args": {},
                                               "summary": f"searching '{question}' → 5 passages"}],
                                  stack=[StackEntry(entity="韩峥", referred_as="他" if n else ""),
                                         StackEntry(entity="沈砚"), StackEntry(entity="顾怀山")])
            store.set_tracked(session.id, "沈砚")
            stamp = datetime(2025, 3, day, 9, 30, tzinfo=UTC).isoformat(timespec="microseconds")
            store.db.execute("UPDATE sessions SET created = ?, updated = ? WHERE id = ?",
                             [stamp, stamp, session.id])
            ids.append(session.id)
    return ids


@pytest.fixture
def seeded(settings, monkeypatch):
    monkeypatch.setenv("TZ", "UTC")  # the picker shows local times
    time.tzset()
    yield settings, _seed(settings)
    monkeypatch.delenv("TZ")
    time.tzset()


async def _ready(pilot) -> None:
    await settle(pilot)
    pilot.app.main.question.cursor_blink = False
    pilot.app.clear_notifications()
    await pilot.pause()


def test_main_screen(snap_compare, seeded):
    settings, _ = seeded
    assert snap_compare(make_app(settings), terminal_size=SIZE, run_before=_ready)


def test_session_picker(snap_compare, seeded):
    settings, _ = seeded

    async def open_picker(pilot) -> None:
        await _ready(pilot)
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert isinstance(pilot.app.screen, SessionPicker)
        await pilot.press("down")
        await pilot.pause()

    assert snap_compare(make_app(settings), terminal_size=SIZE, run_before=open_picker)
