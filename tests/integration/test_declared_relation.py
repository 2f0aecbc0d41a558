"""A relation the world's glossary declares is answered with the lore entry that declares it
cited, so the answer stands on what it cites (the demo world: Shen Yan and his teacher)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.integration.lore import lore

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow


def test_his_teacher_is_answered_from_the_glossary_and_cites_its_entry(demo_home: Path) -> None:
    first = lore("ask", "Who is Shen Yan?", "--world", "demo", "--new", home=demo_home)
    assert first.code == 0, first.err
    result = lore("ask", "Who is his teacher?", "--world", "demo", "--json", home=demo_home)
    assert result.code == 0, result.err
    answer = json.loads(result.out)
    # it was marked "(Unsupported: the cited passages do not mention Gu Huaishan.)" and shown
    # twice: it cited chapters that call him "the teacher" and never name him
    assert answer["answer"].startswith("Gu Huaishan is Shen Yan's master"), answer["answer"]
    assert "Unsupported" not in answer["answer"]
    assert any("顾怀山" in c["quote"] for c in answer["citations"]), answer["citations"]


def test_the_two_of_them_is_no_number_the_answer_claims(demo_home: Path) -> None:
    # "沈砚是顾怀山的徒弟，二人是师徒" was marked "（无依据：所引原文中没有2。）" and shown twice: the
    # 二 of 二人 was read as a number its citations must hold
    result = lore("ask", "顾怀山的徒弟有谁？", "--world", "demo", "--new", "--json",
                  home=demo_home)
    assert result.code == 0, result.err
    answer = json.loads(result.out)["answer"]
    assert answer.startswith("沈砚是顾怀山的徒弟，二人是师徒"), answer
    assert "无依据" not in answer, answer


def test_a_parent_no_relation_names_is_quoted_from_the_entry_that_says_whose_child(
        demo_home: Path) -> None:
    # a newcomer's trial: "苏绾的父亲是谁？" quoted 苏绾's "师父，韩师叔待你这样好…": the 父 of 师父
    # (a teacher) passed for a word for father, and her own entry, which does not name her,
    # says "柳溪镇渔户苏老七之女"
    result = lore("ask", "苏绾的父亲是谁？", "--world", "demo", "--new", "--json", home=demo_home)
    assert result.code == 0, result.err
    first = json.loads(result.out)["answer"].splitlines()[0]
    assert "苏老七之女" in first, first


def test_a_stranger_beside_someone_the_world_knows_is_said_to_be_unknown(
        demo_home: Path) -> None:
    # a newcomer's trial: "李慕白和沈砚是什么关系？" quoted 沈砚's passages and never said that
    # 李慕白 is in no passage ("How is Li Mubai related to Shen Yan?" did)
    result = lore("ask", "李慕白和沈砚是什么关系？", "--world", "demo", "--new", "--json",
                  home=demo_home)
    assert result.code == 0, result.err
    first = json.loads(result.out)["answer"].splitlines()[0]
    assert first == "原文中没有提到“李慕白”。", first
