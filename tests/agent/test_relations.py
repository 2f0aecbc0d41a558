"""The line that names how the people a question asks about are related."""

from __future__ import annotations

from agent.librarian.analysis import analyse
from agent.librarian.relations import asked_relations, named_pairs, relation_lines
from agent.schemas import Passage, Relation
from stores.entities.matcher import AliasMatcher

NAMES = AliasMatcher({"司马懿": "司马懿", "司马师": "司马师", "司马昭": "司马昭", "刘备": "刘备",
                      "孙夫人": "孙夫人", "Noirtier": "Noirtier", "Valentine": "Valentine"})
GENDERS = {"司马师": "m", "司马昭": "m", "刘备": "m", "孙夫人": "f", "Valentine": "f"}


def lines(question: str, *relations: Relation) -> list[str]:
    plan = analyse(question, NAMES.find_spans)
    return relation_lines(plan, list(relations), "", lambda name: GENDERS.get(name, ""))


def edge(source: str, target: str, kind: str, chapter: int) -> Relation:
    return Relation(source=source, target=target, type=kind, weight=1.0, chapters=[chapter])


def test_each_pair_of_three_people_named_gets_its_line() -> None:
    assert named_pairs(["司马师", "司马昭", "司马懿"]) == [
        ("司马师", "司马昭"), ("司马师", "司马懿"), ("司马昭", "司马懿")]
    said = lines("司马师、司马昭和司马懿是什么关系？", edge("司马懿", "司马师", "parent_of", 107),
                 edge("司马懿", "司马昭", "parent_of", 109))
    assert said == ["司马师是司马懿的儿子，二人是父子（第107回等）。",
                    "司马昭是司马懿的儿子，二人是父子（第109回等）。"]


def test_chinese_says_what_the_two_are_together_where_it_has_a_word() -> None:
    assert lines("刘备和孙夫人是什么关系？", edge("刘备", "孙夫人", "spouse", 55)) == [
        "刘备是孙夫人的丈夫，二人是夫妻（第55回等）。"]
    # a parent whose gender the text does not show is the father when the child bears the
    # parent's surname (a Chinese mother keeps her own); of another surname, no word for the two
    assert lines("司马师和司马懿是什么关系？", edge("司马懿", "司马师", "parent_of", 107)) == [
        "司马师是司马懿的儿子，二人是父子（第107回等）。"]
    mother = AliasMatcher({"甘夫人": "甘夫人", "刘禅": "刘禅"})
    plan = analyse("刘禅和甘夫人是什么关系？", mother.find_spans)
    assert relation_lines(plan, [edge("甘夫人", "刘禅", "parent_of", 34)], "",
                          lambda name: {"刘禅": "m"}.get(name, "")) == [
        "刘禅是甘夫人的儿子（第34回等）。"]
    # English says it in the one sentence
    assert lines("How is Valentine related to Noirtier?",
                 edge("Noirtier", "Valentine", "grandparent_of", 59)) == [
        "Valentine is Noirtier's granddaughter (chapters 59…)."]


def test_how_two_are_related_is_said_only_by_a_relation_between_them() -> None:
    names = AliasMatcher({"Mrs. Weston": "Mrs. Weston", "Emma": "Emma", "Weston": "Weston"})
    plan = analyse("What was Mrs. Weston to Emma before her marriage?", names.find_spans)
    husband = edge("Mrs. Weston", "Weston", "spouse", 2)
    assert plan.how_related and asked_relations(plan, [husband]) == []
    assert relation_lines(plan, asked_relations(plan, [husband]), "", lambda n: "") == [""]
    governess = edge("Mrs. Weston", "Emma", "serves", 1)
    assert asked_relations(plan, [husband, governess]) == [governess]


