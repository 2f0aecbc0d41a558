"""What a card keeps of the text: the sentences that say who someone is, and the offices written
before their name — not the words that merely follow a name (texts written for the tests)."""

from __future__ import annotations

import json

from stores.card_build import build_cards
from stores.cards import Card
from stores.models import Chunk, Entity, Relation


def chunk(n: int, text: str) -> Chunk:
    return Chunk(id=f"c{n}", world="w", document="book.txt", chapter=n, chapter_title="",
                 scene=0, chunk_order=n, text=text, line_start=1, line_end=1)


def card_of(entities: list[Entity], *texts: str):
    cards = build_cards(entities, [chunk(n, t) for n, t in enumerate(texts, 1)], [])
    return {c.entity: c for c in cards}


def test_a_role_without_an_article_and_a_role_named_are_who_someone_is() -> None:
    people = [Entity("Edmond Dantès", "person"), Entity("Caderousse", "person")]
    cards = card_of(people,
                    "The report says that one named Edmond Dantès, mate of the ship Pharaon, "
                    "arrived this day.",
                    "He was a tailor named Caderousse, but he was very drunk.",
                    "The tailor named Caderousse came back. Then a tailor named Caderousse "
                    "sang.")
    assert [f.text for f in cards["Edmond Dantès"].of_kind("defines")] == [
        "The report says that one named Edmond Dantès, mate of the ship Pharaon, arrived "
        "this day."]
    assert [f.text for f in cards["Caderousse"].of_kind("office")] == ["tailor"]


def test_words_after_a_name_that_is_an_object_or_a_clause_define_nothing() -> None:
    people = [Entity("Edmond", "person"), Entity("Franz", "person")]
    cards = card_of(people,
                    "And at a sign from Edmond, the rest of the company ranged themselves.",
                    "When he saw Franz, the servant came up to him at once.",
                    "Edmond, his eyes sparkling with joy, ran in.",
                    "This time Franz was the first to arrive, and Edmond was the only one awake.",
                    "And that was Policar Edmond, my uncle, who was afterwards a captain.",
                    # a participle or an adverb before "of" is what they felt, not a role
                    "And Franz, wearied of such a state of stagnation, went home.",
                    # nor an adjective: how they were, not who
                    '"No," returned Edmond, cautious of giving his real opinion of his father, '
                    'and went out.',
                    "Edmond, mostly of no account in the house, sat down.",
                    "Franz was the nearest to him, and he spoke.",  # where he stood, not who
                    "a mere Franz, an every-day Franz, of all people!")  # the name said again
    assert not cards["Edmond"].of_kind("defines") and not cards["Franz"].of_kind("defines")


def test_an_office_is_not_read_from_the_end_of_another_name() -> None:
    """王夫人宝玉: 夫人 ends 王夫人's name; 宝玉 holds no office by it."""
    people = [Entity("王夫人", "person"), Entity("宝玉", "person"), Entity("曹操", "person")]
    cards = card_of(people, "只见王夫人宝玉都来了。", "丞相曹操大喜。")
    assert not cards["宝玉"].of_kind("office")
    assert [f.text for f in cards["曹操"].of_kind("office")] == ["丞相"]


def test_a_name_ending_a_longer_one_at_the_sentences_start_is_not_defined() -> None:
    # Persuasion: "Fanny Harville was a very superior creature" is Captain Harville's sister
    people = [Entity("Captain Harville", "person", ["Harville"])]
    cards = card_of(people, "Fanny Harville was a very superior creature, and he loved her.")
    assert not cards["Captain Harville"].of_kind("defines")
    # a word a sentence opens with is no first name: poor Harville is Harville
    cards = card_of(people, "Poor Harville was a lame sailor of the navy.")
    assert [f.text for f in cards["Captain Harville"].of_kind("defines")] == [
        "Poor Harville was a lame sailor of the navy."]


def test_a_name_after_a_pronoun_object_is_defined_and_a_long_sentence_is_quoted_at_the_name(
        ) -> None:
    people = [Entity("Maximilian Morrel", "person"), Entity("Albert de Morcerf", "person")]
    cards = card_of(people,
                    "Let me introduce to you M. Maximilian Morrel, captain of Spahis, my friend.",
                    "Sometimes he would affect to make a joke of it; but internally he was deeply "
                    "wounded, and his self-love immensely piqued, for the whole of the town had "
                    "talked of nothing else for a week together, at the opera, in the clubs and "
                    "in every drawing-room, and all his friends laughed, "
                    "to think that Albert de Morcerf, the most admired young person of his "
                    "day, should thus be passed over.")
    assert [f.text for f in cards["Maximilian Morrel"].of_kind("defines")] == [
        "Let me introduce to you M. Maximilian Morrel, captain of Spahis, my friend."]
    # quoted from a clause that starts at most half a quote before his name, so the cut
    # keeps who he is
    assert [f.text for f in cards["Albert de Morcerf"].of_kind("defines")] == [
        "at the opera, in the clubs and in every drawing-room, and all his friends laughed, to "
        "think that Albert de Morcerf, the most admired young person of his day, should thus be "
        "passed over."]


