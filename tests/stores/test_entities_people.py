"""One person, one entity: the names a story gives one person are joined where the text leaves one
candidate, and kept apart where it leaves several (stores/entities/people.py and address.py for
Chinese, stores/entities/english.py for English). Texts here are written for the tests."""

from __future__ import annotations

from collections import Counter

from stores.config import EntitySettings
from stores.entities.address import fold_address_forms, name_address_forms
from stores.entities.english import group_english_names
from stores.entities.matcher import AliasMatcher, alias_map
from stores.entities.names import Story
from stores.entities.patterns import english_aliases
from stores.entities.people import (
    add_names_without_surname,
    extend_cut_names,
    fold_honorifics,
    fold_titled_surnames,
    join_given_names,
    join_name_endings,
    join_stated_identities,
)
from stores.entities.resolve import build_entities
from stores.entities.titles import fold_titles
from stores.models import Entity


def person(name: str, *aliases: str, mentions: int = 10, source: str = "tagger") -> Entity:
    return Entity(name, "person", list(aliases), mentions=mentions, sources=[source])


def names(entities: list[Entity]) -> dict[str, Entity]:
    return {e.name: e for e in entities}


def test_a_name_cut_short_is_extended_to_the_form_the_text_writes() -> None:
    text = "刘老老笑道：“好。”" * 12 + "刘备曰：“善。”" * 12 + "刘备大喜。" * 3
    found = extend_cut_names(Counter({"刘老": 20, "刘备": 20, "刘表": 2}), text, least=5)
    # 刘备 is followed by 曰 and 大 (verbs glued after names), never extended; 刘表 is too rare
    assert found == Counter({"刘老老": 20, "刘备": 20})


def test_a_given_name_alone_takes_the_full_name_the_text_writes() -> None:
    """雨村 (a speaker) is 贾雨村, an entity of its own; 熙凤 is named 王熙凤, which no source
    made an entity; 宝玉 ends 贾宝玉 in many chapters and 甄宝玉 in one, so it is 贾宝玉's."""
    chapters = [f"第{n}回。贾宝玉来了。宝玉笑道：“是。”" for n in range(6)]
    chapters[0] += "这贾雨村原系胡州人氏。雨村道：“是。”那王熙凤笑道：“好。”熙凤又道：“好。”"
    chapters[1] += "贾雨村听了。王熙凤听了。"
    chapters[5] += "甄宝玉道：“是。”甄宝玉又道：“不。”"
    people = [person("贾雨村", mentions=17), person("雨村", "雨村先生", mentions=167),
              person("熙凤", mentions=20), person("宝玉", mentions=3948),
              person("贾宝玉", mentions=40), person("甄宝玉", mentions=30),
              person("张飞", mentions=300), Entity("林州", "place")]
    kept = names(join_given_names(people, Story.of(chapters, None)))
    assert "雨村" not in kept and kept["贾雨村"].aliases == ["雨村", "雨村先生"]
    assert kept["贾雨村"].mentions == 184
    assert "熙凤" not in kept and kept["王熙凤"].aliases == ["熙凤"]
    assert "宝玉" in kept["贾宝玉"].aliases and "甄宝玉" in kept
    assert {"张飞", "林州"} <= set(kept)


def test_a_full_name_written_once_where_it_introduces_the_given_name_names_it() -> None:
    """呐喊's 华老栓: written once, where the story first names him, then 老栓 alone; a full
    name written once after the given name's first use (an aside) names no one."""
    story = Story.of(["华老栓忽然坐起身。老栓接了。" + "老栓走了。" * 5,
                      "阿五来了。" * 3 + "王阿五说。"], None)
    kept = names(join_given_names([person("老栓", mentions=6), person("阿五", mentions=4)],
                                  story))
    assert kept["华老栓"].aliases == ["老栓"]
    assert "阿五" in kept and "王阿五" not in kept


def test_a_name_one_other_name_ends_with_is_that_persons() -> None:
    # 呐喊's 阿五 and 蓝皮阿五 (「正是蓝皮阿五…却不愿是阿五」) were two people; 三国演义's 士仁
    # and 傅士仁 too. 宝玉 ends two full names, 夫人 is a title many bear
    people = [person("蓝皮阿五", mentions=7), person("阿五", mentions=6),
              person("傅士仁", mentions=30), person("士仁", mentions=5),
              person("贾宝玉", mentions=40), person("甄宝玉", mentions=30),
              person("宝玉", mentions=3000), person("王夫人", mentions=900),
              person("夫人", mentions=50)]
    kept = names(join_name_endings(people))
    assert kept["蓝皮阿五"].aliases == ["阿五"] and kept["傅士仁"].aliases == ["士仁"]
    assert {"宝玉", "夫人", "阿五"} & set(kept) == {"宝玉", "夫人"}
    assert kept["蓝皮阿五"].mentions == 13


