"""Kin named by "her father" or "Mr. Harlowe's wife" is bound to the one person of the family the
book leaves, and to no one when it leaves two (made-up families)."""

from __future__ import annotations

from stores.entities.family import Families, family_relations, family_statements
from stores.entities.matcher import AliasMatcher, alias_map
from stores.models import Entity

HARLOWES = [
    Entity("Clara Harlowe", "person", ["Clara", "Miss Harlowe"]),
    Entity("Mr. Harlowe", "person"),
    Entity("Mrs. Harlowe", "person"),
    Entity("Lovell", "person", ["Mr. Lovell"]),
    Entity("Harlowe Place", "place"),
]


def bound(text: str, people: list[Entity] = HARLOWES) -> set[tuple[str, str, str]]:
    spans = AliasMatcher(alias_map(people)).find_spans(text)
    return {(s.source, s.target, s.type)
            for s, _ in family_statements(text, spans, Families(people))}


def test_her_father_is_the_one_man_of_her_family() -> None:
    assert bound("Clara walked out with her father. Mr. Harlowe was silent.") == {
        ("Mr. Harlowe", "Clara Harlowe", "parent_of")}
    # a possessive names whose kin it is
    assert bound("Mr. Harlowe's daughter was at the window; Clara did not look up.") == {
        ("Mr. Harlowe", "Clara Harlowe", "parent_of")}
    # a wife and a mother are titled as married
    assert bound("Mr. Harlowe spoke to his wife. Mrs. Harlowe said nothing.") == {
        ("Mrs. Harlowe", "Mr. Harlowe", "spouse")}
    assert bound("Clara ran to her mother, and Mrs. Harlowe held her.") == {
        ("Mrs. Harlowe", "Clara Harlowe", "parent_of")}


def test_a_man_whose_wife_is_titled_by_his_full_name_is_no_other_womans_husband() -> None:
    # Sense and Sensibility: Mrs. John Dashwood is his wife; Mrs. Dashwood is his father's widow
    norland = [Entity("John Dashwood", "person", ["Mr. John Dashwood", "Mr. Dashwood"]),
               Entity("Mrs. Dashwood", "person"), Entity("Mrs. John Dashwood", "person")]
    assert bound("Mrs. Dashwood had been informed by her husband of the promise.", norland) == set()
    assert bound("Mrs. John Dashwood did not approve of what her husband intended.", norland) == {
        ("John Dashwood", "Mrs. John Dashwood", "spouse")}


def test_a_family_with_two_who_fit_binds_nothing() -> None:
    uncle = [*HARLOWES, Entity("Colonel Harlowe", "person")]
    # her father or her uncle: two Harlowe men the book calls by a title alone
    assert bound("Clara walked out with her father. Mr. Harlowe was silent.", uncle) == set()
    # nor a knight, who goes by his first name, and a cousin of a title alone (Persuasion: Sir
    # Walter Elliot is Elizabeth's father, Mr Elliot his heir)
    knight = [*HARLOWES, Entity("Walter Harlowe", "person", ["Sir Walter Harlowe", "Sir Walter"])]
    assert bound("Clara walked out with her father. Mr. Harlowe was silent.", knight) == set()
    # but a son goes by his first name: the father is the one called by a title alone
    # (Northanger Abbey: Mr. Morland, not James Morland, is Catherine's father)
    brother = [*HARLOWES, Entity("James Harlowe", "person", ["Mr. James Harlowe"])]
    assert bound("Clara walked out with her father. Mr. Harlowe was silent.", brother) == {
        ("Mr. Harlowe", "Clara Harlowe", "parent_of")}
    # but her mother is still the one married Harlowe woman
    assert bound("Clara ran to her mother, and Mrs. Harlowe held her.", brother) == {
        ("Mrs. Harlowe", "Clara Harlowe", "parent_of")}


def test_one_of_several_sisters_is_the_one_the_passage_names() -> None:
    sisters = [*HARLOWES, Entity("Bella Harlowe", "person", ["Bella", "Miss Bella Harlowe"]),
               Entity("Anna Harlowe", "person", ["Anna", "Miss Anna Harlowe"])]
    assert bound("Clara wrote to her sister. Bella did not answer.", sisters) == {
        ("Bella Harlowe", "Clara Harlowe", "sibling")}
    # both Misses named: which one is her sister is not said
    assert bound("Clara wrote to her sister. Bella and Anna did not answer.", sisters) == set()
    # a father is one man, not whichever Harlowe man the passage names: the son goes by his
    # first name, the father by a title alone
    brother = [*sisters, Entity("James Harlowe", "person", ["Mr. James Harlowe"])]
    assert bound("Clara wrote to her father. James Harlowe did not answer.", brother) == {
        ("Mr. Harlowe", "Clara Harlowe", "parent_of")}


