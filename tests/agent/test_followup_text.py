"""Follow-ups resolved from what the last answers said, not only from the entities they listed.

The worlds here are built like the ingested novels without a glossary: persons only, some typed
wrongly, places and things absent from the entity list, answers that lead with a quoted passage
and cut their quotes short. Real alias matcher, real gender guesser; answers written here.
"""

from __future__ import annotations

import pytest

from agent.librarian.phrases import en_places, turn_text, zh_places, zh_things
from agent.world.gender import text_gender
from agent.world.lexicon import Lexicon
from stores.models import Entity
from tests.agent.dialogue import Dialogue, person

# As a novel ingested without a glossary: every name a person, 许昌 among them.
SANGUO = [person("刘备", "玄德"), person("关羽", "云长"), person("赵云", "子龙"), person("刘禅"),
          person("庞统", "士元", "凤雏"), person("伏龙"), person("孙坚"), person("孙策"),
          person("孙权"), person("吕布"), person("董卓"), person("曹操", "孟德"), person("王允"),
          person("许昌")]
MONTE = [
    person("Edmond Dantès", "Dantès", "Edmond"), person("Caderousse"), person("Danglars"),
    person("Pont du Gard"),  # a bridge the name tagger took for a person
    person("Mercédès", description="A Catalan girl; she marries Fernand."),
    person("Villefort", "M. de Villefort"), person("Madame de Villefort"),
    person("Valentine", description="Villefort's daughter; she is poisoned."),
    person("Faria", "Abbé Faria"),
    Entity(name="Château d’If", type="other"), Entity(name="France", type="other"),
]


@pytest.fixture(scope="module")
def sanguo() -> Lexicon:
    return Lexicon.from_entities(SANGUO)


@pytest.fixture(scope="module")
def monte() -> Lexicon:
    return Lexicon.from_entities(MONTE)


# -- Chinese ----------------------------------------------------------------------------------
def test_asked_who_someone_is_the_one_asked_about_stays_the_topic(sanguo: Lexicon) -> None:
    d = Dialogue(sanguo)
    d.ask("凤雏指的是谁？", "伏龙。 见第36回：“伏龙、凤雏，两人得一，可安天下。”", ["伏龙", "庞统"])
    assert d.ask("他死在什么地方？", "", []) == "庞统死在什么地方？"


def test_there_is_the_place_the_answer_quoted_though_the_world_does_not_list_it(
        sanguo: Lexicon) -> None:
    d = Dialogue(sanguo)
    d.ask("刘备伐吴被火烧连营后逃进了哪座城？",
          "见第84回「下邳城曹操鏖兵」：后人有诗赞陆逊曰：“持矛举火破连营，玄德穷奔白帝城。”[1]",
          ["刘备"])
    assert d.ask("他在那里把馆驿改成了什么？", "永安宫。", ["刘备"]) == \
        "刘备在白帝城把馆驿改成了什么？"  # not 下邳城 of the chapter's title


def test_there_is_the_place_the_question_named_when_it_did_not_ask_where(
        sanguo: Lexicon) -> None:
    d = Dialogue(sanguo)
    d.ask("关羽在麦城被谁擒住了？", "被东吴潘璋部将马忠擒住，押往临沮。", ["关羽"])
    assert d.ask("那里离荆州有多远？", "", []) == "麦城离荆州有多远？"


def test_this_horse_is_the_horse_the_answer_named(sanguo: Lexicon) -> None:
    d = Dialogue(sanguo)
    d.ask("吕布骑的是什么马？", "赤兔马。 见第3回：“如履平地，名曰赤兔。”", ["吕布"])
    assert d.ask("这匹马是谁送给他的？", "董卓。", ["董卓", "吕布"]) == "赤兔马是谁送给吕布的？"
    assert d.ask("它后来归了谁？", "关羽。", ["关羽"]) == "赤兔马后来归了谁？"


def test_this_sword_is_found_in_the_answers_quote(sanguo: Lexicon) -> None:
    d = Dialogue(sanguo)
    d.ask("曹操向王允借的是什么宝物？", "见第4回：操曰：“闻司徒有七宝刀一口，愿借与操。”", ["曹操", "王允"])
    assert d.ask("他借这把刀想去杀谁？", "", []) == "曹操借七宝刀想去杀谁？"