def test_the_narrators_apposition_after_a_comma_and_a_role_of_a_named_thing_define() -> None:
    people = [Entity("Château-Renaud", "person", ["M. de Château-Renaud"]),
              Entity("Pastrini", "person", ["Signor Pastrini"]), Entity("Danglars", "person")]
    cards = card_of(people,
                    "But before he had finished, M. de Château-Renaud, a handsome young man of "
                    "thirty, took Albert's hand.",
                    "They wrote to Signor Pastrini, the proprietor of the Hôtel de Londres, to "
                    "reserve apartments.",
                    # a character speaking to him, and another man after a preposition's object
                    "“You will see, Danglars, the truth, I hope.” He thought of Danglars, the "
                    "giant, without answering.")
    assert len(cards["Château-Renaud"].of_kind("defines")) == 1
    assert len(cards["Pastrini"].of_kind("defines")) == 1
    assert not cards["Danglars"].of_kind("defines")


def test_a_role_noun_written_once_before_a_name_says_who_and_kin_or_a_title_does_not() -> None:
    people = [Entity("Emmanuel", "person"), Entity("Danglars", "person")]
    cards = card_of(people, "Morrel had left his chief clerk Emmanuel to meet the creditors.",
                    "Her father Danglars came in, and the baroness Danglars smiled.")
    assert [f.text for f in cards["Emmanuel"].of_kind("office")] == ["clerk"]
    assert not cards["Danglars"].of_kind("office")


def test_the_role_a_story_calls_someone_by_is_theirs_when_one_person_leads_it() -> None:
    people = [Entity("Danglars", "person"), Entity("Edmond", "person"),
              Entity("Mercédès", "person")]
    texts = (["Danglars came in. The banker smiled at the clerk."] * 10
             # the hero is named before every noun, as often as his share of all mentions
             + ["Edmond ran. Edmond laughed, and the officer followed. Mercédès wept."] * 12
             + ["Edmond sat down. The officer was silent. Mercédès left."] * 2)
    cards = card_of(people, *texts)
    assert [f.text for f in cards["Danglars"].of_kind("office")] == ["banker"]
    assert cards["Danglars"].of_kind("office")[0].chunk_id == "c1"  # where it is first said
    assert not cards["Edmond"].of_kind("office")  # named before "the officer": not him


def test_a_bond_to_someone_written_before_a_name_is_no_role() -> None:
    # "his good friend Perry": whose friend the card cannot say; "the apothecary Perry" can
    people = [Entity("Perry", "person"), Entity("Emma", "person")]
    cards = card_of(people, *(["Emma smiled. His good friend Perry came in."] * 4
                              + ["Emma sent for the apothecary Perry."] * 3))
    assert [f.text for f in cards["Perry"].of_kind("office")] == ["apothecary"]


def test_a_role_in_the_sentence_that_names_someone_else_is_not_theirs() -> None:
    # Dantès looks at the jailer: the jailer is another man, however often the scene comes
    people = [Entity(name, "person") for name in ("Dantès", "Danglars", "Faria", "Morrel")]
    texts = (["Dantès lay still, and the jailer brought the soup."] * 12
             + ["Danglars came in. The banker smiled. Faria slept. Morrel wrote."] * 10)
    cards = card_of(people, *texts)
    assert not cards["Dantès"].of_kind("office")
    assert [f.text for f in cards["Danglars"].of_kind("office")] == ["banker"]


def test_which_child_without_whose_is_no_role() -> None:
    # 关平's card opened 「关平：次子」: 有二子：长子关宁，学文；次子关平 names no parent before it
    cards = card_of([Entity("关平", "person"), Entity("孙策", "person"), Entity("孙坚", "person")],
                    "关定有二子：长子关宁，学文；次子关平，学武。", "孙坚长子孙策，年方十七。")
    assert not cards["关平"].of_kind("office")
    assert [f.text for f in cards["孙策"].of_kind("office")] == ["孙坚长子"]
    # whose kin is a name the world knows, without the words before it; a verb or a father's
    # given name alone is no one's (曹丕's card read 「却说操长子、遂立长子」)
    cards = card_of([Entity("曹丕", "person"), Entity("孟节", "person"), Entity("孟获", "person")],
                    "却说操长子曹丕，字子桓。", "遂立长子曹丕为王世子。", "乃孟获之兄孟节也。")
    assert not cards["曹丕"].of_kind("office")
    assert [f.text for f in cards["孟节"].of_kind("office")] == ["孟获之兄"]