def test_a_name_written_without_its_surname_where_the_whole_name_is_is_that_persons() -> None:
    """七爷 is 赵七爷 in the story that names him (呐喊's 《风波》); 老五 stays apart where
    another surname is written before it too (张老五), 太爷 is a title many hold, and 老栓
    alone in a chapter that never writes 华老栓 may be anyone's."""
    chapters = ["赵七爷来了。七爷道：“好。”七爷走了。陈老五笑了。张老五来了。老五走了。"
                "王太爷来了。太爷道。太爷笑了。华老栓来了。",
                "他又来了。", "老栓笑了。老栓走了。老栓哭了。"]
    people = [person("赵七爷"), person("陈老五"), person("王太爷"), person("华老栓")]
    kept = names(add_names_without_surname(people, Story.of(chapters, None)))
    assert kept["赵七爷"].aliases == ["七爷"]
    assert kept["陈老五"].aliases == kept["王太爷"].aliases == kept["华老栓"].aliases == []


def test_a_title_many_hold_is_no_given_name_of_one() -> None:
    # 太后 alone is 何太后, 董太后 or 郭太后 by turns: it was named 郭太后 and gathered the
    # others' mentions (a newcomer's trial on 三国演义)
    chapters = ["郭太后曰：“可。”郭太后大哭。太后曰：“不。”"] * 3
    kept = names(join_given_names([person("太后", mentions=30)], Story.of(chapters, None)))
    assert set(kept) == {"太后"}


def test_a_given_name_two_full_names_share_alike_stays_apart() -> None:
    chapters = ["贾宝玉来了。甄宝玉来了。宝玉笑道：“是。”"] * 3
    people = [person("宝玉"), person("贾宝玉"), person("甄宝玉")]
    assert set(names(join_given_names(people, Story.of(chapters, None)))) == {
        "宝玉", "贾宝玉", "甄宝玉"}


def test_forms_of_address_join_the_one_person_they_are_made_from() -> None:
    text = ("凤姐笑道：“好。”" * 6 + "凤丫头来了。" * 6 + "宝兄弟来了。" * 6 + "琏二奶奶来了。" * 6
            + "周郎大笑。" * 6 + "林妹妹哭了。" * 6)
    people = [person("王熙凤", mentions=40), person("凤姐", mentions=30, source="speaker"),
              person("贾宝玉", "宝玉", mentions=4000), person("薛宝钗", "宝钗", mentions=1000),
              person("贾琏", mentions=700), person("周瑜", mentions=300),
              person("周泰", mentions=60), person("林黛玉", "黛玉", mentions=1300),
              person("林之孝", mentions=40)]
    kept = names(fold_address_forms(people, text, min_uses=5))
    # 凤 is in one given name: 凤姐 (an entity of its own) and 凤丫头 are 王熙凤
    assert "凤姐" not in kept and {"凤姐", "凤丫头"} <= set(kept["王熙凤"].aliases)
    # 宝 is in two given names, 琏二奶奶 is 贾琏's wife: neither is joined on its form alone
    assert not {"宝兄弟", "琏二奶奶"} & {a for e in kept.values() for a in e.aliases}
    # 周郎, 林妹妹: the surname's person mentioned three times more than the next
    assert "周郎" in kept["周瑜"].aliases and "林妹妹" in kept["林黛玉"].aliases


def test_a_surname_form_of_two_people_alike_in_mentions_stays_apart() -> None:
    people = [person("林黛玉", mentions=1300), person("林之孝", mentions=800)]
    kept = fold_address_forms(people, "林妹妹哭了。" * 6, min_uses=5)
    assert all("林妹妹" not in e.aliases for e in kept)


def test_a_surname_and_an_office_join_the_person_its_passages_name() -> None:
    passages = (["曹丞相大怒。曹操曰：“斩之。”"] * 4 + ["孙夫人至。孙权曰：“吾妹也。”"] * 4
                + ["曹丞相至。曹仁迎之。曹操下马。"])
    people = [person("曹操", mentions=1000), person("曹仁", mentions=100),
              person("孙权", mentions=300)]
    kept = names(fold_titled_surnames(people, passages, min_uses=3))
    assert "曹丞相" in kept["曹操"].aliases
    assert "孙夫人" not in kept["孙权"].aliases  # a woman's title: his sister, not him
    # nor a wife's (呐喊: 方太太 is 方玄绰's wife)
    passages = ["方太太说。方玄绰不答。"] * 4
    kept = names(fold_titled_surnames([person("方玄绰", mentions=30)], passages, min_uses=3))
    assert "方太太" not in kept["方玄绰"].aliases


def test_a_surname_and_an_office_join_the_person_named_just_before() -> None:
    # 董太师 is used where 董卓 was named in the passage before, not in its own
    passages = ["董卓入朝。", "董太师大喜。"] * 3 + ["董承至。"]
    people = [person("董卓", mentions=300), person("董承", mentions=60)]
    kept = names(fold_titled_surnames(people, passages, min_uses=3))
    assert "董太师" in kept["董卓"].aliases
    # two of the surname named before as often: nobody's
    passages = ["董卓入朝。董承至。", "董太师大喜。"] * 3
    people = [person("董卓", mentions=300), person("董承", mentions=60)]
    kept = names(fold_titled_surnames(people, passages, min_uses=3))
    assert "董太师" not in kept["董卓"].aliases + kept["董承"].aliases