def test_two_a_third_person_joins_are_related_through_that_person() -> None:
    family = AliasMatcher({n: n for n in ("Mrs. Weston", "Weston", "Frank", "Henry", "Isabella",
                                          "Mr. Woodhouse", "曹丕", "曹操", "曹叡", "甄氏")})
    genders = {"Mrs. Weston": "f", "Weston": "m", "Frank": "m", "Henry": "m", "Isabella": "f",
               "曹丕": "m", "曹操": "m", "曹叡": "m", "甄氏": "f"}

    def said(question: str, *relations: Relation) -> list[str]:
        plan = analyse(question, family.find_spans)
        return relation_lines(plan, asked_relations(plan, list(relations)), "",
                              lambda name: genders.get(name, ""))

    wife, son = edge("Mrs. Weston", "Weston", "spouse", 2), edge("Weston", "Frank", "parent_of", 5)
    # a father's wife may be a mother or a stepmother: the word says both, then the steps
    assert said("What is Mrs. Weston to Frank?", wife, son) == [
        "Mrs. Weston is Frank's mother or stepmother: Mrs. Weston is Weston's wife, and Weston "
        "is Frank's father (chapters 2, 5…)."]
    assert said("How is Frank related to Mrs. Weston?", wife, son) == [
        "Frank is Mrs. Weston's son or stepson: Frank is Weston's son, and Weston is "
        "Mrs. Weston's husband (chapters 2, 5…)."]
    # a half-sister's mother alike (Mrs. Dashwood, John Dashwood's stepmother)
    assert said("What is Mrs. Weston to Frank?", edge("Mrs. Weston", "Isabella", "parent_of", 1),
                edge("Isabella", "Frank", "sibling", 4)) == [
        "Mrs. Weston is Frank's mother or stepmother: Mrs. Weston is Isabella's mother, and "
        "Isabella is Frank's sister (chapters 1, 4…)."]
    # a mother's father is a grandfather, whatever else is true
    assert said("How is Henry related to Mr. Woodhouse?",
                edge("Isabella", "Henry", "parent_of", 9),
                edge("Mr. Woodhouse", "Isabella", "parent_of", 1)) == [
        "Henry is Mr. Woodhouse's grandson: Henry is Isabella's son, and Isabella is "
        "Mr. Woodhouse's daughter (chapters 1, 9…)."]
    # Chinese names the side of the family: a son's son is 孙子, a daughter's son 外孙
    assert said("曹叡和曹操是什么关系？", edge("曹丕", "曹叡", "parent_of", 91),
                edge("曹操", "曹丕", "parent_of", 68)) == [
        "曹叡是曹操的孙子：曹叡是曹丕的儿子，曹丕是曹操的儿子（第68、91回等）。"]
    assert said("曹操和甄氏是什么关系？", edge("曹操", "曹丕", "parent_of", 33),
                edge("曹丕", "甄氏", "spouse", 33)) == [
        "曹操是甄氏的公公：曹操是曹丕的父亲，曹丕是甄氏的丈夫（第33回等）。"]
    # a relation between the two themselves is said instead
    assert said("What is Mrs. Weston to Frank?", wife, son,
                edge("Mrs. Weston", "Frank", "serves", 3)) == [
        "Mrs. Weston is Frank's servant (chapters 3…)."]


def test_kin_of_no_narrower_type_is_said_in_the_texts_word() -> None:
    from stores.entities.kinship import stated_in

    kin = AliasMatcher({"夏侯尚": "夏侯尚", "夏侯惇": "夏侯惇", "Saint-Méran": "Saint-Méran",
                        "Villefort": "Villefort"})

    def said(question: str, sentence: str, source: str, target: str) -> list[str]:
        plan = analyse(question, kin.find_spans)
        relation = Relation(source=source, target=target, type="kin", weight=1.0, chapters=[44],
                            evidence=[Passage(chunk_id="c1", chapter=44, text=sentence,
                                             source="44.txt", lines=(1, 1))])
        return relation_lines(plan, [relation], "", lambda name: "",
                              said_in=lambda text: stated_in(text, kin.find_spans(text)))

    # whichever of the two is asked about first, the sentence's own word, for the one it names
    assert said("How is Villefort related to Saint-Méran?",
                "M. de Saint-Méran, Villefort's father-in-law, was there.",
                "Saint-Méran", "Villefort") == [
        "Saint-Méran is Villefort's father-in-law (chapters 44…)."]
    # a one-character word of the text is said as a word of speech (侄 → 侄子)
    assert said("夏侯惇和夏侯尚是什么关系？", "曹洪即遣夏侯惇之侄夏侯尚前来助战。",
                "夏侯尚", "夏侯惇") == ["夏侯尚是夏侯惇的侄子（第44回等）。"]


def test_a_child_by_adoption_is_said_in_the_texts_word() -> None:
    # 关平和关羽是什么关系？ answered 关羽是关平的父亲: he kneels to 关公 as his father (ch. 28)
    from stores.entities.kinship import stated_in

    kin = AliasMatcher({"关平": "关平", "关公": "关羽", "关羽": "关羽"})

    def said(sentence: str) -> list[str]:
        plan = analyse("关平和关羽是什么关系？", kin.find_spans)
        relation = Relation(source="关羽", target="关平", type="parent_of", weight=1.0,
                            chapters=[28], evidence=[Passage(chunk_id="c1", chapter=28,
                                                             text=sentence, source="28.txt",
                                                             lines=(1, 1))])
        return relation_lines(plan, [relation], "", lambda name: "m",
                              said_in=lambda text: stated_in(text, kin.find_spans(text)))

    assert said("关定大喜，便命关平拜关公为父。") == ["关平是关羽的义子，二人是父子（第28回等）。"]
    assert said("或答曰：“此关公义子关平也。") == ["关平是关羽的义子，二人是父子（第28回等）。"]


