"""What a chapter tells, whom it names most and where someone first or last appears, asked on
the command line: "What happens in chapter 2?" got "The text does not say", "Who is the main
character in that chapter?" a sentence with "in the main", and "Which chapter does he first
appear in?" a sentence with "first appearance" (a newcomer's trial on Mansfield Park). The chapter's own sentences
answer now, and "that chapter" is the one the last question named. Short original stories, in
both languages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.integration.lore import ingested, lore

# Every test here runs `lore` in a subprocess: slow (pyproject.toml).
pytestmark = pytest.mark.slow

CHAPTERS_EN = {
    "01.txt": "Chapter 1\n\nThe mill stood on the Wend. Old Corwin Ashe kept it, and Corwin Ashe "
              "ground the valley's corn. Corwin Ashe said the river was rising. Tamsin Reed "
              "said he was an old fool.\n",
    "02.txt": "Chapter 2\n\nThe flood came in the night and broke the mill's wheel. Tamsin Reed "
              "rowed across the water to the mill. Tamsin Reed carried Corwin Ashe to the "
              "church on the hill. Tamsin Reed said she would go back for his dog, and Tamsin "
              "Reed found it on the roof.\n",
    "03.txt": "Chapter 3\n\nIn spring Corwin Ashe built a new wheel of oak, and Corwin Ashe "
              "said: \"Thank you.\" Tamsin Reed married the smith's son, and the mill ground "
              "again.\n",
}
CHAPTERS_ZH = {
    "01.txt": "第一回 渡口\n\n河边有座磨坊，老艄公周满守着它。周满每天磨全村的麦子。周满说，河水涨了。"
              "李芷笑他。\n",
    "02.txt": "第二回 大水\n\n夜里大水冲断了磨坊的水轮。李芷划船过河来到磨坊。李芷背起周满送到山上的"
              "庙里，李芷又回去救他的狗。李芷在屋顶上找到了狗。\n",
    "03.txt": "第三回 新轮\n\n开春周满用橡木造了新水轮，周满谢了李芷。李芷嫁给了铁匠的儿子，磨坊又转"
              "了起来。\n",
}


@pytest.fixture(scope="module")
def homes(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return (ingested(tmp_path_factory.mktemp("mill-en"), "mill", CHAPTERS_EN),
            ingested(tmp_path_factory.mktemp("mill-zh"), "mill", CHAPTERS_ZH))


def _ask(home: Path, question: str, *new: str) -> dict:
    result = lore("ask", question, "--world", "mill", "--json", *new, home=home)
    assert result.code == 0, result.err
    return json.loads(result.out)


def test_what_a_chapter_tells_and_whom_that_chapter_names_most(
        homes: tuple[Path, Path]) -> None:
    en, _ = homes
    told = _ask(en, "What happens in chapter 2?", "--new")
    first = told["answer"].splitlines()[0]
    assert first.startswith("Chapter 2") and "The flood came in the night" in first, first
    assert {c["chapter"] for c in told["citations"]} == {2}
    people = _ask(en, "Who is the main character in that chapter?")
    assert people["resolved_question"] == "Who is the main character in chapter 2?"
    assert people["answer"].startswith("Chapter 2 names most Tamsin Reed"), people["answer"]
    gone = _ask(en, "What happens in chapter 9?")
    assert gone["answer"].startswith("The story has no chapter 9 (its chapters: 1–3)")


def test_the_same_in_chinese(homes: tuple[Path, Path]) -> None:
    _, zh = homes
    told = _ask(zh, "第二回讲了什么？", "--new")
    first = told["answer"].splitlines()[0]
    assert first.startswith("第2回「大水」") and "夜里大水冲断了磨坊的水轮" in first, first
    people = _ask(zh, "那一回的主要人物是谁？")
    assert people["resolved_question"] == "第2回的主要人物是谁？"
    assert people["answer"].startswith("第2回「大水」里提到最多的人物：李芷"), people["answer"]


def test_where_someone_first_and_last_appears_is_their_cards(homes: tuple[Path, Path]) -> None:
    en, zh = homes
    first = _ask(en, "In which chapter does Tamsin Reed first appear?", "--new")
    assert first["answer"].startswith(
        "Tamsin Reed first appears in chapter 1: “Tamsin Reed said he was an old fool."), (
        first["answer"])
    last = _ask(en, "Which chapter does she last appear in?")
    assert last["answer"].startswith("Tamsin Reed last appears in chapter 3:"), last["answer"]
    told = _ask(zh, "李芷第一次出场是在第几回？", "--new")
    assert told["answer"].startswith("李芷首次出场于第1回「渡口」："), told["answer"]
