"""Real processes on one session database: kill -9 mid-write, and two writers at once."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from sessions import SessionStore
from sessions.migrations import MIGRATIONS
from tests.sessions._writer import STACK, turn_payload

ROOT = Path(__file__).resolve().parents[2]


def spawn(db: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "tests.sessions._writer", str(db), *args],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def assert_consistent(store: SessionStore, session_id: str) -> tuple[int, int]:
    """Every turn is pending with no stack, or fully answered with its stack: (answered, pending)."""
    counts = {"answered": 0, "pending": 0}
    stacks: dict[int, list[tuple[str, str]]] = {}
    for row in store.db["stack_entries"].rows_where("session_id = ?", [session_id],
                                                   order_by="turn_n, position"):
        stacks.setdefault(row["turn_n"], []).append((row["entity"], row["referred_as"]))
    for turn in store.turns(session_id):
        counts[turn.status] += 1  # KeyError for any other status
        if turn.status == "pending":
            assert turn.answer == "" and turn.messages_json == "" and turn.n not in stacks
            continue
        want = turn_payload(turn.n)
        assert turn.answer == want["answer"]
        assert json.loads(turn.messages_json) == json.loads(want["messages_json"])
        assert turn.citations == want["citations"] and turn.tool_calls == want["tool_calls"]
        assert stacks.get(turn.n) == [(name, f"{name}{turn.n}") for name in STACK], turn.n
    assert [t.n for t in store.turns(session_id)] == list(range(1, sum(counts.values()) + 1))
    return counts["answered"], counts["pending"]


def test_kill_9_mid_write_leaves_whole_turns(lore_home: Path) -> None:
    db = lore_home / "sessions.db"
    with SessionStore(db) as store:
        session_id = store.create_session("sanguo").id
    rng = random.Random(7)
    for _ in range(3):
        proc = spawn(db, "--session", session_id, "--turns", "100000")
        assert proc.stdout.readline().startswith("ready"), proc.stderr.read()
        time.sleep(rng.uniform(0.05, 0.4))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        assert proc.returncode == -signal.SIGKILL
    with SessionStore(db) as store:
        assert store.db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        answered, pending = assert_consistent(store, session_id)
        assert answered > 10  # the writers really wrote before they died
        assert pending <= 3  # at most one question lost its answer per kill
        last = max(t.n for t in store.turns(session_id) if t.status == "answered")
        assert [(e.entity, e.referred_as) for e in store.stack(session_id)] == [
            (name, f"{name}{last}") for name in STACK]


def test_two_processes_on_a_fresh_database(lore_home: Path) -> None:
    db, go = lore_home / "sessions.db", lore_home / "go"
    procs = [spawn(db, "--world", world, "--turns", "60", "--go", str(go))
             for world in ("sanguo", "monte_cristo")]
    ids = []
    for proc in procs:
        line = proc.stdout.readline()
        assert line.startswith("ready"), proc.stderr.read()
        ids.append(line.split()[1])
    go.touch()  # both start writing at the same moment
    for proc in procs:
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        assert out.strip() == "done"
    with SessionStore(db) as store:
        assert store.db["_migrations"].count == len(MIGRATIONS)  # applied once, not twice
        for session_id in ids:
            assert assert_consistent(store, session_id) == (60, 0)
        assert {s.world: s.turn_count for s in store.list_sessions()} == {
            "sanguo": 60, "monte_cristo": 60}


def test_two_processes_in_one_session_number_turns_uniquely(lore_home: Path) -> None:
    db, go = lore_home / "sessions.db", lore_home / "go"
    with SessionStore(db) as store:
        session_id = store.create_session("sanguo").id
    procs = [spawn(db, "--session", session_id, "--turns", "50", "--go", str(go)) for _ in range(2)]
    for proc in procs:
        assert proc.stdout.readline().startswith("ready"), proc.stderr.read()
    go.touch()
    for proc in procs:
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
    with SessionStore(db) as store:
        assert assert_consistent(store, session_id) == (100, 0)
