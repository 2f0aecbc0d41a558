"""Courtesy-name patterns on hand-made sentences and on the real 三国演义."""

from __future__ import annotations

from pathlib import Path

import pytest

from stores.entities.patterns import courtesy_names, english_aliases


def chapter(shared_data: Path, number: int) -> str:
    return (shared_data / "sanguo_yanyi" / "chapters" / f"{number:03d}.txt").read_text("utf-8")


@pytest.fixture(scope="module")
def novel(shared_data: Path) -> str:
    files = sorted((shared_data / "sanguo_yanyi" / "chapters").glob("*.txt"))
    return "\n".join(f.read_text("utf-8") for f in files)


@pytest.mark.parametrize(("text", "expected"), [
    ("其人姓刘，名备，字玄德。", [("刘备", ["玄德", "刘玄德"])]),
    ("此人复姓诸葛，名亮，字孔明，乃汉司隶校尉诸葛丰之后。", [("诸葛亮", ["孔明", "诸葛孔明"])]),
    ("某东莱黄县人也，覆姓太史，名慈，字子义。", [("太史慈", ["子义", "太史子义"])]),
    ("吾姓关，名羽，字长生，后改云长，河东解良人也。",
     [("关羽", ["长生", "云长", "关长生", "关云长"])]),
    ("某姓张名飞，字翼德。", [("张飞", ["翼德", "张翼德"])]),
    ("沛国谯郡人也，姓曹名操字孟德。", [("曹操", ["孟德", "曹孟德"])]),
    ("此人乃颍川徐庶，字元直。", [("徐庶", ["元直", "徐元直"])]),
    ("乃袁逢之子，袁隗之侄：名绍，字本初，现为司隶校尉。", [("袁绍", ["本初", "袁本初"])]),
    ("夏侯渊有四子：长名霸，字仲权；次名威，字季权。",
     [("夏侯霸", ["仲权", "夏侯仲权"]), ("夏侯威", ["季权", "夏侯季权"])]),
    ("令书记陈琳草檄。琳字孔璋，素有才名。", [("陈琳", ["孔璋", "陈孔璋"])]),
    # what everyone calls them, right after the 字
    ("此医乃洛阳人，姓吉，名太，字称平，人皆呼为吉平，当时名医。",
     [("吉太", ["称平", "吉称平", "吉平"])]),
    # a full name alone between punctuation and 字
    ("曹仁字子孝，曹洪字子廉：二人弓马熟娴。",
     [("曹仁", ["子孝", "曹子孝"]), ("曹洪", ["子廉", "曹子廉"])]),
])
def test_introductions(text: str, expected: list) -> None:
    assert courtesy_names(text) == expected


@pytest.mark.parametrize("text", [
    "名亮，字孔明。",  # no surname anywhere in the sentence
    "原祢衡：年二十四，字正平。",  # 十四 is no name
    "他写了一个大字，字迹潦草。",
    "喜，取白绢一幅，先书名画字。",
    "玄德曰：吾写个字样，那三字是：卧龙。",  # no surname before 字
    "，将军字子龙。",  # 将 is a surname, 将军 no name: a title before 字 names no one
])
def test_no_false_pairs(text: str) -> None:
    assert courtesy_names(text) == []


def test_chapter_one_introduces_the_three_brothers(shared_data: Path) -> None:
    found = dict(courtesy_names(chapter(shared_data, 1)))
    assert {"玄德", "刘玄德"} <= set(found["刘备"])
    assert {"云长", "关云长", "长生"} <= set(found["关羽"])
    assert {"翼德", "张翼德"} <= set(found["张飞"])


def test_xu_shu_recommends_zhuge_liang(shared_data: Path) -> None:
    files = sorted((shared_data / "sanguo_yanyi" / "chapters").glob("*.txt"))
    number = next(int(f.stem) for f in files if "字孔明" in f.read_text("utf-8"))
    found = dict(courtesy_names(chapter(shared_data, number)))
    assert found["诸葛亮"][:2] == ["孔明", "诸葛孔明"]


def test_whole_novel_pairs_are_many_and_right(novel: str) -> None:
    found = dict(courtesy_names(novel))
    assert len(found) >= 150
    truth = {"曹操": "孟德", "孙坚": "文台", "吕布": "奉先", "赵云": "子龙", "周瑜": "公瑾",
             "鲁肃": "子敬", "庞统": "士元", "徐庶": "元直", "马超": "孟起", "孙策": "伯符",
             "孙权": "仲谋", "陆逊": "伯言", "司马懿": "仲达", "姜维": "伯约", "法正": "孝直",
             "夏侯惇": "元让", "毋丘俭": "仲恭", "甘宁": "兴霸"}
    for name, zi in truth.items():
        assert zi in found[name], name
    # A 道号 shortly after the 字 (亮字孔明，道号卧龙先生) is an alias too.
    assert found["司马徽"][:2] == ["德操", "司马德操"] and "水镜" in found["司马徽"]
    assert {"卧龙", "卧龙先生"} <= set(found["诸葛亮"])
    assert "阿瞒" in found["曹操"]  # 曹嵩生操，小字阿瞒
    for name, aliases in found.items():
        # Every person has a 2–3 character name and a two-character 字 in first place.
        assert 2 <= len(name) <= 3, name
        assert len(aliases[0]) == 2 and aliases[0] not in found, (name, aliases)
    # 刘理 and 郭嘉 share 奉孝: both are reported, the resolver settles the clash.
    assert "奉孝" in found["郭嘉"] and "奉孝" in found["刘理"]


def test_english_aliases() -> None:
    text = ("There stood Jean Valjean, known as Monsieur Madeleine, beside Luigi Vampa, known "
            "as the King of the Campagna. He said it to Peppino, called Rocca\nPriori, and the "
            "Englishman, called Lord Wilmore.")
    found = {name: aliases for name, aliases, _ in english_aliases(text)}
    assert found["Jean Valjean"] == ["Monsieur Madeleine"]
    assert "Luigi Vampa" not in found  # "the King of …" is a title
    assert found["Peppino"] == ["Rocca Priori"]
    assert "Englishman" not in found and "He" not in found