def test_a_wifes_sister_is_not_of_her_husbands_family() -> None:
    # Persuasion: Mary, Mrs Charles Musgrove, writes of "her sister" Anne; Louisa Musgrove, the
    # one Miss of her married family, is her husband's sister
    family = [Entity("Mary", "person", ["Mrs Charles Musgrove"]),
              Entity("Louisa Musgrove", "person", ["Miss Louisa"]),
              Entity("Charles Musgrove", "person")]
    assert bound("Mary wrote to her sister. Louisa Musgrove was out.", family) == set()


def test_the_words_bind_only_where_the_reader_could_check_them() -> None:
    # Miss Harlowe has no husband: "her husband" is some other woman's
    assert bound("Clara thought of her husband; Mr. Harlowe laughed.") == set()
    # the pronoun may be someone the sentence does not name
    assert bound("She left Clara with her father, and Mr. Harlowe was glad.") == set()
    # "Mr. Harlowe was his father": Mr. Harlowe is the father, of someone else
    assert bound("Mr. Lovell knew it: Mr. Harlowe was his father.") == set()
    # two women before "her": whose mother is not said
    assert bound("Clara and Mrs. Harlowe sat with her mother.") == set()
    # a family's kin of another family: Mr. Lovell has no Harlowe wife
    assert bound("Mr. Lovell came with his wife, and Mrs. Harlowe met them.") == set()


def test_a_ranked_man_is_of_the_family_and_a_named_kinship_outweighs_unnamed_ones() -> None:
    # Northanger Abbey: "Henry Tilney ... his father" was bound to Frederick (Captain Tilney),
    # the General, known only by his rank, being no Tilney; nine such passages then outvoted
    # the four that name both brothers
    abbey = [Entity("Henry Tilney", "person", ["Henry", "Mr. Henry Tilney"]),
             Entity("Frederick Tilney", "person", ["Frederick", "Captain Tilney"]),
             Entity("General Tilney", "person")]
    # two men, but one goes by his first name: the General is the father
    assert bound("Henry Tilney came in with his father.", abbey) == {
        ("General Tilney", "Henry Tilney", "parent_of")}
    matcher = AliasMatcher(alias_map(abbey))
    chunks = [("c1", 12, "Henry Tilney came in with his father."),
              ("c2", 13, "Henry Tilney bowed to his father."),
              ("c3", 19, "Henry Tilney regretted his brother's partiality; Captain Tilney laughed.")]
    only_frederick = Families([abbey[0], abbey[1]])  # as when the General was no Tilney
    found = family_relations([(*c, matcher.find_spans(c[2])) for c in chunks], only_frederick)
    assert set(found) == {("Frederick Tilney", "Henry Tilney", "sibling")}, found


def test_a_pair_named_two_ways_keeps_the_way_most_passages_say() -> None:
    chunks = [(f"c{i}", i, "Clara walked out with her father. Mr. Harlowe was silent.")
              for i in (1, 2)]
    chunks.append(("c3", 3, "Mr. Harlowe's sister was there, and Clara smiled."))
    matcher = AliasMatcher(alias_map(HARLOWES))
    found = family_relations([(*c, matcher.find_spans(c[2])) for c in chunks],
                             Families(HARLOWES))
    assert found == {("Mr. Harlowe", "Clara Harlowe", "parent_of"): [("c1", 1), ("c2", 2)]}
    # passages that do not name him count, after those that do; none that do, no relation
    unnamed = ("c5", 5, "Clara walked out with her father.")
    found = family_relations([(*c, matcher.find_spans(c[2])) for c in [unnamed, *chunks]],
                             Families(HARLOWES))
    assert found == {("Mr. Harlowe", "Clara Harlowe", "parent_of"): [
        ("c1", 1), ("c2", 2), ("c5", 5)]}
    assert family_relations([(*unnamed, matcher.find_spans(unnamed[2]))],
                            Families(HARLOWES)) == {}
    # two passages that bind it alike, though neither names him (Northanger Abbey's "It is
    # Mr. Tilney's sister", "Mr. Tilney and his sister": Eleanor)
    again = ("c6", 6, "Clara went riding with her father.")
    assert family_relations([(*c, matcher.find_spans(c[2])) for c in (unnamed, again)],
                            Families(HARLOWES)) == {
        ("Mr. Harlowe", "Clara Harlowe", "parent_of"): [("c5", 5), ("c6", 6)]}
    # one passage each way: the book has not said which
    assert family_relations([(*c, matcher.find_spans(c[2])) for c in chunks[1:]],
                            Families(HARLOWES)) == {}


