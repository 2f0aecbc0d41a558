"""Name discovery with rjieba's tagger on 三国演义 and capitalised names in Monte Cristo."""

from __future__ import annotations

from pathlib import Path

import pytest

from stores.entities.english_tagger import english_names
from stores.entities.tagger import (
    chinese_household_names,
    chinese_listed_names,
    chinese_person_names,
    chinese_speakers,
    chinese_unknown_names,
)


@pytest.fixture(scope="module")
def sanguo(shared_data: Path) -> list[str]:
    files = sorted((shared_data / "sanguo_yanyi" / "chapters").glob("*.txt"))
    return [f.read_text("utf-8") for f in files]


def test_tagger_finds_the_cast_of_the_whole_novel(sanguo: list[str]) -> None:
    names = chinese_person_names(sanguo)
    assert names["曹操"] > 500
    top = {name for name, _ in names.most_common(40)}
    assert {"曹操", "张飞", "刘备", "吕布", "赵云", "孙权", "周瑜", "司马懿"} <= top


def test_tagger_drops_noise_and_peels_glued_verbs(sanguo: list[str]) -> None:
    names = chinese_person_names(sanguo)
    # jieba's dictionary tags these as names (nr); they are troops, goods and verbs.
    for word in ("伏兵", "马匹", "钱粮", "明白", "魏兵", "二人", "大王", "吴侯", "诸葛", "司马"):
        assert word not in names, word
    for word in names:
        assert not word.endswith("曰"), word
    assert "孔明曰" not in names and "司马懿" in names
    # Courtesy names carry no surname: the tagger leaves them to the patterns.
    assert "玄德" not in names


def test_given_names_that_speak_are_found_without_a_surname() -> None:
    text = ("小梅笑道：“你来了。”阿福忙问道：“东西呢？”小梅道：“在箱子里。”众人道：“好。”"
            "阿福叹道：“罢了。”便问道：“谁去？”那人道：“我去。”后主曰：“准。”关公曰：“走。”"
            "阿福儿道：“是我。”")
    names = chinese_speakers([text])
    assert names["小梅"] == 2 and names["阿福"] == 3  # 阿福忙问, 阿福叹 peeled; 阿福儿 is 阿福
    # the crowd, an adverb phrase, a pointing word, a ruler's title, surname + 公: no names
    for word in ("众人", "便问", "那人", "后主", "关公"):
        assert word not in names, word


def test_speakers_of_the_whole_novel_are_its_people(sanguo: list[str]) -> None:
    names = chinese_speakers(sanguo)
    assert names["孔明"] > 300 and names["玄德"] > 300  # courtesy names, merged by the patterns
    assert not {"左右", "众将", "先主", "魏主", "关公"} & set(names)


def test_chinese_tagger_on_a_sentence() -> None:
    names = chinese_person_names(["曹操大怒，令人杀之。张飞曰：吾乃燕人张飞也！"])
    assert names["曹操"] == 1 and names["张飞"] == 2
    assert "令人" not in names


def test_english_names_in_monte_cristo(shared_data: Path) -> None:
    files = sorted((shared_data / "monte_cristo" / "chapters").glob("*.txt"))[:5]
    names = english_names(f.read_text("utf-8") for f in files)
    assert names["Dantès"] > 50 and names["Edmond Dantès"] >= 5
    assert names["M. Morrel"] > 20 and names["Morrel"] >= 3
    assert names["Danglars"] > 50 and names["Mercédès"] > 20
    for word in ("The", "But", "Then", "He", "Chapter", "I’ll"):
        assert word not in names, word
    assert "Then Dantès" not in names and "Dantès’" not in names


