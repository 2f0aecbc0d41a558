"""The status bar tells while a world searches with its fast index, and how far its e5
vectors are (issue 23: "vectors: e5 41% · searching with the fast index"); once they are
complete the open app searches with them."""

from __future__ import annotations

from pathlib import Path

import pytest

from stores.upgrade import upgrade
from tests.tui.conftest import SIZE, ask, ingest_demo, make_app, settle
from tui.settings import load_settings

# Ingests the demo world and computes its e5 vectors under Pilot: slow (pyproject.toml).
pytestmark = pytest.mark.slow


async def test_the_status_bar_shows_the_e5_upgrade_while_answers_use_the_fast_index(
        lore_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LORE_EMBEDDER__BACKEND", "e5")
    ingest_demo(lore_home)  # the fast index only: `lore ingest` would go on to the e5 vectors
    settings = load_settings()
    app = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # The app started its own `lore vectors` child for the world; this test computes the
        # vectors itself, as that other process would, so the child goes: on a loaded machine
        # it reached the e5 index first and held its lock (CI, stop 36).
        assert app.vector_job.world == "demo"
        app.vector_job.stop()
        fast = "vectors: e5 0% · searching with the fast index (BM25 alone)"
        assert app.main.status.vectors == fast
        assert fast in str(app.main.status.render())
        view = await ask(pilot, "Who is Eleanor Vance?")
        assert view.status == "answered" and app.conversation.turns()[-1].citations
        # the steps say how it searched: by words, not "by meaning" beside the bar's "BM25
        # alone" (a newcomer's trial on Mansfield Park)
        view = await ask(pilot, "Where did the Wayfarer come from?")
        searched = [s for s in view.steps if "searched the story" in s]
        assert searched and all("by words" in s for s in searched), view.steps
        # Another process (here: this one) computes some e5 vectors; the bar follows.
        done = upgrade(settings, "demo", limit=16)
        assert done.embedded == 16 and not done.switched
        app.refresh_vectors()
        await settle(pilot)
        assert app.main.status.vectors.startswith("vectors: e5 16% ·")  # 16 of 95 passages
        # The rest, with the app open on the world: the app holds no lock on the e5 index it
        # does not search yet, so the upgrade can build it and switch the world to it.
        rest = upgrade(settings, "demo")
        assert rest.embedded == 95 - 16 and rest.switched
        app.refresh_vectors()
        await settle(pilot)
        assert app.main.status.vectors == ""
        # The next question already searches with the e5 vectors.
        view = await ask(pilot, "Where did the Wayfarer come from?")
        assert view.status == "answered"
        assert app.conversation.retriever.stores.embedder.name == "e5-small"
        searched = [s for s in view.steps if "searched the story" in s]
        assert searched and all("by meaning" in s for s in searched), view.steps


async def test_a_count_that_comes_back_while_the_app_closes_is_dropped(lore_home: Path) -> None:
    """The vectors' count is read by a worker: it may come back after the main screen is gone
    (CI saw StopIteration at the end of the test above). It is dropped, not raised."""
    from tui import messages as m
    from tui.screens.main import MainScreen

    ingest_demo(lore_home)
    app = make_app(load_settings())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
    assert not any(isinstance(s, MainScreen) for s in app.screen_stack)  # closed: none left
    told = list(app.notes)
    app._vectors(m.VectorsStatus(line=""))  # raised StopIteration looking for the main screen
    assert app.notes == told  # dropped: nothing shown and nothing told
