"""In the app, the answer leads with the sentence that answers, and "which chapter is that in?"
takes the chapter of that sentence (issue 38's demo cases, under Pilot on the demo world)."""

from __future__ import annotations

import pytest

from tests.tui.conftest import SIZE, ask, settle

# Every test here runs the app under Pilot on a copy of the demo world: slow (pyproject.toml).
pytestmark = pytest.mark.slow


async def test_the_first_line_answers_and_which_chapter_follows_it(app):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for question, held, follow_up in (
                ("How much silver did Qu Ming bring?", "Five hundred taels",
                 "Which chapter is that in?"),
                ("韩峥的字是什么？", "定远", "那是第几回？")):
            view = await ask(pilot, question)
            assert view.status == "answered"
            stored = app.conversation.turns()[-1]
            assert held in stored.answer.splitlines()[0], stored.answer
            chapter = stored.citations[0]["chapter"]
            await ask(pilot, follow_up)
            after = app.conversation.turns()[-1]
            assert str(chapter) in after.answer.splitlines()[0], after.answer
            assert after.citations[0]["quote"] == stored.citations[0]["quote"]
