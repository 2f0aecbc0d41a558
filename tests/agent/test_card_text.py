"""A card's first line as a reader sees it: what someone is, then to whom, each said once."""

from __future__ import annotations

from agent.views.card_text import Voice, card_text
from stores.cards import Card, Fact
from stores.models import Chunk


def chunk(n: int, text: str) -> Chunk:
    return Chunk(id=f"c{n}", world="w", document="book.txt", chapter=n, chapter_title="",
                 scene=0, chunk_order=n, text=text, line_start=1, line_end=1)


def test_kin_the_text_writes_before_the_name_is_not_said_again_as_a_relation() -> None:
    chunks = {c.id: c for c in (chunk(1, "丞相诸葛亮至。"), chunk(2, "乃诸葛瑾之弟诸葛亮也。"),
                                chunk(3, "诸葛均乃诸葛亮之弟。"))}
    card = Card("诸葛亮", "person", ["孔明"], facts=[
        Fact("office", "丞相", "c1", 1, 3.0), Fact("office", "诸葛瑾之弟", "c2", 2, 1.0),
        Fact("relation", "sibling", "c2", 2, 1.0, other="诸葛瑾", end="source"),
        Fact("relation", "sibling", "c3", 3, 1.0, other="诸葛均", end="source")])
    lead = card_text(card, chunks, Voice(True, {"诸葛亮": ["孔明"]}, lambda name: "m"))
    lead = lead.splitlines()[0]
    assert "诸葛瑾之弟" in lead and "诸葛瑾的兄弟" not in lead, lead
    assert "诸葛均的兄弟" in lead, lead


def test_a_relation_is_cited_with_the_sentence_that_holds_the_name_not_the_name_alone() -> None:
    from agent.views.card_text import card_answer

    chunks = {c.id: c for c in (chunk(1, "Mercédès smiled. It was Fernand Mondego, the husband "
                                          "of Mercédès, who came in."),)}
    card = Card("Mercédès", "person", [], facts=[
        Fact("relation", "spouse", "c1", 1, 1.0, other="Fernand Mondego", end="source")])
    answer = card_answer(card, chunks, Voice(False, {"Mercédès": [], "Fernand Mondego": []},
                                             lambda name: "f"))
    assert answer.citations[0].quote.startswith("It was Fernand Mondego, the husband"), answer
    # the card names her husband: he is one of its people, after her, for a follow-up's "he"
    # (Mansfield Park, a newcomer's trial: after Henry Crawford's card, "she" was read as an
    # untyped Smith, not his sister the card named)
    assert answer.entities == ["Mercédès", "Fernand Mondego"]


def test_a_parent_of_unknown_gender_is_said_by_the_childs_word_in_chinese() -> None:
    chunks = {c.id: c for c in (chunk(1, "乃司马懿长子司马师也。"), chunk(2, "此司马懿之子司马昭。"))}
    card = Card("司马懿", "person", [], facts=[
        Fact("relation", "parent_of", "c1", 1, 1.0, other="司马师", end="source"),
        Fact("relation", "parent_of", "c2", 2, 1.0, other="司马昭", end="source")])
    genders = {"司马师": "m", "司马昭": "m"}
    lead = card_text(card, chunks, Voice(True, {"司马懿": [], "司马师": [], "司马昭": []},
                                         lambda name: genders.get(name, ""))).splitlines()[0]
    assert "儿子司马师" in lead and "儿子司马昭" in lead and "父母" not in lead, lead


def test_kin_of_no_narrower_type_is_said_in_the_texts_word() -> None:
    chunks = {c.id: c for c in (chunk(1, "M. de Saint-Méran, Villefort's father-in-law."),)}
    card = Card("Saint-Méran", "person", [], facts=[
        Fact("relation", "kin", "c1", 1, 1.0, other="Villefort", end="source",
             word="father-in-law")])
    lead = card_text(card, chunks, Voice(False, {"Saint-Méran": [], "Villefort": []},
                                         lambda name: "m")).splitlines()[0]
    assert "Villefort's father-in-law" in lead, lead


