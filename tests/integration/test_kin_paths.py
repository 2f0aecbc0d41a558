"""A relative no relation names, answered through one person the world relates to both: "Who is
Henry Ashby's father?" where the text says only whose father the general is and whose brother
Henry is (a newcomer's trial on Northanger Abbey: Henry Tilney's father). Said as the two steps
make him: a father or a stepfather, since a sister's father may be either."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.lore import asked_new, ingested

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow

_STORY = ("General Ashby, the father of Eleanor Ashby, rode to the abbey. Henry Ashby, the "
          "brother of Eleanor Ashby, rode beside him. Eleanor Ashby waited at the gate, and "
          "General Ashby and Henry Ashby came in to dine.\n")
CHAPTERS = {f"0{n}.txt": f"Chapter {n}. The Abbey\n\n{_STORY}" for n in range(1, 6)}


@pytest.fixture(scope="module")
def abbey_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingested(tmp_path_factory.mktemp("abbey-home"), "abbey", CHAPTERS)


def test_a_father_through_a_sister_is_a_father_or_a_stepfather(abbey_home: Path) -> None:
    first = asked_new(abbey_home, "abbey", "Who is Henry Ashby's father?")["answer"]
    first = first.splitlines()[0]
    # each step said of its first one where their gender is known (Eleanor's by her given
    # name, as Henry's: en.given_gender)
    assert first.startswith("General Ashby is Henry Ashby's father or stepfather: General Ashby "
                            "is Eleanor Ashby's father, and Eleanor Ashby is Henry Ashby's "
                            "sister"), first
