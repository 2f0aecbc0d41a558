"""Nothing outside tui/ imports Textual: the core packages load without it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CHECK = """
import importlib, pkgutil, sys
import agent, sessions, stores
for package in (agent, sessions, stores):
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        importlib.import_module(module.name)
from agent.conversation.session import Conversation
loaded = sorted(name for name in sys.modules if name == "textual" or name.startswith("textual."))
print(",".join(loaded) or "none")
"""


def test_core_packages_do_not_import_textual():
    result = subprocess.run([sys.executable, "-c", CHECK], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "none", f"textual imported by the core: {result.stdout}"


def test_no_module_outside_tui_mentions_textual():
    offenders = [str(path.relative_to(ROOT)) for package in ("agent", "sessions", "stores")
                 for path in (ROOT / package).rglob("*.py")
                 if "import textual" in (text := path.read_text(encoding="utf-8"))
                 or "from textual" in text]
    assert offenders == []


OPENING = """
import asyncio, sys
from stores.lean_imports import import_sqlite_utils_without_pandas
import_sqlite_utils_without_pandas()  # what `lore` does first
from tui.app import LoreApp
from tui.messages import ConversationOpened
from tui.settings import load_settings

seen = {}

class App(LoreApp):
    def post_message(self, message):
        if isinstance(message, ConversationOpened):
            seen.update({name: name in sys.modules for name in ("pandas", "pydantic_ai")})
        return super().post_message(message)

async def main():
    app = App(load_settings())
    async with app.run_test() as pilot:
        while not seen or app.warming or app.opening:
            await asyncio.sleep(0.01)
    print(",".join(name for name, loaded in sorted(seen.items()) if loaded) or "none")

asyncio.run(main())
"""


@pytest.mark.slow  # the app on the demo world, in a fresh interpreter
def test_the_world_shows_before_pandas_or_pydantic_ai_is_imported(settings):
    # sqlite-utils imports pandas when it is installed (0.4-0.9 s), pydantic-ai is a second
    # more: the screen needs neither, the model loads after the world shows (bench/tui.py)
    result = subprocess.run([sys.executable, "-c", OPENING], cwd=ROOT, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "none"
