"""Answers from what the world knows: whose other name an asked name is, said before the card."""

from __future__ import annotations

import pytest

from agent.librarian.known import death_chapter_answer, led_by, names_apart
from agent.schemas import Answer, Citation
from stores.models import Chunk


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


def chunk(n: int, text: str) -> Chunk:
    return Chunk(id=f"c{n}", world="w", document="story.txt", chapter=n, chapter_title="",
                 scene=0, chunk_order=n, text=text, line_start=1, line_end=1, event_order=n)


def test_the_chapter_of_a_death_is_the_one_after_which_they_hardly_appear() -> None:
    # a rumour of his death while he still acts (ch. 2), a death in ch. 4, a friend's death he
    # mourns (ch. 3), a killing he does (ch. 3), and his death recalled in a speech (ch. 5)
    story = [chunk(1, "孙策引兵渡江。"), chunk(2, "敌将听知孙策已死，连夜出城。"),
             chunk(3, "孙策怜周泰之死。孙策砍死一将。"), chunk(4, "孙策既死，孙权哭倒于床前。"),
             chunk(5, "孙权曰：“孙策已死，吾当自立。”")]
    presence = {1: 10, 2: 12, 3: 15, 4: 6, 5: 2}
    answer = death_chapter_answer("孙策", ["伯符"], story, presence, True, {4: "孙权领江东"})
    assert answer is not None and answer.text.startswith("孙策死于第4回「孙权领江东」。")
    assert answer.citations[0].chunk_id == "c4"
    # past the spoiler horizon: not told here
    assert death_chapter_answer("孙策", [], story, presence, True, {}, horizon=3) is None


def test_a_death_told_with_a_spoken_adverb_between_counts() -> None:
    # the spoken language's adverbs stand between the name and the word for dying too
    story = [chunk(1, "韩峥按刀而立。"), chunk(2, "韩峥就这样死在了落星崖上，年仅三十一岁。"),
             chunk(3, "韩峥终于死了。")]
    answer = death_chapter_answer("韩峥", [], story, {1: 8, 2: 6, 3: 1}, True, {})
    assert answer is not None and answer.text.startswith("韩峥死于第2回。")


def test_a_fight_to_the_death_and_a_killing_by_them_are_no_death_and_a_manner_of_death_is() -> None:
    # 三国演义 (a newcomer's trial): 刘备 "died" in ch. 41 (玄德死战: he fought to the death),
    # 周瑜 in ch. 49 (周瑜卒病: fell ill), 关羽 in ch. 73 (被云长砍死: another's death by his
    # hand); 吕布缢死 (ch. 19), put to death by strangling, was not read
    story = [chunk(1, "玄德死战。周瑜卒病。"), chunk(2, "夏侯存被云长砍死。"),
             chunk(3, "操令将吕布缢死，然后枭首。"), chunk(4, "关羽砍死华雄。")]
    presence = {1: 5, 2: 5, 3: 5, 4: 1}
    for name in ("玄德", "周瑜", "云长"):
        assert death_chapter_answer(name, [], story, presence, True, {}) is None, name
    answer = death_chapter_answer("吕布", [], story, presence, True, {})
    assert answer is not None and answer.text.startswith("吕布死于第3回。")


def test_a_death_told_by_a_pronoun_counts_where_the_sentences_before_name_them() -> None:
    story = [chunk(1, "Caderousse drank. He was dead tired after the road."),
             chunk(2, "Caderousse sighed deeply, and fell back with a groan. The blood no longer "
                      "flowed from his wounds. He was dead."),
             chunk(3, "The count looked at the corpse of Caderousse.")]
    presence = {1: 5, 2: 20, 3: 1}
    answer = death_chapter_answer("Caderousse", [], story, presence, False, {2: "The Hand of God"})
    assert answer is not None and answer.text.startswith(
        "Caderousse's death is told in ch. 2 (The Hand of God).")
    assert "He was dead." in answer.citations[0].quote
    # "He was dead tired" tells no death
    assert death_chapter_answer("Caderousse", [], story[:1], presence, False, {}) is None


def test_a_name_written_in_other_letters_is_not_another_name() -> None:
    from agent.librarian.known import alias_asked_for
    from stores.entities.matcher import AliasMatcher

    matcher = AliasMatcher({"阿Ｑ": "阿Ｑ", "阿Q": "阿Ｑ", "老Ｑ": "阿Ｑ"})
    assert alias_asked_for("阿Q", "阿Ｑ", matcher) is None  # 阿Q is 阿Ｑ, half-width
    assert alias_asked_for("老Ｑ", "阿Ｑ", matcher) == "老Ｑ"