def test_a_stated_identity_joins_two_people() -> None:
    text = "人言单福之才。原来单福就是徐庶。玄德乃问伊籍。"
    people = [person("徐庶", "元直"), person("单福"), person("刘备", "玄德"), person("伊籍")]
    kept = names(join_stated_identities(people, text))
    assert "单福" not in kept and "单福" in kept["徐庶"].aliases
    assert {"刘备", "伊籍"} <= set(kept)  # 玄德乃问伊籍: 乃 there is "then"


def test_an_assumed_name_and_an_epithet_said_to_be_someone_join_them() -> None:
    text = "此人乃颍川徐庶，字元直。单福乃其托名耳。伏龙正是诸葛孔明。"
    people = [person("徐庶", "元直"), person("单福"), person("诸葛亮", "孔明", "诸葛孔明"),
              person("伏龙")]
    kept = names(join_stated_identities(people, text))
    assert set(kept) == {"徐庶", "诸葛亮"}, set(kept)
    assert "单福" in kept["徐庶"].aliases and "伏龙" in kept["诸葛亮"].aliases


def test_surname_honorific_becomes_an_alias_of_the_person_who_owns_the_surname() -> None:
    people = [Entity("关羽", "person", ["云长"], mentions=445, sources=["pattern"]),
              Entity("关平", "person", mentions=90, sources=["tagger"]),
              Entity("刘备", "person", mentions=2000, sources=["pattern"]),
              Entity("刘表", "person", mentions=900, sources=["tagger"])]
    text = "关公大怒。" * 10 + "刘公曰：" * 10
    by_name = names(fold_honorifics(people, text, min_mentions=5))
    assert "关公" in by_name["关羽"].aliases and by_name["关羽"].mentions == 455
    # 刘备 does not outnumber 刘表 three to one: 刘公 could be either
    assert "刘公" not in by_name["刘备"].aliases + by_name["刘表"].aliases


def test_a_nobles_title_is_the_holder_its_passages_name() -> None:
    # 温侯 stands before 吕布 and its passages name him; 魏王 stands before 曹丕, but the
    # passages that use it name 曹操: the title passed from father to son
    people = [Entity(name=n, type="person") for n in ("吕布", "曹操", "曹丕", "张辽")]
    chunks = (["温侯吕布出马。", "张辽曰：温侯吕布到了。"] + ["吕布大怒，温侯拍马而来。"] * 6
              + ["魏王曹丕即位。", "曹丕见魏王曹丕之旨。"] + ["曹操笑曰：魏王有令。"] * 6
              + ["曹丕曰：魏王安在？"] * 2)
    found = {e.name: e for e in fold_titles(people, "\n".join(chunks), chunks)}
    assert found["吕布"].aliases == ["温侯"]
    assert found["曹丕"].aliases == [] and found["曹操"].aliases == []


# -- English ---------------------------------------------------------------------------------


def groups(counts: dict[str, int], text: str) -> dict[str, str]:
    """Each name → the canonical name of its group."""
    out = {}
    for canonical, aliases, _ in group_english_names(Counter(counts), 5, text):
        out[canonical] = canonical
        out.update(dict.fromkeys(aliases, canonical))
    return out


def test_a_kin_word_before_a_name_is_the_form_of_the_one_person_it_fits() -> None:
    # Mansfield Park: "aunt Norris" (23 times) is Mrs. Norris, though bare Norris is her late
    # husband, Mr. Norris; "aunt Bertram" is Lady Bertram, not Miss Bertram; "cousin Edmund"
    # is Edmund Bertram. Persuasion's "cousin Charles" stays apart: Charles Musgrove and
    # Charles Hayter are two
    text = ("Mrs. Norris spoke. Mr. Norris died. Lady Bertram sat. Miss Bertram came. "
            "Edmund Bertram came. Charles Musgrove rode. Charles Hayter walked. ") * 6 + (
        "Her aunt Norris scolded. Ask aunt Bertram. Dear cousin Edmund! Poor cousin Charles. "
        "Ask aunt Norris. ") * 2
    found = groups({"Mrs. Norris": 6, "Mr. Norris": 6, "Lady Bertram": 6, "Miss Bertram": 6,
                    "Edmund Bertram": 6, "Charles Musgrove": 6, "Charles Hayter": 6}, text)
    assert found["aunt Norris"] == found["Mrs. Norris"] != found["Mr. Norris"]
    assert found["aunt Bertram"] == found["Lady Bertram"]
    assert found["cousin Edmund"] == found["Edmund Bertram"]
    assert "cousin Charles" not in found


def test_a_place_named_after_a_city_does_not_take_the_city_as_its_surname() -> None:
    text = "They dined at the Café de Paris. " * 6 + "Paris was asleep. " * 40
    found = groups({"Café de Paris": 6, "Paris": 200}, text)
    assert found["Paris"] == "Paris" and found["Café de Paris"] == "Café de Paris"


def test_a_first_name_joins_only_a_full_name_written_near_it() -> None:
    # Jacopo, the sailor, is a person of his own early in the book; Jacopo Manfredi, a bankrupt
    # named twice far on, is someone else. Harriet goes on right after Harriet Smith.
    filler = "The ship sailed on. " * 2_000
    text = ("Jacopo laughed. " * 20 + filler + "Jacopo Manfredi had failed; Jacopo Manfredi "
            "owed much. " + "Harriet Smith came in. Harriet sat down. " * 6)
    found = groups({"Jacopo": 20, "Jacopo Manfredi": 2, "Harriet Smith": 6, "Harriet": 6}, text)
    assert found["Jacopo"] == "Jacopo"
    assert found["Harriet"] == "Harriet Smith"


