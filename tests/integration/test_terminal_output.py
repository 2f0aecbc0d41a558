"""What `lore ask` prints in a terminal is Lorekeeper's: pydantic-ai printed a banner advertising
its observability service (a logo, "set it up free with Pydantic Logfire") above the answer on
every first run in a terminal; newcomers saw it in tmux. Only a terminal shows it, and not under
pytest or CI, so the command runs here in a pseudo-terminal with those variables unset."""

from __future__ import annotations

import os
import pty
import sys
from pathlib import Path

import pytest

from tests.integration.lore import ROOT, ingested

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow

CHAPTERS = {
    "01.txt": "Chapter 1\n\nMartha Pell kept the lighthouse at Crane Point. Martha Pell was "
              "the keeper's widow, and she kept the lamp lit every night.\n",
    "02.txt": "Chapter 2\n\nA ship came in from the north. Martha Pell rowed out to it.\n",
}


def _in_a_terminal(*args: str, home: Path) -> str:
    """`lore ARGS` run in a pseudo-terminal, as a person types it; everything it printed."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTEST_VERSION", "CI", "PYDANTIC_AI_NO_BANNER")}
    env["LORE_HOME"] = str(home)
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, its output on the terminal
        os.chdir(ROOT)
        os.execvpe(sys.executable, [sys.executable, "-m", "tui", *args], env)
    out = b""
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the terminal closed: the command ended
            break
        if not chunk:
            break
        out += chunk
    os.waitpid(pid, 0)
    return out.decode("utf-8", "replace")


def test_an_answer_in_a_terminal_has_no_library_banner(tmp_path: Path) -> None:
    home = ingested(tmp_path / "home", "light", CHAPTERS)
    printed = _in_a_terminal("ask", "Who is Martha Pell?", "--world", "light", "--new",
                             home=home)
    assert "Martha Pell" in printed, printed
    assert "Logfire" not in printed and "pydantic-ai v" not in printed, printed
