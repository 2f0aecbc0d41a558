"""Prose reader on the real corpora: chapter numbers, titles, paragraphs and their line spans."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from stores.models import Chapter, Paragraph
from stores.readers import read_document


def _paragraphs(chapter: Chapter) -> list[Paragraph]:
    return [p for scene in chapter.scenes for p in scene.paragraphs]


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").replace("\r\n", "\n").split("\n")


@pytest.mark.parametrize(("number", "title"), [
    (1, "宴桃园豪杰三结义 斩黄巾英雄首立功"),
    (36, "玄德用计袭樊城 元直走马荐诸葛"),
    (37, "司马徽再荐名士 刘玄德三顾草庐"),
])
def test_sanguo_chapter_file(shared_data: Path, number: int, title: str) -> None:
    path = shared_data / "sanguo_yanyi" / "chapters" / f"{number:03d}.txt"
    doc = read_document(path, fallback_chapter=99)
    assert doc.kind == "prose" and doc.encoding == "utf-8" and doc.path == str(path)
    [chapter] = doc.chapters
    assert (chapter.number, chapter.title, chapter.line_start) == (number, title, 1)
    lines = _lines(path)
    paragraphs = _paragraphs(chapter)
    # One paragraph per line: every non-empty line after the heading, each with its own line.
    assert len(paragraphs) == sum(1 for line in lines[1:] if line.strip())
    for p in paragraphs:
        assert p.line_start == p.line_end
        assert lines[p.line_start - 1].strip() == p.text
    assert paragraphs[0].line_start == 3


def test_sanguo_paragraph_lines_by_content(shared_data: Path) -> None:
    path = shared_data / "sanguo_yanyi" / "chapters" / "001.txt"
    paragraphs = _paragraphs(read_document(path).chapters[0])
    by_text = {p.text: p.line_start for p in paragraphs}
    assert by_text["——调寄《临江仙》"] == 5
    assert paragraphs[-1].text.endswith("且听下文分解。")
    lines = _lines(path)
    last_line = max(i for i, line in enumerate(lines, start=1) if line.strip())
    assert paragraphs[-1].line_start == last_line == 25


def test_sanguo_traditional_gutenberg_edition(shared_data: Path) -> None:
    path = shared_data / "sanguo_yanyi" / "pg23950_sanguo_yanyi_traditional.txt"
    doc = read_document(path)
    numbers = [c.number for c in doc.chapters]
    assert numbers == list(range(1, 121))  # 第一○○回, 第一一八回 … read digit by digit
    first, last = doc.chapters[0], doc.chapters[-1]
    assert first.title == "宴桃園豪傑三結義，斬黃巾英雄首立功" and first.line_start == 2
    assert doc.chapters[99].title == "漢兵劫寨破曹真，武侯鬥陣辱仲達"
    assert last.title == "薦杜預老將獻新謀，降孫皓三分歸一統"
    # Hard-wrapped at ~40 characters: a paragraph joins its lines without spaces.
    lines = _lines(path)
    p = _paragraphs(first)[2]
    assert p.line_end > p.line_start
    assert p.text == "".join(line.strip() for line in lines[p.line_start - 1:p.line_end])
    # The Gutenberg end notice is not story text.
    assert "Gutenberg" not in _paragraphs(last)[-1].text
    assert _paragraphs(last)[-1].text.endswith("後人憑弔空牢騷。")


def test_monte_cristo_chapter_file(shared_data: Path) -> None:
    path = shared_data / "monte_cristo" / "chapters" / "001.txt"
    [chapter] = read_document(path).chapters
    assert (chapter.number, chapter.title) == (1, "Marseilles—The Arrival")
    lines = _lines(path)
    first = _paragraphs(chapter)[0]
    assert (first.line_start, first.line_end) == (3, 5)
    # Wrapped English lines join with single spaces.
    assert first.text == " ".join(line.strip() for line in lines[2:5])
    assert first.text.startswith("On the 24th of February, 1815,")


def test_monte_cristo_full_skips_the_table_of_contents(shared_data: Path) -> None:
    path = shared_data / "monte_cristo" / "pg1184_full.txt"
    doc = read_document(path)
    # The file lists "Chapter N. Title" twice: 117 contents lines, then 117 real headings.
    headings = sum(1 for line in _lines(path) if line.strip().startswith("Chapter ")
                   and line.strip().split(" ")[1].rstrip(".").isdigit())
    assert headings == 234
    assert [c.number for c in doc.chapters] == list(range(1, 118))
    assert doc.chapters[0].line_start == 159  # the real heading, not the contents entry
    assert doc.chapters[114].title == "Luigi Vampa’s Bill of Fare"
    texts = [p.text for c in doc.chapters for p in _paragraphs(c)]
    assert "VOLUME ONE" not in texts and "VOLUME TWO" not in texts
    # an image's file name where the picture stood is no paragraph: "40062m" opened a line
    # of Haydée's timeline (a newcomer's trial)
    assert not [t for t in texts if re.fullmatch(r"\d+m", t)]
    assert doc.encoding == "utf-8"


def test_pride_and_prejudice_full(shared_data: Path) -> None:
    path = shared_data / "pride_and_prejudice" / "pg1342_full.txt"
    doc = read_document(path)
    numbers = [c.number for c in doc.chapters]
    # `Chapter I.]` (inside an illustration block), then `CHAPTER II.` … `CHAPTER LXI.`;
    # Saintsbury's preface before it is substantial front matter: chapter 0.
    assert numbers == list(range(0, 62))
    assert doc.chapters[1].line_start == 670
    first = _paragraphs(doc.chapters[1])[0]
    assert first.text.startswith("It is a truth universally acknowledged")
    texts = [p.text for c in doc.chapters[1:] for p in _paragraphs(c)]
    assert not any(t.startswith(("[Illustration", "[_Copyright")) for t in texts)


def test_full_simplified_edition_with_arabic_headings(shared_data: Path) -> None:
    doc = read_document(shared_data / "sanguo_yanyi" / "sanguo_yanyi_full.txt")
    assert [c.number for c in doc.chapters] == list(range(1, 121))  # `第1章 …`, CRLF endings
    assert doc.chapters[0].title == "宴桃园豪杰三结义 斩黄巾英雄首立功"


def test_file_without_heading_takes_number_from_name(tmp_path: Path) -> None:
    path = tmp_path / "chapter-07.md"
    path.write_text("The Harbour at Dawn\n\nMara walked the quay before the bells.\n\n"
                    "Nobody answered her.\n", encoding="utf-8")
    [chapter] = read_document(path).chapters
    assert (chapter.number, chapter.title) == (7, "The Harbour at Dawn")
    assert [(p.text, p.line_start) for p in _paragraphs(chapter)] == [
        ("Mara walked the quay before the bells.", 3), ("Nobody answered her.", 5)]


def test_file_without_heading_or_number_uses_fallback(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("雨下了一整夜，林照没有睡。\n天亮时她推开窗，看见码头上站满了人。\n",
                    encoding="utf-8")
    [chapter] = read_document(path, fallback_chapter=5).chapters
    assert (chapter.number, chapter.title) == (5, "")  # the first line is a sentence
    assert [p.line_start for p in _paragraphs(chapter)] == [1, 2]


def test_chapters_headed_by_their_number_alone(tmp_path: Path) -> None:
    # The Island of Doctor Moreau heads its chapters "I. IN THE DINGEY OF THE "LADY VAIN.""
    path = tmp_path / "book.txt"
    body = "Mara walked the quay before the bells.\n\nNobody answered her.\n\n"
    path.write_text(f"I. THE QUAY.\n\n{body}II. THE BELLS.\n\n{body}III.\n\n{body}",
                    encoding="utf-8")
    assert [(c.number, c.title) for c in read_document(path).chapters] == [
        (1, "THE QUAY."), (2, "THE BELLS."), (3, "")]
    # a numbered list is no chapters: its items are no capitals, or it counts too few
    listed = ("She packed:\n\n1. the lamp\n\n2. the map\n\n3. the knife\n\n" + body
              + "She sang:\n\nI. ONE\n\nII. TWO\n\n" + body)
    path.write_text(listed, encoding="utf-8")
    assert len(read_document(path).chapters) == 1


def test_stories_headed_by_a_title_in_capitals(tmp_path: Path) -> None:
    # Dubliners heads each story by its title alone ("THE SISTERS", "ARABY", … "THE DEAD"),
    # read as one chapter before (a newcomer's trial); a headline quoted in a story is
    # indented, and the book's own title right before the first story heads nothing
    path = tmp_path / "book.txt"
    body = "".join(f"Mara walked the quay before the bells, line {n}.\n" for n in range(40))
    headline = "\n DEATH OF A LADY AT SYDNEY PARADE\n A PAINFUL CASE\n\n"
    path.write_text(f"DUBLIN TALES\n\nTHE SISTERS\n\n{body}\nARABY\n\n{body}{headline}{body}"
                    f"\nTHE DEAD\n\n{body}", encoding="utf-8")
    assert [(c.number, c.title) for c in read_document(path).chapters] == [
        (1, "THE SISTERS"), (2, "ARABY"), (3, "THE DEAD")]
    # two such lines are no chapters, nor are capitals within a sentence's lines
    path.write_text(f"THE SISTERS\n\n{body}\nARABY\n\n{body}", encoding="utf-8")
    assert len(read_document(path).chapters) == 1


def test_short_front_matter_is_dropped_long_is_chapter_zero(tmp_path: Path) -> None:
    body = "第一章 启程\n\n林照背起行囊。\n\n第二章 渡口\n\n船夫在等她。\n"
    short = tmp_path / "short.txt"
    short.write_text("潮声集\n作者：无名\n\n" + body, encoding="utf-8")
    assert [c.number for c in read_document(short).chapters] == [1, 2]
    long = tmp_path / "long.txt"
    long.write_text("序\n\n" + "这是一段很长的序言。" * 30 + "\n\n" + body, encoding="utf-8")
    chapters = read_document(long).chapters
    assert [c.number for c in chapters] == [0, 1, 2]
    assert [c.title for c in chapters[1:]] == ["启程", "渡口"]


def test_scene_breaks_and_headings(tmp_path: Path) -> None:
    path = tmp_path / "tale.txt"
    path.write_text(
        "Chapter XII\n\nThe storm broke.\n\n* * *\n\nMorning came.\n\n◇◇◇\n\nNight again.\n\n"
        "CHAPTER XIII.\n\nA new day.\n\n※\n\nThe end.\n", encoding="utf-8")
    chapters = read_document(path).chapters
    assert [(c.number, c.title) for c in chapters] == [(12, ""), (13, "")]
    assert [[p.text for p in s.paragraphs] for s in chapters[0].scenes] == [
        ["The storm broke."], ["Morning came."], ["Night again."]]
    assert [s.number for s in chapters[0].scenes] == [1, 2, 3]
    assert len(chapters[1].scenes) == 2


def test_markdown_levels_mark_chapters_and_scenes(tmp_path: Path) -> None:
    path = tmp_path / "book.md"
    path.write_text(
        "# The Salt Road\n\n## At the Gate\n\nMara waited\nby the gate.\n\n## Inside\n\n"
        "The hall was cold.\n\n# Chapter 5: Ashes\n\nEverything burned.\n\n---\n\nSmoke.\n",
        encoding="utf-8")
    chapters = read_document(path, fallback_chapter=3).chapters
    assert [(c.number, c.title) for c in chapters] == [(3, "The Salt Road"), (5, "Ashes")]
    assert [s.title for s in chapters[0].scenes] == ["At the Gate", "Inside"]
    gate = chapters[0].scenes[0].paragraphs[0]
    assert (gate.text, gate.line_start, gate.line_end) == ("Mara waited by the gate.", 5, 6)
    assert [[p.text for p in s.paragraphs] for s in chapters[1].scenes] == [
        ["Everything burned."], ["Smoke."]]


def test_markdown_book_title_over_chapter_headings(tmp_path: Path) -> None:
    path = tmp_path / "book.md"
    path.write_text("# 潮声集\n\n## 第一章 启程\n\n林照背起行囊。\n\n### 夜\n\n她没有回头。\n\n"
                    "## 第二章 渡口\n\n船夫在等她。\n", encoding="utf-8")
    chapters = read_document(path).chapters
    assert [(c.number, c.title) for c in chapters] == [(1, "启程"), (2, "渡口")]
    assert [s.title for s in chapters[0].scenes] == ["", "夜"]


@pytest.mark.parametrize(("heading", "number", "title"), [
    ("第一百二十回 荐杜预老将献新谋", 120, "荐杜预老将献新谋"),
    ("第一一八回：", 118, ""),
    ("第一○○回：漢兵劫寨破曹真", 100, "漢兵劫寨破曹真"),
    ("第廿三章 归来", 23, "归来"),
    ("第12节", 12, ""),
    ("第两千零八章", 2008, ""),
    ("Chapter 1. Marseilles—The Arrival", 1, "Marseilles—The Arrival"),
    ("CHAPTER IV.", 4, ""),
    ("Chapter XLVI.", 46, ""),
    ("Chapter Twenty-One: The Ball", 21, "The Ball"),
])
def test_heading_forms(heading: str, number: int, title: str) -> None:
    from stores.readers.headings import chapter_heading

    found = chapter_heading(heading)
    assert found is not None and (found.number, found.title) == (number, title)


@pytest.mark.parametrize("line", [
    "第四鎮，兗州刺史劉岱。第五鎮，河內郡太守王匡。第六鎮，陳留太守張邈。第七鎮，",
    "第二回合，张飞挺矛直取吕布，两马相交，战到五十合。",
    "chapter of the Life of Pope Alexander VI., were the following lines,",
    "Chapter 5 of the old book says otherwise.",
    "Heading to Chapter LVI.                                              431",
])
def test_body_lines_are_not_headings(line: str) -> None:
    from stores.readers.headings import chapter_heading

    assert chapter_heading(line) is None


def test_markdown_novel_with_one_paragraph_per_line(shared_data: Path, tmp_path: Path) -> None:
    """A Chinese novel saved as .md keeps one paragraph per (long) line, with its line."""
    source = (shared_data / "sanguo_yanyi" / "chapters" / "001.txt").read_text(encoding="utf-8")
    path = tmp_path / "sanguo.md"
    path.write_text("# " + source, encoding="utf-8")
    [chapter] = read_document(path).chapters
    assert (chapter.number, chapter.title) == (1, "宴桃园豪杰三结义 斩黄巾英雄首立功")
    paragraphs = _paragraphs(chapter)
    assert len(paragraphs) == 23
    assert all(p.line_start == p.line_end for p in paragraphs)
