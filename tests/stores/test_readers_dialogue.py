"""Dialogue scripts and JSONL records, written by the tests (original text)."""

from __future__ import annotations

from pathlib import Path

import pytest

from stores.errors import InputError
from stores.readers import read_document

SCRIPT_ZH = """\
第一幕 雨夜

场景：旧码头
林照：船还没到吗？
沈舟：再等一刻。潮水不对。
雨越下越大，灯笼一盏盏灭了。
林照（低声）：我听见桨声了。

[Scene: The lighthouse]
沈舟：上去看看。
老周：别去，那里有人。
"""

SCRIPT_EN = """\
## The Gate

Mara: Open the gate.
Guard: Not before the bells.
The rain kept falling.
Mara: Then I will wait.

INT. GUARDHOUSE - NIGHT

Guard: You again?
Captain Ilse: Let her through.
"""


def _scenes(path: Path) -> list[list[tuple[str, str, int]]]:
    doc = read_document(path)
    return [[(p.speaker, p.text, p.line_start) for p in scene.paragraphs]
            for chapter in doc.chapters for scene in chapter.scenes]


def test_chinese_script_with_full_width_colons(tmp_path: Path) -> None:
    path = tmp_path / "script.txt"
    path.write_text(SCRIPT_ZH, encoding="utf-8")
    doc = read_document(path, fallback_chapter=4)
    assert doc.kind == "dialogue"
    [chapter] = doc.chapters
    assert chapter.number == 4
    assert [s.title for s in chapter.scenes] == ["旧码头", "The lighthouse"]
    first, second = _scenes(path)
    assert first == [
        ("林照", "林照：船还没到吗？", 4),
        ("沈舟", "沈舟：再等一刻。潮水不对。", 5),
        ("", "雨越下越大，灯笼一盏盏灭了。", 6),  # narration
        ("林照（低声）", "林照（低声）：我听见桨声了。", 7),  # the speaker as written
    ]
    assert [speaker for speaker, _, _ in second] == ["沈舟", "老周"]


def test_english_script_with_ascii_colons(tmp_path: Path) -> None:
    path = tmp_path / "gate.md"
    path.write_text(SCRIPT_EN, encoding="utf-8")
    doc = read_document(path)
    assert doc.kind == "dialogue"
    assert [s.title for s in doc.chapters[0].scenes] == ["The Gate", "INT. GUARDHOUSE - NIGHT"]
    gate, guardhouse = _scenes(path)
    assert [speaker for speaker, _, _ in gate] == ["Mara", "Guard", "", "Mara"]
    assert guardhouse[-1] == ("Captain Ilse", "Captain Ilse: Let her through.", 11)


def test_script_with_chapter_headings(tmp_path: Path) -> None:
    path = tmp_path / "acts.txt"
    path.write_text("第一章 出海\n林照：走吧。\n沈舟：好。\n\n第二章 归来\n林照：到了。\n沈舟：嗯。\n",
                    encoding="utf-8")
    doc = read_document(path)
    assert doc.kind == "dialogue"
    assert [(c.number, c.title) for c in doc.chapters] == [(1, "出海"), (2, "归来")]


@pytest.mark.parametrize("heading", ["# 第二回 舟中", "# Chapter 2. On the boat", "第二回 舟中"])
def test_a_scripts_chapter_heading_places_its_scenes_in_that_chapter(tmp_path: Path,
                                                                     heading: str) -> None:
    # the file name says 1; the script's own heading says where in the story it happens
    path = tmp_path / "scene-01.txt"
    path.write_text(f"{heading}\n## 夜渡\n林照：走吧。\n沈舟：好。\n## 湖边\n林照：到了。\n"
                    "沈舟：嗯。\n", encoding="utf-8")
    doc = read_document(path)
    assert doc.kind == "dialogue"
    assert [c.number for c in doc.chapters] == [2]
    assert [s.title for s in doc.chapters[0].scenes] == ["夜渡", "湖边"]


def test_a_script_without_a_chapter_heading_is_placed_by_its_file_name(tmp_path: Path) -> None:
    path = tmp_path / "scene-03.txt"
    path.write_text("## 湖边\n林照：到了。\n沈舟：嗯。\n", encoding="utf-8")
    assert [c.number for c in read_document(path).chapters] == [3]


def test_prose_with_some_quoted_speech_is_not_a_script(tmp_path: Path) -> None:
    path = tmp_path / "prose.txt"
    path.write_text("林照站在码头上，看着远处的灯火，很久没有说话。\n"
                    "沈舟曰：“船来了。”\n"
                    "她点点头，把斗笠压低，跟着人群往前走去，雨水顺着帽檐滴下来。\n"
                    "码头尽头，一条旧船正缓缓靠岸，船头挂着一盏昏黄的灯。\n", encoding="utf-8")
    assert read_document(path).kind == "prose"


def test_key_value_list_is_not_a_script(tmp_path: Path) -> None:
    path = tmp_path / "facts.txt"
    path.write_text("Name: Mara\nHome: Saltgate\nAge: thirty\nTrade: smuggler\n",
                    encoding="utf-8")
    assert read_document(path).kind == "prose"


def test_jsonl_records_group_into_chapters_and_scenes(tmp_path: Path) -> None:
    path = tmp_path / "quests.jsonl"
    path.write_text(
        '{"text": "The bells rang twice.", "chapter": 2, "chapter_title": "Bells", "scene": 1}\n'
        '{"text": "Open the gate.", "chapter": 2, "scene": 1, "speaker": "Mara"}\n'
        '\n'
        '{"text": "Inside, the hall was cold.", "chapter": 2, "scene": "The hall"}\n'
        '{"text": "A new day.", "chapter": 3}\n'
        '{"text": "No chapter given."}\n', encoding="utf-8")
    doc = read_document(path, fallback_chapter=9)
    assert doc.kind == "jsonl"
    assert [(c.number, c.title) for c in doc.chapters] == [(2, "Bells"), (3, ""), (9, "")]
    bells = doc.chapters[0]
    assert [(s.number, s.title) for s in bells.scenes] == [(1, ""), (2, "The hall")]
    mara = bells.scenes[0].paragraphs[1]
    assert (mara.speaker, mara.text, mara.line_start, mara.line_end) == (
        "Mara", "Open the gate.", 2, 2)
    assert bells.scenes[1].paragraphs[0].line_start == 4


@pytest.mark.parametrize(("record", "needle"), [
    ('{"chapter": 1}', 'no "text"'),
    ('{"text": 5}', '"text"'),
    ('["text"]', "not an object"),
    ('{"text": "x", "chapter": "two"}', "not a number"),
])
def test_jsonl_bad_record_names_its_line(tmp_path: Path, record: str, needle: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"text": "fine"}\n{"text": "also fine"}\n' + record + "\n",
                    encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_document(path)
    message = str(caught.value)
    assert f"{path}:3" in message and "line 3" in message and needle in message