def test_a_marriage_both_titles_and_words_show_is_one_relation_citing_both() -> None:
    from stores.ingest_entities import untold_spouses
    from stores.models import Relation

    said = Relation(source="Mr. Harlowe", target="Mrs. Harlowe", type="spouse", weight=1,
                    chapters=[7], evidence=["c7"])
    titled = [Relation(source="Mrs. Harlowe", target="Mr. Harlowe", type="spouse", weight=2,
                       chapters=[2, 7], evidence=["c2", "c7"]),
              Relation(source="Mrs. Lovell", target="Lovell", type="spouse", weight=1,
                       chapters=[3], evidence=["c3"])]
    new = untold_spouses(titled, [], [said])
    # the stated one keeps its sentence first and gains where the two meet
    assert (said.evidence, said.chapters) == (["c7", "c2"], [2, 7])
    assert [(r.source, r.target) for r in new] == [("Mrs. Lovell", "Lovell")]
    # Sense and Sensibility: the text names Mrs. Ferrars's son and no child of Mr. Ferrars's
    # (who is that son, Edward): titles make no husband of him
    widow = Relation(source="Mrs. Ferrars", target="Mr. Ferrars", type="spouse", weight=1,
                     chapters=[22], evidence=["c22"])
    son = Relation(source="Mrs. Ferrars", target="Edward Ferrars", type="parent_of", weight=1,
                   chapters=[22], evidence=["c22"])
    assert untold_spouses([widow], [], [son]) == []
    father = Relation(source="Mr. Ferrars", target="Robert Ferrars", type="parent_of", weight=1,
                      chapters=[30], evidence=["c30"])
    assert untold_spouses([widow], [], [son, father]) == [widow]
    # a declared marriage is not shown again
    assert untold_spouses(titled[1:], [Relation(source="Lovell", target="Mrs. Lovell",
                                                type="spouse", declared=True)], []) == []


def test_a_mother_the_text_names_is_the_one_mother() -> None:
    from collections import Counter

    from stores.entities.kinship import stated_relations
    from stores.entities.parents import one_parent_each

    # "Anne, Clara's mother" names her mother: Mrs. Harlowe, the family's married woman, is
    # her stepmother, and "her mother" binds no one to her; "her father" still does
    people = [*HARLOWES, Entity("Anne", "person")]
    matcher = AliasMatcher(alias_map(people))
    chunks = [(*c, matcher.find_spans(c[2])) for c in [
        ("c1", 1, "They buried poor Anne, Clara's mother, at Harlowe Place."),
        ("c2", 2, "Clara ran to her mother, and Mrs. Harlowe held her."),
        ("c3", 3, "Clara walked out with her father. Mr. Harlowe was silent.")]]
    told: dict[str, Counter[str]] = {}
    stated = stated_relations(chunks, told)
    assert ("Anne", "Clara Harlowe", "parent_of") in stated and told["Anne"]["f"] == 1
    families = Families(people)
    assert set(one_parent_each(family_relations(chunks, families), stated, told, families)) == {
        ("Mr. Harlowe", "Clara Harlowe", "parent_of")}


def test_a_son_named_by_another_family_than_his_fathers_has_no_mother_by_that_name() -> None:
    from collections import Counter

    from stores.entities.kinship import stated_relations
    from stores.entities.parents import one_parent_each

    # Frank took his uncle's name: his father is Mr. Weston, so "Frank's mother" is no
    # Churchill's wife, though Mrs. Churchill is the one married Churchill woman
    people = [Entity("Frank Churchill", "person", ["Frank"]), Entity("Mrs. Churchill", "person"),
              Entity("Mr. Weston", "person")]
    matcher = AliasMatcher(alias_map(people))
    chunks = [(*c, matcher.find_spans(c[2])) for c in [
        ("c1", 1, "Mr. Weston is the father of Frank Churchill."),
        ("c2", 2, "Frank's mother would never have been slighted but for Mrs. Churchill.")]]
    told: dict[str, Counter[str]] = {}
    stated = stated_relations(chunks, told)
    families = Families(people)
    bound = family_relations(chunks, families)
    assert ("Mrs. Churchill", "Frank Churchill", "parent_of") in bound
    assert ("Mrs. Churchill", "Frank Churchill", "parent_of") not in one_parent_each(
        bound, stated, told, families)