def test_a_womans_french_title_is_no_first_name_to_head_the_family() -> None:
    text = ("Danglars smiled. " * 30 + "M. Danglars bowed. " * 6 + "The Baronne Danglars sat. " * 6
            + "Eugénie Danglars sang. " * 6 + "Mademoiselle Eugénie sang. " * 6
            + "They reached the Hôtel Danglars. " * 5)
    found = groups({"Danglars": 300, "M. Danglars": 50, "Baron Danglars": 20, "Baronne Danglars": 6,
                    "Madame Danglars": 100, "Eugénie Danglars": 30, "Mademoiselle Eugénie": 10,
                    "Eugénie": 40, "Hôtel Danglars": 5}, text)
    assert found["Danglars"] == found["Baron Danglars"] == "Danglars"
    assert found["Baronne Danglars"] != "Danglars"


def test_an_apposition_makes_the_count_of_a_place_the_person() -> None:
    text = ("Edmond Dantès sailed home. " * 3 + "Monte Cristo smiled. " * 3
            + "The letter was signed: Edmond Dantès, _Count of Monte Cristo_.")
    found = groups({"Edmond Dantès": 40, "Edmond": 30, "Dantès": 50, "Monte Cristo": 60,
                    "Count of Monte Cristo": 20}, text)
    assert found["Monte Cristo"] == found["Count of Monte Cristo"] == found["Dantès"] \
        == "Edmond Dantès"


def test_a_man_of_another_name_holds_the_familys_title_in_every_language() -> None:
    # Gaspard Lerne became Count of Valmy: the Comte de Valmy is he, but M. de Valmy is his
    # son Henri's name too, and the Vicomte de Valmy (the son's rank) is not his
    text = ("Gaspard Lerne rode out. " * 3 + "Henri de Valmy laughed. " * 20
            + "The Comte de Valmy spoke. M. de Valmy bowed. " * 5
            + "The Vicomte de Valmy danced. " * 3
            + "It was signed: Gaspard Lerne, Count of Valmy.")
    found = groups({"Gaspard Lerne": 20, "Gaspard": 10, "Henri de Valmy": 40, "Henri": 30,
                    "Comte de Valmy": 10, "M. de Valmy": 10, "Vicomte de Valmy": 5,
                    "Count of Valmy": 3}, text)
    assert found["Comte de Valmy"] == found["Count of Valmy"] == "Gaspard Lerne"
    assert found["M. de Valmy"] != "Gaspard Lerne"
    assert found["Vicomte de Valmy"] != "Gaspard Lerne"


def test_a_surname_joins_the_one_man_of_its_family() -> None:
    # Lucien Debray is the only Debray; Morrel is written chapters before Maximilian Morrel
    # appears and is also Pierre Morrel, so Morrel stays apart
    text = ("M. Morrel paid the crew. Morrel was glad. " * 300 + "Pierre Morrel signed. "
            + "Lucien Debray came in. Debray laughed. " * 5 + "Maximilian Morrel came. " * 6)
    found = groups({"Morrel": 80, "M. Morrel": 40, "Maximilian Morrel": 16, "Maximilian": 50,
                    "Pierre Morrel": 1, "Lucien Debray": 11, "Debray": 60, "M. Debray": 20},
                   text)
    assert found["Debray"] == found["M. Debray"] == "Lucien Debray"
    assert found["Maximilian"] == "Maximilian Morrel"
    assert found["Morrel"] == found["M. Morrel"] == "Morrel"


def test_a_man_met_after_his_surname_takes_it_when_the_text_calls_him_by_it() -> None:
    # Caderousse is written for chapters before "Gaspard Caderousse", and Gaspard alone hardly
    # ever; an uncle named twice in passing (Policar Morrel) does not take the shipowner's name
    text = ("Caderousse drank. M. Morrel paid. " * 300 + "Policar Morrel, my uncle. "
            + "Gaspard Caderousse, at your service. " * 4 + "Gaspard! cried his wife.")
    found = groups({"Caderousse": 400, "M. Caderousse": 20, "Gaspard Caderousse": 5,
                    "Gaspard": 6, "Morrel": 300, "M. Morrel": 40, "Policar Morrel": 2}, text)
    assert found["Caderousse"] == found["M. Caderousse"] == "Gaspard Caderousse"
    assert found["Morrel"] == found["M. Morrel"] == "Morrel"


