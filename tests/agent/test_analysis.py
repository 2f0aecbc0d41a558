"""Query analysis on its own: which names a question means, and whose death it asks about."""

from __future__ import annotations

from agent.librarian.analysis import analyse
from stores.entities.matcher import AliasMatcher

NAMES = AliasMatcher({"Lord Wilmore": "Lord Wilmore", "Louis": "Louis", "Dantès": "Edmond Dantès", "Edmond": "Edmond Dantès",
                      "Morcerf": "Morcerf", "Captain Leclere": "Leclere", "刘备": "刘备",
                      "甘夫人": "甘夫人"})


def test_two_known_names_that_make_one_unknown_name_mean_neither() -> None:
    plan = analyse("How did old Louis Dantès, Edmond's father, die?", NAMES.find_spans)
    assert plan.entities == ["Edmond Dantès"]  # not King Louis
    # and Edmond is named for his father: it is not Edmond's death that is asked about
    assert plan.about_death and plan.death_subject == ""


def test_a_word_of_place_after_a_name_makes_it_the_place() -> None:
    # Sense and Sensibility (a newcomer's trial): "Norland" and a "Park" the world lists made
    # one unknown name, so the question named nothing and was refused: "The text does not say"
    places = AliasMatcher({"Norland": "Norland", "Park": "Park", "Louis": "Louis",
                           "Dantès": "Edmond Dantès"})
    assert analyse("Where is Norland Park?", places.find_spans).entities == ["Norland"]
    assert analyse("How did old Louis Dantès die?", places.find_spans).entities == []


def test_a_name_in_brackets_after_another_glosses_it() -> None:
    # the world keeps Lord Wilmore apart, the question says he is Edmond Dantès
    plan = analyse("How is Lord Wilmore (Dantès) related to Morcerf?", NAMES.find_spans)
    assert plan.entities == ["Lord Wilmore", "Morcerf"] and plan.kind == "relational"
    plan = analyse("刘备（玄德）和甘夫人是什么关系？", AliasMatcher(
        {"刘备": "刘备", "玄德": "玄德", "甘夫人": "甘夫人"}).find_spans)
    assert plan.entities == ["刘备", "甘夫人"]
    # brackets around a name of its own, not after one, still name it
    assert analyse("Who met (Morcerf) first?", NAMES.find_spans).entities == ["Morcerf"]


def test_names_side_by_side_in_a_list_or_alone_still_count() -> None:
    plan = analyse("How did Morcerf die?", NAMES.find_spans)
    assert plan.death_subject == "Morcerf"
    plan = analyse("Who died after Captain Leclere, Morcerf or Dantès?", NAMES.find_spans)
    assert plan.entities == ["Leclere", "Morcerf", "Edmond Dantès"]
    plan = analyse("刘备的妻子甘夫人是怎么死的？", NAMES.find_spans)
    assert plan.death_subject == "甘夫人"  # 刘备 names whose wife


def test_the_relation_asked_for_is_read_outside_the_names() -> None:
    assert analyse("What did Lord Wilmore buy in Marseilles?", NAMES.find_spans).relation is None
    assert analyse("Whom did Lord Wilmore serve?", NAMES.find_spans).relation == ("serves",
                                                                                   "source")
    assert analyse("Who were Louis's sons?", NAMES.find_spans).relation == ("parent_of",
                                                                            "source")
    assert analyse("刘备的妻子是谁？", NAMES.find_spans).relation == ("spouse", "either")
    # a betrothal is its own relation (Mercédès was Edmond's betrothed, Fernand's wife)
    for question in ("Who was Edmond engaged to?", "Who was Dantès's betrothed?",
                     "Who was Edmond's fiancée?", "刘备的未婚妻是谁？",
                     "Who was Edmond Dantès engaged to marry?"):
        assert analyse(question, NAMES.find_spans).relation == ("engaged", "either"), question
    assert analyse("Whom did Edmond marry?", NAMES.find_spans).relation == ("spouse", "either")
    # a marriage that dates a maiden name asks for the name, not the husband (Mansfield Park,
    # a newcomer's trial: "Who was Lady Bertram before she married?" was told her husband)
    for question in ("Who was Edmond before he married?",
                     "Who was Edmond before Edmond married?"):  # as a follow-up writes it out
        assert not analyse(question, NAMES.find_spans).asks_relation, question
    # a chapter asked of a marriage asks when, not whom (Brother Jacob, a newcomer's trial: "In
    # which chapter does Mr. Palfrey consent to Penny's marriage?" got "Mrs. Palfrey is Mr.
    # Palfrey's wife")
    for question in ("In which chapter does Edmond consent to Louis's marriage to Morcerf?",
                     "刘备娶甘夫人是在第几回？"):
        plan = analyse(question, NAMES.find_spans)
        assert plan.asks_chapter and not plan.asks_relation, question
    # which marriage came first, the spouse relations do not say: no relation answers it
    for question in ("Whom did Edmond marry first?", "Who was Edmond's first wife?",
                     "刘备的前妻是谁？"):
        assert analyse(question, NAMES.find_spans).relation is None, question


