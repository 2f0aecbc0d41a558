"""A person the story calls by a word for kin alone ("his father") is in the passages that call
them so: The Metamorphosis writes "his father" for Mr. Samsa through most of its second part,
and his timeline, chart and the passages a search about him reads left that part out (a
newcomer's trial). Whom the word names comes from the relations the text states: here "Walter
Fenn is the father of Clara Fenn". A short original story."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.lore import ingested, lore

pytestmark = pytest.mark.slow  # `lore` in subprocesses

CHAPTERS = {
    "01.txt": """Chapter 1. Harrow Lane

Walter Fenn is the father of Clara Fenn. Mr. Walter Fenn kept the forge at the bottom of Harrow Lane, and he had worked iron there for thirty years.

Miss Clara Fenn was a quick girl: she knew every horse in the lane by its shoes. Walter Fenn said the lane had never once been quiet.
""",
    "02.txt": """Chapter 2. The Fair

The rain beat on the shutters all night. Clara Fenn came home late from the fair at Dunmore, and her father was waiting at the door with a green lamp.

Clara Fenn lay awake and listened to the wind.
""",
    "03.txt": """Chapter 3. The Axle

Walter Fenn mended the carter's axle at noon. Clara Fenn brought him bread and a jar of cold tea, and Walter Fenn ate it on the anvil block.

In the evening Walter Fenn shod the miller's grey mare. Clara Fenn held the lantern, and Walter Fenn sang an old song about the sea.
""",
}


@pytest.fixture(scope="module")
def fenn_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingested(tmp_path_factory.mktemp("fenn-home"), "fenn", CHAPTERS)


def test_the_father_called_her_father_is_in_that_chapter(fenn_home: Path) -> None:
    timeline = lore("timeline", "Walter Fenn", "--world", "fenn", home=fenn_home)
    assert timeline.code == 0, timeline.err
    rows = [line for line in timeline.out.splitlines() if line.startswith("| ") and "02.txt" in line]
    # his chapter-2 row, told by the sentence that calls him so (cut to one line)
    assert rows and "Clara Fenn came home late" in rows[0], timeline.out
    chart = lore("chart", "Walter Fenn", "--world", "fenn", "--format", "csv", home=fenn_home)
    assert chart.code == 0, chart.err
    header, row = chart.out.splitlines()[:2]
    assert header == "entity,1,2,3" and row.split(",")[2] == "1", chart.out  # seen in ch. 2