def test_she_after_a_sentence_that_opens_with_her_is_her() -> None:
    # Emma: "Mrs. Bates, the widow of a former vicar of Highbury, was a very old lady. She
    # lived with her single daughter in a very small way." — Miss Bates's mother, untyped
    assert bound("Mrs. Harlowe, the widow of a curate, was old. She lived with her single "
                 "daughter. Clara was kind.") == {("Mrs. Harlowe", "Clara Harlowe", "parent_of")}
    # a man opened the sentence before: she is someone else; and a name between breaks it
    assert bound("Mr. Harlowe was old. She lived with her daughter. Clara was kind.") == set()
    assert bound("Mrs. Harlowe was old. The mill stood by Harlowe Place. She lived with her "
                 "daughter. Clara was kind.") == set()


def test_a_father_both_mens_words_bind_is_the_one_not_the_uncle_whose_name_the_son_bears(
        ) -> None:
    # Emma: Frank Churchill's "his father" bound to Mr. Churchill, the one Churchill man (his
    # uncle, whose name he took), once "Weston Churchill" was no longer taken for Mr. Weston's
    from stores.ingest_entities import text_relations

    people = [Entity("Frank Churchill", "person", ["Frank"]), Entity("Mr. Churchill", "person"),
              Entity("Mr. Weston", "person", ["Weston"])]
    matcher = AliasMatcher(alias_map(people))
    chunks = [(f"c{n}", n, text, matcher.find_spans(text)) for n, text in enumerate([
        "Frank Churchill wrote to his father. Mr. Weston read the letter twice.",
        "Frank smiled at his father. Mr. Weston laughed aloud.",
        "Mr. Weston spoke of his son. Frank Churchill was coming at last.",
        "Mr. Weston was proud of his son. Frank bowed to them all.",
        "Mr. Churchill was ill at Enscombe that winter."], start=1)]
    found = {(r.source, r.target, r.type) for r in text_relations(chunks, [], people)}
    assert ("Mr. Weston", "Frank Churchill", "parent_of") in found, found
    assert ("Mr. Churchill", "Frank Churchill", "parent_of") not in found, found


def test_the_one_named_right_after_the_kin_word_is_the_relative() -> None:
    # Northanger Abbey: "Maria's intelligence concluded with a tender effusion of pity for her
    # sister Anne": two Misses known by their first names alone, whom no family name binds
    girls = [*HARLOWES, Entity("Maria", "person"), Entity("Anne", "person"),
             Entity("Frederick", "person", ["Captain Frederick"])]
    assert bound("Maria's letter ended with pity for her sister Anne, who was cross.", girls) == {
        ("Anne", "Maria", "sibling")}
    assert bound("Maria spoke warmly of her brother, Captain Frederick.", girls) == {
        ("Frederick", "Maria", "sibling")}
    # a list is no apposition: "her mother, Anne and Clara" names three
    assert bound("Maria came in with her mother, Anne and Clara.", girls) == set()


def test_kin_of_another_family_binds_to_the_one_it_names() -> None:
    # Mansfield Park (a newcomer's trial): "How is Mrs. Norris related to Fanny?" found no
    # relation, though "her aunt Norris" (the book's form of Mrs. Norris) is written twenty
    # times; "her nephew Henry" is Emma's, and an aunt no name follows binds no one
    people = [*HARLOWES, Entity("Mrs. Norris", "person", ["aunt Norris"]),
              Entity("Henry", "person")]
    spans = AliasMatcher(alias_map(people)).find_spans
    text = "Clara had never received kindness from her aunt Norris. Clara kissed her nephew Henry."
    said = {(s.source, s.target, s.type, s.word)
            for s, _ in family_statements(text, spans(text), Families(people))}
    assert said == {("Mrs. Norris", "Clara Harlowe", "kin", "aunt"),
                    ("Henry", "Clara Harlowe", "kin", "nephew")}
    assert bound("Clara went to her aunt.", people) == set()