def test_this_child_is_the_one_the_answer_calls_a_child(sanguo: Lexicon) -> None:
    d = Dialogue(sanguo)
    # the answer lists the father first; its words say which one is the child
    d.ask("赵云在长坂坡救出来的是谁？", "刘备的幼子刘禅，由糜夫人抱着。", ["刘备", "刘禅"])
    assert d.ask("这个孩子后来向谁投降了？", "", []) == "刘禅后来向谁投降了？"


def test_a_name_used_as_a_place_is_not_he(sanguo: Lexicon) -> None:
    d = Dialogue(sanguo)
    d.ask("曹操回到许昌后做了什么？", "许昌：操回许昌，大宴群臣。", ["许昌", "曹操"])  # typed a person
    assert d.ask("他在那里住了多久？", "", []) == "曹操在许昌住了多久？"


# -- English ----------------------------------------------------------------------------------
def test_there_completes_a_name_the_quote_was_cut_inside(monte: Lexicon) -> None:
    d = Dialogue(monte)
    quote = "“Then listen,” said he. “I am the Abbé Faria, imprisoned as you know in this Château d"
    d.ask("In which fortress was Dantès imprisoned?",
          f"In chapter 16 (A Learned Italian): “{quote}” [1]", ["Faria", "Edmond Dantès"],
          quotes=(quote,))
    assert d.ask("How long did he stay there?", "", []) == \
        "How long did Edmond Dantès stay in Château d’If?"


def test_he_is_the_titled_subject_not_a_place_nor_a_name_after_him(monte: Lexicon) -> None:
    d = Dialogue(monte)
    d.ask("Under what disguise did the Count visit Caderousse at the Pont du Gard inn?",
          "In chapter 26 (The Pont du Gard Inn): “Such of my readers as have made a pedestrian "
          "excursion to the south of France may perchance have noticed…” [1]",
          ["Caderousse", "Pont du Gard"])
    assert d.ask("What did he give Caderousse?", "A diamond, said to be Edmond's legacy.", []) \
        == "What did the Count give Caderousse?"
    assert d.ask("How much was it worth?", "", []) == "How much was the diamond worth?"


def test_a_title_alone_is_the_one_person_of_the_book_who_bears_it_far_the_most() -> None:
    def titled(name: str, title: str, mentions: int) -> Entity:
        return Entity(name=name, type="person", aliases=[title], mentions=mentions)

    lexicon = Lexicon.from_entities([
        titled("Edmond Dantès", "Count of Monte Cristo", 2100),
        titled("Fernand Mondego", "Count of Morcerf", 240),
        titled("Danglars", "Baron Danglars", 650), titled("Franz", "Baron Franz", 620),
        person("Caderousse")])
    assert lexicon.title_holder("the Count") == "Edmond Dantès"
    assert lexicon.title_holder("the baron") == ""  # two alike: the title says nobody
    d = Dialogue(lexicon)
    d.ask("Under what disguise did the Count visit Caderousse?", "", [])
    assert d.ask("What did he give Caderousse?", "", []) == \
        "What did Edmond Dantès give Caderousse?"


def test_he_is_left_as_typed_rather_than_made_the_name_after_it(monte: Lexicon) -> None:
    d = Dialogue(monte)
    d.ask("Where is the Pont du Gard inn?", "Between Beaucaire and Bellegarde.", [])
    assert d.ask("What did he give Caderousse?", "", []) == "What did he give Caderousse?"


def test_her_husband_by_her_married_name(monte: Lexicon) -> None:
    d = Dialogue(monte)
    d.ask("Who did Valentine see pouring poison into her glass at night?",
          "Her stepmother, Madame de Villefort.", ["Madame de Villefort", "Valentine"])
    assert d.ask("What did her husband call her when he confronted her?", "A poisoner.", []) == (
        "What did Villefort call Madame de Villefort when Villefort confronted Madame de "
        "Villefort?")
    assert d.ask("And what became of him in the end?", "", []) == \
        "And what became of Villefort in the end?"


def test_she_is_the_woman_the_answers_quote_names(monte: Lexicon) -> None:
    d = Dialogue(monte)
    d.ask("Who was Edmond Dantès engaged to marry?",
          "In chapter 3 (The Catalans): “Mercédès, the Catalan girl, waited at the door.” [1]",
          ["Edmond Dantès"])
    assert d.ask("Whom did she marry while he was in prison?", "", []) == \
        "Whom did Mercédès marry while Edmond Dantès was in prison?"


