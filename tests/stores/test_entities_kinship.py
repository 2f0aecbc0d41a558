"""Relations the text states in so many words, read from sentences with their names marked."""

from __future__ import annotations

from stores.entities.kinship import stated_in, stated_relations
from stores.entities.matcher import AliasMatcher
from stores.ingest_entities import between_people
from stores.lang.gender import title_gender
from stores.models import Entity, Relation

PEOPLE = AliasMatcher({
    "Noirtier": "Noirtier", "M. Noirtier": "Noirtier", "Villefort": "Villefort",
    "Haydée": "Haydée", "Ali Tepelini": "Ali Tepelini", "Fernand": "Fernand",
    "Mercédès": "Mercédès", "Valentine": "Valentine",
    "孙坚": "孙坚", "孙策": "孙策", "袁绍": "袁绍", "袁谭": "袁谭", "司马昭": "司马昭",
    "仲达": "司马懿", "司马懿": "司马懿", "荀彧": "荀彧", "荀绲": "荀绲", "沈砚": "沈砚",
    "韩峥": "韩峥", "顾怀山": "顾怀山", "刘备": "刘备", "孙夫人": "孙夫人", "赵云": "赵云",
    "子龙": "赵云", "刘玄德": "刘备", "关羽": "关羽", "孙权": "孙权", "孙翊": "孙翊",
    "凤姐": "凤姐", "王仁": "王仁", "关公": "关羽", "关平": "关平",
    "伯符": "孙策", "仲谋": "孙权", "韩德": "韩德", "韩瑛": "韩瑛", "韩瑶": "韩瑶",
})


def said(text: str) -> set[tuple[str, str, str]]:
    return {(s.source, s.target, s.type) for s in stated_in(text, PEOPLE.find_spans(text))}


def test_english_statements_name_both_people_around_a_word_for_kin() -> None:
    assert said("“Oh,” murmured he, “and that Noirtier is the father of Villefort, I am lost!”"
                ) == {("Noirtier", "Villefort", "parent_of")}
    # a daughter of someone: the parent is the source
    assert said("‘I am Haydée, the daughter of Ali Tepelini, pasha of Yanina.’") == {
        ("Ali Tepelini", "Haydée", "parent_of")}
    assert said("Mercédès was Fernand's wife.") == {("Mercédès", "Fernand", "spouse")}
    assert said("Villefort was Noirtier's only son.") == {("Noirtier", "Villefort", "parent_of")}
    assert said("The name of Valentine's grandfather was Noirtier.") == {
        ("Noirtier", "Valentine", "grandparent_of")}
    assert said("Villefort’s father, M. Noirtier, did not answer.") == {
        ("Noirtier", "Villefort", "parent_of")}
    assert said("M. Noirtier, Villefort's father, did not answer.") == {
        ("Noirtier", "Villefort", "parent_of")}
    assert said("Six months later Fernand married Mercédès in the church.") == {
        ("Fernand", "Mercédès", "spouse")}
    # a brother or a sister: siblings, whatever the order
    assert said("Villefort’s sister, Valentine, did not answer.") == {
        ("Valentine", "Villefort", "sibling")}
    # a servant: Haydée serves Noirtier
    assert said("Noirtier sent for his maid, Haydée.") == {("Haydée", "Noirtier", "serves")}
    # and so does an attendant ("M'ling, the black-faced man, Montgomery's attendant": Doctor
    # Moreau, a newcomer's trial, where M'ling was no one's)
    assert said("Haydée, Noirtier's attendant, came in.") == {("Haydée", "Noirtier", "serves")}
    # the subject's kin, named after "his": Noirtier is Valentine's grandfather
    assert said("M. Noirtier tenderly loves his granddaughter, Valentine; it is she who nursed "
                "him.") == {("Noirtier", "Valentine", "grandparent_of")}
    assert said("I love my sister Valentine,—I love her husband Fernand.") == {
        ("Fernand", "Valentine", "spouse")}
    # a name between them is the one whose kin it may be: nothing stated
    assert said("Noirtier told Villefort his daughter, Valentine, was ill.") == set()


