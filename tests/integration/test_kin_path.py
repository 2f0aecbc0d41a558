"""How two people are related, from what the text states: through the third person each is
related to ("How is Oliver Hale related to Walter Fenn?" through Clara Fenn, his wife and
Walter's daughter, with both sentences cited), and in the text's own kin word where the
relation is of no narrower type (Tom Ashby, Walter Fenn's nephew). A short original story: the
Fenns of Harrow Lane."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.lore import asked_new, ingested, lore

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow

CHAPTERS = {
    "01.txt": """Chapter 1. Harrow Lane

Walter Fenn kept the forge at the bottom of Harrow Lane. He had worked iron there for thirty years, and he said the lane had never once been quiet.

Walter Fenn is the father of Clara Fenn. Clara Fenn was a quick girl: she knew every horse in the lane by its shoes, and she could name its owner. Every noon Clara Fenn carried a basket down to the forge, and she sat on the anvil block while her father ate.
""",
    "02.txt": """Chapter 2. The Carter

Oliver Hale drove a carter's wagon between Dunmore and the coast. He stopped at the forge whenever a wheel needed a new rim, and he always paid in silver.

In the spring Oliver Hale married Clara Fenn at the chapel on the hill. Clara Fenn wore a blue ribbon, and she carried white roses. Oliver Hale wore a coat borrowed from the miller, and he laughed at himself in it.
""",
    "03.txt": """Chapter 3. The Broken Axle

Oliver Hale brought his wagon to Walter Fenn with a broken axle. Walter Fenn worked through the night, and he would take no payment for it.

Oliver Hale drove away at dawn. Clara Fenn rode on the wagon seat as far as the bridge, and she waved to the forge. Walter Fenn watched the wagon until it was out of sight, and then he went back to the fire.
""",
    "04.txt": """Chapter 4. The Apprentice

Tom Ashby is the nephew of Walter Fenn. Tom Ashby came from Dunmore to learn the trade, and he slept in the loft above the forge.

Tom Ashby burned his hand on the first day. Walter Fenn bound it with a clean rag, and Tom Ashby went back to the bellows. By winter Tom Ashby could shoe a horse alone, and Tom Ashby was proud of it.
""",
}


@pytest.fixture(scope="module")
def lane_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingested(tmp_path_factory.mktemp("lane-home"), "lane", CHAPTERS)


def asked(home: Path, question: str) -> dict:
    """`lore ask --json` in a new session of the lane world, as a user types it."""
    return asked_new(home, "lane", question)


def test_two_joined_by_a_third_are_related_through_that_person(lane_home: Path) -> None:
    answer = asked(lane_home, "How is Oliver Hale related to Walter Fenn?")
    first = answer["answer"].splitlines()[0]
    # a daughter's husband is a son-in-law, and the answer says why
    assert first.startswith(
        "Oliver Hale is Walter Fenn's son-in-law: Oliver Hale is Clara Fenn's husband, and "
        "Clara Fenn is Walter Fenn's daughter (chapters 1, 2"), first
    quotes = [c["quote"] for c in answer["citations"]]
    # each step cited by the sentence that states it, the first step's first
    assert quotes[0].startswith("In the spring Oliver Hale married Clara Fenn")
    assert quotes[1] == "Walter Fenn is the father of Clara Fenn."


def test_a_pair_a_stated_relation_joins_is_answered_with_it(lane_home: Path) -> None:
    first = asked(lane_home, "How is Clara Fenn related to Walter Fenn?")["answer"].splitlines()[0]
    assert first.startswith("Clara Fenn is Walter Fenn's daughter (chapters 1"), first


def test_kin_of_no_narrower_type_is_named_by_the_texts_word(lane_home: Path) -> None:
    # "Tom Ashby is the nephew of Walter Fenn": the answer and his card say nephew, where the
    # answer said "relation: kin" and the card left it out
    first = asked(lane_home, "How is Tom Ashby related to Walter Fenn?")["answer"].splitlines()[0]
    assert first.startswith("Tom Ashby is Walter Fenn's nephew (chapters 4"), first
    card = lore("card", "Tom Ashby", "--world", "lane", home=lane_home)
    assert card.code == 0, card.err
    assert "Walter Fenn's nephew" in card.out.splitlines()[0]
