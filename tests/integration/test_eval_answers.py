"""`lore eval answers` grades what a user reads: the stated answer, refusals, citations, cost."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent.conversation.core import AskResult
from agent.evals.answers import gold_key, names, stated
from agent.evals.retrieval import Question
from agent.schemas import Answer, Citation
from agent.world.open_world import OpenWorld
from agent.world.retrieval import Retriever
from stores.config import Settings
from tests.integration.lore import lore

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
QUESTIONS = str(ROOT / "stores" / "demo_world" / "questions.jsonl")


@pytest.fixture(scope="module")
def retriever(demo_home: Path) -> Iterator[Retriever]:
    with OpenWorld.open(Settings(data_dir=demo_home), "demo") as opened:
        yield opened.retriever


def said(text: str, *quotes: tuple[str, str], stop: str = "answered") -> AskResult:
    """A result whose answer says `text`, citing (chunk id, quote) pairs."""
    citations = [Citation(chunk_id=c, quote=q) for c, q in quotes]
    return AskResult(Answer(text=text, citations=citations, stop_reason=stop), "q")  # type: ignore[arg-type]


def q(question: str, answer: str, gold: list[int] | None = None) -> Question:
    return Question(id="t", type="fact", question=question, answer=answer,
                    gold_chapters=[1] if gold is None else gold)


def test_a_name_counts_by_any_of_its_aliases_but_not_by_the_words_of_the_question(
        retriever: Retriever) -> None:
    key = gold_key(q("伯岩是谁？", "伯岩是顾怀山的字。顾怀山是雁回楼的老楼主。"), retriever)
    assert key.kind == "entity"
    assert names(said("顾怀山。"), key)
    assert not names(said("伯岩。"), key)  # the question's own word is no answer
    disciple = gold_key(q("沈青崖唯一的弟子是谁？", "苏绾，字若汀，渔户的女儿。"), retriever)
    assert names(said("是若汀[1]。"), disciple)  # 若汀 is 苏绾's courtesy name


def test_only_what_the_answer_states_counts_not_its_evidence(retriever: Retriever) -> None:
    key = gold_key(q("伯岩是谁？", "伯岩是顾怀山的字。"), retriever)
    quote = "是楼主顾怀山在他二十岁那年亲手所赐"
    evidence_only = said(f"见第1回「沈青崖柳溪授蒙童」：{quote}[1]", ("c1", quote))
    assert not names(evidence_only, key)
    assert stated(evidence_only).strip() == ""  # the whole line is evidence
    assert names(said(f"顾怀山[1]。\n见第1回：{quote}[1]", ("c1", quote)), key)


def test_numbers_match_however_they_are_written(retriever: Retriever) -> None:
    key = gold_key(q("老楼主死在第几回？", "第三回，死在听雨阁里。"), retriever)
    assert key.kind == "number"
    assert names(said("第3回[1]。"), key) and names(said("死在第三回。"), key)
    assert not names(said("第13回。"), key)


def test_a_quoted_gold_answer_must_be_given(retriever: Retriever) -> None:
    key = gold_key(q("松树上刻了哪几个字？", "“结义弟韩峥墓”六个字。"), retriever)
    assert key.kind == "quote"
    assert names(said("刻的是“结义弟韩峥墓”[1]。"), key)
    assert not names(said("沈砚、苏绾。"), key)


def test_lore_eval_answers_prints_both_the_grades_and_the_cost(demo_home: Path) -> None:
    result = lore("eval", "answers", "--world", "demo", "--questions", QUESTIONS, "--json",
                  home=demo_home)
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert report["reader"] == "offline" and report["n"] == 25
    assert report["answerable"]["n"] == 22 and report["unanswerable"]["n"] == 3
    assert report["citations_verified"] == 1.0  # the librarian quotes its passages exactly
    assert 0 < report["stated"] <= 22
    assert report["total_s"]["p50"] > 0 and report["first_text_s"]["p50"] is not None
    by_id = {g["id"]: g for g in report["questions"]}
    assert by_id["demo-12"]["key_kind"] == "quote" and by_id["demo-05"]["key_kind"] == "number"
    table = lore("eval", "answers", "--world", "demo", "--questions", QUESTIONS, "--limit", "3",
                 home=demo_home)
    assert table.code == 0 and "stated answers right" in table.out and "(n=3)" in table.out


def test_without_a_name_or_number_half_the_gold_words_must_be_said(retriever: Retriever) -> None:
    silver = gold_key(q("How much silver did the steward offer?", "Five hundred taels, in a box."),
                      retriever)
    assert silver.kind == "words"
    assert names(said("He offered five hundred taels [1]."), silver)
    assert not names(said("He offered a great deal of silver."), silver)
    living = gold_key(q("沈砚在柳溪镇靠什么过活？", "在镇西土地庙旁的学塾里教蒙童读书，镇上人都叫他沈先生。"),
                      retriever)
    assert names(said("他在土地庙旁的学塾里教蒙童读书[1]。"), living)
    assert not names(said("他在渡口撑船。"), living)
