"""`lore eval retrieval` as a user runs it: a separate process on a real 三国演义 world."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.integration.lore import lore

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow

QUESTIONS = [
    {"id": "t-1", "type": "fact", "question": "谁斩了华雄？", "answer": "关羽",
     "gold_chapters": [5], "evidence": "酒尚温时斩华雄"},
    {"id": "t-2", "type": "alias", "question": "玄德三顾草庐请出山的是哪位先生？",
     "answer": "诸葛亮", "gold_chapters": [37, 38], "evidence": ""},
    {"id": "t-3", "type": "timeline", "question": "关羽在哪一回死的？", "answer": "第七十七回",
     "gold_chapters": [77], "evidence": ""},
    {"id": "t-4", "type": "unanswerable", "question": "张三丰在书里教了赵云什么武功？",
     "answer": "书中没有张三丰", "gold_chapters": [], "evidence": ""},
]


def _write(path: Path, records: list[dict] | list[str]) -> Path:
    lines = [r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def report(sanguo_home: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    questions = _write(tmp_path_factory.mktemp("eval") / "q.jsonl", QUESTIONS)
    result = lore("eval", "retrieval", "--world", "sanguo", "--questions", questions, "--k", "5",
                  "--json", home=sanguo_home)
    assert result.code == 0, result.err
    return json.loads(result.out)


def test_the_json_report_has_the_documented_shape(report: dict) -> None:
    assert report["k"] == 5
    assert set(report["overall"]) == {"recall", "hit", "mrr", "n"}
    assert report["overall"]["n"] == len(QUESTIONS)
    assert set(report["by_type"]) == {q["type"] for q in QUESTIONS}
    for summary in (report["overall"], *report["by_type"].values()):
        assert set(summary) == {"recall", "hit", "mrr", "n"}
        assert all(0.0 <= summary[key] <= 1.0 for key in ("recall", "hit", "mrr"))
    latency = report["latency_ms"]
    assert set(latency) >= {"p50", "p95"} and 0 < latency["p50"] <= latency["p95"]
    # The single retrievers are scored on the same answerable questions.
    for name in ("bm25", "dense", "hybrid"):
        assert report["baselines"][name]["answerable"]["n"] == len(QUESTIONS) - 1


def test_the_agent_finds_the_gold_chapters_and_refuses_no_answerable_one(report: dict) -> None:
    by_type = report["by_type"]
    assert by_type["fact"]["recall"] == 1.0  # 谁斩了华雄 → 第五回
    assert by_type["timeline"]["recall"] == 1.0  # 关羽之死 → 第七十七回
    assert by_type["alias"]["hit"] == 1.0  # 玄德 → 刘备, 三顾草庐 → 37/38
    # 张三丰 is not in the book: the librarian says so as evidence, it does not refuse
    # (refusing on missing names and words refused answerable questions on held-out books)
    assert by_type["unanswerable"]["n"] == 1 and report["refused_answerable"] == []


def test_the_table_is_the_default_output(sanguo_home: Path, tmp_path: Path) -> None:
    questions = _write(tmp_path / "q.jsonl", QUESTIONS[:1])
    result = lore("eval", "retrieval", "--world", "sanguo", "--questions", questions,
                  "--no-baselines", home=sanguo_home)
    assert result.code == 0, result.err
    assert "recall@5" in result.out and "fact" in result.out and "p50" in result.out


@pytest.mark.parametrize("line, needle", [
    ('{"id": "x", "type": "trivia", "question": "谁？", "gold_chapters": [1]}', "type"),
    ('{"id": "x", "type": "fact", "question": "谁？", "gold_chapters": [1]', "JSON"),
    ('{"id": "x", "type": "fact", "gold_chapters": [1]}', "question"),
])
def test_a_bad_questions_file_names_the_line(sanguo_home: Path, tmp_path: Path, line: str,
                                             needle: str) -> None:
    bad = _write(tmp_path / "bad.jsonl", [json.dumps(QUESTIONS[0], ensure_ascii=False), "", line])
    result = lore("eval", "retrieval", "--world", "sanguo", "--questions", bad, "--json",
                  home=sanguo_home)
    assert result.code != 0
    assert "Traceback" not in result.err, result.err
    assert "bad.jsonl:3" in result.err and needle in result.err, result.err


def test_a_missing_questions_file_or_world_is_a_clear_error(sanguo_home: Path,
                                                            tmp_path: Path) -> None:
    result = lore("eval", "retrieval", "--world", "sanguo", "--questions", tmp_path / "none.jsonl",
                  home=sanguo_home)
    assert result.code != 0 and "none.jsonl" in result.err and "Traceback" not in result.err
    questions = _write(tmp_path / "q.jsonl", QUESTIONS[:1])
    result = lore("eval", "retrieval", "--world", "ghost", "--questions", questions,
                  home=sanguo_home)
    assert result.code != 0 and "ghost" in result.err and "Traceback" not in result.err
