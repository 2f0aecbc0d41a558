"""Kin a story names only by "her father" or "his wife" becomes a typed relation when the
family leaves one person the word can name, and the ask and the card answer from it (a short
original story: the Ashdowns of the Mill House)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.integration.lore import ingested, lore

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow

CHAPTERS = {
    "01.txt": """Chapter 1. The Mill House

Lucy Ashdown lived at the Mill House on the river Wend. Every morning Lucy Ashdown walked to the weir with her father, and Mr. Ashdown showed her where the trout lay under the alders.

Mrs. Ashdown kept the accounts of the mill. Mr. Ashdown said that his wife could count sacks of flour faster than any clerk in Wendbury, and Mrs. Ashdown laughed at him. Henry Ashdown had built the mill wheel himself.
""",
    "02.txt": """Chapter 2. The Flood

Lucy Ashdown heard Mrs. Ashdown call from the mill yard. When the river rose, Lucy Ashdown carried the ledgers up to the loft with her mother. Mrs. Ashdown would not leave the books behind, and Mr. Ashdown waded out to the sluice alone.

Thomas Reeve, the miller's man, followed Henry Ashdown into the water. In Wendbury they said Thomas Reeve saved the wheel. Lucy Ashdown said her father saved it, and Mr. Ashdown only smiled. Thomas Reeve dried his boots by the fire.
""",
    "03.txt": """Chapter 3. The Fair

At the Wendbury fair Lucy Ashdown sold eggs beside Thomas Reeve. Mr. Ashdown came late with his wife, and Mrs. Ashdown bought ribbons for Miss Lucy.