# -- the pieces -------------------------------------------------------------------------------
def test_chinese_place_and_thing_words() -> None:
    cases = {"玄德穷奔白帝城。": ["白帝城"], "李福领命，趱程赴五丈原": ["五丈原"],
             "此处名落凤坡，不利于吾。": ["落凤坡"], "他在泓州城受了什么伤？": ["泓州城"],
             "下邳白门楼，被曹操下令缢死。": ["下邳白门楼"], "死在落星崖上，葬在崖顶": ["落星崖"],
             "关羽兵败退守的是哪座城？": [], "玄德出城，张飞守城，大军入城，满城百姓": [],
             "在澹烟湖北口以西汇入湖中": ["澹烟湖"]}
    for text, places in cases.items():
        assert [w for _, w in zh_places(text, [])] == places, text
    assert [w for _, w in zh_things("坐下赤兔马，手执青龙刀", "马", [])] == ["赤兔马"]
    assert [w for _, w in zh_things("吕布骑的是什么马？拍马赶来，战马嘶鸣", "马", [])] == []
    # a place word inside a known name is that name's: 关 of 关羽
    assert zh_places("刘备杀关羽", [(2, 4, "关羽")]) == []


def test_a_works_title_is_no_one_a_pronoun_means() -> None:
    from agent.librarian.phrases import unknown_subject

    # 呐喊 (a newcomer's trial): after 狂人日记在第几回？ the follow-up 狂人觉得谁要吃他？ was
    # read as 狂人觉得谁要吃狂人日记？, the story's title taken for a person
    body = "这便是最初的一篇《狂人日记》。"
    assert unknown_subject("狂人日记在第几回？", body, [], []) == ""
    # a person no entity lists still is one (七斤 of 《风波》, before the world knew him)
    assert unknown_subject("七斤是做什么的？", "七斤是撑航船的。", [], []) == "七斤"


def test_english_place_phrases_and_answer_parts() -> None:
    text = "He was taken to the fortress at Ham, then into the Pont du Gard inn. He looked at Danglars."
    assert [p for _, p in en_places(text, [])] == ["Ham", "the Pont du Gard"]
    parts = turn_text("q", "Danglars. In chapter 89 (The Night): “at Marseilles” [1]")
    assert parts.head == "Danglars."
    assert "The Night" not in parts.body and "at Marseilles" in parts.body
    assert turn_text("q", "M. Noirtier, her grandfather.").head == "M. Noirtier, her grandfather."


def test_a_womans_first_pronoun_is_she_though_men_crowd_her_windows() -> None:
    from stores.entities.matcher import AliasMatcher

    spans = AliasMatcher({"Mercédès": "Mercédès", "Danglars": "Danglars"}).find_spans
    passages = ["Mercédès wept; she knew he was gone, and he would not come back."] * 3 + [
        "Mercédès waited. She said he was late.", "Danglars laughed; he said she would wait."]
    assert text_gender("Mercédès", passages, spans) == "f"
    assert text_gender("Danglars", passages, spans) == ""  # one window says nothing


def test_a_man_named_beside_the_woman_he_courts_is_a_man_as_his_given_name_says() -> None:
    """"she" follows Charles Hayter's name 4 times in 10 (Persuasion: he courts Henrietta); the
    book's other Charles are men, by their own pronouns."""
    from agent.world.gender import GenderGuesser
    from stores.entities.matcher import AliasMatcher

    names = {"Charles Hayter": [], "Charles Musgrove": [], "Henrietta": []}
    spans = AliasMatcher({n: n for n in names}).find_spans
    passages = {
        "Charles Hayter": ["Charles Hayter came in; she smiled, and he sat by her."] * 2
        + ["Charles Hayter had walked; she did not look up."] * 2
        + ["Charles Hayter was an eldest son, and he knew it."],
        "Charles Musgrove": ["Charles Musgrove laughed, and he went out to shoot."] * 3,
        "Henrietta": ["Henrietta sang, and she played."] * 3}
    guess = GenderGuesser(names, {}, lambda name: passages[name], spans)
    assert text_gender("Charles Hayter", passages["Charles Hayter"], spans) == "f"  # alone
    assert guess("Charles Hayter") == "m" and guess("Henrietta") == "f"


