"""decode_file detects the encoding of real Chinese chapters written in every supported one."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from stores.readers import decode_file, read_document


@pytest.fixture(scope="module")
def simplified(shared_data: Path) -> str:
    return (shared_data / "sanguo_yanyi" / "chapters" / "037.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def traditional(shared_data: Path) -> str:
    """The first 回 of the Gutenberg traditional edition (hard-wrapped lines 2–170)."""
    path = shared_data / "sanguo_yanyi" / "pg23950_sanguo_yanyi_traditional.txt"
    lines = path.read_text(encoding="utf-8").split("\n")[1:170]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("encoding", "names"), [
    ("utf-8", {"utf-8"}),
    ("utf-8-sig", {"utf-8-sig"}),
    ("gb18030", {"gb18030", "gbk"}),
    ("gbk", {"gbk", "gb18030"}),
])
def test_simplified_chapter_in_each_encoding(tmp_path: Path, simplified: str, encoding: str,
                                             names: set[str]) -> None:
    path = tmp_path / f"037-{encoding}.txt"
    path.write_bytes(simplified.encode(encoding))
    text, found = decode_file(path)
    assert text == simplified and not text.startswith("\ufeff")
    assert found in names


@pytest.mark.parametrize(("encoding", "names"), [
    ("big5", {"big5", "cp950"}),
    ("utf-8", {"utf-8"}),
    ("gb18030", {"gb18030", "gbk"}),
])
def test_traditional_text_in_each_encoding(tmp_path: Path, traditional: str, encoding: str,
                                           names: set[str]) -> None:
    path = tmp_path / f"pg-{encoding}.txt"
    path.write_bytes(traditional.encode(encoding))  # fails loudly if a character has no code
    text, found = decode_file(path)
    assert text == traditional and found in names


@pytest.mark.parametrize(("text", "encoding"), [
    ("玄德曰：「善。」\n", "big5"),
    ("玄德曰：“善。”\n", "gbk"),
    ("劉備\n", "big5"),
    ("刘备\n", "gbk"),
])
def test_short_chinese_files(tmp_path: Path, text: str, encoding: str) -> None:
    """charset-normalizer gives up on these; the common-character score does not."""
    path = tmp_path / "short.txt"
    path.write_bytes(text.encode(encoding))
    assert decode_file(path) == (text, encoding)


def test_windows_1252_english(tmp_path: Path) -> None:
    text = "Mercédès waited at the Catalans — “Edmond,” she said.\n"
    path = tmp_path / "legacy.txt"
    path.write_bytes(text.encode("cp1252"))
    assert decode_file(path) == (text, "cp1252")


def test_utf16_with_bom(tmp_path: Path) -> None:
    path = tmp_path / "utf16.txt"
    path.write_bytes(codecs.BOM_UTF16_LE + "林照：走吧。\n".encode("utf-16-le"))
    assert decode_file(path) == ("林照：走吧。\n", "utf-16")


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_line_endings_become_lf(tmp_path: Path, newline: str) -> None:
    path = tmp_path / "crlf.txt"
    path.write_bytes(newline.join(["第一回 启程", "", "林照背起行囊。", ""]).encode("gbk"))
    text, _ = decode_file(path)
    assert text == "第一回 启程\n\n林照背起行囊。\n"
    [chapter] = read_document(path).chapters
    assert chapter.scenes[0].paragraphs[0].line_start == 3


def test_read_document_reports_the_encoding(tmp_path: Path, traditional: str) -> None:
    path = tmp_path / "001.txt"
    path.write_bytes(traditional.encode("big5"))
    doc = read_document(path)
    assert doc.encoding == "big5"
    assert [(c.number, c.title) for c in doc.chapters] == [(1, "宴桃園豪傑三結義，斬黃巾英雄首立功")]
