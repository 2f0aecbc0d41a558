"""Grading a "who is X" answer: an accepted term in its first line, a whole word in English."""

from __future__ import annotations

from agent.evals.cards import holds_term


def test_an_english_term_counts_as_a_whole_word_and_a_chinese_one_anywhere() -> None:
    assert holds_term("the only son of Fernand", "son")
    assert holds_term("the Sons of the Prophet", "son")  # a plural ending is the same term
    assert not holds_term("the most admired young person of his day", "son")
    assert holds_term("Harriet Smith was the natural daughter of somebody", "natural daughter")
    assert holds_term("a parlour-boarder at Mrs. Goddard's", "parlour-boarder")
    assert holds_term("诸葛亮：蜀汉丞相", "丞相")
    assert not holds_term("诸葛亮：军师", "丞相")