def test_a_common_given_name_says_the_gender_though_each_of_its_men_is_beside_a_woman() -> None:
    """Persuasion's bare "Charles" joins Charles Musgrove, beside his wife Mary in most passages,
    as Charles Hayter is beside Henrietta: each one's pronouns alone say "she", so the other
    Charles's reading made each a woman, and the card read "Charles Musgrove: Mary's wife"."""
    from agent.world.gender import GenderGuesser
    from stores.entities.matcher import AliasMatcher

    names = {"Charles Hayter": [], "Charles Musgrove": []}
    spans = AliasMatcher({n: n for n in names}).find_spans
    passages = {name: [f"{name} came in; she smiled, and she sat by him."] * 4 for name in names}
    guess = GenderGuesser(names, {}, lambda name: passages[name], spans)
    assert text_gender("Charles Musgrove", passages["Charles Musgrove"], spans) == "f"  # alone
    assert guess("Charles Musgrove") == guess("Charles Hayter") == "m"


def test_his_wife_by_her_married_name_not_his_daughter() -> None:
    lexicon = Lexicon.from_entities([*MONTE, person("Mademoiselle de Villefort")])
    d = Dialogue(lexicon)
    d.ask("Who prosecuted Dantès in 1815?", "M. de Villefort, the deputy procureur.", ["Villefort"])
    assert d.ask("What did his wife do?", "", []) == "What did Madame de Villefort do?"


def test_he_tells_nothing_in_a_text_that_never_writes_she() -> None:
    """红楼梦 writes 他 for everyone, 黛玉 as much as 宝玉: there 他 makes nobody a man."""
    from agent.world.gender import pronouns_tell
    from stores.entities.matcher import AliasMatcher

    spans = AliasMatcher({"黛玉": "黛玉", "宝玉": "宝玉"}).find_spans
    passages = ["黛玉听了，他便哭了。他又说道：“我去了。”"] * 3
    assert not pronouns_tell(passages)
    assert text_gender("黛玉", passages, spans, he_tells=False) == ""
    assert text_gender("黛玉", passages, spans) == "m"  # what the pronouns alone would say
    assert pronouns_tell(["沈砚拔剑，她退后一步，他追了上去。"])


def test_a_name_that_ends_in_a_womans_title_or_kin_word_is_a_womans() -> None:
    from agent.world.gender import title_gender

    assert title_gender(["贾母"]) == "f"  # someone's mother
    assert title_gender(["周瑞家的"]) == "f"  # a servant's wife
    assert title_gender(["刘老老"]) == "f" and title_gender(["关公"]) == "m"
    assert title_gender(["宝玉"]) == ""


def test_a_kinship_word_before_the_name_tells_where_he_does_not() -> None:
    """懿长子司马师: a son, in a text whose 他 is everyone."""
    from agent.world.gender import kin_gender
    from stores.entities.matcher import AliasMatcher

    spans = AliasMatcher({"司马师": "司马师", "甘夫人": "甘夫人", "司马懿": "司马懿"}).find_spans
    passages = ["懿长子司马师谏曰：“不可。”", "刘备之妻甘夫人至。", "司马师与司马懿同往。"]
    assert kin_gender("司马师", passages, spans) == "m"
    assert kin_gender("甘夫人", passages, spans) == "f"
    assert kin_gender("司马懿", passages, spans) == ""  # named, never as anyone's kin
    spans = AliasMatcher({"Vasiliki": "Vasiliki", "Haydée": "Haydée", "Ali": "Ali"}).find_spans
    passages = ["I am the daughter of Ali, and of Vasiliki, his beloved wife.",
                "My mother, who was called Vasiliki, took me by the hand.",
                "Vasiliki and her daughter Haydée had gone; he said she was lost."]
    assert kin_gender("Vasiliki", passages, spans) == "f"
    assert kin_gender("Haydée", passages, spans) == "f" and kin_gender("Ali", passages, spans) == ""
    # a list is no apposition: the father and the betrothed are two of those named
    spans = AliasMatcher({"Mercédès": "Mercédès", "Fernand": "Fernand"}).find_spans
    passages = ["The money divided between his father, Mercédès, his betrothed, Fernand, and me."]
    assert kin_gender("Mercédès", passages, spans) == "" and kin_gender("Fernand", passages, spans) == ""


UNSURE = "I could not pick out one answer; the sentences that bear on the question:\n"