def test_two_names_of_one_person_asked_how_related_are_one_person() -> None:
    from agent.librarian.known import one_person_asked
    from stores.entities.matcher import AliasMatcher

    names = AliasMatcher({"Edmond Dantès": "Edmond Dantès", "Count of Monte Cristo":
                          "Edmond Dantès", "Mercédès": "Mercédès"})
    assert one_person_asked(["Edmond Dantès", "Count of Monte Cristo"], ["Edmond Dantès"],
                            names) == "Count of Monte Cristo"
    # one name, or two people: no such answer
    assert one_person_asked(["Edmond Dantès"], ["Edmond Dantès"], names) is None
    assert one_person_asked(["Edmond Dantès", "Mercédès"], ["Edmond Dantès", "Mercédès"],
                            names) is None


def test_a_fuller_name_with_another_first_name_is_someone_else() -> None:
    # Sense and Sensibility (a newcomer's trial): "Who is Henry Dashwood?" showed the card of
    # his son John Dashwood, whose "Dashwood" the name holds
    from agent.librarian.identity import identity_asked
    from stores.entities.matcher import AliasMatcher

    matcher = AliasMatcher({"John Dashwood": "John Dashwood", "Dashwood": "John Dashwood",
                            "Mr. John Dashwood": "John Dashwood", "Villefort": "Villefort",
                            "M. de Villefort": "Villefort", "Isabella": "Isabella",
                            "Knightley": "Mr. Knightley"})
    assert identity_asked("Who is Henry Dashwood?", matcher) is None
    assert identity_asked("Who is John Dashwood?", matcher) == "John Dashwood"
    # a man the text names by title and surname alone may have any first name
    assert identity_asked("Who is Gérard de Villefort?", matcher) == "Villefort"
    assert identity_asked("Who is Isabella Knightley?", matcher) == "Isabella"
    # but not a woman's (Persuasion, a newcomer's trial: Fanny Harville got Captain Harville's
    # card); a man's may still be his
    matcher = AliasMatcher({"Captain Harville": "Captain Harville",
                            "Harville": "Captain Harville", "Mrs Harville": "Mrs Harville"})
    assert identity_asked("Who is Fanny Harville?", matcher) is None
    assert identity_asked("Who is James Harville?", matcher) == "Captain Harville"
    # of two names each their own person's, the first name: Northanger Abbey's Sarah, not the
    # bare "Morland" her brother's friends call him (the longer name, chosen before)
    matcher = AliasMatcher({"Sarah": "Sarah", "Morland": "Morland",
                            "James Morland": "James Morland", "Gérard": "Gérard",
                            "Villefort": "Villefort"})
    kinds = {"Sarah": "person", "Morland": "person", "James Morland": "person",
             "Gérard": "other", "Villefort": "person"}
    assert identity_asked("Who is Sarah Morland?", matcher, kinds) == "Sarah"
    # a first name the world keeps as a thing (Monte Cristo's "Gérard") is no one's own
    assert identity_asked("Who is Gérard de Villefort?", matcher, kinds) == "Villefort"


def test_what_someone_does_asks_who_they_are() -> None:
    # 呐喊 (a newcomer's trial): "赵七爷是做什么的？" quoted 九斤老太's birthday, though his card
    # opens with 「赵七爷是邻村茂源酒店的主人」; a job or trade is what a card says first
    from agent.librarian.identity import identity_asked
    from stores.entities.matcher import AliasMatcher

    matcher = AliasMatcher({"赵七爷": "赵七爷", "Mr Shepherd": "Mr Shepherd",
                            "Shepherd": "Mr Shepherd", "Mr. Perry": "Mr. Perry"})
    for question, entity in (("赵七爷是做什么的？", "赵七爷"), ("赵七爷是干什么的", "赵七爷"),
                             ("What is Mr Shepherd's profession?", "Mr Shepherd"),
                             ("What does Mr. Perry do?", "Mr. Perry"),
                             ("What does Mr. Perry do for a living?", "Mr. Perry")):
        assert identity_asked(question, matcher) == entity, question
    for question in ("What does Mr. Perry do when Emma is ill?", "What did Mr. Perry do?",
                     "赵七爷做了什么？"):
        assert identity_asked(question, matcher) is None, question


def test_a_wifes_title_before_a_mans_full_name_is_his_wife() -> None:
    # Sense and Sensibility (development answers, ss-029): "Who is Mrs. Robert Ferrars?" showed
    # Robert Ferrars's card, "Edward Ferrars's brother"; she is his wife, and where the world
    # relates them as spouses his card names her
    from agent.librarian.married_names import married_name_answer
    from stores.cards import Card, Fact
    from stores.entities.matcher import AliasMatcher

    matcher = AliasMatcher({"Robert Ferrars": "Robert Ferrars", "Robert": "Robert Ferrars",
                            "Mr. Robert Ferrars": "Robert Ferrars", "Lucy Steele": "Lucy Steele",
                            "Miss Lucy Steele": "Lucy Steele", "Mrs. Jennings": "Mrs. Jennings"})
    story = [chunk(48, 'He said, "You mean Mrs. ROBERT Ferrars." Elinor could not speak.')]
    married = Card("Robert Ferrars", "person", facts=[
        Fact("relation", "spouse", "c48", 48, other="Lucy Steele", end="source")])
    cards = {"Robert Ferrars": married}
    answer = married_name_answer("Who is Mrs. Robert Ferrars?", False, matcher, cards.get,
                                 story, str)
    assert answer is not None
    assert answer.text.startswith("Mrs. Robert Ferrars is Robert Ferrars's wife, Lucy Steele.")
    assert answer.citations[0].quote == 'He said, "You mean Mrs. ROBERT Ferrars."'
    # before the chapter that relates them, she is only his wife
    early = married_name_answer("Who is Mrs. Robert Ferrars?", False, matcher, cards.get,
                                story, str, horizon=40)
    assert early is not None and early.text == "Mrs. Robert Ferrars is Robert Ferrars's wife."
    # a name an entity bears, a woman's name, or no title of a wife: not this answer
    for question in ("Who is Robert Ferrars?", "Who is Mrs. Lucy Steele?", "Who is Mrs. Jennings?"):
        assert married_name_answer(question, False, matcher, cards.get, story, str) is None


