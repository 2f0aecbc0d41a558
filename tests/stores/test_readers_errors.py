"""Every bad input is an InputError that names the file (and the line where there is one)."""

from __future__ import annotations

from pathlib import Path

import pytest

from stores.errors import InputError, LoreError
from stores.readers import read_document, read_glossary


def _error(path: Path, reader=read_document) -> str:
    with pytest.raises(InputError) as caught:
        reader(path)
    assert isinstance(caught.value, LoreError) and caught.value.hint  # says what to do
    message = str(caught.value)
    assert str(path) in message
    return message


def test_missing_path(tmp_path: Path) -> None:
    assert "not found" in _error(tmp_path / "nowhere.txt")


def test_directory(tmp_path: Path) -> None:
    folder = tmp_path / "chapters.txt"
    folder.mkdir()
    assert "directory" in _error(folder)


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_bytes(b"")
    assert "empty" in _error(path)


def test_whitespace_only_file(tmp_path: Path) -> None:
    path = tmp_path / "blank.md"
    path.write_text("  \n\t\r\n\u3000\n", encoding="utf-8")
    assert "whitespace" in _error(path)


def test_binary_png(tmp_path: Path) -> None:
    path = tmp_path / "cover.txt"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\x00\x00\x01\x00\x08")
    assert "binary" in _error(path) and "PNG" in _error(path)


def test_binary_control_bytes(tmp_path: Path) -> None:
    path = tmp_path / "blob"
    path.write_bytes(bytes(range(1, 32)) * 20)
    assert "binary" in _error(path)


def test_undecodable_bytes_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.txt"
    path.write_bytes("第一回 启程\n林照背起行囊。\n".encode() + b"\xff\xfe\xfd\n"
                     + "沈舟在渡口等她。\n".encode())
    message = _error(path)
    assert f"{path}:3" in message and "UTF-8" in message


def test_unsupported_extension(tmp_path: Path) -> None:
    path = tmp_path / "book.epub"
    path.write_bytes(b"PK\x03\x04")
    assert "unsupported" in _error(path)


def test_malformed_json_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "glossary.json"
    path.write_text('[\n  {"name": "Mara"},\n  {"name": "Ilse"\n  {"name": "Zhou"}\n]\n',
                    encoding="utf-8")
    message = _error(path)
    assert f"{path}:4" in message and "line 4" in message


def test_malformed_jsonl_line_three(tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    path.write_text('{"text": "one"}\n{"text": "two"}\n{"text": "three"\n{"text": "four"}\n',
                    encoding="utf-8")
    message = _error(path)
    assert f"{path}:3" in message and "line 3" in message


def test_toml_syntax_error_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "glossary.toml"
    path.write_text('[[entity]]\nname = "林照"\naliases = ["阿照",\ntype = person\n',
                    encoding="utf-8")
    message = _error(path, read_glossary)
    assert "TOML" in message and f"{path}:4" in message


def test_toml_without_entities(tmp_path: Path) -> None:
    path = tmp_path / "glossary.toml"
    path.write_text('title = "not a glossary"\n', encoding="utf-8")
    assert "[[entity]]" in _error(path)


def test_glossary_with_unknown_relation_type(tmp_path: Path) -> None:
    path = tmp_path / "glossary.json"
    path.write_text('{"entities": [{"name": "Mara",\n "relations": '
                    '[{"type": "owes_money_to", "target": "Ilse"}]}]}', encoding="utf-8")
    message = _error(path, read_glossary)
    assert "owes_money_to" in message and "Mara" in message and "ally" in message


def test_lorebook_without_entries(tmp_path: Path) -> None:
    path = tmp_path / "world.json"
    path.write_text('{"name": "Salt Coast", "description": "no entries here"}', encoding="utf-8")
    assert "entries" in _error(path)


def test_lorebook_with_empty_entries(tmp_path: Path) -> None:
    path = tmp_path / "world.json"
    path.write_text('{"entries": {}}', encoding="utf-8")
    assert "no entries" in _error(path, read_glossary)


def test_glossary_entity_without_name(tmp_path: Path) -> None:
    path = tmp_path / "glossary.toml"
    path.write_text('[[entity]]\naliases = ["x"]\n', encoding="utf-8")
    assert "no name" in _error(path)