def test_a_kin_word_of_one_gender_is_not_read_of_a_man_titled_mr() -> None:
    # Mansfield Park: "said Fanny to her aunt Bertram" made Mr. Bertram (Tom, whose surname
    # alone the text writes too) Fanny's aunt
    family = AliasMatcher({"Fanny": "Fanny", "Bertram": "Bertram", "Mr. Bertram": "Bertram",
                           "Julia": "Julia"})
    text = "“I cannot tell,” said Fanny to her aunt Bertram, who was on the sofa."
    stated = {(s.source, s.target, s.type, s.word)
              for s in stated_in(text, family.find_spans(text))}
    assert stated == {("Bertram", "Fanny", "kin", "aunt")}
    assert stated_in(text, family.find_spans(text), genders={"Bertram": "m"}) == []
    text = "“I cannot tell,” said Fanny to her aunt Julia, who was on the sofa."
    assert stated_in(text, family.find_spans(text), genders={"Julia": "f"}) != []


def test_a_name_the_makes_a_word_of_a_place_is_no_ones_kin() -> None:
    # a writer's own world (a newcomer's trial): Tobin's card said "Ambrel's brother"
    valley = AliasMatcher({"Ambrel": "Ambrel", "Tobin": "Tobin", "Maren": "Maren"})
    text = "Maren rode north up the Ambrel valley with her brother Tobin."
    assert stated_in(text, valley.find_spans(text)) == []
    text = "Maren rode on with her brother Tobin."
    assert {(s.source, s.target, s.type) for s in stated_in(text, valley.find_spans(text))} == {
        ("Tobin", "Maren", "sibling")}
    # a captain may be a woman: her titles say so (Lady Maren Thorne), and her sister's word
    # is read of her ("Maren Vell is the elder sister of Tobin Vell", in a lorebook entry)
    genders = {"Maren": title_gender(["Maren", "Captain Maren Vell", "Captain Vell",
                                      "Lady Maren Thorne"])}
    text = "Maren is the elder sister of Tobin."
    assert genders == {"Maren": "f"}
    assert stated_in(text, valley.find_spans(text), genders=genders) != []
    assert title_gender(["Captain Wentworth", "Frederick Wentworth"]) == "m"


def test_names_that_only_share_a_sentence_state_nothing() -> None:
    assert said("Noirtier looked at Villefort, and his father was silent.") == set()
    assert said("Villefort spoke to the father of Valentine.") == set()  # who is the father?
    assert said("Noirtier is the father. Villefort is the son.") == set()  # two sentences


def test_chinese_statements_classical_and_modern() -> None:
    assert said("孙坚之子孙策，年方十七。") == {("孙坚", "孙策", "parent_of")}
    # a birth names the parent, then the child; 生 before another word is no birth
    assert said("建安十二年春，孙夫人生孙策。") == {("孙夫人", "孙策", "parent_of")}
    assert said("刘备生擒赵云。") == set() and said("孙权生孙策之气。") == set()
    assert said("孙坚的外孙女凤姐。") == {("孙坚", "凤姐", "grandparent_of")}
    # a servant named after whom she serves: 凤姐 serves 孙坚
    assert said("孙坚的丫头凤姐进来了。") == {("凤姐", "孙坚", "serves")}
    assert said("刺史乃袁绍长子袁谭。") == {("袁绍", "袁谭", "parent_of")}
    assert said("乃袁绍长子骠骑将军袁谭也。") == {("袁绍", "袁谭", "parent_of")}
    assert said("维曰：“司马昭乃仲达之子，岂不知兵法？") == {("司马懿", "司马昭", "parent_of")}
    assert said("荀彧字文若，颍川颍阴人，荀绲之子也。") == {("荀绲", "荀彧", "parent_of")}
    assert said("她嫁给了沈砚的结义兄弟韩峥。") == {("韩峥", "沈砚", "sworn_sibling")}
    # the master is the source of a mentor relation, whichever word names it
    assert said("顾怀山的徒弟沈砚回来了。") == {("顾怀山", "沈砚", "mentor")}
    assert said("沈砚是顾怀山的弟子。") == {("顾怀山", "沈砚", "mentor")}
    assert said("刘备娶孙夫人。") == {("刘备", "孙夫人", "spouse")}
    assert said("当夜刘备与孙夫人成亲，两情欢洽。") == {("刘备", "孙夫人", "spouse")}
    # an adoption: the son kneels to his father (a newcomer's trial found no son of 关羽's)
    assert said("关定大喜，便命关平拜关公为父。") == {("关羽", "关平", "parent_of")}
    assert said("或答曰：“此关公义子关平也。") == {("关羽", "关平", "parent_of")}
    assert said("关平拜关公为师。") == set()