def test_how_a_speaker_said_it_is_not_who_he_is() -> None:
    # Northanger Abbey's Henry Tilney was 'In ch. 14: “said Henry, a little surprised.”'
    cards = card_of([Entity("Henry Tilney", "person", ["Henry"])],
                    '"I never look at it," said Henry, a little surprised.',
                    '"Do you?" said Henry, a good deal amused.')
    assert not cards["Henry Tilney"].of_kind("defines")
    cards = card_of([Entity("Caderousse", "person")], "Caderousse, a tailor of Marseilles, sat.")
    assert cards["Caderousse"].of_kind("defines")
    # Crome Yellow's Mr. Scogan: 'In ch. 20: “asked Mr. Scogan, a little impatiently.”', a tag
    # cut off from the question it ends
    cards = card_of([Entity("Mr. Scogan", "person")],
                    'He came in. "What of it?" asked Mr. Scogan, a little impatiently.')
    assert not cards["Mr. Scogan"].of_kind("defines")


def test_a_role_set_before_the_name_that_opens_a_sentence_says_who_someone_is() -> None:
    # Crome Yellow: "Henry Wimbush's school-fellow and exact contemporary, Mr. Scogan looked
    # far older…", though not where the story first names him; not in someone's words
    people = [Entity("Mr. Scogan", "person"), Entity("Henry Wimbush", "person")]
    cards = card_of(people, "Mr. Scogan sat at the table.",
                    "Henry Wimbush's school-fellow and exact contemporary, Mr. Scogan looked far "
                    "older than his host.")
    assert [f.text for f in cards["Mr. Scogan"].of_kind("defines")] == [
        "Henry Wimbush's school-fellow and exact contemporary, Mr. Scogan looked far older "
        "than his host."]
    cards = card_of(people, "Mr. Scogan sat at the table.",
                    '"Henry Wimbush\'s old friend, Mr. Scogan is here," said the maid.')
    assert not cards["Mr. Scogan"].of_kind("defines")


def test_a_kinship_owned_by_a_pronoun_before_the_name_that_opens_a_sentence_says_who() -> None:
    # Brother Jacob (a newcomer's trial): "No sentence read says who Letitia is", though the
    # story writes "Her elder sister Letitia, who had a prouder style of beauty, …"; her friend
    # or a sentence going on before her name says nothing of who she is
    people = [Entity("Letitia", "person")]
    cards = card_of(people, "Letitia sang.", "Her elder sister Letitia, who had a prouder style "
                    "of beauty, was engaged to a wool-factor.")
    assert cards["Letitia"].of_kind("defines")
    for sentence in ("Her friend Letitia was engaged to a wool-factor.",
                     "She saw her sister Letitia, who was engaged to a wool-factor."):
        assert not card_of(people, "Letitia sang.", sentence)["Letitia"].of_kind("defines")


def test_a_pronoun_after_a_sentence_naming_one_person_anywhere_defines_them() -> None:
    # Dubliners (a newcomer's trial): "No sentence read says who Gabriel is", though "They both
    # kissed Gabriel frankly. He was their favourite nephew …"; Gabriel's name gives no gender,
    # so either pronoun may stand for him. A definition under a name still comes first
    cards = card_of([Entity("Gabriel", "person")], "They both kissed Gabriel frankly. He was "
                    "their favourite nephew, the son of their dead elder sister.")
    assert [f.text for f in cards["Gabriel"].of_kind("defines")] == [
        "He was their favourite nephew, the son of their dead elder sister."]
    people = [Entity("Mrs. Mercer", "person"), Entity("Mr. Cotter", "person")]
    cards = card_of(people, "I found Mrs. Mercer sitting at the fire. She was an old "
                    "garrulous woman, a pawnbroker's widow.",
                    "I found Mrs. Mercer with Mr. Cotter. She was his neighbour.",
                    "Mrs. Mercer was a widow of sixty.")
    defines = cards["Mrs. Mercer"].of_kind("defines")
    assert defines[0].text == "Mrs. Mercer was a widow of sixty."
    assert [f.text for f in defines[1:]] == [
        "She was an old garrulous woman, a pawnbroker's widow."]  # not after two people


def test_a_line_of_verse_defines_no_one_whose_name_its_words_make() -> None:
    cards = card_of([Entity("袭人", "person")], "宝玉念道：“花气袭人是酒香，鹊声穿树喜新晴。”",
                    "袭人乃宝玉的丫头。")
    assert [f.text for f in cards["袭人"].of_kind("defines")] == ["袭人乃宝玉的丫头。"]


