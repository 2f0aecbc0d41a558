"""`lore eval dialogues` on the bundled demo world, as a user runs it (a separate process)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent.evals.dialogues import DialogueTurn, chapter_recall, expected_entities, score_turn
from tests.integration.lore import ROOT, lore

DIALOGUES = ROOT / "stores" / "demo_world" / "dialogues.jsonl"
TURN_KEYS = {"id", "turn", "q", "resolved_question", "entity_ok", "recall"}


@pytest.fixture(scope="module")
def report(demo_home: Path) -> dict:
    result = lore("eval", "dialogues", "--world", "demo", "--dialogues", DIALOGUES, "--json",
                  home=demo_home)
    assert result.code == 0, result.err
    return json.loads(result.out)


@pytest.mark.slow
def test_the_report_has_the_documented_shape(report: dict) -> None:
    assert set(report) == {"resolution_accuracy", "overall", "followup", "turns"}
    for part in ("overall", "followup"):
        assert set(report[part]) == {"recall", "n"}
        assert 0.0 <= report[part]["recall"] <= 1.0
    records = [json.loads(line) for line in DIALOGUES.read_text(encoding="utf-8").splitlines()
               if line.strip()]
    expected = [(r["id"], n, t["q"]) for r in records for n, t in enumerate(r["turns"], start=1)]
    assert [(t["id"], t["turn"], t["q"]) for t in report["turns"]] == expected
    assert report["overall"]["n"] == len(expected)
    assert report["followup"]["n"] == len(expected) - len(records)


@pytest.mark.slow
def test_follow_ups_are_resolved_and_first_turns_left_alone(report: dict) -> None:
    assert report["resolution_accuracy"] >= 0.8
    for turn in report["turns"]:
        assert set(turn) == TURN_KEYS
        assert isinstance(turn["entity_ok"], bool)
        assert turn["recall"] is None or 0.0 <= turn["recall"] <= 1.0
        if turn["turn"] == 1:
            assert turn["resolved_question"] == turn["q"] and turn["entity_ok"]
    by_key = {(t["id"], t["turn"]): t for t in report["turns"]}
    # 他 after a question about 韩峥's poisoning is 韩峥; "it" after the Guiyan Map is the map
    assert by_key["demo-d1", 3]["resolved_question"] == "韩峥最后死在哪里？"
    assert "Guiyan Map" in by_key["demo-d4", 2]["resolved_question"]
    assert report["overall"]["recall"] >= 0.6  # the cited passages carry the gold chapters


@pytest.mark.slow
def test_the_evaluation_leaves_no_session_behind(demo_home: Path, tmp_path: Path) -> None:
    def sessions() -> list[dict]:
        listed = lore("sessions", "list", "--json", home=demo_home)
        assert listed.code == 0, listed.err
        return json.loads(listed.out)

    before = sessions()  # the demo home is shared: other tests' sessions may be there
    one = tmp_path / "one.jsonl"
    one.write_text(DIALOGUES.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    result = lore("eval", "dialogues", "--world", "demo", "--dialogues", one, "--json",
                  home=demo_home)
    assert result.code == 0, result.err
    assert sessions() == before


@pytest.mark.slow
def test_a_bad_dialogues_file_is_named_with_its_line(demo_home: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "turns": [{"q": "谁？", "resolved": "谁？"}]}\n{"id": "b"}\n',
                   encoding="utf-8")
    result = lore("eval", "dialogues", "--world", "demo", "--dialogues", bad, home=demo_home)
    assert result.code != 0
    assert f"{bad}:2" in result.err and "turns" in result.err


def test_scoring_compares_canonical_names() -> None:
    aliases = {"孔明": "诸葛亮", "诸葛亮": "诸葛亮", "刘备": "刘备", "玄德": "刘备"}

    def names_in(text: str) -> list[str]:
        found = sorted((text.find(a), name) for a, name in aliases.items() if a in text)
        return list(dict.fromkeys(name for _, name in found))

    turn = DialogueTurn(q="他死在哪里？", resolved="诸葛亮死在哪里？", gold_chapters=[104, 105])
    assert expected_entities(turn, names_in, lambda n: aliases.get(n, n)) == ["诸葛亮"]
    ok = score_turn("d", 2, turn, "孔明死在哪里？", [3, 104, 7], names_in,
                    lambda n: aliases.get(n, n), k=2)
    assert ok.entity_ok and ok.recall == 0.5
    wrong = score_turn("d", 2, turn, "玄德死在哪里？", [104, 105], names_in,
                       lambda n: aliases.get(n, n), k=5)
    assert not wrong.entity_ok and wrong.recall == 1.0
    with_entity = DialogueTurn(q="他呢？", resolved="刘备和孔明呢？", entity="玄德")
    assert expected_entities(with_entity, names_in, lambda n: aliases.get(n, n)) == ["刘备"]
    first = DialogueTurn(q="谁请了孔明？", resolved="谁请了孔明？", entity="刘备")
    assert expected_entities(first, names_in, lambda n: aliases.get(n, n)) == ["诸葛亮"]
    assert chapter_recall([1, 2], []) is None
