"""The evidence's sentences ranked for the answer's first line (agent/librarian/ranking.py):
which sentences an answer quotes, and what the features read."""

from __future__ import annotations

from agent.librarian.ranking import Sentence, chosen, is_spoken
from agent.schemas import Passage
from stores.lang.text import is_verse


def passage(n: int, text: str) -> Passage:
    return Passage(chunk_id=f"c{n}", chapter=n, source="book.txt", lines=(1, 1), text=text)


def test_an_answer_quotes_the_best_then_sentences_that_add_something() -> None:
    one, two, three = passage(1, "a"), passage(2, "b"), passage(3, "c")
    ordered = [Sentence("Five hundred taels, Qu Ming said.", one, 0),
               Sentence("Five hundred taels, Qu Ming said again.", two, 1),  # nothing new
               Sentence("The Marquis's Silver", two, 1, title=True),  # a title: no quote
               Sentence("He laid the silver on the table.", one, 0),  # its passage is quoted
               Sentence("Pike looked at the silver for a long time.", three, 2)]
    assert [s.text for s in chosen(ordered, 3)] == [
        "Five hundred taels, Qu Ming said.", "Pike looked at the silver for a long time."]
    first = ordered[4]
    assert chosen(ordered, 2, first)[0] is first


def test_verse_and_speech_are_told_apart_from_the_telling() -> None:
    assert is_verse("只因徐庶临行语，茅庐三顾心相知。") and not is_verse("玄德乃辞二人，上马投卧龙冈来。")
    assert is_spoken("“吾受刘皇叔三顾之恩，不容不出。”") and not is_spoken("孔明嘱付曰：“好。”")
    assert is_spoken('"Five hundred taels," he said.') and not is_spoken('He said "yes" and left the room at once.')