def test_a_father_called_by_his_one_character_given_name_before_his_sons_name() -> None:
    # 曹操的儿子有谁？ found only 曹植 (a newcomer's trial): 三国演义 writes 操长子曹丕, 艾之子邓忠
    from stores.entities.family import Families

    people = [Entity(n, "person") for n in ("曹操", "曹丕", "曹彰", "邓艾", "邓忠", "刘封", "刘永",
                                            "刘备", "曹仁", "曹纯")]
    given = Families(people).given_names
    assert given[("曹", "操")] == "曹操" and ("曹", "丕") in given
    matcher = AliasMatcher({e.name: e.name for e in people})

    def said(text: str) -> set[tuple[str, str, str]]:
        return {(s.source, s.target, s.type)
                for s in stated_in(text, matcher.find_spans(text), given)}

    assert said("却说操长子曹丕，字子桓，时年十八岁。") == {("曹操", "曹丕", "parent_of")}
    assert said("及兵将近，乃操次子曹彰也。") == {("曹操", "曹彰", "parent_of")}
    assert said("原来小将乃艾之子邓忠也。") == {("邓艾", "邓忠", "parent_of")}
    # a verb that takes the son as its object, however it is also a given name (刘封)
    assert said("封次子刘永为鲁王。") == set()
    # a surname the son does not share names no father of his
    assert said("操长子刘永。") == set()
    assert said("却说操长子曹丕。") and not stated_in("却说操长子曹丕。",
                                                 matcher.find_spans("却说操长子曹丕。"))


def test_a_parents_children_listed_by_birth_order_are_theirs() -> None:
    # 孙权's card named no father (a newcomer's trial on 三国演义): ch. 7 lists 孙坚's sons
    assert said("却说孙坚有四子，皆吴夫人所生：长子名策，字伯符；次子名权，字仲谋；三子名翊。") == {
        ("孙坚", "孙策", "parent_of"), ("孙坚", "孙权", "parent_of")}
    assert said("韩德有四子，皆精通武艺：长子韩瑛，次子韩瑶。") == {
        ("韩德", "韩瑛", "parent_of"), ("韩德", "韩瑶", "parent_of")}
    assert said("孙坚有一子，孙权见之。") == set()  # no child named in the list


def test_brothers_of_two_surnames_swore_it() -> None:
    assert said("公孙瓒曰：“此刘玄德之弟关羽也。”") == {("关羽", "刘备", "sworn_sibling")}
    assert said("孙权弟孙翊为丹阳太守。") == {("孙翊", "孙权", "sibling")}  # one surname: blood
    # one who goes with his kin: the kin word is his
    assert said("孙权与弟孙翊选日起程。") == {("孙翊", "孙权", "sibling")}
    assert said("孙坚并子孙策取成都。") == {("孙坚", "孙策", "parent_of")}
    # a form of address is no full name: 凤 of 凤姐 is no surname to compare
    assert said("凤姐之兄王仁来了。") == {("王仁", "凤姐", "sibling")}


def test_chinese_names_that_only_meet_state_nothing() -> None:
    assert said("孙坚与孙策同往。") == set()
    assert said("刘备与孙夫人同入洞房。") == set()  # only the words of a wedding wed them
    assert said("常山赵云，字子龙。") == set()  # one person under two names
    assert said("孙坚之子，年方十七，刘备见之。") == set()  # the son is not named


