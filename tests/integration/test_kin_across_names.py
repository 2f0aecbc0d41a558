"""Kin that family names cannot tell, told by the text another way. A son who bears another
name than his father (Emma's Frank Churchill, Mr. Weston's son) is bound to him when each
one's own word names the other: where Mr. Hale speaks of "his son", Tom Penrose is named, and
where Tom speaks of "his father", Mr. Hale is. And a young man the text calls "Mr. Frank Ashby"
as often as it writes "Mr. Ashby" is not the Mr. Ashby it means (his uncle, Mrs. Ashby's
husband); before, he was, and Mrs. Ashby's card called her his wife. A short original story:
the harbour at Falmouth."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.integration.lore import ingested, lore

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow

CHAPTERS = {
    "01.txt": "Chapter 1\n\nAnna Vale met Mr. Hale on the quay at dawn. Mr. Hale spoke of his "
              "son all morning. Tom Penrose was at sea, and Anna Vale had never seen him.\n",
    "02.txt": "Chapter 2\n\nMr. Tom Penrose came home in the spring. Tom Penrose wrote to his "
              "father from Plymouth first. Mr. Hale read the letter to Anna Vale twice.\n",
    "03.txt": "Chapter 3\n\nMr. Hale took Anna Vale to the boatyard. Mr. Hale said that his son "
              "would build a cutter there. Tom Penrose laughed at the plan.\n",
    "04.txt": "Chapter 4\n\nTom Penrose walked with Anna Vale by the river. Tom Penrose said his "
              "father was the kindest man in Falmouth. Mr. Hale was waiting at the gate.\n",
    "05.txt": "Chapter 5\n\nMr. Ashby kept the chandlery on the quay, and Mrs. Ashby kept his "
              "books. Mr. Frank Ashby, his nephew, came down from London. Anna Vale liked Mr. "
              "Frank Ashby at once.\n",
    "06.txt": "Chapter 6\n\nMrs. Ashby gave a dinner. Mr. Ashby carved, and Mr. Frank Ashby "
              "talked of London to Anna Vale. Mrs. Ashby watched Mr. Frank Ashby closely.\n",
    "07.txt": "Chapter 7\n\nMr. Ashby and Mrs. Ashby walked to church. Mr. Frank Ashby stayed "
              "behind with a letter. Frank Ashby never went to church in Falmouth.\n",
    "08.txt": "Chapter 8\n\nAnna Vale sat with Mrs. Ashby in the garden. Mr. Ashby brought them "
              "tea, and Mr. Frank Ashby read aloud. Frank Ashby read badly. Frank Ashby left "
              "for London in the morning, and Mr. Ashby was glad.\n",
    "09.txt": "Chapter 9\n\nMiss Hale kept the light at St Anthony. Miss Hale rowed across the "
              "creek every evening, and Anna Vale watched her from the quay.\n",
    "10.txt": "Chapter 10\n\nAnna Vale visited Miss Hale at the light. Miss Hale gave her tea and "
              "a lamp for the road, and Miss Hale sang as she trimmed the wicks.\n",
    "11.txt": "Chapter 11\n\nMr. Hale walked up the hill with his daughter, and they looked at "
              "the sea a long time.\n",
    "12.txt": "Chapter 12\n\nMr. Hale wrote a letter to his daughter that winter.\n",
    "13.txt": "Chapter 13\n\nMrs. Hale had planted the roses by the light. Mrs. Hale's roses "
              "still grew there, and Miss Hale cut them for Anna Vale. Mrs. Hale had loved "
              "white roses best, and Mrs. Hale's lamp still hung by the door.\n",
    "14.txt": "Chapter 14\n\nMiss Hale showed Anna Vale the room Mrs. Hale had sewn in.\n\n"
              "\"How long ago did your mother die?\" asked Anna Vale.\n\n"
              "\"Nine winters ago,\" said Miss Hale.\n",
}


@pytest.fixture(scope="module")
def harbour(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingested(tmp_path_factory.mktemp("harbour-home"), "harbour", CHAPTERS)


def _card(home: Path, name: str) -> str:
    result = lore("card", name, "--world", "harbour", home=home)
    assert result.code == 0, result.err
    return result.out.splitlines()[0]


def test_a_son_of_another_name_is_his_fathers_son(harbour: Path) -> None:
    card = _card(harbour, "Tom Penrose")
    assert card.startswith("Tom Penrose") and "Mr. Hale's son" in card, card
    result = lore("ask", "How is Tom Penrose related to Mr. Hale?", "--world", "harbour",
                  "--new", "--json", home=harbour)
    assert result.code == 0, result.err
    first = json.loads(result.out)["answer"].splitlines()[0]
    assert first.startswith("Tom Penrose is Mr. Hale's son"), first


def test_kin_a_passage_names_by_a_word_is_not_marked_unsupported(harbour: Path) -> None:
    # "Mr. Hale … his daughter" names no Miss Hale, and no passage names both: the card
    # cites it, and the answer must not call its own card unsupported
    result = lore("ask", "Who is Mr. Hale?", "--world", "harbour", "--new", "--json",
                  home=harbour)
    assert result.code == 0, result.err
    answer = json.loads(result.out)["answer"]
    assert "Miss Hale's father" in answer.splitlines()[0], answer
    assert "Unsupported" not in answer, answer


def test_a_death_told_of_someone_as_kin_is_not_refused(harbour: Path) -> None:
    # no sentence names Mrs. Hale beside a word for dying: "your mother die", asked of her
    # daughter, tells it (Northanger Abbey: "how long ago may it be that your mother died?")
    result = lore("ask", "When did Mrs. Hale die?", "--world", "harbour", "--new", "--json",
                  home=harbour)
    assert result.code == 0, result.err
    answer = json.loads(result.out)["answer"]
    assert not answer.startswith("The text does not say"), answer
    assert "your mother die" in answer, answer


def test_the_nephew_called_by_his_first_name_is_not_mr_ashby(harbour: Path) -> None:
    listed = lore("entities", "--world", "harbour", home=harbour)
    assert listed.code == 0, listed.err
    rows = [line.split()[:3] for line in listed.out.splitlines()]
    assert ["Mr.", "Ashby", "person"] in rows or any(
        line.startswith("Mr. Ashby ") for line in listed.out.splitlines()), listed.out
    wife = _card(harbour, "Mrs. Ashby")
    assert "Mr. Ashby's wife" in wife and "Frank" not in wife, wife
    assert "Mrs. Ashby's husband" not in _card(harbour, "Frank Ashby")
