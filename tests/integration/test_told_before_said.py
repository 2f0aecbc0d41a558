""""What is A to B?" when the world types no relation between them: the sentences that name
both lead, and among them the narrator's before a character's words. What the telling says two
people are to each other is told; what one says of the other is an opinion. A character's line
led, as in Emma: "What is Mr. Perry to Mr. Woodhouse?" opened with Mr. Woodhouse's "you are very
much mistaken if you suppose Mr. Perry to be that sort of character", and the narrator's "Mr.
Perry was an intelligent, gentlemanlike man, whose frequent visits were one of the comforts of
Mr. Woodhouse's life" came second. A sentence that calls one of them someone's relative, in a
passage naming the other, comes before one that only names both ("His brother-in-law, Mr.
Hurst, …" after "Mr. Hurst and Mr. Bingley were at piquet"), and so does one that gives one of
them a trade ("consulting Mr. Perry, the apothecary"). A word for kin or for what one is to the
other counts where it stands between the two names in one clause, or next to one of them: "less
as a governess than a friend", not "Frank turned instantly to Emma …; and … his father looked
his most perfect approbation"."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.lore import asked_new, ingested

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow

CHAPTERS = {
    "01.txt": """Chapter 1. The Mill

The mill at Ashford stood by the river, and the river was wide and slow there. The miller ground
wheat and barley for the farms around, and sold his flour in the town across the water. Mr. Hale
rose early. Mr. Dunn rose earlier. Mr. Hale liked the spring; Mr. Dunn liked the autumn.
""",
    "02.txt": """Chapter 2. The Landing

Mr. Hale waited at the landing. "Sir," said Mr. Hale to the miller's boy, "you are quite
mistaken if you suppose Mr. Dunn to be that sort of man; Mr. Dunn is late, but he is honest, and
Mr. Hale knows it." The boy went home. Mr. Dunn was the ferryman, whose boat carried Mr. Hale
across the river every week.
""",
    "03.txt": """Chapter 3. The Flood

The river rose in the night. Mr. Hale watched the water from the mill. Mr. Dunn tied up his boat.
In the morning Mr. Hale went down to the landing, and Mr. Dunn was already there.
""",
    "04.txt": """Chapter 4. The Cards

Mr. Reed came to the mill in the winter. Mr. Hale and Mr. Reed sat at cards all evening, and
Mr. Reed won. Mr. Reed slept in the mill that night.
""",
    "05.txt": """Chapter 5. The Dinner

Mr. Hale said little at dinner. His brother-in-law, Mr. Reed, talked for both of them, and
nobody listened.
""",
    "06.txt": """Chapter 6. The Knee

Mr. Hale's knee was bad all that winter. He had been at the pains of consulting Mr. Lowe, the
surgeon, on the subject. Mr. Lowe came to the mill on Sunday, and Mr. Hale gave Mr. Lowe a cup
of tea by the fire.
""",
    "07.txt": """Chapter 7. The Spring

In the spring Mr. Lowe rode out to Ashford again. Mr. Lowe found the knee better, and Mr. Hale
walked with Mr. Lowe as far as the landing.
""",
    "08.txt": """Chapter 8. The Letters

Mr. Hale turned to Miss Grey for the letters; and his father, who was fond of Miss Grey,
watched Mr. Hale from the window. Miss Grey gave Mr. Hale the letters at noon.
""",
    "09.txt": """Chapter 9. The Schoolroom

Twelve years had Miss Grey been less a governess than a friend in the house of Mr. Hale.
Miss Grey kept the schoolroom warm.
""",
}


@pytest.fixture(scope="module")
def ferry_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingested(tmp_path_factory.mktemp("told-home"), "ashford", CHAPTERS)


@pytest.mark.parametrize(("question", "led_by"), [
    ("What is Mr. Dunn to Mr. Hale?", "Mr. Dunn was the ferryman"),  # the telling, not a line
    ("What is Mr. Reed to Mr. Hale?", "His brother-in-law, Mr. Reed"),  # a relative, not cards
    # a trade in apposition, in a passage naming the other, before cups of tea (Emma's "Mr.
    # Perry, the apothecary")
    ("What is Mr. Lowe to Mr. Hale?", "consulting Mr. Lowe, the surgeon"),
    # what the two are to each other (a governess), not a sentence with a word for someone
    # else's kin beyond a semicolon (Emma's "What was Mrs. Weston to Emma?")
    ("What is Miss Grey to Mr. Hale?", "less a governess than a friend"),
])
def test_what_says_how_two_are_related_leads(ferry_home: Path, question: str,
                                             led_by: str) -> None:
    first = asked_new(ferry_home, "ashford", question)["answer"].splitlines()[0]
    assert led_by in first, first