def test_the_end_whose_gender_the_text_shows_is_said() -> None:
    # 司马懿's gender is not shown, his sons' is: not 司马懿是司马昭的父母; a father by the surname
    # they share (Language.fathers_surname), so said from the one asked about first
    unknown = {"司马师": "m", "司马昭": "m"}

    def said(question: str, *relations: Relation) -> list[str]:
        plan = analyse(question, NAMES.find_spans)
        return relation_lines(plan, asked_relations(plan, list(relations)), "",
                              lambda name: unknown.get(name, ""))

    father = edge("司马懿", "司马昭", "parent_of", 109)
    assert said("司马懿和司马昭是什么关系？", father) == ["司马懿是司马昭的父亲，二人是父子（第109回等）。"]
    # two children of one parent are siblings, each step said from the end the text genders
    assert said("司马师和司马昭是什么关系？", edge("司马懿", "司马师", "parent_of", 107), father) == [
        "司马师是司马昭的兄弟：司马师是司马懿的儿子，司马昭是司马懿的儿子（第107、109回等）。"]
    # a pair word that says no more than the word is not said twice
    assert lines("刘备和孙夫人是什么关系？", edge("刘备", "孙夫人", "sworn_sibling", 5)) == [
        "刘备是孙夫人的结义兄弟（第5回等）。"]


def test_a_declared_relation_is_cited_by_its_entrys_sentence_naming_the_other_end() -> None:
    from agent.librarian.relation_quotes import stating

    # 沈砚's lore entry does not name him but for his courtesy name: its sentence naming 苏绾
    # states the relation, not 字青崖
    entry = Passage(chunk_id="lore-1", chapter=0, chapter_title="沈砚", source="glossary.toml",
                    lines=(3, 3), text="字青崖。苏绾之师，韩峥的结义大哥。")
    relation = Relation(source="沈砚", target="苏绾", type="mentor", weight=1.0, declared=True,
                        evidence=[entry])
    found = stating([], relation, lambda name: {"沈砚": ["青崖"]}.get(name, []),
                    lambda text: [])
    assert [s.text for s in found] == ["苏绾之师，韩峥的结义大哥。"]


def test_a_relative_the_world_does_not_know_is_sought_where_the_person_is_named() -> None:
    """Who is Harriet Smith's father?: not "Emma allowed her father to talk" (Emma's), but the
    sentence naming her with a word of that relation at either end (her a daughter)."""
    from agent.librarian.ranking import Sentence
    from agent.librarian.relation_quotes import subject_named_first

    names = AliasMatcher({"Harriet Smith": "Harriet Smith", "Emma": "Emma"})
    emma = Passage(chunk_id="e", chapter=3, source="b.txt", lines=(1, 1), text="",
                   entities=["Emma"])
    harriet = Passage(chunk_id="h", chapter=3, source="b.txt", lines=(2, 2), text="",
                      entities=["Harriet Smith", "Emma"])
    ranked = [Sentence("Emma allowed her father to talk.", emma, 0),
              Sentence('"Harriet Smith is my father\'s guest," said Emma.', harriet, 1),
              Sentence("Harriet Smith sang.", harriet, 1),
              Sentence("Harriet Smith was the natural daughter of somebody.", harriet, 1)]
    ordered = subject_named_first(ranked, "parent_of", "Harriet Smith", names.find_spans)
    assert [s.text for s in ordered] == [
        "Harriet Smith was the natural daughter of somebody.",  # the telling before a line
        '"Harriet Smith is my father\'s guest," said Emma.', "Harriet Smith sang.",
        "Emma allowed her father to talk."]


def test_a_relation_of_others_says_nothing_of_the_one_asked_about() -> None:
    # Monte Cristo (a newcomer's trial): "What happened to his father?" (Edmond Dantès's)
    # answered "Mercédès is Albert de Morcerf's mother", a relation read among his fiancée's kin
    names = AliasMatcher({"Edmond Dantès": "Edmond Dantès", "Mercédès": "Mercédès",
                          "Albert de Morcerf": "Albert de Morcerf"})
    plan = analyse("What happened to Edmond Dantès' father?", names.find_spans)
    mother = edge("Mercédès", "Albert de Morcerf", "parent_of", 88)
    assert relation_lines(plan, [mother], "", lambda n: {"Mercédès": "f"}.get(n, "")) == [""]
    fiancee = edge("Mercédès", "Edmond Dantès", "engaged", 1)
    assert "Edmond Dantès" in relation_lines(plan, [mother, fiancee], "", lambda n: "")[0]
