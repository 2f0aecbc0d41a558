"""`lore ask` with a real model prints the answer as it streams, and only JSON with --json.

The model is the fake OpenAI-compatible server of tests/agent/fake_llm.py (streaming the answer a
few characters every 50 ms), reached through the real openai client in a separate `lore`
process, configured the way a user would: LORE_MODEL__* environment variables."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.agent.fake_llm import FakeServer
from tests.integration.lore import ROOT

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow

QUESTION = "沈砚的结义兄弟是谁？"


def model_env(server: FakeServer, home: Path) -> dict[str, str]:
    return {**os.environ, "LORE_HOME": str(home), "LORE_MODEL__PROVIDER": "openai",
            "LORE_MODEL__NAME": "fake-model", "LORE_MODEL__BASE_URL": server.url,
            "LORE_MODEL__RETRIES": "0"}


def test_ask_prints_the_answer_while_it_arrives(demo_home: Path) -> None:  # noqa: F811
    with FakeServer("openai", chunk_delay_s=0.05) as server:
        proc = subprocess.Popen([sys.executable, "-m", "tui", "ask", QUESTION, "--world", "demo",
                                 "--new"], cwd=ROOT, env=model_env(server, demo_home),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert proc.stdout is not None
        reads: list[tuple[bytes, bool]] = []  # (bytes read, was the process still running)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            chunk = proc.stdout.read1(4096)
            if not chunk:
                break
            reads.append((chunk, proc.poll() is None))
        proc.wait(timeout=30)
        err = proc.stderr.read().decode() if proc.stderr else ""
    out = b"".join(chunk for chunk, _ in reads).decode()
    assert proc.returncode == 0, err
    answer_line = out.splitlines()[0]
    assert answer_line.endswith("[1]") and "[1] " in out  # the answer, then its citation
    live = [chunk for chunk, running in reads if running]
    assert len(live) >= 3, f"the answer came in {len(reads)} piece(s), not as it streamed"
    assert out.count(answer_line) == 1  # streamed once, not printed again at the end


def test_ask_json_prints_only_json(demo_home: Path) -> None:  # noqa: F811
    with FakeServer("openai", chunk_delay_s=0.0) as server:
        proc = subprocess.run([sys.executable, "-m", "tui", "ask", QUESTION, "--world", "demo",
                               "--new", "--json"], cwd=ROOT, env=model_env(server, demo_home),
                              capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    printed = json.loads(proc.stdout)
    assert printed["answer"].endswith("[1]") and printed["resolved_question"] == QUESTION