def test_relations_gather_their_passages_in_story_order() -> None:
    chunks = [("c1", 1, "孙坚之子孙策，年方十七。"), ("c2", 2, "孙坚与孙策同往。"),
              ("c3", 5, "孙策乃孙坚之子。"), ("c4", 6, "Fernand married Mercédès."),
              ("c5", 7, "Mercédès married Fernand at last."), ("c6", 8, "凤姐的丫头赵云来了。")]
    found = stated_relations([(*chunk, PEOPLE.find_spans(chunk[2])) for chunk in chunks])
    assert found[("孙坚", "孙策", "parent_of")] == [("c1", 1), ("c3", 5)]
    # a marriage has no direction: both sentences are one relation
    assert found[("Fernand", "Mercédès", "spouse")] == [("c4", 6), ("c5", 7)]
    # service has one: the servant first, whatever their names' order
    assert found[("赵云", "凤姐", "serves")] == [("c6", 8)]
    assert len(found) == 3


def test_a_married_womans_title_before_his_name_makes_her_his_wife() -> None:
    from stores.entities.kinship import titled_spouses
    from stores.models import Entity

    entities = [Entity("Madame Danglars", "person"),
                Entity("Danglars", "person", ["M. Danglars", "Baron Danglars"]),
                Entity("Lady Catherine de Bourgh", "person", ["Lady Catherine"]),
                Entity("Catherine", "person"),  # Lady is no married title: no one's wife by it
                Entity("Mademoiselle Danglars", "person")]  # a daughter, not a wife
    passages = [("c1", 3, ["Danglars", "Madame Danglars"]), ("c2", 5, ["Madame Danglars"]),
                ("c3", 9, ["Madame Danglars", "Danglars", "Mademoiselle Danglars"])]
    (spouse,) = titled_spouses(entities, passages)
    assert (spouse.source, spouse.target, spouse.type) == ("Madame Danglars", "Danglars", "spouse")
    assert (spouse.evidence, spouse.chapters) == (["c1", "c3"], [3, 9])
    assert titled_spouses(entities, [("c2", 5, ["Madame Danglars"])]) == []  # never together
    # the son holds a rank of the family's name (Vicomte de Morcerf); her husband is M. de Morcerf
    family = [Entity("Albert de Morcerf", "person", ["Vicomte de Morcerf"]),
              Entity("Madame de Morcerf", "person"),
              Entity("Morcerf", "person", ["M. de Morcerf"])]
    together = [("c4", 30, ["Albert de Morcerf", "Madame de Morcerf", "Morcerf"])]
    assert [(r.source, r.target) for r in titled_spouses(family, together)] == [
        ("Madame de Morcerf", "Morcerf")]
    # no Mr Croft: the one officer of the name is the husband (a rank in the services is a
    # man's own); two officers of one name leave it open
    navy = [Entity("Admiral Croft", "person"), Entity("Mrs Croft", "person")]
    met = [("c5", 6, ["Admiral Croft", "Mrs Croft"])]
    assert [(r.source, r.target) for r in titled_spouses(navy, met)] == [
        ("Mrs Croft", "Admiral Croft")]
    two = [*navy, Entity("Captain Croft", "person")]
    assert titled_spouses(two, [("c5", 6, ["Admiral Croft", "Mrs Croft", "Captain Croft"])]) == []
    # so is the title of his calling: Mansfield Park's Mrs. Grant was no one's wife ("Who is
    # Mrs. Grant?": no sentence read says who), beside Dr. Grant and no Mr. Grant
    parsonage = [Entity("Dr. Grant", "person"), Entity("Mrs. Grant", "person")]
    assert [(r.source, r.target) for r in titled_spouses(
        parsonage, [("c9", 3, ["Dr. Grant", "Mrs. Grant"])])] == [("Mrs. Grant", "Dr. Grant")]
    # Northanger Abbey: Mr. Tilney (Henry) beside General Tilney may be the son: neither is
    # surely Mrs. Tilney's husband
    abbey = [Entity("Mrs. Tilney", "person"), Entity("Mr. Tilney", "person"),
             Entity("General Tilney", "person")]
    assert titled_spouses(abbey, [("c6", 9, ["Mrs. Tilney", "Mr. Tilney", "General Tilney"])]) == []
    # Sense and Sensibility: Mrs. John Dashwood is John Dashwood's wife; Mrs. Dashwood, the
    # surname alone, is his father's widow, not a second wife
    norland = [Entity("John Dashwood", "person", ["Dashwood", "Mr. Dashwood", "Mr. John Dashwood"]),
               Entity("Mrs. Dashwood", "person"), Entity("Mrs. John Dashwood", "person")]
    both = [("c7", 1, ["John Dashwood", "Mrs. Dashwood", "Mrs. John Dashwood"])]
    assert [(r.source, r.target) for r in titled_spouses(norland, both)] == [
        ("Mrs. John Dashwood", "John Dashwood")]
    # Lady Middleton is the wife of the one knight of her surname (the newcomer's "What is Mrs.
    # Jennings to Sir John Middleton?" found no mother-in-law); Lady Catherine's is a given name
    barton = [Entity("Lady Middleton", "person"), Entity("Sir John Middleton", "person",
                                                         ["Sir John"]),
              Entity("Lady Catherine", "person"), Entity("Sir Catherine Lucas", "person")]
    park = [("c8", 7, ["Lady Middleton", "Sir John Middleton", "Lady Catherine",
                       "Sir Catherine Lucas"])]
    assert [(r.source, r.target) for r in titled_spouses(barton, park)] == [
        ("Lady Middleton", "Sir John Middleton")]
    two = [*barton, Entity("Sir Thomas Middleton", "person")]
    assert titled_spouses(two, [("c8", 7, ["Lady Middleton", "Sir John Middleton",
                                           "Sir Thomas Middleton"])]) == []


