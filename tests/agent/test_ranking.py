"""The evidence's sentences ranked for the answer's first line (agent/librarian/ranking.py):
which sentences an answer quotes, and what the features read."""

from __future__ import annotations

from agent.librarian.analysis import QueryPlan
from agent.librarian.ranking import Reading, Sentence, chosen, gather, is_spoken, rank_sentences
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


def _reading(question_words: list[str]) -> Reading:
    """A ranker's reading of a question that names no one: `covers` is the share of its words a
    text holds."""
    def covers(text: str, names: list[str]) -> tuple[float, float]:
        share = sum(w in text.lower() for w in question_words) / len(question_words)
        return share, share

    return Reading(mentioned=lambda text: [], kinds={}, covers=covers, words=question_words)


def test_a_sentence_is_read_with_its_neighbours() -> None:
    """Who carried Marianne home when she twisted her ankle running down the hill? The sentence
    that answers names no ankle; the one beside it does, while a sentence elsewhere shares only
    "carried home" (Sense and Sensibility, ch. 9 and 32): with the fitted weights the scene's
    sentence comes first, though the other's passage ranks above it."""
    scene = passage(9, "Marianne ran down the hill. She fell, and twisted her ankle. "
                       "A gentleman took her up in his arms, and carried her home. "
                       "The rain went on.")
    elsewhere = passage(32, "The conviction of this guilt was carried home to her mind. "
                            "She no longer avoided him.")
    reading = _reading(["carried", "home", "twisted", "ankle", "running", "hill"])
    plan = QueryPlan(question="Who carried Marianne home when she twisted her ankle running "
                              "down the hill?", kind="conceptual")
    found = {s.text: s.features for s in gather(plan, [elsewhere, scene], reading)}
    answer = found["A gentleman took her up in his arms, and carried her home."]
    echo = found["The conviction of this guilt was carried home to her mind."]
    assert answer["around"] > echo["around"]
    assert found["The rain went on."]["around"] < answer["around"]
    assert echo["cover"] == answer["cover"]  # the sentences alone tie
    best = rank_sentences(plan, [elsewhere, scene], reading)[0]
    assert best.passage is scene