def test_a_parent_comes_before_a_grandparent_and_the_rest_follow_the_lead() -> None:
    chunks = {c.id: c for c in (chunk(1, "Noirtier loves his granddaughter, Valentine."),
                                chunk(2, "Villefort gave his arm to his daughter Valentine."),
                                chunk(3, "Renée, Valentine's mother, was buried."))}
    card = Card("Valentine", "person", [], facts=[
        Fact("relation", "grandparent_of", "c1", 1, 9.0, other="Noirtier", end="target"),
        Fact("relation", "parent_of", "c2", 2, 2.0, other="Villefort", end="target"),
        Fact("relation", "parent_of", "c3", 3, 1.0, other="Renée", end="target")])
    lines = card_text(card, chunks, Voice(False, {n: [] for n in (
        "Valentine", "Noirtier", "Villefort", "Renée")}, lambda name: "f")).splitlines()
    assert "Villefort's daughter" in lines[0] and "Renée's daughter" in lines[0], lines
    assert "Noirtier" not in lines[0]
    assert any(line.startswith("Relations: Noirtier's granddaughter") for line in lines), lines


def test_a_card_with_nothing_read_of_who_they_are_does_not_say_the_text_is_silent() -> None:
    from agent.views.card_text import card_answer
    from stores.cards import Appearance

    # "an old one-eyed cashier, called 'Cocles'" says who he is, though no pattern read it:
    # the card owns what it did not find and shows where he appears
    chunks = {"c1": chunk(1, "an old one-eyed cashier, called 'Cocles'.")}
    card = Card("Cocles", "person", [], appearances=[Appearance(1, 1, "c1")])
    answer = card_answer(card, chunks, Voice(False, {"Cocles": []}))
    first = answer.text.splitlines()[0]
    assert first == "No sentence read says who Cocles is; where the text names Cocles:", first
    assert answer.stop_reason == "evidence" and answer.citations
    # with no appearance at all, the text does not say
    assert card_answer(Card("Cocles", "person"), chunks, Voice(False, {})).text == (
        "The text does not say who Cocles is.")
    # a place is no "who" (a newcomer's trial: "No sentence read says who Northanger Abbey is")
    abbey = Card("Northanger Abbey", "place", [], appearances=[Appearance(1, 1, "c1")])
    first = card_answer(abbey, chunks, Voice(False, {"Northanger Abbey": []})).text.splitlines()[0]
    assert first.startswith("No sentence read says what Northanger Abbey is"), first
    zh = card_answer(Card("荣国府", "place", [], appearances=[Appearance(1, 1, "c1")]), chunks,
                     Voice(True, {"荣国府": []})).text
    assert zh.startswith("没有读到说明荣国府是什么的句子"), zh


def test_where_someone_first_appears_is_quoted_from_the_telling() -> None:
    from agent.views.card_text import card_answer
    from stores.cards import Appearance

    chunks = {"c5": Chunk(id="c5", world="w", document="book.txt", chapter=5, chapter_title="",
                          scene=0, chunk_order=1, line_start=1, line_end=1,
                          text='"Henrietta sings," said Mary. The eldest daughter was '
                               'Henrietta, a young lady of nineteen. Mary sang too.')}
    card = Card("Henrietta", "person", [], appearances=[Appearance(5, 2, "c5"),
                                                         Appearance(6, 1, "c5")])
    answer = card_answer(card, chunks, Voice(False, {"Henrietta": []}, lambda name: "f"))
    assert answer.citations[0].quote == ("The eldest daughter was Henrietta, a young lady of "
                                         "nineteen."), answer


def test_a_speech_tag_is_no_sentence_about_who_spoke() -> None:
    # Sense and Sensibility: Lucy Steele's card read 'Miss Steele's sister. In ch. 21: “said
    # Lucy Steele.”' — the tag of the quote before, cut off as a sentence of its own
    from stores.cards import Appearance

    chunks = {c.id: c for c in (chunk(1, '"What a sweet woman Lady Middleton is!" said Lucy '
                                          'Steele. Lucy Steele was the younger of the two.'),)}
    card = Card("Lucy Steele", "person", [], facts=[
        Fact("relation", "sibling", "c1", 1, 1.0, other="Miss Steele", end="source")],
        appearances=[Appearance(1, 2, "c1")])
    lead = card_text(card, chunks, Voice(False, {"Lucy Steele": [], "Miss Steele": []},
                                         lambda name: "f")).splitlines()[0]
    assert "said Lucy Steele" not in lead, lead
    assert lead.endswith("In ch. 1: “Lucy Steele was the younger of the two.” [c1]"), lead