def test_a_participle_before_a_name_is_no_role() -> None:
    cards = card_of([Entity("Valentine", "person")], *["They all loved the adored Valentine."] * 4)
    assert not cards["Valentine"].of_kind("office")


def test_an_endearment_before_a_name_is_no_role() -> None:
    # Northanger Abbey: Catherine's card opened "sweet", from Isabella's "my sweet Catherine"
    cards = card_of([Entity("Catherine", "person")],
                    *['"Oh! my sweet Catherine, how glad I am," cried Isabella.'] * 6)
    assert not cards["Catherine"].of_kind("office")


def test_a_name_inside_a_line_of_verse_is_no_appearance() -> None:
    cards = card_of([Entity("关羽", "person", ["云长"])], "关羽提刀上马。",
                    "后人有诗曰：“鱼鸟犹疑畏简书，风云长为护储胥。”")
    assert [a.chapter for a in cards["关羽"].appearances] == [1]


def test_a_poem_written_a_couplet_a_line_and_a_speech_recalling_someone_are_no_last_appearance(
        ) -> None:
    # a newcomer's trial: 诸葛亮's card said he last appears in ch. 120, in the closing poem, and
    # 关羽's in ch. 110, where 鲁肃 recalls him (he dies in ch. 77)
    poem = ("后人有古风一篇曰：\n高祖提剑入咸阳，炎炎红日升扶桑；\n东西奔走恨无家，将寡兵微作羁旅；\n"
            "南阳三顾情何深，卧龙一见分寰宇；\n呜呼三载逝升遐，白帝托孤堪痛楚！")
    cards = card_of([Entity("诸葛亮", "person", ["卧龙"]), Entity("关羽", "person", ["关云长"]),
                     Entity("鲁肃", "person")],
                    "诸葛亮与关羽同入城中。", "鲁肃曰：“昔关云长威震华夏，今安在哉？”", poem)
    assert [a.chapter for a in cards["诸葛亮"].appearances] == [1]
    assert [a.chapter for a in cards["关羽"].appearances] == [1, 2]  # named, and counted
    assert cards["关羽"].last is not None and cards["关羽"].last.chapter == 1
    assert cards["鲁肃"].last is not None and cards["鲁肃"].last.chapter == 2
    # a card stored before told was kept reads every chapter as told
    stored = Card.from_json(json.dumps({**json.loads(cards["关羽"].to_json()), "appearances": [
        {"chapter": 1, "mentions": 1, "chunk_id": "c1"}, {"chapter": 2, "mentions": 1,
                                                          "chunk_id": "c2"}]}))
    assert stored.last is not None and stored.last.chapter == 2


def test_a_list_a_clause_and_a_person_of_a_sort_define_less_than_who_someone_is() -> None:
    # a list is no apposition; a clause after a name between commas is none either; "a vain
    # woman", "a man of unexceptionable character" say less than "a native of Highbury" and
    # "the apothecary", which an object of "consulting" may still take
    people = [Entity("Mr. Weston", "person"), Entity("Emma", "person"),
              Entity("Harriet", "person"), Entity("Mr. Perry", "person")]
    cards = card_of(people,
                    "Mr. Weston, his son, Emma, and Harriet, only remained.",
                    '"The older a person grows, Harriet, the more important it is that their '
                    'manners should not be bad; the more glaring any loudness becomes."',
                    "Mr. Weston was a man of unexceptionable character, easy fortune, and "
                    "pleasant manners.",
                    "Mr. Weston was a native of Highbury, and born of a respectable family.",
                    "He had been at the pains of consulting Mr. Perry, the apothecary, on the "
                    "subject. Mr. Perry was an intelligent, gentlemanlike man.")
    weston = [f.text for f in cards["Mr. Weston"].of_kind("defines")]
    assert weston[0] == "Mr. Weston was a native of Highbury, and born of a respectable family."
    assert weston[1].startswith("Mr. Weston was a man of unexceptionable character")
    assert len(weston) == 2 and not cards["Harriet"].of_kind("defines")
    assert cards["Mr. Perry"].of_kind("defines")[0].text.startswith(
        "He had been at the pains of consulting Mr. Perry, the apothecary")


