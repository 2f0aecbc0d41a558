"""A name the world does not know, spelled like one it does, is read as that one; a name the
text writes is left as the user wrote it."""

from __future__ import annotations

from agent.world.spelling import respelled

ENTITIES = {"Frederick Wentworth": ["Captain Wentworth", "Frederick"], "Mr Wentworth": [],
            "Isabella Thorpe": ["Isabella"]}
WRITTEN = {"Frederick", "Wentworth", "Captain", "Mr", "Isabella", "Thorpe", "Anne"}


def read(question: str) -> str:
    return respelled(question, lambda text: [], ENTITIES, lambda word: word in WRITTEN)


def test_a_misspelt_name_is_read_as_the_one_spelled_like_it() -> None:
    assert read("Who is Isabela Thorp?") == "Who is Isabella Thorpe?"
    assert read("Who is Captian Wentwoth?") == "Who is Captain Wentworth?"


def test_a_name_the_text_writes_word_for_word_is_left_alone() -> None:
    # a newcomer's trial on Persuasion: bare "Wentworth" (Captain Wentworth, in the question)
    # was read as "Mr Wentworth", his brother the curate, the one entity spelled like it
    question = "Who persuaded Anne to break off her engagement to Wentworth?"
    assert read(question) == question