def test_a_verb_beside_a_name_asks_for_the_relation_in_a_who_question() -> None:
    names = AliasMatcher({"Su Wan": "苏绾", "苏绾": "苏绾", "Shen Yan": "沈砚", "沈砚": "沈砚"})
    for question in ("Who taught Su Wan swordsmanship?", "谁教过苏绾剑法？"):
        plan = analyse(question, names.find_spans)
        assert (plan.relation, plan.asks_relation) == (("mentor", "target"), True), question
    for question in ("Whom did Shen Yan teach?", "沈砚教过谁？"):  # the teacher named: pupils
        plan = analyse(question, names.find_spans)
        assert (plan.relation, plan.asks_relation) == (("mentor", "source"), True), question
    for question in ("What did Shen Yan teach Su Wan?", "沈砚教苏绾什么？"):  # not a who
        plan = analyse(question, names.find_spans)
        assert (plan.relation, plan.asks_relation) == (None, False), question


def test_a_relative_word_the_question_word_owns_turns_the_role_round() -> None:
    """刘备的儿子是谁 asks for 刘备's child; 刘禅是谁的儿子 / Whose son is Louis? for the parent."""
    assert analyse("刘备唯一的儿子是谁？", NAMES.find_spans).relation == ("parent_of", "source")
    assert analyse("甘夫人是谁的儿子？", NAMES.find_spans).relation == ("parent_of", "target")
    assert analyse("Whose son is Louis?", NAMES.find_spans).relation == ("parent_of", "target")
    assert analyse("Whose father is Louis?", NAMES.find_spans).relation == ("parent_of", "source")
    assert analyse("甘夫人是谁的妻子？", NAMES.find_spans).relation == ("spouse", "either")


def test_a_relative_word_is_asked_for_only_where_it_is_someones() -> None:
    asked = [
        "Who were Louis's sons?", "Who was Edmond's only living son?", "Who is the father of Edmond?",
        "刘备的妻子是谁？", "刘备唯一的儿子是谁？", "甘夫人是谁的妻子？", "What is Edmond's relation to Louis?",
        # a name ending in s may take the apostrophe alone, as a follow-up writes "her" out
        # ("Who is her mother?" after Miss Bates: a newcomer's trial on Emma)
        "Who is Louis' son?", "Who is Dantès’ father?",
    ]
    for question in asked:
        assert analyse(question, NAMES.find_spans).asks_relation, question
    # the relative word says something about the answer; it is not what is asked
    told = ["Whom did Morcerf accuse of betraying her father?", "刘备第一次用双股剑对敌是在哪一回？",
            "Where did Edmond sail after his father died?"]
    for question in told:
        assert not analyse(question, NAMES.find_spans).asks_relation, question


def test_a_relation_question_that_asks_more_gets_no_relative_from_the_graph() -> None:
    """The graph holds what the text says most often of a relation, not which saying is true or
    when it held: a question qualified beyond its names and relative word is left to the text."""
    from agent.librarian.compose import asks_only_the_relation

    bare = ["Who were Louis's sons?", "Who was Edmond's only living son?", "刘备唯一的儿子是谁？",
            "甘夫人是谁的妻子？", "What is Edmond's relation to Louis?",
            "Who was Morcerf's wife?"]
    for question in bare:
        assert asks_only_the_relation(analyse(question, NAMES.find_spans)), question
    more = ["Who is Edmond's real father, according to his testimony in court?",
            "刘备的妻子在长坂坡做了什么？"]
    for question in more:
        plan = analyse(question, NAMES.find_spans)
        assert plan.asks_relation and not asks_only_the_relation(plan), question