def test_a_married_womans_name_before_her_marriage_is_her_miss_name() -> None:
    # Persuasion (a newcomer's trial): the card shows "Mrs Smith (Miss Hamilton)", yet "What
    # was Mrs Smith's name before she married?" got quotes asking who her husband was
    from agent.librarian.married_names import maiden_name_answer
    from stores.entities.matcher import AliasMatcher

    matcher = AliasMatcher({"Mrs Smith": "Mrs Smith", "Miss Hamilton": "Mrs Smith",
                            "Anne Elliot": "Anne Elliot", "Anne": "Anne Elliot"})
    aliases = {"Mrs Smith": ["Miss Hamilton"], "Anne Elliot": ["Anne"]}
    story = [chunk(3, "Miss Hamilton was at school in Bath."),
             chunk(17, "Miss Hamilton, now Mrs Smith, had shewn her kindness. Anne smiled.")]
    for question in ("What was Mrs Smith's name before she married?",
                     "What was Mrs Smith's name before Mrs Smith married?",  # as a follow-up
                     "What is Mrs Smith's maiden name?"):
        answer = maiden_name_answer(question, False, matcher, aliases, story, str)
        assert answer is not None, question
        assert answer.text.startswith("Mrs Smith was Miss Hamilton before she married. In ch. 17")
    # before the chapter that writes both, the first that writes her maiden name
    early = maiden_name_answer("What is Mrs Smith's maiden name?", False, matcher, aliases,
                               story, str, horizon=10)
    assert early is not None and "ch. 3" in early.text
    # no such name of hers, or no name asked for: not this answer
    for question in ("What was Anne's name before she married?",
                     "Who did Mrs Smith love before she married?"):
        assert maiden_name_answer(question, False, matcher, aliases, story, str) is None


def test_a_chinese_name_asked_with_its_surname_is_the_given_name_the_world_knows() -> None:
    # 红楼梦 read from its text knows 宝玉 but not 贾宝玉: `lore card 贾宝玉` showed his card,
    # while "贾宝玉是谁？" quoted three passages that name him (read in this stop's review)
    from agent.librarian.identity import identity_asked
    from stores.entities.matcher import AliasMatcher

    matcher = AliasMatcher({"宝玉": "宝玉", "宝二爷": "宝玉", "刘备": "刘备", "刘玄德": "刘备",
                            "玄德": "刘备"})
    assert identity_asked("贾宝玉是谁？", matcher) == "宝玉"
    # not where the person's own names give another surname: 张玄德 is not 刘玄德
    assert identity_asked("张玄德是谁？", matcher) is None
    # nor more than a surname before the name: 宝玉的丫头 asks about someone else
    assert identity_asked("宝玉的丫头是谁？", matcher) is None


def test_a_death_supposed_or_told_while_they_go_on_acting_is_no_death() -> None:
    # Heart of Darkness (a newcomer's trial): "Kurtz's death is told in ch. 2", quoting "I
    # suppose Mr. Kurtz is dead as well by this time" and the pilgrims' belief that "Kurtz was
    # dead"; he dies in the third part, where most of his mentions are
    story = [chunk(1, "Mr. Kurtz is a first-class agent."),
             chunk(2, "And by the way, I suppose Mr. Kurtz is dead as well by this time. "
                      "They had given up Kurtz; Kurtz was dead, and the station had been burnt."),
             chunk(3, "Kurtz lay on the stretcher and spoke of his Intended.")]
    presence = {1: 10, 2: 10, 3: 20}
    assert death_chapter_answer("Kurtz", ["Mr. Kurtz"], story, presence, False, {}) is None
    # told, and their mentions end there: their death
    presence = {1: 10, 2: 10, 3: 2}
    answer = death_chapter_answer("Kurtz", ["Mr. Kurtz"], story, presence, False, {})
    assert answer is not None and answer.text.startswith("Kurtz's death is told in ch. 2.")
    assert "given up Kurtz" in answer.text  # not the sentence that supposes it
