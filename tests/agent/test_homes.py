"""Where does X live?, answered from the homes on X's card (stores/card_homes.py)."""

from __future__ import annotations

from types import SimpleNamespace

from agent.librarian.analysis import analyse
from agent.librarian.world_answers import WorldAnswers
from stores.card_homes import HomeReader
from stores.cards import Card
from stores.entities.matcher import AliasMatcher
from tests.stores.test_card_homes import KINDS, NAMES, chunk


def test_where_someone_lives_is_answered_from_their_card() -> None:
    cards = {"Sir Walter Elliot": Card("Sir Walter Elliot", "person", ["Sir Walter"])}
    reader = HomeReader(AliasMatcher(NAMES), KINDS)
    story = [chunk(1, "Sir Walter Elliot, of Kellynch Hall, in Somersetshire, was vain."),
             chunk(15, "Sir Walter's house in Camden Place was a good one.")]
    for c in story:
        reader.read(c)
    cards["Sir Walter Elliot"].facts = reader.homes("Sir Walter Elliot")
    world = WorldAnswers(SimpleNamespace(card=cards.get, chunks={c.id: c for c in story}))
    matcher = AliasMatcher(NAMES)

    def asked(question: str, horizon: int = 0) -> str:
        answer = world.home(analyse(question, matcher.find_spans), str, horizon)
        return answer.text if answer else ""

    assert asked("Where does Sir Walter live?").startswith(
        "Sir Walter Elliot lives at Kellynch Hall, then at Camden Place. In ch. 1: “Sir Walter")
    assert asked("Where does Sir Walter live?", horizon=10).startswith(
        "Sir Walter Elliot lives at Kellynch Hall. In ch. 1")
    assert asked("Where did Sir Walter go in Bath?") == ""  # not where he lives
    assert asked("Where does Lady Russell live?") == ""  # no home read: the search answers
