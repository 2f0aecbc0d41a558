"""`lore ask`, `lore sessions` and `lore timeline` as a user runs them: separate processes, real
stores, 三国演义 chapters 1, 2, 5, 36–38, 77 and 104 (the `sanguo_home` fixture)."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sessions import SessionStore
from tests.integration.lore import ROOT, lore

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow

ASK_KEYS = {"answer", "resolved_question", "citations", "entities", "tool_calls", "stop_reason",
            "stack", "likely_answer", "session_id"}
CITATION_KEYS = {"chunk_id", "chapter", "source", "lines", "quote"}


def ask(home: Path, *args: str, env: dict[str, str] | None = None) -> dict:
    result = lore("ask", *args, "--world", "sanguo", "--json", home=home, env=env)
    assert result.code == 0, result.err
    out = json.loads(result.out)
    assert set(out) == ASK_KEYS
    for citation in out["citations"]:
        assert set(citation) == CITATION_KEYS and len(citation["lines"]) == 2
    assert all(set(call) == {"tool", "args"} for call in out["tool_calls"])
    assert all(set(entry) == {"entity", "referred_as", "guess"} for entry in out["stack"])
    return out


def export(home: Path, session_id: str) -> dict:
    result = lore("sessions", "export", session_id, "--format", "json", home=home)
    assert result.code == 0, result.err
    return json.loads(result.out)


@pytest.fixture(scope="module")
def dialogue(sanguo_home: Path) -> tuple[dict, dict]:
    """A who-question in a new session, then a follow-up from a second process."""
    first = ask(sanguo_home, "刘备三顾茅庐请的是谁？", "--new")
    return first, ask(sanguo_home, "他最后死在哪里？")


def test_a_session_carries_over_between_processes(sanguo_home: Path,
                                                  dialogue: tuple[dict, dict]) -> None:
    first, second = dialogue
    session_id = first["session_id"]
    assert first["resolved_question"] == "刘备三顾茅庐请的是谁？"
    assert second["session_id"] == session_id  # the last session continues by default
    new_entities = [e for e in first["entities"] if e != "刘备"]
    assert new_entities and second["resolved_question"] == f"{new_entities[0]}最后死在哪里？"

    listed = lore("sessions", "list", "--world", "sanguo", "--json", home=sanguo_home)
    assert listed.code == 0, listed.err
    top = json.loads(listed.out)[0]
    assert (top["id"], top["turn_count"], top["first_question"]) == (
        session_id, 2, "刘备三顾茅庐请的是谁？")
    data = export(sanguo_home, session_id)
    assert data["stack"][0] == {"entity": new_entities[0], "referred_as": "他"}
    assert [t["resolved_question"] for t in data["turns"]] == [
        first["resolved_question"], second["resolved_question"]]
    shown = lore("sessions", "show", session_id, home=sanguo_home)
    assert shown.code == 0 and "*read as:* " + second["resolved_question"] in shown.out


def test_the_issue_acceptance_dialogue(dialogue: tuple[dict, dict]) -> None:
    first, follow = dialogue
    assert first["entities"][0] == "诸葛亮"
    assert follow["resolved_question"] == "诸葛亮最后死在哪里？"
    assert 104 in {c["chapter"] for c in follow["citations"]}


def _spawn_ask(home: Path, question: str) -> subprocess.Popen[str]:
    env = {**os.environ, "LORE_HOME": str(home)}
    return subprocess.Popen([sys.executable, "-m", "tui", "ask", question, "--world", "sanguo"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def test_kill_9_during_ask_leaves_the_question_pending(sanguo_home: Path,
                                                       dialogue: tuple[dict, dict]) -> None:
    session_id = dialogue[0]["session_id"]
    topic = dialogue[1]["resolved_question"].removesuffix("最后死在哪里？")
    proc = _spawn_ask(sanguo_home, "他临终前把兵法传给了谁？")
    deadline = time.monotonic() + 60
    with SessionStore(sanguo_home / "sessions.db") as store:
        while time.monotonic() < deadline and proc.poll() is None:
            if len(store.turns(session_id)) == 3:
                break
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)  # the model is running: the answer never comes
        proc.wait(timeout=10)
        assert proc.returncode == -signal.SIGKILL
        assert store.db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        turns = store.turns(session_id)
        assert [(t.question, t.status) for t in turns][2] == ("他临终前把兵法传给了谁？", "pending")
        assert store.pending_turns(session_id)[0].n == 3
        assert store.stack(session_id)[0].entity == topic  # the answered turns' stack stands
    # the stores open again after the kill, and continuing by an id prefix keeps the stack
    after = ask(sanguo_home, "他临终前把兵法传给了谁？", "--session", session_id[:12])
    assert after["session_id"] == session_id
    assert after["resolved_question"] == f"{topic}临终前把兵法传给了谁？"
    turns = export(sanguo_home, session_id)["turns"]
    # opening the session again ended the killed process's turn: it no longer waits forever
    assert [t["status"] for t in turns] == ["answered", "answered", "failed", "answered"]
    assert turns[2]["error"].startswith("interrupted: the process that asked it")


def test_a_model_error_keeps_the_question_and_no_secret_is_stored(sanguo_home: Path,
                                                                  tmp_path: Path) -> None:
    secret = "sk-lore-test-0123456789abcdefXYZ"
    env = {"LORE_MODEL__PROVIDER": "openai", "LORE_MODEL__BASE_URL": "http://127.0.0.1:9/v1",
           "LORE_MODEL__NAME": "nothing", "LORE_MODEL__RETRIES": "0",
           "OPENAI_API_KEY": secret}
    question = f"我的钥匙是 {secret}，刘备是谁？"
    result = lore("ask", question, "--world", "sanguo", "--new", home=sanguo_home, env=env)
    assert result.code == 4, result.err
    assert "did not answer" in result.err and "saved as turn 1 of session" in result.err
    session_id = result.err.split("of session ")[1].split(":")[0].strip()
    data = export(sanguo_home, session_id)
    (turn,) = data["turns"]
    assert turn["status"] == "failed" and "刘备是谁？" in turn["question"]
    out = tmp_path / "session.md"
    written = lore("sessions", "export", session_id, "--format", "md", "--out", out,
                   home=sanguo_home, env={"OPENAI_API_KEY": secret})
    assert written.code == 0, written.err
    markdown = out.read_text(encoding="utf-8")
    assert "failed — no answer" in markdown and "[REDACTED]" in markdown
    raw = b"".join(p.read_bytes() for p in sanguo_home.glob("sessions.db*"))
    assert secret not in json.dumps(data) and secret not in markdown
    assert secret.encode() not in raw


def test_timeline_in_three_formats(sanguo_home: Path, tmp_path: Path) -> None:
    as_json = lore("timeline", "关云长", "--world", "sanguo", "--format", "json", home=sanguo_home)
    assert as_json.code == 0, as_json.err
    data = json.loads(as_json.out)
    assert set(data) == {"entity", "aliases", "events"}
    assert data["entity"] == "关羽" and "云长" in data["aliases"]
    events = data["events"]
    assert events[0]["chapter"] == 1
    assert events[0]["chapter_title"] == "宴桃园豪杰三结义 斩黄巾英雄首立功"
    chapters = [e["chapter"] for e in events]
    assert chapters == sorted(chapters) and {1, 5, 77} <= set(chapters)
    orders = [e["event_order"] for e in events]
    assert orders == sorted(orders) and len(set(orders)) == len(orders)
    for e in events:
        assert set(e) == {"chapter", "chapter_title", "event_order", "gist", "source", "lines"}
        assert e["lines"][0] <= e["lines"][1] and Path(e["source"]).name == f"{e['chapter']:03d}.txt"
        lines = Path(e["source"]).read_text(encoding="utf-8").splitlines()
        span = "".join(lines[e["lines"][0] - 1: e["lines"][1]])
        assert e["gist"].rstrip("…")[:10] in span

    out = tmp_path / "guan.csv"
    as_csv = lore("timeline", "云长", "--world", "sanguo", "--format", "csv", "--out", out,
                  home=sanguo_home)
    assert as_csv.code == 0 and str(out) in as_csv.out
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert [int(r["event_order"]) for r in rows] == orders
    assert [r["gist"] for r in rows] == [e["gist"] for e in events]

    as_md = lore("timeline", "关羽", "--world", "sanguo", "--format", "md", home=sanguo_home)
    assert as_md.code == 0, as_md.err
    table = [line for line in as_md.out.splitlines() if line.startswith("| ") and "---" not in line]
    assert as_md.out.startswith("# Timeline of 关羽") and len(table) == len(events) + 1
    assert "宴桃园豪杰三结义" in table[1] and "| 1 |" in table[1]


def test_unknown_names_and_sessions_are_clear_errors(sanguo_home: Path) -> None:
    result = lore("timeline", "贾宝玉", "--world", "sanguo", home=sanguo_home)
    assert result.code == 2 and "贾宝玉" in result.err and "Traceback" not in result.err
    result = lore("sessions", "show", "NOSUCHSESSION", home=sanguo_home)
    assert result.code == 2 and "lore sessions list" in result.err
    result = lore("ask", "谁？", "--session", "NOSUCHSESSION", home=sanguo_home)
    assert result.code == 2 and "NOSUCHSESSION" in result.err
    result = lore("ask", "谁？", "--world", "nowhere", home=sanguo_home)
    assert result.code == 2 and "no world named 'nowhere'" in result.err
    assert "did you mean" not in result.err
    for typo in ("Sanguo", "sanguoo"):  # a typo is not a world to make (newcomer's trial)
        result = lore("ask", "谁？", "--world", typo, home=sanguo_home)
        assert result.code == 2 and "did you mean --world sanguo?" in result.err, result.err
    listed = lore("sessions", "list", "--world", "nowhere", "--json", home=sanguo_home)
    assert listed.code == 2 and "no world named 'nowhere'" in listed.err  # not "none yet"