def test_a_first_name_is_the_persons_in_its_short_forms_unless_another_full_name_shares_it(
        ) -> None:
    # Gaspard alone, too rare to be kept, and "Count Andrea" cut from "Count Andrea Cavalcanti",
    # are theirs; John is two men's first name, and "Mrs. John Dashwood" is a wife, so neither
    # "John" nor "Mrs. John" is anybody's; "will" is also a word the text writes in lower case
    text = ("Caderousse drank. " * 300 + "Gaspard Caderousse, at your service. " * 4
            + "Gaspard! cried his wife. " * 3 + "Count Andrea Cavalcanti bowed. " * 6
            + "Andrea Cavalcanti smiled. " * 6 + "Andrea laughed. " * 20
            + "John Dashwood came. " * 10 + "John Willoughby rode. " + "Mrs. John Dashwood. " * 3
            + "John went out. " * 3 + "Will Ladislaw. " * 3 + "Will came. " * 3
            + "you will see. ")
    found = groups({"Caderousse": 400, "Gaspard Caderousse": 5, "Gaspard": 3,
                    "Count Andrea Cavalcanti": 6, "Andrea Cavalcanti": 6, "Andrea": 20,
                    "John Dashwood": 10, "John Willoughby": 1, "Mrs. John Dashwood": 3,
                    "John": 3, "Will Ladislaw": 3, "Will": 3}, text)
    assert found["Gaspard"] == found["Caderousse"] == "Gaspard Caderousse"
    assert found["Count Andrea"] == found["Andrea"] == "Andrea Cavalcanti"
    assert "John" not in found and "Mrs. John" not in found
    assert "Will" not in found


def test_a_name_known_alone_takes_its_full_name_with_a_particle_before_the_family() -> None:
    # Gérard, a name no title makes a person, does not take Gérard de Villefort
    text = ("Noirtier nodded. " * 40 + "M. de Villefort bowed. " * 40
            + "M. Noirtier de Villefort. Gérard! " * 6 + "Gérard de Villefort.")
    found = groups({"Noirtier": 200, "M. Noirtier": 20, "Villefort": 300, "M. de Villefort": 50,
                    "M. Noirtier de Villefort": 1, "Gérard": 6, "Gérard de Villefort": 1}, text)
    assert found["Noirtier de Villefort"] == found["M. Noirtier de Villefort"] == "Noirtier"
    assert found["Villefort"] == "Villefort"
    assert "Gérard de Villefort" not in found


def test_a_title_after_a_name_joins_the_one_full_name_of_that_name_not_the_name_alone(
        ) -> None:
    # Ali Pasha is Ali Tepelini; Ali, written alone far more often, is the count's servant
    text = ("Ali bowed. " * 100 + "Ali Tepelini ruled Yanina. " * 18
            + "the daughter of Ali Pasha. " * 8)
    found = groups({"Ali": 129, "Ali Tepelini": 18, "Ali Pasha": 8}, text)
    assert found["Ali Pasha"] == found["Ali Tepelini"] == "Ali Tepelini"
    assert found["Ali"] == "Ali"


def test_an_unmarried_title_joins_the_family_daughter_and_a_married_one_does_not() -> None:
    text = "Valentine wept. Mademoiselle Valentine rose. Madame de Villefort frowned. " * 3
    found = groups({"Valentine": 60, "Valentine de Villefort": 4, "Mademoiselle Valentine": 6,
                    "Mademoiselle de Villefort": 20, "Madame de Villefort": 40,
                    "Villefort": 90, "M. de Villefort": 50}, text)
    assert found["Mademoiselle de Villefort"] == found["Mademoiselle Valentine"] \
        == found["Valentine"] == "Valentine de Villefort"
    assert found["Madame de Villefort"] == "Madame de Villefort"
    assert found["M. de Villefort"] == "Villefort"


def test_a_rank_a_particle_and_a_wifes_rank_join_the_one_form_of_that_person() -> None:
    # Major Cavalcanti is the one Major of the family with a first name, not his son Andrea (the
    # Cavalcanti of the surname alone); M. Morrel, a form of address father and son share,
    # does not join the son; the particle written or not is one general; the Marquise is the
    # family's one Madame, the Countess of Morcerf likewise
    text = ("Cavalcanti bowed. Andrea Cavalcanti smiled. " * 20
            + "Major Bartolomeo Cavalcanti sat. Major Cavalcanti rose. " * 8
            + "M. Morrel paid. M. Maximilian Morrel came. Pierre Morrel. " * 8
            + "General Quesnel spoke. General de Quesnel died. " * 6
            + "Madame de Saint-Méran wept. The Marquise de Saint-Méran sat. " * 8
            + "Madame de Morcerf smiled. The Countess of Morcerf rose. " * 8)
    found = groups({"Cavalcanti": 40, "Andrea Cavalcanti": 20, "Andrea": 60,
                    "Major Bartolomeo Cavalcanti": 8, "Bartolomeo Cavalcanti": 4,
                    "Major Cavalcanti": 12, "Morrel": 200, "M. Morrel": 40,
                    "M. Maximilian Morrel": 8, "Maximilian Morrel": 20, "Maximilian": 80,
                    "Pierre Morrel": 10,
                    "General Quesnel": 9, "General de Quesnel": 4,
                    "Madame de Saint-Méran": 60, "Marquise de Saint-Méran": 8,
                    "Madame de Morcerf": 30, "Countess of Morcerf": 4}, text)
    assert found["Major Cavalcanti"] == found["Bartolomeo Cavalcanti"] \
        == "Major Bartolomeo Cavalcanti"
    assert found["Cavalcanti"] != "Major Bartolomeo Cavalcanti"
    assert found["M. Morrel"] == "Morrel" != found["Maximilian"]
    assert found["General de Quesnel"] == "General Quesnel"
    assert found["Marquise de Saint-Méran"] == "Madame de Saint-Méran"
    assert found["Countess of Morcerf"] == "Madame de Morcerf"


