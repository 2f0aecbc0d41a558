"""A newcomer's empty session says what the world is, offers questions from the world itself
(keyboard-selectable), and every empty pane says how to fill it."""

from __future__ import annotations

import pytest

from agent.world.open_world import OpenWorld
from stores.lang import has_han
from tests.tui.conftest import SIZE, settle
from tui.onboarding import example_questions

# Every test here runs the app under Pilot on a copy of the demo world: slow (pyproject.toml).
pytestmark = pytest.mark.slow


def _shown(widget) -> str:
    return str(widget.render())


async def test_the_empty_chat_introduces_the_world_and_asks_a_suggested_question(app):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        hint = str(app.main.chat.query_one("#chat-hint").render())
        assert "雁回楼记" in hint, "the world's own title, from its folder's README"
        assert "10 chapters · 95 passages" in hint and "12 files in" in hint
        # no model is set: who answers, and how to set one (a newcomer read "model: offline"
        # in the status bar as a model that failed to connect)
        assert "built-in reader" in hint and "[model] in config.toml" in hint
        assert "model built-in" in str(app.main.status.render())
        examples = app.main.chat.examples
        assert examples.display and 3 <= len(examples.questions) <= 4
        assert any(has_han(q) for q in examples.questions), "the world's Chinese half"
        assert any(q.startswith("Who is ") for q in examples.questions), "and its English half"
        assert app.focused is app.main.question
        await pilot.press("down")  # from the question box to the examples
        assert app.focused is examples
        await pilot.press("down", "enter")  # the second one
        await settle(pilot)
        asked = examples.questions[1]
        turn = app.main.chat.last_turn
        assert turn.question == asked and turn.status == "answered"
        assert not examples.display, "the examples give way to the conversation"
        assert app.focused is app.main.question


async def test_empty_panes_say_how_to_fill_them(app):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        timeline = app.main.timeline
        assert timeline.option_count == 1 and timeline.get_option_at_index(0).disabled
        assert "F3" in str(timeline.get_option_at_index(0).prompt)
        assert "Enter" in str(timeline.get_option_at_index(0).prompt)
        stack = app.main.stack
        assert stack.option_count == 1 and "newest first" in str(
            stack.get_option_at_index(0).prompt)
        await pilot.press("f3", "enter")  # nothing to track yet: nothing breaks
        await settle(pilot)
        assert not [n for sev, n in app.notes if sev == "error"]


def test_examples_are_about_named_entities_never_a_tagger_guess(settings):
    opened = OpenWorld.open(settings, "demo")
    retriever = opened.retriever
    try:
        entities = retriever.stores.catalog.entities("demo")
        guesses = {e.name for e in entities if e.sources == ["tagger"]}
        assert guesses, "the demo world has names only the tagger found (侯府)"
        questions = example_questions(entities, ["zh", "en"])
        assert questions[:2] == ["沈砚是谁？", "苏绾是谁？"], "the most mentioned people"
        assert "Who is Eleanor Vance?" in questions
        assert not any(g in q for g in guesses for q in questions)
    finally:
        opened.close()


def test_a_new_book_offers_its_best_known_people_and_a_relative_their_cards_name() -> None:
    """A novel ingested from its text alone: every name is the tagger's, so a person is offered
    when their card says who they are, and one question asks for a relative a card states."""
    from stores.cards import Card, Fact
    from stores.models import Entity

    def tagged(name: str, kind: str, mentions: int) -> Entity:
        return Entity(name, kind, mentions=mentions, sources=["tagger"])

    entities = [tagged("Edmond Dantès", "person", 2000), tagged("Paris", "place", 900),
                tagged("Villefort", "person", 800), tagged("Carnival", "other", 700),
                tagged("Mercédès", "person", 260), tagged("Ali", "person", 130)]
    cards = {
        "Edmond Dantès": Card("Edmond Dantès", "person", facts=[
            Fact("defines", "mate of the ship Pharaon", "c1", 1, 2.5)]),
        "Villefort": Card("Villefort", "person", facts=[Fact("office", "procureur", "c2", 6)]),
        "Mercédès": Card("Mercédès", "person", facts=[
            Fact("relation", "spouse", "c3", 8, other="Villefort", end="source")]),
        "Ali": Card("Ali", "person"),  # nothing says who he is
    }
    questions = example_questions(entities, ["en"], cards.get,
                                  lambda n: "f" if n == "Mercédès" else "m")
    assert questions[:2] == ["Who is Edmond Dantès?", "Who is Villefort?"]
    assert "Who is Villefort's wife?" in questions
    assert not any(n in q for n in ("Paris", "Carnival", "Ali") for q in questions)


async def test_the_footer_keeps_export_and_help_in_a_100_column_terminal(app):
    # a newcomer at 100 columns saw the footer end at "^r map": ^s export and F1 help were cut
    from textual.widgets._footer import FooterKey

    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        keys = {k.description: k for k in app.main.query(FooterKey)}
        palette = next(k for k in keys.values() if k.has_class("-command-palette"))
        for wanted in ("export", "help"):
            key = keys[wanted]
            assert key.region.width > 0 and key.region.right <= palette.region.x, (
                wanted, key.region, palette.region)