@pytest.mark.parametrize(("genders", "question", "quote", "entities", "followup", "resolved"), [
    # the guess (Darcy) takes he; the other women its quotes name are no more likely than the
    # woman the question itself named
    ({"Elizabeth": "f", "Maria": "f", "Darcy": "m", "Charlotte": "f"},
     "Who proposed to Elizabeth at Hunsford and was refused?",
     "In chapter 34: “Maria and Charlotte walked out, and Mr. Darcy came in.” [1]",
     ["Darcy", "Maria", "Charlotte", "Elizabeth"],
     "What did he give her the next morning?", "What did Darcy give Elizabeth the next morning?"),
    # the guess (Monte Cristo) cannot be she: the answer's likeliest woman is, before the woman
    # the question named as the one who saw it
    ({"Valentine": "f", "Monte Cristo": "m", "d'Avrigny": "m", "Madame de Villefort": "f"},
     "Who did Valentine see pouring poison into her glass at night?",
     "In chapter 100: “Monte Cristo took the glass and presented it to Valentine.” [1]",
     ["Monte Cristo", "d'Avrigny", "Madame de Villefort", "Valentine"],
     "Whom did she poison before that?", "Whom did Madame de Villefort poison before that?"),
])
def test_a_pronoun_after_a_guessed_man(genders: dict[str, str], question: str, quote: str,
                                       entities: list[str], followup: str,
                                       resolved: str) -> None:
    lexicon = Lexicon.from_entities([person(name) for name in genders],
                                    story=lambda: ["She said she would go; he stayed."])
    lexicon.gender = genders.get
    d = Dialogue(lexicon)
    d.ask(question, UNSURE + quote, entities, evidence=True)
    assert d.ask(followup) == resolved


def test_the_readers_own_lead_names_no_place() -> None:
    """"最相关" of the reader's "最相关的句子如下" is no place a 那里 may mean."""
    parts = turn_text("妙玉在大观园里住在哪里？",
                      "我没能从原文中确定唯一的答案；最相关的句子如下：\n"
                      "见第41回：宝玉随他二人来至栊翠庵中。[1]")
    assert parts.head == ""
    places = [p for _, p in zh_places(parts.body, [])]
    assert "栊翠庵" in places and not any("相关" in p for p in places)


def test_no_married_name_makes_a_mother_her_sons_wife() -> None:
    # Mansfield Park: "Who is his wife?" after Mr. Rushworth was read as Mrs. Rushworth, whom
    # the world knows as his mother; with no such relation, the name still says it
    people = [person("Mr. Rushworth", "Rushworth"), person("Mrs. Rushworth"), person("Maria")]
    for blood, read in (((), "Who is Mrs. Rushworth?"),
                        ((("Mrs. Rushworth", "Mr. Rushworth"),), "Who is Mr. Rushworth's wife?")):
        d = Dialogue(Lexicon.from_entities(people, blood=blood))
        d.ask("Who is Mr. Rushworth?", "A rich young man of Sotherton.", ["Mr. Rushworth"])
        assert d.ask("Who is his wife?", "", []) == read


def test_a_ladys_husband_is_the_knight_of_her_name() -> None:
    # Mansfield Park: "Who is her husband?" after Lady Bertram was read as "Who is Bertram?",
    # Mr. Bertram, her son; a Lady and a surname is a knight's or a lord's wife
    people = [person("Lady Bertram"), person("Sir Thomas Bertram", "Sir Thomas"),
              person("Bertram", "Mr. Bertram"), person("Fanny")]
    d = Dialogue(Lexicon.from_entities(people))
    d.ask("Who is Lady Bertram?", "Sir Thomas's wife, Fanny's aunt.", ["Lady Bertram"])
    assert d.ask("Who is her husband?", "", []) == "Who is Sir Thomas Bertram?"


def test_there_is_no_group_of_people_named_after_a_verb_of_going() -> None:
    # "sauntered towards the Miss Dashwoods": the sisters, untyped, are no place to fall ill in
    lexicon = Lexicon.from_entities([
        person("Mr. Palmer"), person("Mrs. Jennings"), person("Marianne"),
        Entity(name="Miss Dashwoods", type="other"), Entity(name="Cleveland", type="place")])
    d = Dialogue(lexicon)
    d.ask("What is the name of Mr. Palmer's house?",
          "In chapter 27: “Mr. Palmer sauntered towards the Miss Dashwoods to express his "
          "surprise.” See also chapter 42: “They were to go to Cleveland, Mr. Palmer's house.”",
          [])
    assert d.ask("Who fell dangerously ill there?", "", []) == \
        "Who fell dangerously ill in Cleveland?"