def test_titles_make_no_wife_of_a_son_of_the_house() -> None:
    # Mansfield Park (a newcomer's trial): Henry Crawford, "Mr. Crawford" beside his sister Miss
    # Crawford, was Mrs. Crawford's husband by titles; she is his late uncle's wife. Emma's Mrs.
    # Martin ("no wife in the case") is the mother of Robert Martin and Elizabeth Martin.
    from stores.entities.kinship import titled_spouses
    from stores.models import Entity

    crawfords = [Entity("Henry Crawford", "person", ["Henry", "Mr. Crawford", "Crawford"]),
                 Entity("Mary Crawford", "person", ["Mary", "Miss Crawford"]),
                 Entity("Mrs. Crawford", "person")]
    met = [("c1", 4, ["Henry Crawford", "Mrs. Crawford", "Mary Crawford"])]
    assert titled_spouses(crawfords, met) == []
    martins = [Entity("Robert Martin", "person", ["Mr. Martin", "Mr. Robert Martin"]),
               Entity("Elizabeth Martin", "person"), Entity("Mrs. Martin", "person")]
    assert titled_spouses(martins, [("c2", 4, ["Robert Martin", "Mrs. Martin"])]) == []
    # a man the text knows by the title and surname alone is her husband, daughters or not
    eltons = [Entity("Mr. Elton", "person", ["Elton"]), Entity("Mrs. Elton", "person"),
              Entity("Miss Elton", "person")]
    assert [(r.source, r.target) for r in titled_spouses(
        eltons, [("c3", 22, ["Mr. Elton", "Mrs. Elton"])])] == [("Mrs. Elton", "Mr. Elton")]


def test_titles_make_no_wife_of_the_son_the_text_says_she_bore() -> None:
    # Northanger Abbey: Mrs. Thorpe, a widow, was John Thorpe's (Mr. Thorpe's) wife by titles
    from stores.ingest_entities import untold_spouses

    def edge(source: str, target: str, kind: str) -> Relation:
        return Relation(source=source, target=target, type=kind, weight=1.0, chapters=[4],
                        evidence=["c4"])

    titled = [edge("Mrs. Thorpe", "John Thorpe", "spouse"), edge("Mrs. Allen", "Mr. Allen", "spouse")]
    stated = [edge("Mrs. Thorpe", "John Thorpe", "parent_of")]
    assert [(r.source, r.target) for r in untold_spouses(titled, [], stated)] == [
        ("Mrs. Allen", "Mr. Allen")]


def test_two_who_swore_brotherhood_are_sworn_siblings() -> None:
    text = "关羽、张飞，虽然异姓，既结为兄弟，则同心协力。吕布与陈宫商议。"
    spans = [(text.index(n), text.index(n) + len(n), n) for n in ("关羽", "张飞", "吕布", "陈宫")]
    assert [(s.source, s.target, s.type) for s in stated_in(text, spans)] == [
        ("关羽", "张飞", "sworn_sibling")]  # 吕布与陈宫商议: no oath


