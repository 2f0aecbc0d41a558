"""While an answer is built the event loop stays free for keys: the session database is read
and written, and the earlier turns' messages parsed, in threads, never on the loop."""

from __future__ import annotations

import threading

import pytest

from sessions.store import SessionStore
from tests.tui.conftest import SIZE, ask, settle

# Every test here runs the app under Pilot on a copy of the demo world: slow (pyproject.toml).
pytestmark = pytest.mark.slow

STORE_CALLS = ("turns", "stack", "summaries", "finish_turn")


async def test_answering_reads_and_writes_the_session_off_the_event_loop(app, monkeypatch):
    loop_thread = threading.get_ident()
    seen: list[tuple[str, int]] = []
    for name in STORE_CALLS:
        real = getattr(SessionStore, name)

        def spy(self, *args, _real=real, _name=name, **kwargs):
            seen.append((_name, threading.get_ident()))
            return _real(self, *args, **kwargs)

        monkeypatch.setattr(SessionStore, name, spy)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await ask(pilot, "沈砚的结义兄弟是谁？")  # a first turn, so the second has history
        seen.clear()
        view = await ask(pilot, "他为什么要毒死师父？")
        assert view.status == "answered"
        assert {name for name, _ in seen} >= {"turns", "finish_turn"}
        on_loop = [name for name, thread in seen if thread == loop_thread]
        assert not on_loop, f"on the event loop: {on_loop}"
