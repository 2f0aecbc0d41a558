"""Relations the text states become typed graph edges with the passage that states them, and
the offline model answers "who was X's father" from that passage (a short original story)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.integration.lore import ingested, lore

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow

CHAPTERS = {
    "01.txt": """Chapter 1. The Lamp

Tobias Wren kept the lamp at Gull Point for thirty winters. Mira climbed the stairs with him
every evening, and Tobias Wren let Mira trim the wick while the gulls wheeled over the rocks.

In Saltmarsh the fishermen said that Tobias Wren never slept. Mira laughed at that, for she
had seen Tobias Wren asleep in his chair at Gull Point, the logbook open on his knees.
""",
    "02.txt": """Chapter 2. The Wreck

A storm drove the brig of Captain Hale onto the shoals below Gull Point. Mira saw the lights
go out one by one. Tobias Wren rowed out with Captain Hale's own lantern in the bow, and
Mira held the rope on the landing until her hands bled.

Captain Hale came ashore at dawn. In Saltmarsh they called it a miracle; Captain Hale called
it Tobias Wren. Mira said nothing and went back to the lamp.
""",
    "03.txt": """Chapter 3. The Letter

A letter came from Saltmarsh, addressed to Mira, the daughter of Tobias Wren, keeper of the
lamp at Gull Point. Captain Hale wrote that the brig would sail again in spring.

Mira read the letter twice and put it under the logbook. From Saltmarsh, Captain Hale sent
oranges, and Tobias Wren ate them all before Mira came down the stairs. Far from Saltmarsh
and far from Gull Point, the brig waited for the spring.
""",
}


@pytest.fixture(scope="module")
def lamp_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingested(tmp_path_factory.mktemp("lamp-home"), "lamp", CHAPTERS)


def test_who_was_her_father_is_answered_from_the_sentence_that_says_so(lamp_home: Path) -> None:
    result = lore("ask", "Who was Mira's father?", "--world", "lamp", "--json", home=lamp_home)
    assert result.code == 0, result.err
    answer = json.loads(result.out)
    lines = answer["answer"].splitlines()
    assert lines[0] == "Tobias Wren is Mira's father (chapters 3…)."
    assert "Tobias Wren." not in lines  # the relation's sentence names him, once
    # the graph was asked for that relation, and the passage stating it comes first
    assert any(c["tool"] == "graph_search" and c["args"]["entity"] == "Mira"
               and c["args"].get("relation") == "parent_of" for c in answer["tool_calls"])
    first = answer["citations"][0]
    assert first["chapter"] == 3
    assert "the daughter of Tobias Wren" in first["quote"]


def test_a_question_that_only_mentions_a_relative_states_no_relation(lamp_home: Path) -> None:
    # "her father" is part of what is asked about, not the answer: no relation line, no name
    result = lore("ask", "Whom did Mira wait for on the landing while her father rowed out?",
                  "--world", "lamp", "--json", home=lamp_home)
    assert result.code == 0, result.err
    answer = json.loads(result.out)
    assert "relation:" not in answer["answer"]
    assert not answer["answer"].startswith("Tobias Wren.")
    assert answer["citations"]


def test_places_are_told_from_people_by_how_the_text_uses_their_names(lamp_home: Path) -> None:
    result = lore("entities", "--world", "lamp", "--json", home=lamp_home)
    assert result.code == 0, result.err
    kinds = {row["name"]: row["type"] for row in json.loads(result.out)}
    assert kinds["Gull Point"] == "place" and kinds["Saltmarsh"] == "place"
    assert kinds["Mira"] != "place" and kinds["Tobias Wren"] != "place"
