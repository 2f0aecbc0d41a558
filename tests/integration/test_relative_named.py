"""A relative a question names by kin is asked about by name: "What did Clara Fenn's father
toast on the forge fire?" is read as "What did Walter Fenn toast on the forge fire?" and answered from his
sentences, not with the relation ("Walter Fenn is Clara Fenn's father") above quotes about
Clara; "What did Emma's father eat?" on Emma was answered that way. Who the father is, is still
answered with the relation, in any words ("What is the name of …" was answered with quotes). A short original story: the Fenns of Harrow Lane."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.integration.lore import asked_new, ingested, lore

pytestmark = pytest.mark.slow  # `lore` in subprocesses

CHAPTERS = {
    "01.txt": """Chapter 1. Harrow Lane

Walter Fenn kept the forge at the bottom of Harrow Lane. He had worked iron there for thirty years, and he said the lane had never once been quiet.

Walter Fenn is the father of Clara Fenn. Clara Fenn was a quick girl: she knew every horse in the lane by its shoes, and she could name its owner.
""",
    "02.txt": """Chapter 2. Noon

Every noon Clara Fenn carried a basket down the lane. Walter Fenn toasted black bread and pickled onions on the forge fire, and he drank cold tea from a tin cup.

Clara Fenn sat on the anvil block and told him the news of the lane. Clara Fenn laughed at the miller's new hat, and Walter Fenn laughed with her.
""",
    "03.txt": """Chapter 3. The Fair

Clara Fenn went to the fair at Dunmore with the miller's wife. Clara Fenn bought a blue ribbon and a bag of sugared almonds, and she danced with the carter's boy.

Walter Fenn stayed at the forge. Walter Fenn shod four horses that day, and he was tired when Clara Fenn came home.
""",
}


@pytest.fixture(scope="module")
def lane_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingested(tmp_path_factory.mktemp("fenn-home"), "fenn", CHAPTERS)


def test_a_relative_named_by_kin_is_asked_about_by_name(lane_home: Path) -> None:
    answer = asked_new(lane_home, "fenn", "What did Clara Fenn's father toast on the forge fire?")
    assert answer["resolved_question"] == "What did Walter Fenn toast on the forge fire?", answer
    first = answer["answer"].splitlines()[0]
    assert "black bread and pickled onions" in first, answer["answer"]
    assert "is Clara Fenn's father" not in answer["answer"], answer["answer"]


@pytest.mark.parametrize("question", ["Who is Clara Fenn's father?",
                                      "What is the name of Clara Fenn's father?"])
def test_who_the_relative_is_is_still_answered_with_the_relation(lane_home: Path,
                                                                  question: str) -> None:
    answer = asked_new(lane_home, "fenn", question)
    assert answer["resolved_question"] == question, answer
    assert answer["answer"].startswith("Walter Fenn is Clara Fenn's father"), answer["answer"]


def test_a_follow_ups_her_father_is_the_father_by_name(lane_home: Path) -> None:
    asked_new(lane_home, "fenn", "Who went to the fair at Dunmore?")
    follow = lore("ask", "What did her father toast on the forge fire?", "--world", "fenn", "--json",
                  home=lane_home)
    assert follow.code == 0, follow.err
    answer = json.loads(follow.out)
    assert answer["resolved_question"] == "What did Walter Fenn toast on the forge fire?", answer
    assert "black bread" in answer["answer"].splitlines()[0], answer["answer"]
