"""Answers from what the world knows: whose other name an asked name is, said before the card."""

from __future__ import annotations

import pytest

from agent.librarian.known import led_by, names_apart
from agent.schemas import Answer, Citation


@pytest.mark.parametrize(("alias", "name", "apart"), [
    ("伯岩", "顾怀山", True),  # a courtesy name shares nothing with the name
    ("凤姐", "王熙凤", True),
    ("宝玉", "贾宝玉", False),  # part of the name: a reader knows it
    ("Count of Monte Cristo", "Edmond Dantès", True),
    ("the Marquis", "Pei Zhao", True),  # a title alone stands for him
    ("Albert", "Albert de Morcerf", False),
    ("M. de Villefort", "Villefort", False),
    ("Mademoiselle Danglars", "Eugénie Danglars", False),
])
def test_an_alias_is_said_apart_only_when_it_is_more_than_part_of_the_name(
        alias: str, name: str, apart: bool) -> None:
    assert names_apart(alias, name) is apart


def cite(chunk: str, quote: str) -> Citation:
    return Citation(chunk_id=chunk, quote=quote)


def test_a_lead_goes_first_and_the_answer_quotes_nothing_it_quoted_twice() -> None:
    lead = Answer(text="“伯岩”指顾怀山。见第2回：字伯岩。[1]", citations=[cite("c2", "字伯岩。")],
                  stop_reason="answered")
    card = Answer(text="顾怀山：楼主。[1]\n另见第2回：「字伯岩。」[2]\n首次出现于第1回[3]。",
                  citations=[cite("lore", "楼主"), cite("c2", "字伯岩。"), cite("c1", "顾怀山")],
                  stop_reason="answered")
    both = led_by(lead, card)
    assert both.text.splitlines() == ["“伯岩”指顾怀山。见第2回：字伯岩。[1]", "顾怀山：楼主。[2]",
                                      "首次出现于第1回[3]。"]
    assert [c.chunk_id for c in both.citations] == ["c2", "lore", "c1"]