def test_kin_say_who_first_and_a_pronoun_goes_on_introducing_the_one_named_before() -> None:
    # "She was the youngest of the two daughters of …" after a sentence that opens with Emma
    # Woodhouse defines her; a clause's subject ("That Emma was his object …") defines no one;
    # "was a good deal surprized" is no definition; kin outrank an apposition
    # Miss Woodhouse tells she is a woman: "She" may stand for her, "He" may not
    people = [Entity("Emma Woodhouse", "person", ["Miss Woodhouse"]),
              Entity("Harriet Smith", "person"), Entity("Mr. Woodhouse", "person")]
    cards = card_of(people,
                    "Emma Woodhouse, handsome, clever, and rich, seemed to unite some of the best "
                    "blessings of existence; and had lived nearly twenty-one years in the world. "
                    "She was the youngest of the two daughters of a most affectionate, indulgent "
                    "father.",
                    "That Emma Woodhouse was his object appeared indisputable. Emma Woodhouse "
                    "was a good deal surprized.",
                    "Harriet Smith, the latest couple engaged of the three, were married.",
                    "Harriet Smith was the natural daughter of somebody.",
                    "Mr. Woodhouse came in with Emma Woodhouse. She was the best of them.",
                    "Emma Woodhouse smiled. He was the son of a banker.")
    emma = cards["Emma Woodhouse"].of_kind("defines")
    assert [f.text for f in emma] == [
        "She was the youngest of the two daughters of a most affectionate, indulgent father."]
    assert cards["Harriet Smith"].of_kind("defines")[0].text == (
        "Harriet Smith was the natural daughter of somebody.")


def test_where_someone_lives_defines_them_and_a_judgement_or_their_name_does_not() -> None:
    people = [Entity("阿Ｑ", "person"), Entity("赵太爷", "person"), Entity("单四嫂子", "person")]
    cards = card_of(people,
                    "我又不知道阿Ｑ的名字是怎么写的。阿Ｑ没有家，住在未庄的土谷祠里。",
                    "就因为赵太爷是不会错的。",
                    "单四嫂子是一个粗笨女人。单四嫂子是鲁镇的寡妇，靠纺纱养活宝儿。")
    assert [f.text for f in cards["阿Ｑ"].of_kind("defines")] == ["阿Ｑ没有家，住在未庄的土谷祠里。"]
    assert not cards["赵太爷"].of_kind("defines")
    assert cards["单四嫂子"].of_kind("defines")[0].text == "单四嫂子是鲁镇的寡妇，靠纺纱养活宝儿。"


def test_a_relation_is_on_a_card_from_the_chapter_of_the_passage_it_cites() -> None:
    # the relation's passages: chapter 3 states it (listed first), chapter 1 only names both;
    # read as of chapter 2 the card showed it, citing chapter 3 (Emma: Mr. Perry's wife)
    people = [Entity("Mr. Perry", "person"), Entity("Mrs. Perry", "person")]
    chunks = [chunk(1, "Mr. Perry came in. Mrs. Perry stayed at home."),
              chunk(2, "The snow fell all night."),
              chunk(3, "Mrs. Perry was the wife of Mr. Perry.")]
    married = Relation("Mr. Perry", "Mrs. Perry", "spouse", chapters=[1, 3],
                       evidence=["c3", "c1"])
    cards = {c.entity: c for c in build_cards(people, chunks, [married])}
    told = cards["Mr. Perry"].of_kind("relation")
    assert [(f.chunk_id, f.chapter) for f in told] == [("c3", 3)]
    assert not cards["Mr. Perry"].as_of(2).of_kind("relation")
    assert cards["Mr. Perry"].as_of(3).of_kind("relation")


def test_a_trade_after_a_copula_says_who_someone_is_without_an_article() -> None:
    people = [Entity("Captain Benwick", "person"), Entity("Zaccone", "person"),
              Entity("Mr. Dunn", "person"), Entity("Mr. Hale", "person")]
    cards = card_of(people,
                    "Captain Benwick had some time ago been first lieutenant of the Laconia; and "
                    "the account was a sad one.",
                    "In that war Zaccone had been taken prisoner, and sent to England.",
                    "Mr. Dunn was no sailor, whatever he said. Mr. Hale had never been a clerk.")
    assert [f.text for f in cards["Captain Benwick"].of_kind("defines")] == [
        "Captain Benwick had some time ago been first lieutenant of the Laconia; and the "
        "account was a sad one."]
    # what befell someone, or what they were not, says nothing of who they are
    assert not any(cards[n].of_kind("defines") for n in ("Zaccone", "Mr. Dunn", "Mr. Hale"))