def test_a_speakers_own_kin_binds_to_the_speaker() -> None:
    # Sense and Sensibility: "How is Willoughby related to Mrs. Smith?" found no relation; he
    # calls her "my old cousin, Mrs. Smith", in words a pronoun tag gives him, after words said
    # to him by name
    people = [*HARLOWES, Entity("Mrs. Pell", "person"), Entity("Louis", "person")]
    text = ('"It is hardly worth while, Mr. Lovell, to tell me more."\n'
            '"I insist," he replied, "for the death of my old cousin, Mrs. Pell, was to free '
            'me."')
    assert bound(text, people) == {("Mrs. Pell", "Lovell", "kin")}
    spans = AliasMatcher(alias_map(people)).find_spans(text)
    assert [s.word for s, _ in family_statements(text, spans, Families(people))] == ["cousin"]
    # "my father" is the one man of the speaker's family, as "her father" is
    assert bound('"I shall ask my father," said Clara.', people) == {
        ("Mr. Harlowe", "Clara Harlowe", "parent_of")}
    # a kin word said to the one named is no kin ("You are my son, Lovell," a friend's word),
    # nor one a longer name follows (my brother, Louis XVI); words no one is given bind nothing
    assert bound('"You are my son, Lovell," said Mr. Harlowe.', people) == set()
    assert bound('"I am the sister of my brother, Louis XVI," said Clara.', people) == set()
    assert bound('"I will write to my cousin, Mrs. Pell."', people) == set()


def test_a_kin_title_in_someones_words_is_the_speakers_kin() -> None:
    # Crome Yellow: "Couldn't you put a stop to it, Uncle Henry?" (Anne's words) is the one
    # statement that Henry Wimbush is Anne's uncle; said to him, it is still kin
    people = [*HARLOWES, Entity("Henry Wimbush", "person", ["Uncle Henry"]),
              Entity("Priscilla Wimbush", "person", ["Priscilla"])]
    text = ('"Couldn\'t you put a stop to it, Uncle Henry?" said Clara.\n'
            '"Will you help, Aunt Priscilla?" said Clara.')
    spans = AliasMatcher(alias_map(people)).find_spans(text)
    said = {(s.source, s.target, s.type, s.word)
            for s, _ in family_statements(text, spans, Families(people))}
    assert said == {("Henry Wimbush", "Clara Harlowe", "kin", "uncle"),
                    ("Priscilla Wimbush", "Clara Harlowe", "kin", "aunt")}
    # one a speaker names for another (Emma: "they would fare much better with Uncle
    # Knightley", John Knightley of his boys' uncle) is no kin of the speaker's
    assert bound('"They would fare better with Uncle Henry," said Clara.', people) == set()


def test_a_name_after_the_comma_that_opens_a_clause_is_no_relative() -> None:
    # Mansfield Park (a newcomer's trial): "…a very sufficient invitation for his cousin, Mrs.
    # Norris was too much vexed to submit" made Mrs. Norris Edmund's cousin: she is his aunt,
    # and the cousin is Fanny; "his cousin, Mrs. Pell, came" is an apposition
    people = [*HARLOWES, Entity("Mrs. Pell", "person")]
    assert bound("Lovell got an invitation for his cousin, Mrs. Pell was too vexed to speak.",
                 people) == set()
    assert bound("Lovell got an invitation for his cousin, Mrs. Pell, who came.", people) == {
        ("Mrs. Pell", "Lovell", "kin")}


def test_a_brother_of_another_family_name_is_no_sibling() -> None:
    # Mansfield Park: Mary Crawford calls her sister's husband "my own brother, Dr. Grant";
    # as siblings he became her brother Henry's too ("Henry Crawford is Dr. Grant's brother").
    # A married sister took her husband's name and stays one
    people = [*HARLOWES, Entity("Dr. Pell", "person"), Entity("Mrs. Pell", "person"),
              Entity("Lucy Vane", "person", ["Miss Vane"])]
    assert bound('"I am the guest of my own brother, Dr. Pell, today," said Miss Vane.',
                 people) == set()
    assert bound('"I am the guest of my own sister, Mrs. Pell, today," said Miss Vane.',
                 people) == {("Mrs. Pell", "Lucy Vane", "sibling")}
