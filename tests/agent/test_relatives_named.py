"""Which relatives named by kin a question is read as asking about by name, in both languages
(agent/librarian/relatives_named.py), against a small world's typed relations."""

from __future__ import annotations

import pytest

from agent.librarian.relatives_named import (
    asks_for_a_relative,
    asks_of_a_relative,
    relatives_named,
)
from agent.world.lexicon import Resolution
from stores.models import Relation

NAMES = ("曹操", "曹嵩", "曹丕", "Emma", "Mr. Woodhouse", "Isabella")
GENDER = {"曹操": "m", "曹嵩": "m", "曹丕": "m", "Emma": "f", "Mr. Woodhouse": "m",
          "Isabella": "f"}
RELATIONS = [Relation("曹嵩", "曹操", "parent_of", chapters=[1]),
             Relation("曹操", "曹丕", "parent_of", chapters=[30]),
             Relation("Mr. Woodhouse", "Emma", "parent_of", chapters=[1]),
             Relation("Mr. Woodhouse", "Isabella", "parent_of", chapters=[2])]
BY_NAME = {n: [r for r in RELATIONS if n in (r.source, r.target)] for n in NAMES}


def spans(text: str) -> list[tuple[int, int, str]]:
    found = []
    for name in sorted(NAMES, key=len, reverse=True):
        at = text.find(name)
        while at >= 0:
            if not any(s <= at < e for s, e, _ in found):
                found.append((at, at + len(name), name))
            at = text.find(name, at + 1)
    return sorted(found)


def read(question: str, horizon: int = 0) -> str:
    return relatives_named(Resolution(question, question), spans, BY_NAME,
                           lambda n: GENDER.get(n, ""), horizon).text


@pytest.mark.parametrize(("question", "read_as"), [
    ("What did Emma's father eat?", "What did Mr. Woodhouse eat?"),
    ("Whom did the father of Emma marry?", "Whom did Mr. Woodhouse marry?"),
    ("曹操的父亲是怎么死的？", "曹嵩是怎么死的？"),
    ("曹丕的父亲打败了谁？", "曹操打败了谁？"),
])
def test_a_relative_the_world_knows_is_asked_about_by_name(question: str, read_as: str) -> None:
    assert read(question) == read_as


@pytest.mark.parametrize("question", [
    "Who was Emma's father?",                     # who the relative is, is what is asked
    "What is the name of Emma's father?",
    "What is Emma's father's name?",
    "曹操的父亲是谁？",
    "谁是曹操的父亲？",
    "曹操的父亲叫什么名字？",
    "What did Mr. Woodhouse's daughter say?",     # two daughters: no one to pick
    "Whom did Emma's eldest son marry?",          # a word the world's relations cannot place
    "Is Mr. Woodhouse Emma's father?",            # the relative is named already
    "What did Emma's father-in-law say?",
    "Whom did the daughter of Emma's guardian marry?",  # the guardian's daughter
])
def test_a_question_the_rewrite_would_change_stays_as_written(question: str) -> None:
    assert read(question) == question


def test_a_relation_the_horizon_has_not_reached_names_no_one() -> None:
    assert read("曹丕的父亲打败了谁？", horizon=10) == "曹丕的父亲打败了谁？"
    assert read("曹丕的父亲打败了谁？", horizon=30) == "曹操打败了谁？"


def test_a_relative_asked_about_is_told_from_one_asked_for() -> None:
    assert asks_of_a_relative("What did Mr. Woodhouse's daughter say?", spans)
    assert asks_of_a_relative("曹操的父亲是怎么死的？", spans)
    assert not asks_of_a_relative("Who is Emma's father?", spans)
    assert not asks_of_a_relative("曹操的父亲是谁？", spans)
    assert asks_for_a_relative("曹丕的父亲叫什么名字？", spans)
    assert asks_for_a_relative("曹操的父亲都有谁？", spans)  # 顾怀山的徒弟有谁: the demo's
    assert asks_for_a_relative("What is the name of Emma's father?", spans)
    assert not asks_for_a_relative("曹操的父亲是怎么死的？", spans)
    assert not asks_for_a_relative("What did Emma say?", spans)
