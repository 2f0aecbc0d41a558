"""The bundled demo world is well formed: what `lore demo` ingests and what the evals ask about.

Deliberately independent of the readers and extractors (they are tested elsewhere): this file
parses the demo world with the standard library only, so a broken demo file is reported here
with its path and line, not as a puzzling failure in an ingest test.
"""

from __future__ import annotations

import json
import re
import tomllib
from functools import cache
from importlib import resources
from pathlib import Path

import pytest

from stores.models import RELATION_TYPES

ENTITY_TYPES = {"person", "place", "faction", "item", "event", "other"}
QUESTION_TYPES = {"fact", "alias", "relation", "timeline", "multi_hop", "exact", "unanswerable"}
ZH_HEADING = re.compile(r"^第([一二三四五六七八九十]+)回 (\S+) (\S+)$")
EN_HEADING = re.compile(r"^# Chapter (\d+)\. (\S.*)$")
SPEAKER_LINE = re.compile(r"^([^：:\s]{1,12})：(\S.*)$")
COURTESY = re.compile(r"姓(.)，名(..?)，字(..)")
HAN = re.compile(r"[\u4e00-\u9fff]")
PRONOUN = re.compile(r"他|她|它|那里|这把剑|\b(?:he|she|it|its|they|them|him|her|there)\b",
                     re.IGNORECASE)


@cache
def world() -> Path:
    """The demo world where the installed package keeps it (the path `lore demo` uses)."""
    return Path(str(resources.files("stores") / "demo_world"))


def read(path: Path) -> str:
    return path.read_bytes().decode("utf-8")


def chinese_number(numeral: str) -> int:
    """一 … 九十九 (enough for chapter headings)."""
    digits = {c: i for i, c in enumerate("一二三四五六七八九", 1)}
    if "十" not in numeral:
        return digits[numeral]
    tens, _, ones = numeral.partition("十")
    return digits.get(tens, 1) * 10 + digits.get(ones, 0)


@cache
def chapters() -> dict[int, tuple[Path, str]]:
    """Chapter number → (file, text) over both halves of the world."""
    found: dict[int, tuple[Path, str]] = {}
    for path in sorted((world() / "zh").glob("*.txt")) + sorted((world() / "en").glob("*.md")):
        text = read(path)
        first = text.splitlines()[0]
        m = ZH_HEADING.match(first) or EN_HEADING.match(first)
        assert m, f"{path}:1: heading does not parse: {first!r}"
        number = chinese_number(m.group(1)) if first.startswith("第") else int(m.group(1))
        assert number not in found, f"{path}: chapter {number} also in {found[number][0]}"
        found[number] = (path, text)
    return found


@cache
def glossary() -> list[dict]:
    with (world() / "glossary.toml").open("rb") as f:
        return tomllib.load(f)["entity"]


def jsonl(name: str) -> list[dict]:
    path = world() / name
    rows = []
    for n, line in enumerate(read(path).splitlines(), 1):
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as e:
            pytest.fail(f"{path}:{n}: {e}")
    return rows


def all_text() -> str:
    return "\n".join(read(p) for p in world().rglob("*") if p.suffix in {".txt", ".md"}
                     and p.name != "README.md")


def test_every_file_is_utf8_without_bom() -> None:
    files = [p for p in world().rglob("*") if p.is_file()]
    assert len(files) >= 14
    for path in files:
        raw = path.read_bytes()
        assert not raw.startswith(b"\xef\xbb\xbf"), f"{path}: BOM"
        raw.decode("utf-8")
        assert b"\r" not in raw, f"{path}: CR line endings"


def test_chapters_are_numbered_one_to_ten_with_unique_numbers() -> None:
    numbers = sorted(chapters())
    assert numbers == list(range(1, 11))
    assert all(chapters()[n][0].parent.name == "zh" for n in range(1, 7))
    assert all(chapters()[n][0].parent.name == "en" for n in range(7, 11))
    for n in range(1, 7):
        assert chapters()[n][0].name == f"{n:02d}.txt"
    for n in range(7, 11):
        assert chapters()[n][0].name == f"chapter-{n:02d}.md"


@pytest.mark.parametrize("number", range(1, 7))
def test_chinese_chapter_layout(number: int) -> None:
    path, text = chapters()[number]
    lines = text.splitlines()
    assert lines[1] == "", f"{path}:2: the heading must be followed by one blank line"
    body = lines[2:]
    for n, line in enumerate(body, 3):
        assert line.strip() == line and line, f"{path}:{n}: one paragraph per line, no blanks"
    han = len(HAN.findall("".join(body)))
    assert 1500 <= han <= 2500, f"{path}: {han} Han characters"


@pytest.mark.parametrize("number", range(7, 11))
def test_english_chapter_layout(number: int) -> None:
    path, text = chapters()[number]
    assert text.splitlines()[1] == ""
    blocks = [b for b in text.split("\n\n")[1:] if b.strip()]
    assert len(blocks) >= 15, f"{path}: paragraphs must be separated by blank lines"
    for block in blocks:
        assert "\n" not in block.strip(), f"{path}: a paragraph spans lines: {block[:40]!r}"
    words = len(re.findall(r"[A-Za-z']+", text))
    assert 800 <= words <= 1500, f"{path}: {words} words"


def test_some_english_chapters_have_scene_headings() -> None:
    with_scenes = [n for n in range(7, 11) if "\n## " in chapters()[n][1]]
    assert 2 <= len(with_scenes) < 4