def test_english_name_sequences() -> None:
    text = ("Monsieur de Villefort bowed. Then Villefort said to M. Morrel that "
            "Edmond Dantès and Mercédès had seen the Count. But the Abbé Faria smiled.")
    names = english_names([text])
    assert names["Monsieur de Villefort"] == 1 and names["M. Morrel"] == 1
    assert names["Villefort"] == 1 and names["Edmond Dantès"] == 1
    assert names["Abbé Faria"] == 1 and names["Mercédès"] == 1
    assert "Count" not in names and "But" not in names and "Then Villefort" not in names
    # a title held of a place, written as an owner, is the title
    held = english_names(["He saw the Count of Monte Cristo’s carriage."])
    assert held["Count of Monte Cristo"] == 1 and "Count of Monte Cristo’s" not in held
    # a ruler's ordinal is no one: "Second" was an entity of a writer's own world (Queen
    # Elspeth the Second), and "Why did she do it?" read "it" as it
    ruled = english_names(["Queen Elspeth the Second of Varrowmere ruled; Henry the Fifth won."])
    assert "Second" not in ruled and "Fifth" not in ruled and ruled["Queen Elspeth"] == 1


def test_a_hyphened_name_is_one_name() -> None:
    """The Island of Doctor Moreau's Ape-man and Hyena-swine were "Ape" and "Hyena" and
    "Swine": a capitalised word's hyphened tail is part of it, lower-case or not."""
    names = english_names(["Then the Ape-man spoke to the Hyena-swine and to Saint-Méran."])
    assert names["Ape-man"] == 1 and names["Hyena-swine"] == 1 and names["Saint-Méran"] == 1
    assert "Ape" not in names and "Swine" not in names and "Hyena" not in names


def test_an_interjection_is_no_name() -> None:
    # Doctor Moreau listed "Hullo" and "Confound" among its entities (a newcomer's trial)
    names = english_names(["“Hullo!” said Montgomery. “Confound it!” he cried, and Hullo came "
                           "back from the cliff: “Hullo, Confound the boat!”"])
    assert "Hullo" not in names and "Confound" not in names and names["Montgomery"] == 1


def test_a_knight_opening_a_sentence_keeps_his_title() -> None:
    """"When Sir Thomas came in" counted "Thomas" alone: the sentence's first word took "Sir"
    with it, and the knight's first name stood bare as a name of its own (ten times in
    Mansfield Park, where the pet name Tom then took it: "Who is Thomas?" answered Tom)."""
    names = english_names(["When Sir Thomas came in, Poor Sir Thomas sat down. Sir Thomas spoke."
                           " When Sir Walter Elliot rose, Lady Bertram bowed."])
    assert names["Sir Thomas"] == 3 and "Thomas" not in names
    assert "When" not in names and "Poor" not in names and "When Sir" not in names
    assert names["Sir Walter Elliot"] == 1 and names["Lady Bertram"] == 1


def test_a_word_mostly_followed_by_a_localizer_is_no_person() -> None:
    """jieba's dictionary tags 松树 (a pine) as a name; 松树下 / 在松树上 says it is a thing."""
    demo = Path(__file__).resolve().parents[2] / "stores" / "demo_world"
    chapters = sorted((demo / "zh").glob("*.txt"))
    names = chinese_person_names(p.read_text("utf-8") for p in chapters)
    assert "松树" not in names
    assert {"沈砚", "韩峥", "顾青禾", "裴昭"} <= set(names)


def test_a_village_names_its_people_by_letters_and_household_titles() -> None:
    # 阿Ｑ and 小Ｄ, 赵太爷 (a surname), 七斤嫂 and 七斤 (written alone too: her husband); not
    # 他的太太 (words of grammar), 老爷 (no one's name before it), 阿Ｑｕｅｉ (a longer word)
    texts = ["阿Ｑ来了。小Ｄ走了。赵太爷骂了阿Ｑｕｅｉ。七斤嫂说，七斤回来了。他的太太哭了。"
             "老爷来了。"] * 5
    found = chinese_household_names(texts, 5)
    assert set(found) == {"阿Ｑ", "小Ｄ", "赵太爷", "七斤嫂", "七斤"}
    assert found["阿Ｑ"] == 5 and found["七斤嫂"] == 5 and found["七斤"] == 5


