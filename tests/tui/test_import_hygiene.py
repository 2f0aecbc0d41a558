"""Nothing outside tui/ imports Textual: the core packages load without it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHECK = """
import importlib, pkgutil, sys
import agent, sessions, stores
for package in (agent, sessions, stores):
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        importlib.import_module(module.name)
from agent.conversation import Conversation
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