Thomas Reeve walked home with Mr. Ashdown along the Wend. Lucy Ashdown stayed with her mother at the fair until the lamps were lit, and Mrs. Ashdown told her the story of the first flood.
""",
}


@pytest.fixture(scope="module")
def mill_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingested(tmp_path_factory.mktemp("mill-home"), "mill", CHAPTERS)


def test_her_father_is_answered_with_the_one_man_of_her_family(mill_home: Path) -> None:
    result = lore("ask", "Who is Lucy Ashdown's father?", "--world", "mill", "--json",
                  home=mill_home)
    assert result.code == 0, result.err
    answer = json.loads(result.out)
    first = answer["answer"].splitlines()[0]
    assert first.startswith("Henry Ashdown is Lucy Ashdown's father (chapters 1")
    # the sentence that says "her father" is quoted first, from a passage that names him, so
    # a reader can check it
    first_quote = answer["citations"][0]["quote"]
    assert "her father" in first_quote and "Mr. Ashdown" in first_quote


def test_the_cards_give_her_parents_and_his_wife(mill_home: Path) -> None:
    lucy = lore("card", "Lucy Ashdown", "--world", "mill", home=mill_home)
    assert lucy.code == 0, lucy.err
    lead = lucy.out.splitlines()[0]
    assert "Henry Ashdown's daughter" in lead and "Mrs. Ashdown's daughter" in lead
    # each cited by the sentence that says so, not any sentence of the passage
    assert "walked to the weir with her father" in lucy.out
    assert "up to the loft with her mother" in lucy.out
    henry = lore("card", "Mr. Ashdown", "--world", "mill", home=mill_home)
    assert "Mrs. Ashdown's husband" in henry.out.splitlines()[0]
    # Miss Lucy has no husband, and her father is no one's son here
    assert not any(word in lead for word in ("wife", "husband", "sister"))
    assert "son" not in henry.out.splitlines()[0]


def test_the_map_quotes_the_sentence_that_names_her_father(mill_home: Path) -> None:
    result = lore("map", "Lucy Ashdown", "--world", "mill", "--format", "text", home=mill_home)
    assert result.code == 0, result.err
    father = next(line for line in result.out.splitlines() if "— father" in line)
    assert father.startswith("  Henry Ashdown — father (ch. 1) “Every morning Lucy Ashdown")
    assert "with her father" in father


def test_a_map_without_relations_says_none_was_read_not_that_none_is_stated(
        mill_home: Path) -> None:
    # a newcomer's trial: "No relation is stated in the text" over a person whose sister the
    # text names in words the reader did not read
    result = lore("map", "Thomas Reeve", "--world", "mill", "--format", "text", home=mill_home)
    assert result.code == 0, result.err
    assert "No relation was read from the text." in result.out, result.out
    assert "is stated" not in result.out


def test_a_name_asked_with_another_title_or_a_kin_word_is_not_taken_for_him(
        mill_home: Path) -> None:
    # a title without its full stop is the same title
    wife = lore("card", "Mrs Ashdown", "--world", "mill", home=mill_home)
    assert wife.code == 0 and wife.out.startswith("Mrs. Ashdown: Henry Ashdown's wife")
    # "Lucy Ashdown's father" is not Lucy: say which names there are, and where her kin are
    # listed; nor is a Miss Henry Ashdown Henry (no mention of him): name him as the one meant
    for asked, advice in (("Lucy Ashdown's father", "lore map 'Lucy Ashdown' --world mill"),
                          ("Miss Henry Ashdown", "did you mean 'Henry Ashdown'?")):
        result = lore("card", asked, "--world", "mill", home=mill_home)
        assert result.code != 0 and not result.out
        assert f"no entity or alias named {asked!r}" in result.err
        assert advice in result.err, result.err
    # the advice works
    kin = lore("map", "Lucy Ashdown", "--world", "mill", "--format", "text", home=mill_home)
    assert "Henry Ashdown — father" in kin.out


def test_a_pair_no_relation_joins_is_answered_with_a_sentence_naming_both(
        mill_home: Path) -> None:
    # nothing types Thomas Reeve's bond to Lucy Ashdown: the first quote is the one where both
    # stand, not the best-ranked one about him and her father, and no relation is made up
    result = lore("ask", "How is Thomas Reeve related to Lucy Ashdown?", "--world", "mill",
                  "--json", home=mill_home)
    assert result.code == 0, result.err
    answer = json.loads(result.out)
    assert answer["citations"][0]["quote"] == (
        "At the Wendbury fair Lucy Ashdown sold eggs beside Thomas Reeve.")
    # and it is the nearest found, not an answer (a newcomer's trial on Persuasion: "Who does
    # Anne marry at the end?" led plainly with “We do so wish that Charles had married Anne”)
    assert answer["answer"].startswith("The nearest found, in chapter 3"), answer["answer"]


def test_the_entity_list_keeps_its_columns_in_line(mill_home: Path) -> None:
    # "Henry Ashdown" is longer than the name column was (12): its row's type and count stood
    # one column further right than the others'
    result = lore("entities", "--world", "mill", home=mill_home)
    assert result.code == 0, result.err
    rows = [line for line in result.out.splitlines() if line.strip()]
    assert any(len(line.split("  ")[0]) > 12 for line in rows), rows
    assert len({line.index(" person") for line in rows if " person" in line}) == 1, rows


def test_a_card_of_kin_words_alone_quotes_the_sentence_that_opens_with_her(
        mill_home: Path) -> None:
    # "Mrs. Elton: Mr. Elton's wife." said nothing else of who she is (Emma's cards set); the
    # telling's first sentence that opens with her name introduces her
    wife = lore("card", "Mrs. Ashdown", "--world", "mill", home=mill_home)
    assert wife.code == 0, wife.err
    lead = wife.out.splitlines()[0]
    assert lead.startswith("Mrs. Ashdown: Henry Ashdown's wife"), lead
    assert lead.endswith("In ch. 1: “Mrs. Ashdown kept the accounts of the mill.” [1]"), lead
    # a sentence that names him late is not the one: "Every morning Lucy Ashdown walked to the
    # weir with her father, and Mr. Ashdown showed her …" is about her
    henry = lore("card", "Henry Ashdown", "--world", "mill", home=mill_home)
    assert henry.out.splitlines()[0].endswith(
        "In ch. 1: “Mr. Ashdown said that his wife could count sacks of flour faster than any "
        "clerk in Wendbury, and Mrs. Ashdown laughed at him.” [1]"), henry.out