def test_a_chapters_appearance_cites_where_the_telling_names_someone() -> None:
    # a character names Henrietta first; the narrator introduces her in the chapter's next
    # passage, and within a passage the telling is quoted before a character's words
    people = [Entity("Henrietta", "person"), Entity("Mary", "person")]
    spoken = Chunk(id="a", world="w", document="book.txt", chapter=5, chapter_title="", scene=0,
                   chunk_order=1, line_start=1, line_end=1,
                   text='"So there was I, crowded into the back seat with Henrietta," said Mary.')
    told = Chunk(id="b", world="w", document="book.txt", chapter=5, chapter_title="", scene=0,
                 chunk_order=2, line_start=2, line_end=2,
                 text='"Henrietta sings," said Mary. The eldest daughter was Henrietta, a young '
                      'lady of nineteen. Mary sang too.')
    cards = {c.entity: c for c in build_cards(people, [spoken, told], [])}
    assert cards["Henrietta"].first is not None and cards["Henrietta"].first.chunk_id == "b"
    # "said Mary" is the telling
    assert cards["Mary"].first is not None and cards["Mary"].first.chunk_id == "a"


def test_a_name_the_story_gives_someone_later_is_not_on_the_card_before() -> None:
    # Monte Cristo at ch. 20 showed "Edmond Dantès (Edmond, Monte Cristo, M. de Monte
    # Cristo)": the island is written from ch. 1, the count who takes its name speaks from
    # ch. 31 (a newcomer's trial)
    people = [Entity("Tom Reed", "person", ["Tom", "Greyholm", "Lord Greyholm"])]
    cards = card_of(people,
                    "Tom Reed rowed out to the island of Greyholm.",
                    '"Bring the nets," said Tom.',
                    "They saw Greyholm far off.",
                    "Lord Greyholm came into the hall.",
                    '"Welcome," said Greyholm.')
    card = cards["Tom Reed"]
    assert card.alias_chapters == {"Tom": 2, "Greyholm": 5, "Lord Greyholm": 4}
    assert card.as_of(3).aliases == ["Tom"]
    assert card.as_of(4).aliases == ["Tom", "Lord Greyholm"]
    assert card.as_of(0).aliases == card.as_of(5).aliases == ["Tom", "Greyholm", "Lord Greyholm"]
    # stored and read back; a card stored before alias chapters were kept shows every alias
    assert Card.from_json(card.to_json()).alias_chapters == card.alias_chapters
    old = json.loads(card.to_json())
    del old["alias_chapters"]
    assert Card.from_json(json.dumps(old)).as_of(1).aliases == card.aliases



def test_a_name_the_story_never_writes_is_not_on_the_card_before_its_owner_appears() -> None:
    # a newcomer's stack showed "Captain Frederick" under a horizon at ch. 10; the text first
    # names him in ch. 14, and never writes that form
    people = [Entity("Wren Hollis", "person", ["Captain Wren"])]
    card = card_of(people, "The mill stood empty.", "Wren Hollis came home from the sea.")[
        "Wren Hollis"]
    assert card.alias_chapters == {}
    assert card.as_of(1).aliases == []
    assert card.as_of(2).aliases == card.as_of(0).aliases == ["Captain Wren"]


def test_this_and_a_kin_word_after_a_name_define_it() -> None:
    # Sense and Sensibility's heroine is introduced so, and never by her surname
    cards = card_of([Entity("Elinor", "person")],
                    "Elinor, this eldest daughter, whose advice was so effectual, possessed a "
                    "strength of understanding.")
    assert [f.text for f in cards["Elinor"].of_kind("defines")] == [
        "Elinor, this eldest daughter, whose advice was so effectual, possessed a strength of "
        "understanding."]


def test_a_name_that_opens_words_spoken_to_them_does_not_say_who_they_are() -> None:
    # 呐喊: “…好了么？老栓，就是运气了你！…” (Laoshuan, luck is yours) made Laoshuan's card
    # open with it; the narrator's 吴妈，是赵太爷家里唯一的女仆 says who she is, and so does a
    # character's apposition ("Mrs. Smallridge, a most delightful woman!")
    people = [Entity("老栓", "person"), Entity("吴妈", "person"),
              Entity("Mrs. Smallridge", "person")]
    cards = card_of(people, "他便对老栓嚷道：“吃了么？好了么？老栓，就是运气了你！你运气。”",
                    "吴妈，是赵太爷家里唯一的女仆，洗完了碗碟。",
                    "“Mrs. Smallridge, a most delightful woman!” said she.")
    assert not cards["老栓"].of_kind("defines")
    assert cards["吴妈"].of_kind("defines") and cards["Mrs. Smallridge"].of_kind("defines")