def test_dialogue_script_parses() -> None:
    path = world() / "dialogue" / "scene-01.txt"
    lines = read(path).splitlines()
    # both scenes happen in chapter 2 (the crossing, the walk after the banquet): the script's
    # own chapter heading says so
    heading = ZH_HEADING.match(lines[0].removeprefix("# "))
    assert lines[0].startswith("# ") and heading and heading.group(1) == "二", lines[0]
    assert heading.group(2, 3) == ZH_HEADING.match(chapters()[2][1].splitlines()[0]).group(2, 3)
    headings = [ln for ln in lines if ln.startswith("## ")]
    assert headings == ["## 夜渡", "## 湖边"] and lines[1] == "## 夜渡"
    speakers = set()
    for n, line in enumerate(lines, 1):
        if line.startswith("#"):
            continue
        m = SPEAKER_LINE.match(line)
        assert m, f"{path}:{n}: not `Speaker：line`: {line!r}"
        speakers.add(m.group(1))
    assert 25 <= len(lines) - len(headings) - 1 <= 40
    names = {e["name"] for e in glossary()}
    assert speakers <= names, f"speakers missing from the glossary: {speakers - names}"
    assert {"沈砚", "苏绾", "顾青禾"} <= speakers


def test_glossary_entries_are_valid_and_relations_resolve() -> None:
    entries = glossary()
    names = [e["name"] for e in entries]
    assert len(names) == len(set(names)), "duplicate entity names"
    for e in entries:
        assert e["type"] in ENTITY_TYPES, e["name"]
        assert e["description"], e["name"]
        for rel in e.get("relations", []):
            assert rel["type"] in RELATION_TYPES, (e["name"], rel)
            assert rel["target"] in names, (e["name"], rel)
            assert rel["target"] != e["name"]
    by_type = {t: sum(e["type"] == t for e in entries) for t in ENTITY_TYPES}
    assert by_type["person"] >= 6 and by_type["place"] >= 5 and by_type["item"] >= 2


def test_aliases_are_unambiguous() -> None:
    owner: dict[str, str] = {e["name"]: e["name"] for e in glossary()}
    for e in glossary():
        for alias in e["aliases"]:
            assert alias not in owner or owner[alias] == e["name"], \
                f"{alias!r} names both {owner[alias]} and {e['name']}"
            owner[alias] = e["name"]
    # Both halves of the world link up through romanised aliases.
    assert owner["Shen Yan"] == owner["青崖"] == "沈砚"
    assert owner["Ruoting"] == "苏绾" and owner["Lone Swan sword"] == "断鸿剑"


def test_every_glossary_entity_is_mentioned_in_the_story() -> None:
    text = all_text()
    for e in glossary():
        forms = [e["name"], *e["aliases"]]
        assert any(f in text for f in forms), f"{e['name']} never appears"


def test_two_courtesy_names_are_left_to_the_pattern_extractor() -> None:
    known = {a for e in glossary() for a in (e["name"], *e["aliases"])}
    intros = {f"{s}{g}": z for s, g, z in COURTESY.findall(all_text())}
    assert intros == {"沈砚": "青崖", "苏绾": "若汀", "韩峥": "定远", "顾怀山": "伯岩"}
    left = sorted(name for name, zi in intros.items() if zi not in known)
    assert left == ["韩峥", "顾怀山"]


def test_key_facts_the_evals_rely_on() -> None:
    text = {n: t for n, (_, t) in chapters().items()}
    assert "死在了听雨阁里" in text[3] and "死在了落星崖上" in text[6]
    assert "今日我传给你" in text[4] and "断鸿剑" in text[4]
    assert "Jonah Pike died at Hanting Ferry" in text[10]
    for n in range(1, 11):
        assert ("沈砚" in text[n]) or ("Shen Yan" in text[n]), f"chapter {n} lost its hero"


def test_questions_are_well_formed_and_evidence_is_verbatim() -> None:
    rows = jsonl("questions.jsonl")
    assert len(rows) == 25
    assert len({r["id"] for r in rows}) == 25
    for r in rows:
        assert set(r) == {"id", "type", "question", "answer", "gold_chapters", "evidence"}, r["id"]
        assert r["type"] in QUESTION_TYPES, r["id"]
        if r["type"] == "unanswerable":
            assert r["gold_chapters"] == [], r["id"]
            continue
        assert r["gold_chapters"] and set(r["gold_chapters"]) <= set(chapters()), r["id"]
        assert r["evidence"], r["id"]
        assert any(r["evidence"] in chapters()[n][1] for n in r["gold_chapters"]), \
            f"{r['id']}: evidence not verbatim in chapters {r['gold_chapters']}"
    types = {r["type"] for r in rows}
    assert types == QUESTION_TYPES
    assert sum(r["type"] == "unanswerable" for r in rows) == 3
    english = sum(bool(re.match(r"[A-Za-z]", r["question"])) for r in rows)
    assert 6 <= english <= 19, "mix Chinese and English questions"


def test_dialogues_have_pronoun_follow_ups() -> None:
    rows = jsonl("dialogues.jsonl")
    assert len(rows) == 5
    for d in rows:
        turns = d["turns"]
        assert len(turns) >= 3, d["id"]
        assert turns[0]["q"] == turns[0]["resolved"], d["id"]
        for t in turns:
            assert set(t) == {"q", "resolved", "answer", "gold_chapters"}, d["id"]
            assert t["gold_chapters"] and set(t["gold_chapters"]) <= set(chapters()), d["id"]
        for t in turns[1:]:
            assert PRONOUN.search(t["q"]), f"{d['id']}: {t['q']!r} is not a follow-up"
            assert t["resolved"] != t["q"], d["id"]
