"""Kin a character states in their own words ("my old cousin, Mrs. Pell") becomes a typed
relation of the one who says the words, though only a pronoun tags them ("he replied"): the
words before were said to him by name (a short original story: the Fenwicks of Stoke Lacy)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.integration.lore import ingested, lore

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow

CHAPTERS = {
    "01.txt": """Chapter 1. Stoke Lacy

Arthur Fenwick came to Stoke Lacy in the spring, with debts he did not speak of. Clara Wilde saw Arthur Fenwick at church on the first Sunday, and Mrs. Pell, who owned the great house on the hill, asked him to dine.

Mrs. Pell was old and rich, and Stoke Lacy said she would leave the house to somebody. Mr. Fenwick dined with Mrs. Pell every week after that, and Mr. Fenwick was always the last to leave.
""",
    "02.txt": """Chapter 2. The Orchard

Clara Wilde met Arthur Fenwick in the orchard below the church.

"It is hardly worth while, Mr. Fenwick, to tell me any more of your debts."

"I insist on telling you all of it," he replied. "My debts are old; and though the death of my old cousin, Mrs. Pell, was to set me free, that event was uncertain."

Clara Wilde walked home alone, and Mr. Fenwick went up the hill to Mrs. Pell.
""",
    "03.txt": """Chapter 3. The Will

Mrs. Pell heard of the orchard from her maid, and Mr. Fenwick was not asked to dine again. Clara Wilde was not asked to the great house again, and Mr. Fenwick left Stoke Lacy before the summer.
""",
}


@pytest.fixture(scope="module")
def stoke_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingested(tmp_path_factory.mktemp("stoke-home"), "stoke", CHAPTERS)


def test_kin_said_in_someones_words_answers_how_two_are_related(stoke_home: Path) -> None:
    # Sense and Sensibility's "How is Willoughby related to Mrs. Smith?" was answered with a
    # sentence about neither's kin: the cousin was stated only in his own words
    result = lore("ask", "How is Mrs. Pell related to Arthur Fenwick?", "--world", "stoke",
                  "--json", home=stoke_home)
    assert result.code == 0, result.err
    answer = json.loads(result.out)
    assert answer["answer"].startswith("Mrs. Pell is Arthur Fenwick's cousin (chapters 2"), (
        answer["answer"])
    assert any("my old cousin, Mrs. Pell" in c["quote"] for c in answer["citations"]), answer


def test_a_quote_of_someones_words_says_whose_they_are(stoke_home: Path) -> None:
    # a newcomer's trial on Mansfield Park: words given only by "said she" were quoted without
    # saying whose; the narration quoted beside them is nobody's
    result = lore("ask", "How is Mrs. Pell related to Arthur Fenwick?", "--world", "stoke",
                  "--new", home=stoke_home)
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    spoken = next(line for line in lines if "my old cousin, Mrs. Pell" in line)
    assert spoken.endswith("(Arthur Fenwick's words) [1]"), spoken
    told = [line for line in lines if "“" in line and "my old cousin" not in line]
    assert told and not any("words)" in line for line in told), lines


def test_who_said_a_line_is_answered_with_its_speaker(stoke_home: Path) -> None:
    # a newcomer's trial on Crome Yellow: "Who said …?" quoted the line and left "he replied"
    # unnamed in 6 of 11 questions
    result = lore("ask", 'Who said "I insist on telling you all of it"?', "--world", "stoke",
                  "--new", home=stoke_home)
    assert result.code == 0, result.err
    first = result.out.splitlines()[0]
    assert first.startswith("Said by Arthur Fenwick, in chapter 2"), result.out
    assert "I insist on telling you all of it" in first