def test_a_name_spoken_to_with_my_and_a_word_for_them_does_not_say_who_they_are() -> None:
    # Monte Cristo: Edmond Dantès's card went on with “Edmond, my friend, do not compel me …”
    # and “Dantès, my friend, you are not yet registered …”, said to him, and Emma's with "My
    # dear Miss Woodhouse, a vast deal may be done …" (a vast deal is no one); what a speaker says of
    # someone so ("Bertuccio, my steward, takes me for a Roman") says who they are
    people = [Entity("Edmond", "person"), Entity("Albert", "person"),
              Entity("Bertuccio", "person"), Entity("Frederick", "person"),
              Entity("Miss Woodhouse", "person")]
    cards = card_of(people, "“Edmond, my friend, do not compel me to speak.”",
                    "“Albert, my child,” said Mercédès, “go.”",
                    "“My dear Miss Woodhouse, a vast deal may be done by those who dare.”",
                    "“Bertuccio, my steward, takes me for a Roman.”",
                    "“Even Frederick, my eldest son, you see, will inherit.”")
    assert not cards["Edmond"].of_kind("defines") and not cards["Albert"].of_kind("defines")
    assert not cards["Miss Woodhouse"].of_kind("defines")
    # inside a long speech a sentence has no quotation marks of its own (Mansfield Park:
    # Fanny's card opened with Miss Crawford's "And then, Fanny, the glory of fixing one …")
    speech = card_of([Entity("Fanny", "person")],
                     "“I shall go. And then, Fanny, the glory of fixing one who has been shot at "
                     "by so many! Think of it.”")
    assert not speech["Fanny"].of_kind("defines")
    assert cards["Bertuccio"].of_kind("defines") and cards["Frederick"].of_kind("defines")


def test_for_before_a_name_and_a_verb_of_being_after_it_is_a_conjunction() -> None:
    # Sense and Sensibility: "…, for Edward Ferrars was the eldest son of a man who had died
    # very rich" is the book's one sentence saying who he is; his card had none. A
    # preposition's object stays one: "the death of Henry Dashwood was a blow" defines nothing
    people = [Entity("Edward Ferrars", "person"), Entity("Henry Dashwood", "person")]
    cards = card_of(people, "It was a match of interest, for Edward Ferrars was the eldest "
                            "son of a man who had died very rich.",
                    "The death of Henry Dashwood was a blow to all.")
    assert [f.text for f in cards["Edward Ferrars"].of_kind("defines")] == [
        "It was a match of interest, for Edward Ferrars was the eldest son of a man who had "
        "died very rich."]
    assert not cards["Henry Dashwood"].of_kind("defines")


def test_a_before_a_name_introduces_someone_where_the_telling_first_names_them() -> None:
    # Mansfield Park (a newcomer's trial): "No sentence read says who Dr. Grant is", though the
    # story meets him as "the right of a Dr. Grant, who came consequently to reside at
    # Mansfield"; later uses ("even a Dr. Grant"), someone's words and a place are no such
    people = [Entity("Dr. Grant", "person"), Entity("Mrs Smith", "person"),
              Entity("London", "place")]
    cards = card_of(people, "The living became the right of a Dr. Grant, who came to reside "
                            "at Mansfield. He had a letter from a London correspondent.",
                    "Even a Dr. Grant would do.", "“A Mrs Smith.” Mrs Smith smiled.")
    assert [f.text for f in cards["Dr. Grant"].of_kind("defines")] == [
        "The living became the right of a Dr. Grant, who came to reside at Mansfield."]
    assert not cards["Mrs Smith"].of_kind("defines") and not cards["London"].of_kind("defines")


def test_the_married_name_a_woman_took_says_who_she_was() -> None:
    # Persuasion: "Miss Hamilton, now Mrs Smith, had shewn her kindness…" is the one sentence
    # that says who Mrs Smith is; her card said no sentence did
    people = [Entity("Mrs Smith", "person", ["Miss Hamilton"]), Entity("Anne", "person")]
    cards = card_of(people, "Miss Hamilton, now Mrs Smith, had shewn her kindness to Anne.")
    assert [f.text for f in cards["Mrs Smith"].of_kind("defines")] == [
        "Miss Hamilton, now Mrs Smith, had shewn her kindness to Anne."]


def test_a_definition_is_quoted_to_the_end_of_its_sentence() -> None:
    # the clauses after a semicolon, and a long sentence's end, say more of who someone is
    people = [Entity("Captain Harville", "person"), Entity("Charles Hayter", "person"),
              Entity("Henrietta", "person"), Entity("Captain Wentworth", "person")]
    cards = card_of(people,
                    "Captain Harville was a tall, dark man, with a sensible, benevolent "
                    "countenance; a little lame; and from strong features and want of health, "
                    "looking much older than Captain Wentworth. He sat down.",
                    "Charles Hayter was the eldest of all the cousins, and a very amiable, "
                    "pleasing young man, between whom and Henrietta there had been a "
                    "considerable appearance of attachment previous to Captain Wentworth's "
                    "introduction.")
    harville = cards["Captain Harville"].of_kind("defines")[0].text
    assert "a little lame" in harville and "He sat down" not in harville
    assert "Henrietta" in cards["Charles Hayter"].of_kind("defines")[0].text


