"""How old someone is, from the sentence where the story gives their age (agent/librarian/ages.py):
"How old is Harriet Smith?" was answered with "the quiet neat old lady …", the word "old" all
the search had."""

from __future__ import annotations

from agent.librarian.ages import age_answer
from stores.models import Chunk

NAMES = ("Harriet Smith", "Elinor", "Mrs. Goddard", "曹丕", "关羽", "沈砚")


def chunk(n: int, text: str) -> Chunk:
    return Chunk(id=f"c{n}", world="w", document="story.txt", chapter=n, chapter_title="",
                 scene=0, chunk_order=n, text=text, line_start=1, line_end=1, event_order=n)


def spans(text: str) -> list[tuple[int, int, str]]:
    return sorted((at, at + len(n), n) for n in NAMES if (at := text.find(n)) >= 0)


STORY = [
    chunk(1, "The quiet neat old lady sat in the corner. Harriet Smith stayed only three or "
             "four days, and the only one who saw her was Mrs. Goddard."),
    chunk(2, '"It would be impossible," replied Elinor, "that a woman of seven and twenty '
             'could love him." Mrs. Goddard brought Harriet Smith, a girl of seventeen, whom '
             "Emma knew by sight."),
    chunk(3, "Elinor, whose advice was so effectual, though only nineteen, counselled her "
             "mother."),
]


def test_an_age_is_answered_with_the_sentence_that_gives_it() -> None:
    answer = age_answer("How old is Harriet Smith?", "Harriet Smith", STORY, spans)
    assert answer is not None
    assert answer.text.startswith("Harriet Smith's age is given in ch. 2:"), answer.text
    assert "a girl of seventeen" in answer.text and answer.citations[0].chunk_id == "c2"


def test_an_age_in_someones_words_beside_their_speech_tag_is_not_theirs() -> None:
    # "replied Elinor, “… a woman of seven and twenty …”" is no age of Elinor's
    answer = age_answer("How old is Elinor when her father dies?", "Elinor", STORY, spans)
    assert answer is not None and "though only nineteen" in answer.text, answer


def test_no_sentence_giving_an_age_or_no_age_asked_is_no_answer() -> None:
    assert age_answer("How old is Mrs. Goddard?", "Mrs. Goddard", STORY, spans) is None
    assert age_answer("Where does Harriet Smith live?", "Harriet Smith", STORY, spans) is None
    # past the horizon: not told yet
    assert age_answer("How old is Harriet Smith?", "Harriet Smith", STORY, spans, horizon=1) is None


def test_a_chinese_age_is_answered_and_the_age_at_death_is_no_age_asked() -> None:
    story = [chunk(1, "关公亡年五十八岁。"), chunk(2, "却说操长子曹丕，字子桓，时年十八岁。")]
    answer = age_answer("曹丕几岁？", "曹丕", story, spans)
    assert answer is not None and answer.text.startswith("曹丕的年纪见第2回："), answer
    assert age_answer("关羽多大年纪？", "关羽", story, spans) is None


def test_an_age_given_roughly_or_with_an_adverb_is_an_age() -> None:
    # the demo: 那人姓沈，名砚 … 三十来岁年纪 was no age (a read of its answers in the review)
    story = [chunk(1, "沈砚字青崖，三十来岁年纪，身形清瘦。")]
    answer = age_answer("沈砚多大年纪？", "沈砚", story, spans)
    assert answer is not None and "三十来岁年纪" in answer.text, answer


def test_an_age_given_by_a_pronoun_is_the_last_named_persons() -> None:
    # Sense and Sensibility: "How old is Colonel Brandon?" quoted "not old enough to make his
    # friends yet apprehensive"; the text gives his age by "he", two sentences after his name
    people = ("Colonel Brandon", "Sir John", "Marianne", "Willoughby")
    genders = {"Colonel Brandon": "m", "Sir John": "m", "Marianne": "f", "Willoughby": "m"}

    def named(text: str) -> list[tuple[int, int, str]]:
        return sorted((at, at + len(n), n) for n in people if (at := text.find(n)) >= 0)

    story = [chunk(1, "Colonel Brandon, the friend of Sir John, sat down. He was silent. In "
                      "the opinion of Marianne he was on the wrong side of five and thirty."),
             chunk(2, "Willoughby and Sir John came in. He was only twenty-five.")]
    answer = age_answer("How old is Colonel Brandon?", "Colonel Brandon", story, named,
                        gender=genders.get)
    assert answer is not None and "five and thirty" in answer.text, answer
    # "he" after a sentence opened by two men is neither's; without genders, no pronoun reads
    assert age_answer("How old is Willoughby?", "Willoughby", story, named,
                      gender=genders.get) is None
    assert age_answer("How old is Colonel Brandon?", "Colonel Brandon", story, named) is None
