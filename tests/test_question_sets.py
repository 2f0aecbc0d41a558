"""The evaluation sets in bench/questions: format, counts, and every evidence quote found verbatim
in a gold chapter of the real text (../shared/data)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = ROOT / "bench" / "questions"


def _load_verify():
    spec = importlib.util.spec_from_file_location("bench_questions_verify", QUESTIONS / "verify.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


verify = _load_verify()

# file → number of records (questions or dialogues)
EXPECTED = {
    "sanguo.jsonl": 60,
    "monte_cristo.jsonl": 40,
    "pride_and_prejudice.jsonl": 32,
    "hongloumeng.jsonl": 41,
    "hongloumeng_b.jsonl": 39,
    "sanguo_dialogues.jsonl": 12,
    "monte_cristo_dialogues.jsonl": 8,
    "hongloumeng_dialogues.jsonl": 8,
    "pride_and_prejudice_dialogues.jsonl": 8,
    "cards_sanguo.jsonl": 20,
    "cards_hongloumeng.jsonl": 20,
    "cards_pride_and_prejudice.jsonl": 20,
    "cards_monte_cristo.jsonl": 20,
    "cards_sanguo_b.jsonl": 20,
}


def _records(name: str) -> list[dict]:
    return [json.loads(line) for line in (QUESTIONS / name).read_text(encoding="utf-8").splitlines()
            if line.strip()]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_file_passes_every_check(name: str, shared_data: Path) -> None:
    report = verify.verify_file(QUESTIONS / name, shared_data)
    assert report.errors == []
    assert report.records == EXPECTED[name]


@pytest.mark.parametrize("name,unanswerable", [("sanguo.jsonl", 5), ("monte_cristo.jsonl", 4),
                                                ("hongloumeng.jsonl", 4)])
def test_question_sets_cover_every_type_and_the_whole_book(name: str, unanswerable: int) -> None:
    records = _records(name)
    types = {r["type"] for r in records}
    assert types == verify.TYPES
    assert sum(r["type"] == "unanswerable" for r in records) == unanswerable
    gold = sorted(g for r in records for g in r["gold_chapters"])
    last = 120 if name.startswith(("sanguo", "hongloumeng")) else 117
    thirds = [sum(1 for g in gold if lo < g <= hi)
              for lo, hi in ((0, last // 3), (last // 3, 2 * last // 3), (2 * last // 3, last))]
    assert min(thirds) >= 8, f"early/middle/late gold chapters: {thirds}"


def test_second_hongloumeng_set_covers_every_type_in_the_last_sixty_chapters() -> None:
    """hongloumeng_b was written from 回 61–120 only (verify.py rejects other gold chapters);
    both halves of that range are asked about."""
    records = _records("hongloumeng_b.jsonl")
    assert {r["type"] for r in records} == verify.TYPES
    assert sum(r["type"] == "unanswerable" for r in records) == 4
    gold = [g for r in records for g in r["gold_chapters"]]
    assert all(61 <= g <= 120 for g in gold)
    halves = [sum(1 for g in gold if g <= 90), sum(1 for g in gold if g > 90)]
    assert min(halves) >= 8, f"回 61–90 / 91–120 gold chapters: {halves}"


@pytest.mark.parametrize("name,lo,hi", [("sanguo_dialogues.jsonl", 2, 4),
                                        ("monte_cristo_dialogues.jsonl", 2, 3),
                                        ("hongloumeng_dialogues.jsonl", 3, 4),
                                        ("pride_and_prejudice_dialogues.jsonl", 3, 4)])
def test_dialogues_have_follow_ups_naming_their_entity(name: str, lo: int, hi: int) -> None:
    for dialogue in _records(name):
        assert lo <= len(dialogue["turns"]) <= hi, dialogue["id"]
        for turn in dialogue["turns"][1:]:
            assert turn["entity"] in turn["resolved"]
            assert turn["entity"] not in turn["q"], f"{dialogue['id']}: {turn['q']} is not a follow-up"


def test_wrong_evidence_and_bad_records_are_caught(tmp_path: Path, shared_data: Path) -> None:
    good = _records("sanguo.jsonl")[0]
    bad_lines = [
        dict(good, id="a", gold_chapters=[6]),                       # quote is in 回 5, not 6
        dict(good, id="b", evidence="华雄被张飞斩了"),                   # not in the text; too short
        dict(good, id="c", type="trivia"),
        dict(good, id="d", type="unanswerable"),                      # has gold chapters
        dict(good, id="e", gold_chapters=[121]),
        {"id": "f", "question": "?"},
    ]
    path = tmp_path / "sanguo_broken.jsonl"
    path.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in bad_lines) + "\n{oops\n",
                    encoding="utf-8")
    errors = "\n".join(verify.verify_file(path, shared_data).errors)
    assert "is in none of the gold chapters [6] (found in [5])" in errors
    assert "evidence is 7 characters" in errors and "in none of the gold chapters [5]" in errors
    assert "type 'trivia'" in errors
    assert "unanswerable question has no gold chapters" in errors
    assert "[121] do not exist" in errors
    assert "missing field(s)" in errors
    assert ":7: not JSON" in errors


@pytest.mark.parametrize("name", ["cards_sanguo.jsonl", "cards_hongloumeng.jsonl",
                                  "cards_pride_and_prejudice.jsonl", "cards_monte_cristo.jsonl",
                                  "cards_sanguo_b.jsonl"])
def test_cards_are_twenty_people_by_mentions(name: str) -> None:
    """One card per person, in the order of the writer's own mention counts."""
    records = _records(name)
    assert len({r["entity"] for r in records}) == 20
    mentions = [r["mentions"] for r in records]
    assert mentions == sorted(mentions, reverse=True)