def test_a_wife_his_name_names_follows_what_the_text_says_he_is() -> None:
    # Emma and Persuasion (newcomers' trials): "Mr. Perry (Perry): Mrs. Perry's husband" put the
    # apothecary second, "Captain Harville: Mrs Harville's husband" said nothing of him; her
    # card still leads with him ("Mrs. Perry: Mr. Perry's wife")
    chunks = {c.id: c for c in (chunk(1, "Mr. Perry and Mrs. Perry came to tea."),
                                chunk(2, "Mr. Perry was the apothecary of Highbury."))}
    facts = [Fact("relation", "spouse", "c1", 1, 1.0, other="Mrs. Perry", end="source"),
             Fact("defines", "Mr. Perry was the apothecary of Highbury.", "c2", 2)]
    voice = Voice(False, {"Mr. Perry": ["Perry"], "Mrs. Perry": []},
                  lambda name: "f" if name.startswith("Mrs") else "m")
    lines = card_text(Card("Mr. Perry", "person", ["Perry"], facts=facts), chunks,
                      voice).splitlines()
    assert lines[0].startswith("Mr. Perry (Perry). In ch. 2: “Mr. Perry was the apothecary"), lines
    assert any(line.startswith("Relations: Mrs. Perry's husband") for line in lines), lines
    hers = card_text(Card("Mrs. Perry", "person", [], facts=[
        Fact("relation", "spouse", "c1", 1, 1.0, other="Mr. Perry", end="target")]), chunks, voice)
    assert hers.startswith("Mrs. Perry: Mr. Perry's wife"), hers


def test_where_someone_lives_leads_their_card_cited_with_the_sentence_that_says_it() -> None:
    # Persuasion (a newcomer's trial): nothing on Sir Walter's card said where he lives, and
    # "Where does Sir Walter Elliot live?" quoted a sentence about Monkford
    text = "Sir Walter Elliot, of Kellynch Hall, in Somersetshire, was a vain man."
    card = Card("Sir Walter Elliot", "person", [], facts=[
        Fact("home", "Kellynch Hall", "c1", 1, 1.0, quote=text)])
    lines = card_text(card, {"c1": chunk(1, text)}, Voice(False, {"Sir Walter Elliot": []}))
    assert lines.startswith("Sir Walter Elliot: lives at Kellynch Hall[c1]."), lines


def test_an_office_is_cited_with_the_sentence_that_writes_it_before_their_name() -> None:
    # 刘备's 将军 was cited with 一，车骑将军董承 (董承's office), the passage's first sentence
    # with 将军, not 玄德亦书“左将军刘备” (a newcomer's trial on 三国演义)
    from agent.views.card_text import card_answer

    chunks = {c.id: c for c in (chunk(21, "上止有六位：一，车骑将军董承。玄德亦书“左将军刘备”，押了字。"),)}
    card = Card("刘备", "person", ["玄德"], facts=[Fact("office", "将军", "c21", 21, 1.0)])
    answer = card_answer(card, chunks, Voice(True, {"刘备": ["玄德"]}, lambda name: "m"))
    assert "左将军刘备" in answer.citations[0].quote, answer.citations


def test_a_chapter_that_names_someone_once_is_none_they_are_most_present_in() -> None:
    from agent.views.card_text import card_answer
    from stores.cards import Appearance

    # 呐喊 (a newcomer's trial): 单四嫂子's card said 「着墨最多的是第1、8回」, though the preface
    # (ch. 1) names her once and 《明天》 (ch. 8) 37 times
    chunks = {"c1": chunk(1, "在《明天》里也不叙单四嫂子竟没有做到看见儿子的梦。"),
              "c8": chunk(8, "单四嫂子抱着宝儿，坐在门口。")}
    card = Card("单四嫂子", "person", [], appearances=[Appearance(1, 1, "c1"),
                                                      Appearance(8, 37, "c8")])
    text = card_answer(card, chunks, Voice(True, {"单四嫂子": []})).text
    assert "着墨最多的是第8回。" in text, text
    card = Card("Caderousse", "person", [], appearances=[
        Appearance(3, 40, "c1"), Appearance(4, 12, "c8"), Appearance(9, 2, "c8")])
    text = card_answer(card, chunks, Voice(False, {"Caderousse": []})).text
    assert "most present in chapters 3, 4." in text, text
