""""The general", "the count": a title with "the" and no name is a mention of the holder the
chapter last named, else of the book's one holder. Northanger Abbey's "the general" (100 times)
is General Tilney; Monte Cristo's "the count" is the Count of Monte Cristo, but the Count of
Morcerf at his trial. Without it the timeline of General Tilney missed the chapters where the
book only calls him so (18 chapters of 24). A short original story: the vale."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.integration.lore import ingested, lore

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow

_AT_THE_MILL = ("General Rowe rode to the mill at dawn. The general looked at the river and "
                "said nothing. Count Varga waited at the gate, and the count smiled at him. "
                "The opinion of the miller was asked.\n")
CHAPTERS = {
    **{f"0{n}.txt": f"Chapter {n}\n\n{_AT_THE_MILL}" for n in range(1, 6)},
    "06.txt": "Chapter 6\n\nThe rain fell all night. At dawn the general went down to the "
              "bridge alone, and the general saw that it had held.\n",
    "07.txt": "Chapter 7\n\nCount Orlov came from the north with twelve riders. Count Orlov "
              "asked for bread. The count was tired, and the count slept in the barn.\n",
    # two passages: the second calls the count of the first only "the count"
    "07b.txt": "Chapter 7\n\nCount Orlov came back in the autumn. " + "The leaves fell on the "
               "road and the carts went by. " * 40 + "\n\nThe count stood by the well.\n",
    "08.txt": "Chapter 8\n\nThe general opinion in the village was that the rain would come "
              "again. The miller mended his wheel.\n",
    "09.txt": "Chapter 9\n\nCount Orlov left. Count Orlov rode away. Count Orlov was not seen "
              "again. The general waved.\n",
}


@pytest.fixture(scope="module")
def vale_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingested(tmp_path_factory.mktemp("vale-home"), "vale", CHAPTERS)


def _timeline(home: Path, name: str) -> list[dict]:
    result = lore("timeline", name, "--world", "vale", "--format", "json", home=home)
    assert result.code == 0, result.err
    rows = json.loads(result.out)
    return rows["events"] if isinstance(rows, dict) else rows


def test_the_title_alone_is_its_one_holder_where_no_name_is_written(vale_home: Path) -> None:
    rows = _timeline(vale_home, "General Rowe")
    chapters = [row["chapter"] for row in rows]
    # chapters 6 and 9 call him only "the general"; chapter 8's "general opinion" is no one
    assert chapters == [1, 2, 3, 4, 5, 6, 9], chapters
    six = next(row for row in rows if row["chapter"] == 6)
    assert "the general" in six["gist"], six  # the sentence that calls him so


def test_the_title_alone_is_the_holder_the_chapter_last_named(vale_home: Path) -> None:
    # "the count" of chapter 7 is Count Orlov, named there, not the book's usual count
    varga = [row["chapter"] for row in _timeline(vale_home, "Count Varga")]
    orlov = _timeline(vale_home, "Count Orlov")
    assert varga == [1, 2, 3, 4, 5], varga
    assert [row["chapter"] for row in orlov] == [7, 7, 7, 9], orlov
    assert "The count stood by the well." in [row["gist"] for row in orlov], orlov


def test_the_title_alone_is_a_name_a_user_may_ask_for(vale_home: Path) -> None:
    # `lore card "the general"` said there was no such entity (a newcomer's trial on
    # Northanger Abbey, where the text calls him so 112 times)
    result = lore("card", "the general", "--world", "vale", home=vale_home)
    assert result.code == 0, result.err
    assert result.out.splitlines()[0].endswith("who General Rowe is; where the text names "
                                               "General Rowe:"), result.out
    # two counts of one standing: the title alone names neither
    both = lore("card", "the count", "--world", "vale", home=vale_home)
    assert both.code != 0 and "no entity or alias named 'the count'" in both.err, both.err