def test_what_one_named_is_to_another_asks_how_they_are_related() -> None:
    names = AliasMatcher({"Jane Fairfax": "Jane Fairfax", "Miss Bates": "Miss Bates",
                          "Emma": "Emma", "Mrs. Weston": "Mrs. Weston"})
    for question in ("What is Jane Fairfax to Miss Bates?",
                     "What was Mrs. Weston to Emma before her marriage?",
                     "What is Jane Fairfax's connection to Miss Bates?"):
        plan = analyse(question, names.find_spans)
        assert plan.how_related and plan.kind == "relational", question
    # "to" before a place or a thing asks no relation
    plan = analyse("What was Emma to do about the letter?", names.find_spans)
    assert not plan.how_related
    # a name the world knows without the article the question writes
    count = AliasMatcher({"Count of Monte Cristo": "Edmond Dantès", "Edmond": "Edmond Dantès"})
    assert analyse("What is the Count of Monte Cristo to Edmond?", count.find_spans).how_related


def test_a_relatives_death_told_by_a_possessive_is_not_the_named_ones() -> None:
    # Emma (a newcomer's trial): "Who brought her up after her parents died?", read as about
    # Jane Fairfax, was refused ("The text does not say") as a death the text never tells
    plan = analyse("Who brought Edmond up after his parents died?", NAMES.find_spans)
    assert plan.about_death and plan.death_subject == ""
    assert analyse("How did Edmond die?", NAMES.find_spans).death_subject == "Edmond Dantès"
    assert analyse("Did Edmond weep when his old father died?",
                   NAMES.find_spans).death_subject == ""


def test_whose_death_is_the_nearest_name_before_it_and_what_one_did_about_it_asks_no_death(
        ) -> None:
    # Northanger Abbey (a newcomer's trial): "What did Catherine suspect about Mrs. Tilney's
    # death?" was refused ("The text does not say") as a death of Catherine's the text never
    # tells; it asks what she suspected, about Mrs. Tilney's
    from stores.lang import en

    plan = analyse("What did Edmond suspect about Morcerf's death?", NAMES.find_spans)
    assert plan.death_subject == "Morcerf"
    assert en.ACTS_ABOUT_A_DEATH.search(plan.question)
    for question in ("What did Morcerf die of?", "What was the cause of Morcerf's death?",
                     "How did Morcerf die?"):
        assert not en.ACTS_ABOUT_A_DEATH.search(question), question


def test_a_relative_two_steps_of_kin_reach_is_found_only_when_one_person_is() -> None:
    from agent.librarian.relations import relative_by_path
    from agent.schemas import Relation

    def rel(source: str, target: str, kind: str) -> Relation:
        return Relation(source=source, target=target, type=kind, weight=1.0)

    genders = {"Villefort": "m", "Valentine": "f", "Edouard": "m", "Renée": "f"}
    plan = analyse("Who is Louis's father?", NAMES.find_spans)
    plan.entities = ["Edouard"]
    sister = [rel("Villefort", "Valentine", "parent_of"), rel("Edouard", "Valentine", "sibling")]
    found = relative_by_path(plan, sister, lambda n: genders.get(n, ""), "m")
    assert found is not None and found[0] == "Villefort"
    assert [(r.source, r.target) for r in found[1]] == [("Villefort", "Valentine"),
                                                       ("Edouard", "Valentine")]
    # a mother is no father; two fathers reached are none sure
    assert relative_by_path(plan, [rel("Renée", "Valentine", "parent_of"), sister[1]],
                            lambda n: genders.get(n, ""), "m") is None
    two = [*sister, rel("Morrel", "Julie", "parent_of"), rel("Edouard", "Julie", "sibling")]
    assert relative_by_path(plan, two, lambda n: genders.get(n, ""), "m") is None


def test_a_quotation_in_single_marks_keeps_the_apostrophes_inside_its_words() -> None:
    # Mansfield Park (a newcomer's trial): the quote was lost at "everybody's", so the
    # question was no quotation question at all
    plan = analyse("Who says 'It is everybody's duty to do as well for themselves as they can'?",
                   NAMES.find_spans)
    assert plan.kind == "exact"
    assert plan.quote == "It is everybody's duty to do as well for themselves as they can"
    assert analyse("Who is d'Épinay's father?", NAMES.find_spans).quote == ""


def test_a_size_or_an_amount_asked_is_a_number() -> None:
    # "How large is Miss Grey's fortune?" asked for no one thing, so a sentence with a sum
    # counted no more than one without (Sense and Sensibility)
    from stores.lang import asked_thing

    for question in ("How large is Miss Grey's fortune?", "How tall was the giant?",
                     "What price did he pay for the horse?", "How far is Barton from Exeter?"):
        assert asked_thing(question) == "number", question
    assert asked_thing("How did the giant die?") is None
