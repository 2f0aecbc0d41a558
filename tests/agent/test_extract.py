"""The answer picker on its own: what a question asks for, the candidates the evidence gives and
their features, with the fitted weights and with weights given here."""

from __future__ import annotations

import pytest

from agent.librarian.analysis import analyse
from agent.librarian.extract import (
    FEATURES,
    NAME,
    NUMBER,
    PERSON,
    PLACE,
    Weights,
    World,
    candidates,
    fitted,
    probability,
)
from agent.schemas import Passage
from stores.entities.matcher import AliasMatcher
from stores.lang import asked_noun, asked_thing, described_as, has_han
from stores.models import LORE_CHAPTER

NAMES = AliasMatcher({"关羽": "关羽", "云长": "关羽", "华雄": "华雄", "张飞": "张飞", "袁术": "袁术",
                      "汜水关": "汜水关", "Su Wan": "Su Wan", "Han Zheng": "Han Zheng"})
KINDS = {"关羽": "person", "华雄": "person", "张飞": "person", "袁术": "person",
         "汜水关": "place", "Su Wan": "person", "Han Zheng": "person"}


@pytest.mark.parametrize(("question", "kind"), [
    ("谁斩了华雄？", PERSON),
    ("Who killed Han Zheng?", PERSON),
    ("孙坚是在哪里战死的？", PLACE),
    ("Where did Su Wan find the map?", PLACE),
    ("诸葛亮南征一共擒了孟获几次？", NUMBER),
    ("How many years did Shen Yan wait?", NUMBER),
    ("薛宝钗犯病时吃的丸药叫什么名字？", NAME),
    ("宝玉为博一笑，任她撕扇子的是哪个丫头？", PERSON),  # 哪个 + a noun for a person
    ("Which servant let the stranger in?", PERSON),
    ("Which Bennet sister ran off with the officer?", PERSON),  # a word between which and the noun
    ("Which of Elizabeth's aunts wrote to her?", PERSON),
    ("Which of the two teachers was asked to resign?", PERSON),
    ("In which nearby town did they stay?", PLACE),
    ("What did the teacher say?", None),  # the noun is the subject, not what is asked
    ("韩峥墓旁的松树上刻了哪几个字？", None),  # words, not people
    ("桃园结义的是哪三个人？", None),  # several people: not one thing
    ("关羽在哪一回死的？", None),  # a chapter: the chapter question's own path
    ("Why did Su Wan leave?", None),
    # a part of someone's own name is a word, not someone: Sense and Sensibility's "What is Mr.
    # Palmer's first name?" took Elinor, named in the evidence, for its likely answer
    ("What is Mr. Palmer's first name?", None),
    ("What is Mrs. Elton's Christian name?", None),
    ("曹操的字是什么？", None),
    ("What was the name of Dantès's father?", NAME),
    # the name of a place asks for a place: Mansfield Park's "What is the name of the
    # Rushworths' estate?" took Henry Crawford for its likely answer (a newcomer's trial)
    ("What is the name of the Rushworths' estate?", PLACE),
    ("What was the name of the inn where they stayed?", PLACE),
])
def test_the_kind_of_thing_a_question_asks_for(question: str, kind: str | None) -> None:
    assert asked_thing(question) == kind


@pytest.mark.parametrize(("question", "noun"), [
    ("Which teacher was sent to Nobeoka?", "teacher"),
    ("Which of Elizabeth's aunts wrote to her?", "aunt"),
    ("In which nearby town did they stay?", "town"),
    ("宝玉为博一笑，任她撕扇子的是哪个丫头？", "丫头"),
    ("Who killed Han Zheng?", None),
    ("What did the teacher say?", None),
])
def test_the_noun_a_question_asks_by(question: str, noun: str | None) -> None:
    assert asked_noun(question) == noun


@pytest.mark.parametrize(("noun", "forms", "text", "called"), [
    ("teacher", ["Koga"], "Koga, teacher of English, whose complexion was very pale.", True),
    ("teacher", ["Koga"], "the English teacher Koga came in", True),
    ("aunt", ["Mrs. Gardiner"], "her aunt, Mrs. Gardiner, wrote at once", True),
    ("teacher", ["Koga"], "Koga went home. The teacher of drawing stayed.", False),
    ("丫头", ["晴雯"], "宝玉叫丫头晴雯来", True),
    ("丫头", ["晴雯"], "晴雯说了，丫头们都笑", False),
])
def test_a_name_called_by_a_noun_beside_it(noun: str, forms: list[str], text: str,
                                           called: bool) -> None:
    script = "zh" if has_han(noun) else "en"
    assert bool(described_as(noun, forms, script).search(text)) is called