def test_a_mans_title_before_a_family_name_no_one_bears_alone_is_its_one_man() -> None:
    # "Martin" is never written alone: Mr. Martin is the family's one man, Robert Martin, met
    # from the first chapters on; Mrs. Martin is his mother. Mrs. John Knightley, beside Mr. John
    # Knightley, is his wife, not him.
    text = ("Mr. Martin farms Abbey-Mill. Robert Martin wrote. " * 6 + "Mrs. Martin baked. " * 6
            + "Mr. John Knightley came. Mrs. John Knightley wept. John laughed. " * 6)
    found = groups({"Mr. Martin": 37, "Robert Martin": 27, "Mr. Robert Martin": 3,
                    "Mrs. Martin": 9, "John Knightley": 17, "Mr. John Knightley": 6,
                    "Mrs. John Knightley": 13, "John": 20}, text)
    assert found["Mr. Martin"] == found["Robert Martin"] == "Robert Martin"
    assert found["Mrs. Martin"] == "Mrs. Martin"
    assert found["John"] == found["Mr. John Knightley"] == "John Knightley"
    assert found["Mrs. John Knightley"] == "Mrs. John Knightley"


def test_a_nickname_the_text_gives_is_an_alias() -> None:
    text = ("Mr. Yoshikawa is the teacher of drawing whom I had nicknamed Clown. "
            "Hotta, whom we called Porcupine, laughed.")
    assert english_aliases(text) == [("Yoshikawa", ["Clown"], True), ("Hotta", ["Porcupine"], True)]


def test_the_whole_pipeline_names_a_chinese_person_by_the_full_name() -> None:
    texts = ["这王熙凤笑道：“好。”熙凤道：“来。”"] * 3 + ["凤姐笑道：“是。”凤丫头来了。"] * 6
    entities = build_entities([], texts, Counter(), EntitySettings(min_mentions=3),
                              [1, 2, 3, 4, 5, 6, 7, 8, 9])
    matcher = AliasMatcher(alias_map(entities))
    assert {matcher.resolve(n) for n in ("王熙凤", "熙凤", "凤姐", "凤丫头")} == {"王熙凤"}


def test_a_form_several_can_make_joins_the_one_its_passages_name() -> None:
    """宝姐姐 can be made from 宝玉's, 宝钗's and 宝琴's names: its passages name 宝钗, and 宝玉
    (named in all of them too) is the one who says it; 宝兄弟 is 宝玉, whom 宝钗 says it to."""
    passages = (["宝玉笑道：“宝姐姐来了。”宝钗笑道：“宝兄弟好。”"] * 5
                + ["宝琴来了。宝玉又道：“宝姐姐好。”"] + ["贾母叫宝玉。"] * 20)
    people = [person("贾宝玉", "宝玉", mentions=4000), person("薛宝钗", "宝钗", mentions=1000),
              person("薛宝琴", "宝琴", mentions=150), person("贾母", mentions=900)]
    kept = names(fold_address_forms(people, "".join(passages), 5, passages))
    assert "宝姐姐" in kept["薛宝钗"].aliases and "宝兄弟" in kept["贾宝玉"].aliases


def test_a_form_of_address_no_name_makes_is_named_by_the_full_name_the_text_writes() -> None:
    """凤姐 speaks a thousand times; 熙凤 is rarely written alone, but 王熙凤 twice: 凤姐 is
    named 王熙凤. 伏侍凤姐 ("serve 凤姐") and 贾母凤姐 (a list) are no names."""
    chapters = (["这王熙凤笑道：“好。”凤姐道：“来。”"] * 2 + ["伏侍凤姐的丫头来了。"] * 3
                + ["贾母凤姐都笑了。"] * 3)
    people = [person("凤姐", mentions=1700), person("贾母", mentions=1500)]
    kept = names(name_address_forms(people, Story.of(chapters, None), set()))
    assert "凤姐" in kept["王熙凤"].aliases and "熙凤" in kept["王熙凤"].aliases


def test_a_surname_and_an_office_names_no_one_by_a_form_of_address() -> None:
    """梅翰林 is 梅 the academician (翰林 an office, no given name): 林妹妹 is not his."""
    chapters = ["梅翰林来了。林妹妹笑道：“好。”"] * 3
    people = [person("林妹妹", mentions=90), person("梅翰林", mentions=5)]
    kept = names(name_address_forms(people, Story.of(chapters, None), set()))
    assert "林妹妹" in kept and "林妹妹" not in kept["梅翰林"].aliases


def test_a_character_written_before_full_names_is_no_surname_here() -> None:
    """连 is in the 百家姓, but 连贾母, 连王夫人 show it is "even" in this book: 连平儿 is no name."""
    chapters = ["连贾母也笑了。连王夫人也笑了。连贾政也来了。"] + ["连平儿也笑了。平儿道：“是。”"] * 3
    people = [person("平儿", mentions=600), person("贾母", mentions=1500),
              person("王夫人", mentions=1000), person("贾政", mentions=900)]
    assert "平儿" in names(join_given_names(people, Story.of(chapters, None)))