def test_second_sanguo_cards_are_the_next_twenty() -> None:
    """cards_sanguo_b.jsonl holds people 21–40: none of the first file's, none mentioned more."""
    first, second = _records("cards_sanguo.jsonl"), _records("cards_sanguo_b.jsonl")
    assert not {r["entity"] for r in first} & {r["entity"] for r in second}
    assert max(r["mentions"] for r in second) <= min(r["mentions"] for r in first)


def test_bad_cards_are_caught(tmp_path: Path, shared_data: Path) -> None:
    good = _records("cards_sanguo.jsonl")[0]
    bad = [dict(good, id="a", accept=["玄德", "中山靖王"]),          # a name is no answer
           dict(good, id="b", accept=["五丈原", "中山靖王"]),        # not in gold 回 1, 73
           dict(good, id="c", gold_chapters=[2]),                  # quote is in 回 1
           {"id": "d", "entity": "x"}]
    path = tmp_path / "cards_sanguo.jsonl"
    path.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in bad) + "\n",
                    encoding="utf-8")
    errors = "\n".join(verify.verify_file(path, shared_data).errors)
    assert "accept term '玄德' is (part of) the person's name" in errors
    assert "accept term '五丈原' is in none of the gold chapters [1, 73]" in errors
    assert "in none of the gold chapters [2] (found in [1])" in errors
    assert "missing field(s)" in errors
    assert "4 cards, not 20" in errors


def test_dialogue_follow_up_must_be_resolved(tmp_path: Path, shared_data: Path) -> None:
    dialogue = _records("sanguo_dialogues.jsonl")[0]
    dialogue["turns"][1]["resolved"] = dialogue["turns"][1]["q"]
    path = tmp_path / "sanguo_dialogues_broken.jsonl"
    path.write_text(json.dumps(dialogue, ensure_ascii=False) + "\n", encoding="utf-8")
    errors = verify.verify_file(path, shared_data).errors
    assert any("resolved form should differ" in e for e in errors)
    assert any("does not name '诸葛亮'" in e for e in errors)


def test_gold_outside_a_files_chapter_range_is_caught(tmp_path: Path, shared_data: Path) -> None:
    """A question from 回 1 in the 回 61–120 set is named, even though its quote is right."""
    early = _records("hongloumeng.jsonl")[0]
    assert early["gold_chapters"] == [1]
    path = tmp_path / "hongloumeng_b.jsonl"
    path.write_text(json.dumps(early, ensure_ascii=False) + "\n", encoding="utf-8")
    report = verify.verify_file(path, shared_data)
    assert len(report.errors) == 1 and "outside 61–120" in report.errors[0], report.errors


def test_botchan_set_covers_every_type_and_every_chapter(tmp_path: Path, monkeypatch) -> None:
    """botchan.jsonl is held out and its text is fetched by bench/texts.py, never downloaded
    here: with an empty cache verify.py still checks the format and says how to fetch the text."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    report = verify.verify_file(QUESTIONS / "botchan.jsonl")
    assert report.records == 42
    assert report.errors == [f"botchan.jsonl: the chapters of 'botchan' are not in "
                             f"{tmp_path / 'lorekeeper' / 'texts' / 'botchan'}: run "
                             f".venv/bin/python bench/texts.py botchan"]
    assert set(report.types) == verify.TYPES and min(report.types.values()) >= 3
    records = _records("botchan.jsonl")
    assert {g for r in records for g in r["gold_chapters"]} == set(range(1, 12))


def test_botchan_quotes_are_checked_in_the_fetched_chapters(tmp_path: Path, monkeypatch) -> None:
    """verify.py reads Botchan from bench/texts.py's cache: a quote filed under the wrong
    chapter is named with the chapter that holds it."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    texts = verify._texts_module()
    cache = texts.default_cache("botchan")
    texts.write_chapters(["The boy jumped from the second story.", "A badger-like principal."],
                         cache, texts.SOURCES["botchan"])
    good = {"id": "x", "type": "fact", "question": "Who?", "answer": "The principal.",
            "gold_chapters": [1], "evidence": "badger-like principal"}
    path = tmp_path / "botchan_broken.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(dict(good, id="y", gold_chapters=[2]))
                    + "\n", encoding="utf-8")
    errors = verify.verify_file(path).errors
    assert errors == ["botchan_broken.jsonl:1: evidence 'badger-like principal' is in none of "
                      "the gold chapters [1] (found in [2])"]
