"""Lorebooks and glossaries the probe broke (issue 39, item 13): a 5000-digit "chapter" was a
traceback (Python's 4300-digit limit), `content` as a list was ingested as an empty entry
without a word, `"disable": "true"` (a string) kept a disabled entry, and `"key"` as an object
dropped the entry silently. Each is now a one-line error naming the file, or (true and false
written as strings) read as meant."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tests.integration.lore import ROOT, lore

pytestmark = pytest.mark.slow  # `lore` in subprocesses

CORPUS = ROOT / "stores" / "demo_world" / "zh"
DIGITS = "9" * 5000


def book(**entry: object) -> str:
    base = {"key": ["沈砚"], "comment": "沈砚", "content": "沈砚在月下吹笛。"}
    return json.dumps({"entries": {"0": {**base, **entry}}}, ensure_ascii=False)


@pytest.mark.parametrize("name, text, said", [
    ("digits.json", book().replace('"content"', f'"chapter": {DIGITS}, "content"'),
     "digits.json:1: a number of 5,000 digits"),
    ("digits.toml", f'[[entity]]\nname = "沈砚"\nchapter = {DIGITS}\n',
     "digits.toml:3: a number of 5,000 digits"),
    ("list.json", book(content=["沈砚在月下吹笛。", "他在柳溪镇教书。"]),
     "the content of entry '沈砚' is a list, not text"),
    ("key.json", book(key={"name": "沈砚"}, comment=""),
     "the keys of entry '#0' are {\"name\": \"沈砚\"}, not a list of text"),
    ("flag.json", book(disable="maybe"), "has disable = \"maybe\", not true or false"),
], ids=["5000-digit chapter (JSON)", "5000-digit chapter (TOML)", "content as a list",
        "key as an object", "disable neither true nor false"])
def test_a_malformed_entry_is_one_clear_error(tmp_path: Path, name: str, text: str,
                                               said: str) -> None:
    glossary = tmp_path / name
    glossary.write_text(text, encoding="utf-8")
    home = tmp_path / "home"
    made = lore("ingest", CORPUS, "--glossary", glossary, "--world", "w", home=home)
    assert made.code == 2, made.out
    assert "Traceback" not in made.err and said in made.err and "→" in made.err
    assert not (home / "worlds" / "w").exists() or "w" not in lore("worlds", home=home).out


def test_a_record_with_a_5000_digit_number_names_its_line(tmp_path: Path) -> None:
    records = tmp_path / "story.jsonl"
    records.write_text('{"text": "沈砚在灯下读书。"}\n'
                       f'{{"text": "苏绾在湖边。", "chapter": {DIGITS}}}\n', encoding="utf-8")
    made = lore("ingest", records, "--world", "w", home=tmp_path / "home")
    assert made.code == 2 and "story.jsonl:2: a number of 5,000 digits" in made.err, made.err


def test_disable_written_as_a_string_disables(tmp_path: Path) -> None:
    glossary = tmp_path / "book.json"
    glossary.write_text(book(disable="true"), encoding="utf-8")
    home = tmp_path / "home"
    made = lore("ingest", CORPUS, "--glossary", glossary, "--world", "w", home=home)
    assert made.code == 0, made.err
    with closing(sqlite3.connect(home / "catalog.db")) as db:
        (found,) = db.execute("SELECT COUNT(*) FROM chunks WHERE text LIKE '%月下吹笛%'"
                              ).fetchone()
    assert found == 0, "a disabled entry was indexed"
