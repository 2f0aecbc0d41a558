"""One person, one entity, in a writer's own world: a script's speaker label in capitals is the
person the story names in its usual case, and an epithet the story says people call someone
joins them ("whom they call the Ox", "They call him the Ox"), with and without its article. A
newcomer's lorebook world had MAREN VELL beside Maren Vell, and Ox and Gull as entities of their
own, so follow-ups read "Who taught TOBIN VELL his letters?". An original short world."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.integration.lore import ingested, lore

# Every test here runs `lore` in a subprocess: slow (pyproject.toml).
pytestmark = pytest.mark.slow

_TELLING = ("Captain Wren Hollis, whom the sailors of Brack call the Heron, sailed at dawn. "
            "Wren Hollis was the best pilot on the coast.\n\n"
            "The mercenaries waited on the quay. Their captain was Bram Coldwell. They call "
            "him the Ox. The Ox was strong and slow, and Bram Coldwell was loyal to gold.\n")
_SCRIPT = ("[Scene: the quay at night]\n\nBRAM COLDWELL: You are late, Captain.\n\n"
           "WREN HOLLIS: The tide was against us.\n\nBRAM COLDWELL: The tide is always against "
           "you.\n\nWREN HOLLIS: Then pay me for the tide.\n")
CHAPTERS = {f"{n:02}.md": f"# Chapter {n}\n\n{_TELLING if n % 2 else _SCRIPT}"
            for n in range(1, 7)}


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingested(tmp_path_factory.mktemp("quay"), "quay", CHAPTERS)


def test_a_speaker_in_capitals_and_an_epithet_are_the_person_they_name(home: Path) -> None:
    listed = lore("entities", "--world", "quay", "--json", home=home)
    assert listed.code == 0, listed.err
    entities = {e["name"]: e for e in json.loads(listed.out)}
    assert "BRAM COLDWELL" not in entities and "WREN HOLLIS" not in entities, sorted(entities)
    assert "Ox" not in entities and "Heron" not in entities, sorted(entities)
    bram, wren = entities["Bram Coldwell"], entities["Wren Hollis"]
    assert {"BRAM COLDWELL", "the Ox", "Ox"} <= set(bram["aliases"]), bram
    assert bram["type"] == "person"
    assert {"WREN HOLLIS", "the Heron", "Heron"} <= set(wren["aliases"]), wren
    asked = lore("ask", "Who is the Ox?", "--world", "quay", "--json", home=home)
    assert asked.code == 0, asked.err
    assert "Bram Coldwell" in json.loads(asked.out)["answer"].splitlines()[0]
