"""Two processes, one world: with the app open on a world (holding its embedded vector index),
`lore ask` in another terminal still answers, reads and exports; only a writer waits."""

from __future__ import annotations

import asyncio
import os
import sys

import pytest

from tests.conftest import ROOT as ROOT_DIR
from tests.tui.conftest import SIZE, settle

# `lore` in subprocesses beside the app on the demo world: slow (pyproject.toml).
pytestmark = pytest.mark.slow


async def lore(settings, *args: str) -> tuple[int, str, str]:
    """`lore ARGS` in another process, while this one's event loop (the app) keeps running."""
    env = {**os.environ, "LORE_HOME": str(settings.data_dir)}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui", *args, cwd=ROOT_DIR, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 300)
    return proc.returncode or 0, out.decode(), err.decode()


async def test_lore_ask_answers_while_the_app_holds_the_world(app, settings, tmp_path):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.conversation is not None and not app.warming  # the app holds the index
        code, out, err = await lore(settings, "ask", "Who is Eleanor Vance?", "--world", "demo",
                                    "--new")
        assert code == 0, err
        assert "Eleanor" in out and "[1]" in out
        session = err.split("new session ", 1)[1].split()[0]
        code, out, err = await lore(settings, "sessions", "export", session, "--format", "md")
        assert code == 0 and "Who is Eleanor Vance?" in out, err
        code, out, err = await lore(settings, "timeline", "Eleanor Vance", "--world", "demo",
                                    "--format", "csv")
        assert code == 0 and out.count("\n") > 5, err
        extra = tmp_path / "extra.md"
        extra.write_text("# Chapter 11\n\nEleanor Vance sailed home at last.\n",
                         encoding="utf-8")
        code, out, err = await lore(settings, "ingest", str(extra), "--world", "demo")
        assert code != 0 and "in use by process" in err, (out, err)  # a writer waits its turn
        view_ok = await pilot.app.submit_question("Who is Su Wan?")  # the app is unharmed
        await settle(pilot)
        assert view_ok and app.main.chat.last_turn.status == "answered"
