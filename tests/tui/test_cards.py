"""In the app: "who is X" answered from the world's own lore, and an entity's card opened from
the entity stack and from the timeline."""

from __future__ import annotations

import pytest

from tests.tui.conftest import SIZE, ask, settle
from tui.screens.card import CardScreen
from tui.screens.main import MainScreen

# Every test here runs the app under Pilot on a copy of the demo world: slow (pyproject.toml).
pytestmark = pytest.mark.slow

WHO = {  # the question → words of the right answer its first line must hold
    "Who is Shen Yan?": ("首座弟子", "顾怀山之徒"),
    "沈砚是谁？": ("首座弟子", "顾怀山之徒"),
    "Who is Eleanor Vance?": ("cartographer",),
    "韩峥是谁？": ("顾怀山之徒", "结义兄弟"),
}


async def test_who_is_x_is_answered_in_the_first_sentence_with_a_citation(app):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for question, right in WHO.items():
            view = await ask(pilot, question)
            stored = app.conversation.turns()[-1]
            assert view.status == "answered" and stored.status == "answered", question
            lead = stored.answer.split("\n", 1)[0]
            assert all(word in lead for word in right), (question, lead)
            assert "[1]" in lead and stored.citations, question
            # cited by the glossary's own lines, which hold the quoted words
            first = stored.citations[0]
            assert first["source"].endswith("glossary.toml") and first["lines"][0] > 0


async def test_the_four_demo_questions_are_answered_in_their_first_sentence(app):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for question, right in (("苏绾是从哪里拿回归雁图的？", "从侯府藏书楼盗回归雁图"),
                                ("What did Eleanor do with the map?", "burns the map"),
                                ("Who killed Han Zheng?", "Su Wan"),
                                ("顾怀山是怎么死的？", "被韩峥用蚀心散毒死")):
            view = await ask(pilot, question)
            stored = app.conversation.turns()[-1]
            lead = stored.answer.split("\n", 1)[0]
            assert view.status == "answered" and right in lead, (question, lead)
            assert stored.citations[0]["source"].endswith("glossary.toml")


async def test_c_opens_the_card_from_the_stack_and_from_the_timeline(app):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await ask(pilot, "韩峥是谁？")
        assert app.main.stack.entities[0] == "韩峥"
        await pilot.press("f3", "c")
        await settle(pilot)
        assert isinstance(app.screen, CardScreen) and app.screen.entity == "韩峥"
        text = str(app.screen.query_one("#card-text").render())
        assert "顾怀山之徒" in text and "glossary.toml" in text
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)
        # back where the card was asked for: m then opens the map, not an "m" in the question
        # box (a newcomer's trial)
        await settle(pilot)
        assert app.focused is app.main.stack, app.focused
        await pilot.press("f3", "enter")  # track it, then ask the timeline for the card
        await settle(pilot)
        assert app.main.timeline.entity == "韩峥"
        await pilot.press("f4", "c")
        await settle(pilot)
        assert isinstance(app.screen, CardScreen) and app.screen.entity == "韩峥"


async def test_the_card_keeps_the_spoiler_horizon(app):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.jobs.set_horizon(app.talking, 2)  # what Ctrl+B sets: the reader has read up to chapter 2
        await settle(pilot)
        await ask(pilot, "Who is Eleanor Vance?")  # she first appears in ch. 7
        stored = app.conversation.turns()[-1]
        assert stored.answer.startswith("Nothing up to ch. 2 says who Eleanor Vance is")
        await ask(pilot, "韩峥是谁？")  # the glossary tells his death: it is hidden, the text is not
        stored = app.conversation.turns()[-1]
        assert stored.citations and all(c["chapter"] <= 2 for c in stored.citations)
        assert "落星崖" not in stored.answer


async def test_each_line_of_an_answer_is_a_paragraph_of_its_own(app):
    """The lead and each "see also" are lines of the answer: Markdown would run them into one."""
    from textual.widgets import Markdown
    from textual.widgets.markdown import MarkdownBlock

    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        view = await ask(pilot, "韩峥死在哪里？")
        stored = app.conversation.turns()[-1]
        lines = [line for line in stored.answer.splitlines() if line.strip()]
        assert len(lines) >= 2, stored.answer
        shown = [block for block in view.query_one(".answer", Markdown).children
                 if isinstance(block, MarkdownBlock)]
        assert len(shown) == len(lines), [str(block.render()) for block in shown]
