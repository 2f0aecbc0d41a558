"""Who says a story's quoted words: the tag's name, the one the words before were said to, the
one whose turn it is, or no one when the telling leaves it open (made-up dialogue)."""

from __future__ import annotations

from stores.entities.matcher import AliasMatcher, alias_map
from stores.entities.speakers import speeches
from stores.models import Entity

PEOPLE = [Entity("Arthur Fenwick", "person", ["Arthur", "Mr. Fenwick"]),
          Entity("Clara Wilde", "person", ["Clara", "Miss Wilde"]),
          Entity("Mrs. Pell", "person"), Entity("Tom Rudd", "person", ["Tom"])]
GENDER = {"Arthur Fenwick": "m", "Clara Wilde": "f", "Mrs. Pell": "f", "Tom Rudd": "m"}


def said(text: str) -> list[tuple[str, str]]:
    """(the words' first word, their speaker) for each quoted stretch."""
    spans = AliasMatcher(alias_map(PEOPLE)).find_spans(text)
    return [(text[s.start:s.end].split()[0], s.speaker) for s in speeches(text, spans, GENDER)]


def test_a_tag_names_the_speaker_on_either_side() -> None:
    assert said('"Rain again," said Clara.\n"Not for long," Arthur replied.') == [
        ("Rain", "Clara Wilde"), ("Not", "Arthur Fenwick")]


def test_a_pronoun_tag_is_the_one_the_words_before_were_said_to() -> None:
    # the name between commas is spoken to, wherever it stands in the words
    text = ('"It is hardly worth while, Mr. Fenwick, to tell me more."\n'
            '"I insist on it," he replied, "for my own sake."')
    assert said(text) == [("It", ""), ("I", "Arthur Fenwick"), ("for", "Arthur Fenwick")]
    # not one the pronoun cannot be
    text = '"Sit down, Mr. Fenwick."\n"Thank you," she said.'
    assert said(text)[1] == ("Thank", "")


def test_two_people_take_turns() -> None:
    text = ('"Is the mill open?" said Tom.\n"Since Monday," said Mrs. Pell.\n'
            '"And the weir?"\n"Mended."')
    assert [who for _, who in said(text)] == ["Tom Rudd", "Mrs. Pell", "Tom Rudd", "Mrs. Pell"]
    # telling between the turns ends them
    text = ('"Is the mill open?" said Tom.\n"Since Monday," said Mrs. Pell.\n'
            "The clock struck.\n" '"And the weir?"')
    assert said(text)[-1] == ("And", "")


def test_words_running_on_into_the_next_paragraph_are_the_same_speakers() -> None:
    text = '"I will tell you all of it," said Clara. "It began in May.\n"Then it rained."'
    assert said(text)[-1] == ("Then", "Clara Wilde")


def test_the_telling_decides_when_it_names_someone() -> None:
    # the one the telling names speaks: no tag needed
    assert said('Clara, after a pause, said, "Very well."') == [("Very", "Clara Wilde")]
    # a pronoun tag is the one person of its gender the telling names
    text = ('"Sit down, Clara."\n'
            'This was opposed by Tom, who stood by Miss Wilde. "No room," said he.')
    assert said(text)[-1] == ("No", "Tom Rudd")
    # two names and no tag: no one, whoever's turn it was
    text = ('"Is the mill open?" said Tom.\n"Since Monday," said Mrs. Pell.\n'
            'Clara looked at Arthur. "And the weir?"')
    assert said(text)[-1] == ("And", "")
    # two tags in one paragraph: words of two people
    assert said('"Yes," said Tom; "no," said Clara.') == [("Yes,", ""), ("no,", "")]


def test_a_tag_is_the_speakers_not_a_name_the_clause_names_besides() -> None:
    # Sense and Sensibility: "He coloured very deeply, and giving a momentary glance at Elinor,
    # replied, “Yes; it is my sister's hair”" is Edward's, not Elinor's
    text = ('"Is that a new ring?" said Clara.\n'
            'Clara had pained Arthur. He coloured, and giving a glance at Clara, replied, '
            '"Yes; it is my sister\'s."')
    assert said(text)[-1] == ("Yes;", "Arthur Fenwick")
    # "said no more" says no words
    text = ('"Is the mill open?" said Tom.\n"Since Monday," said Mrs. Pell.\n'
            '"Invited!" cried Clara.\n'
            '"So my daughter told me." Clara said no more, but looked hurt.')
    assert said(text)[-1] == ("So", "")


def test_telling_that_ends_with_a_verb_of_speech_tags_the_next_paragraph() -> None:
    # Emma: "Emma laughed, and replied," on a line of its own, then her words; then the two
    # take turns
    text = ('Clara laughed, and replied,\n"Not I, Tom; I shall never marry."\n'
            '"So you say."\n"I do say it."')
    assert [who for _, who in said(text)] == ["Clara Wilde", "Tom Rudd", "Clara Wilde"]
    # telling that does not end so opens nothing
    assert said('Clara laughed.\n"Not I."') == [("Not", "")]


def test_a_pronoun_tag_after_telling_is_the_one_of_its_gender_in_the_scene() -> None:
    # Emma ch. 49: only Mr. Knightley speaks to Emma, and a line of telling about her comes
    # between; his next words, "he soon resumed", were nobody's
    scene = ('"Will you walk on?" said Arthur.\n"Yes," said Clara.\n'
             "Clara was almost ready to sink under the agitation of this moment.\n"
             '"I cannot make speeches, Clara:" he soon resumed. "Hear me."')
    assert said(scene)[-2:] == [("I", "Arthur Fenwick"), ("Hear", "Arthur Fenwick")]
    # two men in the scene: no one
    two = scene.replace("Clara was almost", "Tom watched. Clara was almost")
    assert said(two)[-1] == ("Hear", "")
    # turns alternate: right after his own words, "he" is not him again
    turns = '"Yes," said Clara.\n"Will you walk on?" said Arthur.\n"Soon," he replied.'
    assert said(turns)[-1] == ("Soon,", "")
    # words in the scene that are nobody's leave it open ("Here is Barton valley," said she)
    open_ = '"Will you walk on?" said Arthur.\n"Yes."\n"No."\n"Look at the hills," said she.'
    assert said(open_)[-1] == ("Look", "")
