"""Smoke test: `lore` in a real terminal (tmux), a typed question, the answer read off the screen."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from sessions.store import SessionStore

ROOT = Path(__file__).resolve().parents[2]
QUESTION = "Who is Eleanor Vance?"

pytestmark = [pytest.mark.slow,  # the app in a real terminal: seconds to start and to answer
              pytest.mark.skipif(shutil.which("tmux") is None,
                                 reason="tmux is not installed (apt-get install tmux)")]


class Tmux:
    """A private tmux server (its own socket), so the test never touches the user's sessions,
    nor the server an earlier test in this process is still closing down (one socket per
    process let the next test's session start on a server that was exiting: fresh-clone CI
    once saw an empty screen for a minute)."""

    def __init__(self) -> None:
        self.socket = f"lore-smoke-{os.getpid()}-{uuid.uuid4().hex[:8]}"

    def __call__(self, *args: str) -> str:
        result = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                                text=True, timeout=10)
        return result.stdout

    def screen(self) -> str:
        return self("capture-pane", "-p", "-t", "smoke")

    def wait_for(self, predicate, what: str, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if predicate(screen):
                return screen
            time.sleep(0.2)
        pytest.fail(f"timed out waiting for {what}; the screen was:\n{self.screen()}")

    def alive(self) -> bool:
        return "smoke" in self("list-sessions", "-F", "#{session_name}")

    def start_lore(self, home: Path, env: str = "") -> None:
        """`lore` on the data dir in a 120×36 terminal, `env` (NAME=value …) set for it.
        COLUMNS/LINES may leak in from the environment (80x24 under pytest); the pty knows
        better."""
        command = (f"cd {ROOT} && exec env -u COLUMNS -u LINES LORE_HOME={home} {env} "
                   f"LORE_CONFIG={ROOT / 'config.toml'} {sys.executable} -m tui")
        self("new-session", "-d", "-s", "smoke", "-x", "120", "-y", "36", command)


def test_lore_answers_a_typed_question_in_a_terminal(settings):
    tmux = Tmux()
    try:
        tmux.start_lore(settings.data_dir)
        started = time.monotonic()
        tmux.wait_for(lambda s: "Ask about demo" in s and "opening" not in s, "the demo world")
        ready = time.monotonic() - started
        tmux("send-keys", "-t", "smoke", "-l", QUESTION)
        tmux("send-keys", "-t", "smoke", "Enter")
        # the citations list: the first is Eleanor's lore entry (or a chapter)
        screen = tmux.wait_for(lambda s: re.search(r"\[1\] (?:ch\.|lore) ·", s) is not None
                               and "answering" not in s, "the answer")
        assert f"❯ {QUESTION}" in screen
        assert "Eleanor Vance" in screen.split(f"❯ {QUESTION}", 1)[1]
        assert "1 turn" in screen
        assert "Traceback" not in screen and "pydantic" not in screen.lower()
        tmux("send-keys", "-t", "smoke", "C-c")  # quits, keeping the session
        deadline = time.monotonic() + 20
        while tmux.alive() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not tmux.alive(), "Ctrl+C should quit the app"
    finally:
        tmux("kill-server")
    with SessionStore(settings.sessions_path) as store:
        (session,) = store.list_sessions("demo")
        (turn,) = store.turns(session.id)
    assert (turn.question, turn.status) == (QUESTION, "answered")
    print(f"lore ready in a terminal after {ready:.1f} s")


def test_a_paste_with_escape_sequences_arrives_in_order_in_a_terminal(settings):
    """A bracketed paste (what tmux's paste-buffer -p sends) holding colour codes and a bell:
    the question box gets the text in order, and the first Enter asks it."""
    tmux = Tmux()
    try:
        tmux.start_lore(settings.data_dir)
        tmux.wait_for(lambda s: "Ask about demo" in s and "opening" not in s, "the demo world")
        tmux("send-keys", "-t", "smoke", "-l", "Who is ")
        tmux("set-buffer", "-b", "q", "\x1b[31mSu Wan\x1b[0m\x07? \x1b]0;title\x07end")
        tmux("paste-buffer", "-p", "-b", "q", "-t", "smoke")
        screen = tmux.wait_for(lambda s: "Who is Su Wan? end" in s, "the pasted question")
        assert "^[" not in screen
        tmux("send-keys", "-t", "smoke", "Enter")
        screen = tmux.wait_for(lambda s: "❯ Who is Su Wan? end" in s, "the question asked")
    finally:
        tmux("kill-server")


def test_the_esc_key_closes_and_cancels_and_never_ends_the_app(settings):
    """A lone Esc in a real terminal (the footer's "esc cancel", the help's "esc close"):
    the input guard holds it a moment in case a paste marker follows, then the app gets an
    Escape key and goes on. (It once fed Textual's parser an empty read, which the parser takes
    for the end of input: the next key raised ParseError and the app quit.)"""
    tmux = Tmux()
    try:
        tmux.start_lore(settings.data_dir)
        tmux.wait_for(lambda s: "Ask about demo" in s and "opening" not in s, "the demo world")
        tmux("send-keys", "-t", "smoke", "Escape")  # nothing to cancel
        time.sleep(0.5)
        tmux("send-keys", "-t", "smoke", "F1")
        tmux.wait_for(lambda s: "Lorekeeper — keys" in s, "the help screen")
        tmux("send-keys", "-t", "smoke", "Escape")  # closes the help
        tmux.wait_for(lambda s: "Lorekeeper — keys" not in s, "the help to close")
        tmux("send-keys", "-t", "smoke", "-l", "Who is Su Wan?")
        screen = tmux.wait_for(lambda s: "Who is Su Wan?" in s, "the typed question")
        assert tmux.alive() and "Traceback" not in screen and "ParseError" not in screen
    finally:
        tmux("kill-server")