def test_kin_the_text_states_is_between_people_not_a_place() -> None:
    people = [Entity("Elizabeth", "person"), Entity("Longbourn House", "place"),
              Entity("Jane", "other")]
    found = [Relation(source="Elizabeth", target="Longbourn House", type="spouse", weight=1),
             Relation(source="Elizabeth", target="Jane", type="kin", weight=1)]
    assert [(r.source, r.target) for r in between_people(found, people)] == [
        ("Elizabeth", "Jane")]


def test_a_kin_word_does_not_name_someone_of_the_other_gender() -> None:
    # a list: the marquis is Cavalcanti's father, Madame Danglars is no one's father here
    from stores.entities.kinship import stated_in

    text = "Yes, with Count Cavalcanti, the marquis his father, Madame Danglars, M. Danglars."
    spans = [(text.find(form), text.find(form) + len(form), name)
             for form, name in (("Count Cavalcanti", "Cavalcanti"),
                                ("Madame Danglars", "Madame Danglars"), ("M. Danglars", "Danglars"))]
    assert stated_in(text, spans) == []
    said = "I am Haydée, the daughter of Ali Tepelini."
    spans = [(5, 11, "Haydée"), (said.find("Ali"), len(said) - 1, "Ali Tepelini")]
    assert [(s.source, s.target, s.type) for s in stated_in(said, spans)] == [
        ("Ali Tepelini", "Haydée", "parent_of")]


def test_the_kin_of_someones_kin_is_not_their_kin() -> None:
    from stores.entities.kinship import stated_in

    text = "Mr. Knightley was the elder brother of Isabella's husband."
    spans = [(0, 13, "Mr. Knightley"), (text.find("Isabella"), text.find("Isabella") + 8,
                                         "Isabella")]
    assert stated_in(text, spans) == []  # her brother-in-law, not her brother


def test_a_statement_keeps_the_kin_word_and_whom_it_names() -> None:
    # the wide type kin (uncle, cousin, 侄) says nothing more: the word the sentence uses does
    english = stated_in("Noirtier is the uncle of Villefort.",
                        PEOPLE.find_spans("Noirtier is the uncle of Villefort."))
    assert [(s.type, s.word, s.kin_word("Noirtier"), s.kin_word("Villefort"))
            for s in english] == [("kin", "uncle", "uncle", "")]
    # a cousin is each one's cousin: Mr Elliot's card says he is Anne's (Persuasion)
    cousins = stated_in("Noirtier is the cousin of Villefort.",
                        PEOPLE.find_spans("Noirtier is the cousin of Villefort."))
    assert [(s.kin_word("Noirtier"), s.kin_word("Villefort")) for s in cousins] == [
        ("cousin", "cousin")]
    text = "孙坚之侄孙策引兵而来。"
    chinese = stated_in(text, PEOPLE.find_spans(text))
    assert [(s.type, s.kin_word("孙策"), s.kin_word("孙坚")) for s in chinese] == [
        ("kin", "侄", "")]


def test_a_marriage_wished_or_a_name_spoken_to_states_nothing() -> None:
    # Persuasion: Charles married Mary; his mother only wishes he had married Anne
    assert said("We do so wish that Fernand had married Valentine instead.") == set()
    assert said("If Fernand had married Mercédès, all would have been well.") == set()
    # "My dear Mrs Smith, Mr Elliot's wife has not been dead much above half a year": Mrs
    # Smith is spoken to, not Mr Elliot's wife
    assert said("“My dear Haydée, Fernand's wife has not been dead half a year.”") == set()
    assert said("“Mercédès, Fernand's wife is dead,” said he.") == set()
    # told, not wished: still a marriage, and an apposition in the telling still kin
    assert said("Six months later Fernand married Mercédès in the church.") == {
        ("Fernand", "Mercédès", "spouse")}
    assert said("He came with Mercédès, Fernand's wife, to the ball.") == {
        ("Mercédès", "Fernand", "spouse")}
