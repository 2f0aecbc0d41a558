"""Issue 25 #6: an answer's length is capped (model.max_answer_chars) on the terminal and in the
session database, and a reply rejected for its citations is not streamed again on each retry."""

from __future__ import annotations

import base64
import json
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from tests.agent.fake_llm import FakeServer
from tests.integration.lore import ROOT
from tests.integration.test_small_model_cli import ask, sent_ids

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow

WORDS = 5_000  # 15,000 characters (the probe's 100,000 words also cost minutes of streaming)


def test_a_runaway_answer_is_cut_on_screen_and_in_the_session(demo_copy: Path) -> None:
    def brain(body: dict[str, Any], n: int) -> dict[str, Any]:
        if n == 1:
            return {"tool_calls": [{"name": "keyword_search", "arguments": {"query": "沈砚"}}]}
        return {"content": "沈砚 " * WORDS}  # a runaway reply, no citation

    with FakeServer("openai", brain=brain) as server:
        done = ask(server, demo_copy, max_answer_chars="2000", max_tokens="0")
    assert done.returncode == 0, done.stderr
    assert len(done.stdout) < 4000, len(done.stdout)
    assert "cut at 2,000 characters (model.max_answer_chars)" in done.stdout
    session = done.stderr.split("session ")[-1].split(" ")[0]
    exported = subprocess.run([sys.executable, "-m", "tui", "sessions", "export", session,
                               "--format", "json"], cwd=ROOT, capture_output=True, text=True,
                              env={**os.environ, "LORE_HOME": str(demo_copy)}, timeout=120)
    answer = json.loads(exported.stdout)["turns"][0]["answer"]
    assert len(answer) < 2200 and "model.max_answer_chars" in answer


def test_a_rejected_reply_is_not_streamed_again(demo_copy: Path) -> None:
    def brain(body: dict[str, Any], n: int) -> dict[str, Any]:
        if n <= 2:  # an answer before reading anything: rejected, and sent again
            return {"content": "REJECTED-REPLY 沈砚是书生"}
        if n == 3:
            return {"tool_calls": [{"name": "keyword_search", "arguments": {"query": "沈砚"}}]}
        return {"content": f"沈砚是书生 [{sent_ids(body)[0]}]"}

    with FakeServer("openai", brain=brain) as server:
        done = ask(server, demo_copy, max_tokens="0")
    assert done.returncode == 0, done.stderr
    assert len(server.requests) == 4, len(server.requests)
    assert done.stdout.count("REJECTED-REPLY") <= 1, done.stdout
    assert "沈砚是书生 [1]" in done.stdout


KEY = "zq7-private-0f3a9c2e11b4d5"
PASSWORD = "hunter2pass"
PAIR = base64.b64encode(f"lore:{PASSWORD}".encode()).decode()


def test_a_rejected_runaway_reply_is_kept_neither_whole_nor_with_its_secrets(
        demo_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The model's raw reply (messages_json, the next turn's history) is capped and redacted
    like the answer: a rejected 15,000-character reply quoting the key, a URL password and a
    basic-auth pair leaves none of them, and not its whole length, in sessions.db."""
    leak = (f"key {KEY} at http://lore:{PASSWORD}@llm.example/v1 "
            f"(Authorization: Basic {PAIR}) ")

    def brain(body: dict[str, Any], n: int) -> dict[str, Any]:
        if n == 1:  # an answer before reading anything: rejected
            return {"content": leak + "沈砚 " * WORDS}
        if n == 2:
            return {"tool_calls": [{"name": "keyword_search", "arguments": {"query": "沈砚"}}]}
        return {"content": f"沈砚是书生 [{sent_ids(body)[0]}]"}

    monkeypatch.setenv("MY_LLM_KEY", KEY)
    with FakeServer("openai", brain=brain) as server:
        done = ask(server, demo_copy, max_answer_chars="2000", max_tokens="0",
                   api_key_env="MY_LLM_KEY")
    assert done.returncode == 0, done.stderr
    assert len(server.requests) == 3 and leak in json.dumps(server.requests[1]["body"],
                                                              ensure_ascii=False)
    with closing(sqlite3.connect(demo_copy / "sessions.db")) as db:
        (stored,) = db.execute("SELECT messages_json FROM turns").fetchone()
    assert "cut at 2,000 characters (model.max_answer_chars)" in stored
    assert len(stored) < 15_000, len(stored)
    raw = b"".join(p.read_bytes() for p in demo_copy.glob("sessions.db*"))
    for secret in (KEY, PASSWORD, PAIR):
        assert secret.encode() not in raw, secret


def test_a_secret_split_across_streamed_pieces_never_reaches_stdout(
        demo_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server streams a reply six characters at a time, so every secret in it arrives cut
    in two; what lore ask prints while it streams, and after, holds none of them."""
    leak = (f"沈砚的钥匙是{KEY}，网址 http://lore:{PASSWORD}@llm.example/v1 ，"
            f"Authorization: Basic {PAIR} ")

    def brain(body: dict[str, Any], n: int) -> dict[str, Any]:
        if n == 1:
            return {"tool_calls": [{"name": "keyword_search", "arguments": {"query": "沈砚"}}]}
        return {"content": f"{leak}沈砚是书生 [{sent_ids(body)[0]}]"}

    monkeypatch.setenv("MY_LLM_KEY", KEY)
    with FakeServer("openai", brain=brain) as server:
        done = ask(server, demo_copy, max_tokens="0", api_key_env="MY_LLM_KEY")
    assert done.returncode == 0, done.stderr
    assert "沈砚的钥匙是" in done.stdout and "[REDACTED]" in done.stdout  # it did stream
    for secret in (KEY, PASSWORD, PAIR):
        assert secret not in done.stdout + done.stderr, secret