def test_a_shared_form_goes_to_the_person_of_its_gender_once_the_surest_are_given() -> None:
    """宝兄弟 (a brother) is 宝玉's: 宝钗 says it. 宝丫头's passages name 宝玉 most, but he is a
    brother now: it is 宝钗's."""
    passages = (["宝钗笑道：“宝兄弟好。”宝玉道：“是。”"] * 6
                + ["贾母叫宝丫头。宝玉笑了。宝钗来了。宝玉又笑。"] * 5 + ["贾母叫宝玉。"] * 20)
    people = [person("贾宝玉", "宝玉", mentions=4000), person("薛宝钗", "宝钗", mentions=1000),
              person("贾母", mentions=900)]
    kept = names(fold_address_forms(people, "".join(passages), 5, passages))
    assert "宝兄弟" in kept["贾宝玉"].aliases and "宝丫头" in kept["薛宝钗"].aliases


def test_two_forms_named_by_one_full_name_are_one_entity() -> None:
    """凤姐 and 凤丫头 both speak: both are named 王熙凤, and the world holds one 王熙凤 (the
    catalog refuses two entities of one name: 红楼梦's ingest failed on it)."""
    chapters = ["这王熙凤笑道：“好。”凤姐道：“来。”凤丫头道：“去。”"] * 3
    people = [person("凤姐", mentions=1700), person("凤丫头", mentions=60)]
    kept = name_address_forms(people, Story.of(chapters, None), set())
    assert [e.name for e in kept] == ["王熙凤"] and {"凤姐", "凤丫头"} <= set(kept[0].aliases)


def test_a_titled_entity_joins_the_one_a_pattern_named() -> None:
    from stores.entities.english_titles import join_titled_entities

    people = [Entity("Yoshikawa", "other", ["Clown"], sources=["pattern"]),
              Entity("Mr. Yoshikawa", "person", sources=["tagger"]),
              Entity("Bennet", "person", ["Mr. Bennet"]), Entity("Mrs. Bennet", "person")]
    kept = names(join_titled_entities(people))
    assert set(kept) == {"Yoshikawa", "Bennet", "Mrs. Bennet"}  # his wife stays apart
    assert kept["Yoshikawa"].aliases == ["Clown", "Mr. Yoshikawa"]
    assert kept["Yoshikawa"].type == "person"


def test_a_minor_namesake_and_a_form_of_the_other_gender_take_nothing() -> None:
    """金凤 (a few mentions) can make 凤姐 too, but 凤姐 speaks a thousand times: it is named by
    王熙凤, the full name the text writes; and 王爷 (a man's form of her surname) is not hers."""
    chapters = (["这王熙凤笑道：“好。”凤姐道：“来。”凤丫头来了。凤姑娘来了。"] * 6
                + ["王爷来了。王爷道：“是。”"] * 6 + ["金凤在此。"] * 2)
    people = [person("凤姐", mentions=1700), person("金凤", mentions=20),
              person("贾母", mentions=1500)]
    story = Story.of(chapters, None)
    kept = names(fold_address_forms(name_address_forms(people, story, set()), story.text, 5,
                                     chapters))
    assert {"凤姐", "凤丫头", "凤姑娘"} <= set(kept["王熙凤"].aliases)
    assert "王爷" not in kept["王熙凤"].aliases and not kept["金凤"].aliases


def test_a_capitalised_word_the_text_mostly_writes_in_lower_case_is_no_name() -> None:
    # "Poor" and "Nobody" open sentences and quotations; the text writes them in lower case far
    # more; "Poor Mr" is a title left without its name. Patty, never in lower case, stays.
    text = ("Poor Harriet! Nobody knew. " * 6 + "she was poor and nobody came. " * 20
            + "Poor Mr. Elton. " * 5 + "Patty came in. " * 8
            + "he spoke before the Chamber today. " * 6 + "the chamber was dark. " * 20)
    found = groups({"Poor": 6, "Nobody": 6, "Poor Mr": 5, "Patty": 8, "Harriet": 6,
                    "Chamber": 6}, text)
    assert "Poor" not in found and "Nobody" not in found and "Poor Mr" not in found
    assert "Patty" in found and "Harriet" in found
    assert "Chamber" in found  # capitalised inside sentences: a named thing (of Peers)


def test_a_word_the_text_writes_in_lower_case_as_often_is_no_name() -> None:
    # Heart of Darkness (a newcomer's trial): "Absurd!" opens a cry four times and stands inside
    # a sentence once ("And you say, Absurd!"), and the text writes "absurd" six times: it was
    # an entity. Grey, written more often as a name than as a word, stays one
    text = ('"Absurd!" he cried. ' * 4 + "And you say, Absurd! " + "it was absurd. " * 6
            + "I saw Grey and then Grey came. " * 3 + "the sky was grey. " * 5)
    found = groups({"Absurd": 5, "Grey": 6}, text)
    assert "Absurd" not in found and "Grey" in found