def _passage(text: str, chunk: str = "c1", chapter: int = 5, title: str = "") -> Passage:
    return Passage(chunk_id=chunk, chapter=chapter, chapter_title=title, source="005.txt",
                   lines=(1, 2), text=text, entities=[])


def _world(question_words: list[str]) -> World:
    def covers(text: str, names: list[str]) -> tuple[float, float]:
        words = sum(w in text for w in question_words) / len(question_words)
        return (words + ("华雄" in names)) / 2, words

    return World(NAMES.find_spans, KINDS, lambda name: {"关羽": 800, "张飞": 700}.get(name, 40),
                 2000, covers, question_words)


def test_the_one_beside_the_question_words_is_first_not_the_one_named_most() -> None:
    plan = analyse("谁斩了华雄？", NAMES.find_spans)
    ranked = [
        _passage("张飞大叫。张飞又叫。袁术大怒。"),
        _passage("云长停盏施英勇，酒尚温时斩华雄。张飞在旁。", chunk="c2"),
    ]
    found = candidates(plan, PERSON, ranked, _world(["斩"]))
    assert found[0].name == "关羽"  # the sentence that holds 斩 and 华雄 names him
    assert found[0].best_chunk == "c2"
    assert "斩华雄" in found[0].best_sentence
    assert "华雄" not in [c.name for c in found]  # the question's own name is no answer
    assert found[0].features["near"] > dict((c.name, c) for c in found)["张飞"].features["near"]
    assert len(found[0].vector()) == len(FEATURES)


def test_places_and_numbers_are_candidates_only_for_their_questions() -> None:
    ranked = [_passage("关羽引兵至汜水关，斩了三员大将。")]
    plan = analyse("关羽在哪里斩将？", NAMES.find_spans)
    assert [c.name for c in candidates(plan, PLACE, ranked, _world(["斩"]))] == ["汜水关"]
    plan = analyse("关羽斩了几员大将？", NAMES.find_spans)
    assert [c.name for c in candidates(plan, NUMBER, ranked, _world(["斩", "大将"]))] == ["三员"]


def test_a_lore_entry_speaks_of_its_title_without_naming_it() -> None:
    plan = analyse("Who killed Han Zheng?", NAMES.find_spans)
    lore = _passage("On Fallen Star Cliff she killed Han Zheng with one thrust.",
                    chapter=LORE_CHAPTER, title="Su Wan")
    found = candidates(plan, PERSON, [lore], _world(["killed"]))
    assert [c.name for c in found] == ["Su Wan"]
    assert found[0].features["lore"] == 1.0


def test_the_probability_follows_the_weights() -> None:
    vector = [1.0] * len(FEATURES)
    sure = Weights({"bias": 5.0}, 0.5)
    unsure = Weights({"bias": -5.0}, 0.5)
    assert probability(vector, sure) > 0.99 > 0.01 > probability(vector, unsure)
    assert set(fitted().weights) <= set(FEATURES)  # the stored weights name known features


def test_the_one_who_says_the_quoted_words_is_marked() -> None:
    """“…”是谁说的: 张飞 speaks the words (in his sentence or the next); 关羽, named before them
    but not speaking them, and 袁术, elsewhere, do not."""
    plan = analyse("“我乃燕人张翼德也”是谁说的？", NAMES.find_spans)
    ranked = [_passage("关羽在后，张飞大叫：“我乃燕人张翼德也！”袁术大怒。"),
              _passage("张飞睁目大喝。“燕人张翼德在此！谁敢来决死战？”", chunk="c2")]
    found = {c.name: c.features for c in candidates(plan, PERSON, ranked, _world(["说"]))}
    assert found["张飞"]["anchor_speaks"] == 1.0 and found["张飞"]["anchor"] == 1.0
    assert found["关羽"]["anchor"] == 1.0 and found["关羽"]["anchor_speaks"] == 0.0
    assert found["袁术"]["anchor_speaks"] == 0.0


def test_said_after_the_quoted_words_marks_the_speaker() -> None:
    plan = analyse("Who says 'Han Zheng will pay for this'?", NAMES.find_spans)
    ranked = [_passage("“Han Zheng will pay for this,” said Su Wan.")]
    found = {c.name: c.features for c in candidates(plan, PERSON, ranked, _world(["says"]))}
    assert found["Su Wan"]["anchor_speaks"] == 1.0


