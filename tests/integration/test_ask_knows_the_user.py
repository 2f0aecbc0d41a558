"""`lore ask` knows the user: the world defaults to the only one (else the one used last) and it
says so; it says which session it continues; a misspelled name's advice is a command the user can
type; a streamed answer is printed once on a terminal."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.agent.fake_llm import FakeServer
from tests.integration.lore import ROOT, lore
from tests.integration.test_small_model_cli import sent_ids, small_model_env

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow


@pytest.fixture
def home(demo_home: Path, tmp_path: Path) -> Path:
    """A copy of the demo data dir: these tests write sessions."""
    shutil.copytree(demo_home, tmp_path / "home")
    return tmp_path / "home"


def test_ask_uses_the_only_world_and_says_which_session_it_continues(home: Path) -> None:
    first = lore("ask", "Who is Su Wan?", home=home)
    assert first.code == 0, first.err
    assert "world: demo (the only world; --world picks another)" in first.err
    assert "new session " in first.err
    session = first.err.split("new session ", 1)[1].split()[0]
    again = lore("ask", "她后来怎么了？", home=home)
    assert again.code == 0, again.err
    assert f"continuing session {session} (1 turn); --new starts a new one" in again.err


def test_with_two_worlds_ask_takes_the_one_used_last_else_asks_which(home: Path,
                                                                     tmp_path: Path) -> None:
    text = tmp_path / "tiny.md"
    text.write_text("# Chapter 1\n\nMira keeps the lighthouse of Kell. She has a brother, Oren.\n",
                    encoding="utf-8")
    assert lore("ingest", text, "--world", "tiny", home=home).code == 0
    which = lore("ask", "Who is Mira?", home=home)
    assert which.code != 0
    assert "which world?" in which.err and "demo" in which.err and "tiny" in which.err
    assert "--world demo" in which.err or "--world tiny" in which.err
    assert lore("ask", "Who is Mira?", "--world", "tiny", home=home).code == 0
    last = lore("ask", "Who is Oren?", home=home)
    assert last.code == 0, last.err
    assert "world: tiny (the world used last; --world picks another)" in last.err


def test_a_misspelled_name_is_answered_with_a_command_the_user_can_type(home: Path) -> None:
    wrong = lore("timeline", "Elinor Vanse", "--world", "demo", "--format", "md", home=home)
    assert wrong.code != 0
    assert "keyword_search" not in wrong.err
    assert "lore entities --world demo" in wrong.err
    listed = lore("entities", "--world", "demo", home=home)  # the advice works
    assert listed.code == 0 and "Eleanor Vance" in listed.out


def test_a_streamed_answer_is_printed_once_in_a_terminal(home: Path, tmp_path: Path) -> None:
    """A small model writes `见 [P1]`; Lorekeeper's final answer is `见 [1]` with its quote. On a
    terminal the streamed draft gives way to the final answer: one answer line, not two."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")

    def brain(body: dict[str, Any], n: int) -> dict[str, Any]:
        if n == 1:
            return {"tool_calls": [{"name": "keyword_search", "arguments": {"query": "沈砚"}}]}
        return {"content": f"沈砚的结义兄弟是韩峥 [{sent_ids(body)[0]}]"}

    socket = f"lore-ask-{time.monotonic_ns()}"
    out = tmp_path / "screen.txt"
    with FakeServer("openai", brain=brain, chunk_delay_s=0.05) as server:
        env = small_model_env(server, home)
        exports = " ".join(f"{k}={shlex_quote(v)}" for k, v in env.items()
                           if k.startswith(("LORE_", "PATH")))
        command = (f"cd {ROOT} && env {exports} {sys.executable} -m tui ask 沈砚的结义兄弟是谁？ "
                   f"--world demo --new 2>/dev/null; echo DONE; sleep 30")
        tmux = ["tmux", "-L", socket]
        subprocess.run([*tmux, "new-session", "-d", "-s", "ask", "-x", "100", "-y", "30",
                        command], check=True, timeout=10)
        try:
            deadline, screen = time.monotonic() + 120, ""
            while time.monotonic() < deadline and "DONE" not in screen:
                time.sleep(0.3)
                screen = subprocess.run([*tmux, "capture-pane", "-p", "-t", "ask"],
                                        capture_output=True, text=True, timeout=10).stdout
        finally:
            subprocess.run([*tmux, "kill-server"], timeout=10)
    out.write_text(screen, encoding="utf-8")
    assert "DONE" in screen, screen
    answers = [line for line in screen.splitlines() if "沈砚的结义兄弟是韩峥" in line]
    assert answers == ["沈砚的结义兄弟是韩峥 [1]"], screen
    assert "[1] " in screen  # its citation follows


def shlex_quote(value: str) -> str:
    import shlex

    return shlex.quote(value)


def test_a_question_about_the_conversation_is_answered_from_its_memory(home: Path) -> None:
    """我们之前聊过韩峥吗？ asks about this talk, not the story: the answer gives the turns that
    named him (by any of his names), says plainly what was never talked about, and states
    nothing the memory does not hold (no "unsupported" mark for names no passage is cited for)."""
    assert "还没有聊过韩峥" in lore("ask", "--new", "我们之前聊过韩峥吗？", home=home).out
    for question in ("沈砚是谁？", "Who killed Han Zheng?", "他最后死在哪里？"):
        assert lore("ask", question, home=home).code == 0
    talked = lore("ask", "我们之前聊过定远吗？", home=home)  # 定远: 韩峥's courtesy name
    assert talked.code == 0, talked.err
    lines = talked.out.splitlines()
    assert lines[0] == "聊过韩峥："
    assert lines[1].startswith("第3轮：Who killed Han Zheng? → ")
    assert lines[2].startswith("第4轮：韩峥最后死在哪里？ → ")  # the follow-up, as it was read
    assert "无依据" not in talked.out and "第1回" not in lines[0]
    never = lore("ask", "Have we discussed Eleanor?", home=home)
    assert never.out.startswith("We have not talked about Eleanor Vance in this conversation yet.")
    first = lore("ask", "What did I ask first?", home=home)
    assert first.out.splitlines()[:2] == ["We started with:", "Turn 2: 沈砚是谁？ → 沈砚：字青崖。 "
                                          "(第1回、第10回、设定)"]