def test_a_word_capitalised_only_where_a_sentence_opens_is_no_name() -> None:
    # "Thank you" opens many a reply and "thank" is rarer in lower case, but the text never
    # capitalises it inside a sentence; "Dear Miss Woodhouse" is a greeting before her name
    text = ('"Thank you," said Harriet. ' * 16 + "I thank you. " * 10
            + '"Dear Miss Woodhouse, come." ' * 8 + "my dear friend. " * 5
            + "Miss Woodhouse smiled at Harriet. " * 10)
    found = groups({"Thank": 16, "Dear Miss Woodhouse": 8, "Miss Woodhouse": 18,
                    "Harriet": 26}, text)
    assert "Thank" not in found and "Dear Miss Woodhouse" not in found
    assert "Harriet" in found and "Miss Woodhouse" in found


def test_a_name_ending_in_a_word_for_a_place_is_no_persons_full_name() -> None:
    text = "They walked to Donwell Abbey. Donwell was near. " * 8 + "Abbey Mill Farm. "
    found = groups({"Donwell Abbey": 8, "Donwell": 10}, text)
    assert found["Donwell Abbey"] != found.get("Donwell")


def test_a_man_goes_by_his_rank_where_his_family_shares_the_surname() -> None:
    # Northanger Abbey's General Tilney was named "Tilney", the surname alone that Henry and
    # Eleanor Tilney bear too ("Tilney is Eleanor Tilney's father" named no one for sure). The
    # name groups keep the surname alone apart, no one's by itself; the titled man takes it
    from stores.entities.english_titles import join_titled_entities

    people = [Entity("Harcourt", "other", sources=["tagger"]),
              Entity("General Harcourt", "person", sources=["tagger"]),
              Entity("Lucy Harcourt", "person", sources=["tagger"])]
    kept = names(join_titled_entities(people))
    assert set(kept) == {"General Harcourt", "Lucy Harcourt"}
    assert kept["General Harcourt"].aliases == ["Harcourt"]


def test_a_surname_his_children_bear_too_gives_way_to_his_title() -> None:
    # Northanger Abbey: Catherine's father was "Morland" (25 times alone; Mr. Morland 24), a
    # name Catherine and James Morland bear too. Morrel, 80 times against M. Morrel's 40, stays
    # Morrel (test_a_surname_joins_the_one_man_of_its_family)
    counts = {"Morland": 25, "Mr. Morland": 24, "Catherine Morland": 100, "Catherine": 300,
              "James Morland": 30, "James": 40}
    text = ("Catherine Morland ran. Catherine laughed. James Morland rode. James came. "
            "Mr. Morland read. Morland slept. ") * 25
    found = groups(counts, text)
    assert found["Morland"] == found["Mr. Morland"] == "Mr. Morland"


def test_a_name_once_written_under_a_title_of_address_is_a_persons() -> None:
    # Brother Jacob (a newcomer's trial): Penny, once "Miss Penny Palfrey", was "other", so
    # "Who is her elder sister?" after "Who is Penny Palfrey?" read her as Mrs. Palfrey. The
    # Miss Musgroves are two daughters: the family stays no one person
    text = ("Penny smiled. " * 20 + "Miss Penny Palfrey came. Mr. Palfrey sat. " * 5
            + "Penny Palfrey went. " + "The Musgroves came. " * 6
            + "the Miss Musgroves sang. " * 5 + "Charles Musgrove sat. " * 8)
    found = {name: person for name, _, person in group_english_names(Counter(
        {"Penny": 20, "Miss Penny Palfrey": 1, "Mr. Palfrey": 5, "Musgroves": 6,
         "Miss Musgroves": 5, "Charles Musgrove": 8}), 5, text)}
    # (a family's plural under a title, the Miss Bennets, stays no one too:
    # tests/stores/test_entities_resolve.py, on the whole of Pride and Prejudice)
    assert found["Penny"] is True and found["Musgroves"] is False


def test_a_rare_pet_name_or_given_name_joins_the_one_who_goes_by_the_other() -> None:
    # Brother Jacob (a newcomer's trial): Letty (twice) is Letitia and Penelope (twice) Penny,
    # and "How old is Penny?" missed "Penelope was not yet nineteen"; Northanger Abbey's Belle
    # is Isabella Thorpe. A form written once is too rare to join
    text = ("Letitia smiled. " * 6 + "her sister Letty came. " * 2 + "Penny sang. " * 8
            + "Penelope was not yet nineteen. " * 2 + "Dick ran. ")
    found = groups({"Letitia": 6, "Letty": 2, "Penny": 8, "Penelope": 2, "Dick": 1}, text)
    assert found["Letty"] == "Letitia" and found["Penelope"] == "Penny"
    assert "Dick" not in found


def test_a_short_book_keeps_a_titled_name_written_three_times() -> None:
    # Brother Jacob (95,000 characters; a newcomer's trial) lost Mrs. Steene and Mr. Luff,
    # written three and four times: "Who is Mrs. Steene?" found no one. An untitled word
    # written as often stays out (a short book's Universe, Flesh), and a novel's bar is five
    text = "Mrs. Steene came. Mr. Luff sat. " * 3 + "The Universe is wide. " * 3
    counts = {"Mrs. Steene": 3, "Mr. Luff": 3, "Universe": 3}
    found = groups(counts, text)
    assert "Mrs. Steene" in found and "Mr. Luff" in found and "Universe" not in found
    assert "Mrs. Steene" not in groups(counts, text + "and so on " * 45_000)  # 450,000 chars