def test_an_unsure_pick_leaves_the_evidence_in_its_ranked_order(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Below the threshold the answer is evidence: it opens with the best-ranked passage, not
    with the sentence of a guess the reader could not stand behind (a sure pick is cited first,
    since the answer states it)."""
    from agent.librarian import evidence_answers
    from agent.librarian.extract import Candidate

    plan = analyse("谁斩了华雄？", NAMES.find_spans)
    ranked = [_passage("云长停盏施英勇，酒尚温时斩华雄。", chapter=5),
              _passage("张飞大叫一声，袁术大怒。", chunk="c2", chapter=7)]
    guess = Candidate("张飞", PERSON, True, best_chunk="c2", best_sentence="张飞大叫一声，袁术大怒。")
    runner_up = Candidate("袁术", PERSON, True, best_chunk="c2", best_sentence="张飞大叫一声，袁术大怒。")

    def names(text: str) -> list[str]:
        return [n for _, _, n in NAMES.find_spans(text)]

    for sure, first_chapter in ((False, 5), (True, 7)):
        monkeypatch.setattr(evidence_answers, "stated", lambda best, sure=sure: sure)
        answer = evidence_answers.picked_answer(plan, [guess, runner_up], ranked, ["斩", "华雄"], names,
                                       str, False, ())
        assert answer.citations[0].chapter == first_chapter
        assert "c2" in {c.chunk_id for c in answer.citations}  # the guess's sentence is shown
        assert answer.entities[0] == "张飞"  # the guess stays the likely referent either way
        # unsure, the runner-up follows it (a 她 the guess cannot be may mean it); sure, not
        assert ("袁术" in answer.entities) is not sure


@pytest.mark.parametrize(("question", "subject_first", "words", "slot"), [
    ("谁斩了华雄？", False, ["斩", "华雄"], ([], ["斩", "华雄"])),
    # a cleft without its own subject: the one asked for did it (黄忠斩了夏侯渊)
    ("在定军山斩了夏侯渊的是谁？", False, ["定军山", "斩", "夏侯渊"], ([], ["定军山", "斩", "夏侯渊"])),
    # with a subject it asks for the one acted on, written after the words (子龙…救出阿斗)
    ("子龙在长坂坡单骑救出的小主人是谁？", True, ["长坂坡", "救出"], (["长坂坡", "救出"], [])),
    ("魏延是被谁斩杀的？", False, ["魏延", "斩杀"], ([], ["魏延", "斩杀"])),  # 马岱斩魏延
    ("Who killed Han Zheng?", False, ["killed"], ([], ["killed"])),
    ("Whom did Vampa capture?", False, ["Vampa", "capture"], (["Vampa", "capture"], [])),
])
def test_where_the_answer_stands_among_the_question_words(
        question: str, subject_first: bool, words: list[str],
        slot: tuple[list[str], list[str]]) -> None:
    from agent.librarian.extract import _slot_words

    kind = asked_thing(question) or PERSON
    assert _slot_words(question, kind, words, subject_first) == slot


def test_a_chapter_title_is_read_once_as_its_best_passages_first_sentence() -> None:
    """A title sums its chapter up (关云长温酒斩华雄): a name only the title gives is a candidate,
    but no quote of the passage, so its sentence is chosen from the passage later."""
    plan = analyse("谁斩了华雄？", NAMES.find_spans)
    title = "关云长温酒斩华雄"
    ranked = [_passage("袁术大怒。张飞大叫。", title=title),
              _passage("袁术又怒。", chunk="c2", title=title)]
    found = candidates(plan, PERSON, ranked, _world(["斩"]))
    assert found[0].name == "关羽"
    assert (found[0].best_chunk, found[0].best_sentence) == ("c1", "")
    assert found[0].features["title"] == 1.0
    from agent.librarian import evidence_answers

    def names(text: str) -> list[str]:
        return [n for _, _, n in NAMES.find_spans(text)]

    answer = evidence_answers.picked_answer(plan, found, ranked, ["斩", "华雄"], names, str, False, ())
    assert all(c.quote and c.quote in "袁术大怒。张飞大叫。袁术又怒。" for c in answer.citations)


def test_an_entry_quoted_after_its_title_does_not_say_its_label_again() -> None:
    from agent.librarian import quoting

    entry = _passage("落星崖：白沙江边百丈高的峭壁，崖顶有一株老松。", chapter=LORE_CHAPTER,
                     title="落星崖")
    plan = analyse("落星崖在哪儿？", NAMES.find_spans)
    quote = quoting.best_sentence(entry, ["落星崖"], plan, lambda text: [])
    assert quote == "白沙江边百丈高的峭壁，崖顶有一株老松。" and quote in entry.text  # still its words
    line = quoting.cite_line(plan, entry, quote, 1)
    assert line.endswith("「落星崖」：白沙江边百丈高的峭壁，崖顶有一株老松。[1]"), line