def test_household_names_give_a_story_of_common_people_its_cast() -> None:
    # 鲁迅's 药 and 风波 as a short made-up passage: 华大妈, 赵七爷 and 九斤老太 beside 九斤
    texts = ["华大妈在枕头底下掏了半天。赵七爷从独木桥上走来。九斤老太正在不平。九斤说。"] * 6
    assert {"华大妈", "赵七爷", "九斤老太"} <= set(chinese_household_names(texts, 5))


def test_a_modern_storys_names_no_dictionary_knows_are_its_people(shared_data: Path) -> None:
    # 呐喊 (a newcomer's trial): 闰土, 老栓, 小栓, 宏儿 and 方玄绰 were no entities; words the
    # dictionary lacks that the text bounds, whose words are nouns and that act (闰土说, 宏儿也)
    names = ("闰土", "老栓", "小栓", "宏儿", "方玄绰")
    before = ("我看见", "于是", "那时", "他们和", "后来")
    after = ("说话了。", "便走了。", "也笑了。", "又来了。", "却哭了。")
    texts = ["".join(f"{b}{n}{after[(i + j) % 5]}" for j, n in enumerate(names))
             for i, b in enumerate(before)]
    texts.append("却说我们到鲁镇去，在鲁镇住下，便是鲁镇的戏台。从鲁镇回来，又到鲁镇看戏。")
    found = dict(chinese_unknown_names(texts, 5))
    assert {n: "person" for n in names}.items() <= found.items(), found
    assert found["鲁镇"] == "place", found  # a town: its name ends in a word for a place
    assert not {"却说", "我们", "回来"} & set(found)  # the dictionary's words
    # 咸亨 is the tavern of 《孔乙己》, written before 酒店 in 5 of its 12 uses: a place, though
    # the text makes it act (咸亨也关上了门) as it makes its people act (a newcomer's trial)
    tavern = ["我到咸亨酒店里去。", "后来咸亨也关上了门。", "于是咸亨的掌柜便说。", "在咸亨酒店喝酒。",
              "那时咸亨却又开了。", "他们和咸亨的柜台。", "便是咸亨酒店，", "看见咸亨掌柜说。",
              "又到咸亨酒店里。", "只有咸亨，却又", "却说咸亨的人。", "直到咸亨也熄了。"]
    found = dict(chinese_unknown_names([*texts, "".join(tavern)], 5))
    assert found["咸亨"] == "place" and found["闰土"] == "person", found


def test_classical_text_leaves_names_to_the_tagger(sanguo: list[str]) -> None:
    # 三国演义's phrases (引军, 人报) are no dictionary's words either: not read so
    assert chinese_unknown_names(sanguo[:20], 5) == []


def test_people_listed_beside_known_people_are_people(sanguo: list[str]) -> None:
    # 李傕 (李 + 傕 to the segmenter), 典韦 (a noun), 文丑 (a dictionary word): 87, 45 and 58
    # mentions, no entity (a newcomer's trial on 三国演义); each stands in lists beside people
    # the tagger found (李傕、郭汜; 颜良、文丑)
    found = chinese_listed_names(sanguo, {"郭汜", "颜良", "曹操", "袁绍", "刘备", "许褚", "樊稠"}, 5)
    assert {"李傕", "文丑", "典韦"} <= set(found), found
    # a verb that opens with a surname's character is no one (从事 in 袁绍、从事 …)
    assert "从事" not in found



def test_an_irish_or_french_name_with_a_capital_and_an_apostrophe_is_one_name() -> None:
    # Dubliners (a newcomer's trial): D'Arcy was "Bartell D", "Mr. D" and "Arcy", O'Connor "Mr.
    # O" and "Connor", M'Coy "Coy"
    names = english_names(["Mr. D'Arcy sang. Then Bartell D'Arcy smiled. Mr. O'Connor came, "
                           "and O'Connor sat. He saw M'Coy. I'd go."])
    assert names["Mr. D'Arcy"] == names["Bartell D'Arcy"] == names["Mr. O'Connor"] == 1
    assert names["O'Connor"] == names["M'Coy"] == 1
    assert not {"Arcy", "Connor", "Coy", "Mr. D", "Mr. O", "Bartell D"} & set(names)