def test_a_given_name_and_a_style_introduce_the_one_whose_style_it_is() -> None:
    # 孙策's card said no sentence tells who he is (a newcomer's trial on 三国演义): his father's
    # sons are introduced by given name and 字 alone
    people = [Entity("孙策", "person", ["伯符"]), Entity("孙权", "person", ["仲谋"]),
              Entity("孙坚", "person")]
    cards = card_of(people, "却说孙坚有四子，皆吴夫人所生：长子名策，字伯符；次子名权，字仲谋。")
    assert "长子名策，字伯符" in cards["孙策"].of_kind("defines")[0].text
    assert "次子名权，字仲谋" in cards["孙权"].of_kind("defines")[0].text


def test_her_husband_after_a_sentence_about_her_is_said_of_her_husband() -> None:
    # Mr. Palmer's card quoted "Mr. Palmer is the kind of man I like." (someone's words): the
    # narrator introduces him as Mrs. Palmer's husband (Sense and Sensibility)
    people = [Entity("Mrs. Palmer", "person"), Entity("Mr. Palmer", "person"),
              Entity("Lady Middleton", "person")]
    marriage = Relation("Mrs. Palmer", "Mr. Palmer", "spouse", 2.0, [1], ["c1"])
    text = ("Mrs. Palmer was several years younger than Lady Middleton, and totally unlike her. "
            "Her husband was a grave looking young man of five or six and twenty. "
            '"Mrs. Palmer is here," she said. "Her husband is a fool, I think."')
    cards = {c.entity: c for c in build_cards(people, [chunk(1, text)], [marriage])}
    said = [f.text for f in cards["Mr. Palmer"].of_kind("defines")]
    assert said == ["Her husband was a grave looking young man of five or six and twenty."], said


def test_a_description_before_a_name_where_a_chapter_first_names_them_says_who_they_are() -> None:
    # the spoken language introduces someone by a clause ending in 的 before the name, where a
    # chapter first names them; later such a clause tells how they are at the moment, a
    # pronoun's 的 whose they are, and 即刻 (at once) is no copula
    people = [Entity("周三嫂", "person"), Entity("小顺", "person"), Entity("老蔡", "person")]
    cards = card_of(people,
                    "对门住着开豆腐店的周三嫂，她男人前年死在河里了。后来又醉醺醺的周三嫂走过来。"
                    "老蔡便托周三嫂即刻去请郎中。",
                    "她抱着她的小顺，坐在门口。睡着的小顺也咳起来。",
                    "老蔡是个撑船的。")
    assert [f.text for f in cards["周三嫂"].of_kind("defines")] == [
        "对门住着开豆腐店的周三嫂，她男人前年死在河里了。"]
    assert not cards["小顺"].of_kind("defines")


def test_she_after_a_sentence_opening_with_her_after_a_phrase_of_place_is_her() -> None:
    # Crome Yellow: "In her low deck-chair Anne was nearer to lying than to sitting. … She was
    # Henry Wimbush's own niece": Anne had no card line; her given name gives her gender, the
    # phrase of place does not make the sentence open with anything but her, and whose kin
    # she is stands before the word
    people = [Entity("Anne", "person"), Entity("Henry Wimbush", "person")]
    cards = card_of(people, "Henry Wimbush came out. In her low deck-chair Anne was nearer to "
                            "lying than to sitting. Her face was pretty. She was Henry Wimbush's "
                            "own niece.")
    assert [f.text for f in cards["Anne"].of_kind("defines")] == [
        "She was Henry Wimbush's own niece."]


def test_an_aside_or_an_age_after_the_copula_still_says_who_someone_is() -> None:
    # The Island of Doctor Moreau: the one sentence that says who Moreau is puts the teller's
    # aside and Moreau's age between "was" and the physiologist; his card was empty
    people = [Entity("Moreau", "person"), Entity("Montgomery", "person"),
              Entity("Mr. Dunn", "person")]
    cards = card_of(people,
                    "I had been a mere lad then, and Moreau was, I suppose, about fifty,--a "
                    "prominent and masterful physiologist, well-known in scientific circles.",
                    "Montgomery was, however, the only one awake.",
                    "Mr. Dunn was about fifty.")
    assert [f.text for f in cards["Moreau"].of_kind("defines")] == [
        "I had been a mere lad then, and Moreau was, I suppose, about fifty,--a prominent and "
        "masterful physiologist, well-known in scientific circles."]
    assert not cards["Montgomery"].of_kind("defines")
    assert not cards["Mr. Dunn"].of_kind("defines")
