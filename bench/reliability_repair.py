"""The reliability cases of issue 25 (the second probe), run by bench/reliability.py: damaged
or lost indexes rebuilt from the catalog, the advice of `lore ask` followed, bad input that hung
or crashed (a named pipe, deep nesting, a non-UTF-8 argument, a newer sessions.db), secrets an
echoing server sends back, and an export that cannot finish."""

from __future__ import annotations

import base64
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

DEMO = Path(__file__).resolve().parents[1] / "stores" / "demo_world"
DEMO_ARGS = (DEMO / "zh", DEMO / "en", DEMO / "dialogue", "--glossary", DEMO / "glossary.toml",
             "--world", "demo")


def _truncate(path: Path) -> None:
    with path.open("r+b") as f:
        f.truncate(min(100, path.stat().st_size // 2))


DAMAGES: dict[str, Callable[[Path], None]] = {
    "qdrant storage.sqlite truncated":
        lambda w: _truncate(next((w / "qdrant").rglob("storage.sqlite"))),
    "qdrant meta.json truncated": lambda w: _truncate(w / "qdrant" / "meta.json"),
    "graph.lbug truncated": lambda w: _truncate(w / "graph.lbug"),
    "bm25/docs.json truncated": lambda w: _truncate(w / "bm25" / "docs.json"),
    "bm25 vocab.index.json truncated":
        lambda w: _truncate(w / "bm25" / "model" / "vocab.index.json"),
    "qdrant folder deleted": lambda w: shutil.rmtree(w / "qdrant"),
    "graph.lbug deleted": lambda w: (w / "graph.lbug").unlink(),
    "world folder deleted": lambda w: shutil.rmtree(w),
}


def run_cases(suite: Any, tools: Any) -> None:
    """Add issue 25's rows to `suite` (reliability.py's Suite); `tools` is that module (its
    Run, lore, compare and turns)."""
    Run, compare, lore, turns = tools.Run, tools.compare, tools.lore, tools.turns  # noqa: N806

    demo = {"demo": suite.demo}
    for name, damage in DAMAGES.items():
        home = suite.home(f"damage-{len(suite.rows)}")
        damage(home / "worlds" / "demo")
        run = lore(home, "ingest", *DEMO_ARGS)
        suite.add("repair", f"{name}, then lore ingest", run, 0,
                  compare(home, demo, suite.base_turns))
    home = suite.home("advice")
    _truncate(home / "worlds" / "demo" / "qdrant" / "meta.json")
    asked = lore(home, "ask", "沈砚是谁？", "--world", "demo")
    advice = "lore doctor --repair" in asked.err
    repaired = lore(home, "doctor", "--repair")
    lost = compare(home, demo, None) if advice else "advice names no working step"
    suite.add("repair", "ask's advice (lore doctor --repair) followed", repaired, 0, lost)
    home = suite.home("rebuild")
    run = lore(home, "ingest", "--rebuild", "--world", "demo")
    suite.add("repair", "lore ingest --rebuild without the corpus", run, 0,
              compare(home, demo, suite.base_turns))

    home = suite.home("bad-25")
    pipe = suite.work / "pipe.txt"
    os.mkfifo(pipe)
    suite.add("bad input", "a named pipe as the corpus",
              lore(home, "ingest", pipe, "--world", "p", timeout=120), 2, "none")
    deep = 50_000
    for file, text, glossary in (
            ("deep.json", "[" * deep + "]" * deep, True),
            ("deep.jsonl", '{"text": "x", "a": ' + "[" * deep + "]" * deep + "}\n", False)):
        path = suite.work / file
        path.write_text(text, encoding="utf-8")
        args = ("ingest", DEMO / "zh", "--glossary", path) if glossary else ("ingest", path)
        suite.add("bad input", f"{file}: 50,000 nested arrays", lore(home, *args, "--world", "p"),
                  2, "none")
    for case, args in (("ask $'\\xff\\xfe…'", [b"ask", b"\xff\xfe\xe6\xb2\x88", b"--world", b"demo"]),
                       ("sessions show $'\\xff'", [b"sessions", b"show", b"\xff"])):
        raw = subprocess.run([sys.executable.encode(), b"-m", b"tui", *args],
                             cwd=DEMO.parents[1], capture_output=True, timeout=120,
                             env={**os.environ, "LORE_HOME": str(home)})
        run = Run(raw.returncode, raw.stdout.decode(errors="replace"),
                  raw.stderr.decode(errors="replace"), 0)
        suite.add("bad input", f"argument not UTF-8: {case}", run, 2,
                  compare(home, demo, suite.base_turns))
    _newer_sessions(suite, lore, turns)
    _secrets(suite, lore)


def _newer_sessions(suite: Any, lore: Callable[..., Any], turns: Callable[..., Any]) -> None:
    home = suite.home("newer")
    with closing(sqlite3.connect(home / "sessions.db")) as db:
        db.execute("INSERT INTO _migrations (name, applied) VALUES ('m099_future', 'x')")
        db.commit()
    before = turns(home)
    for args in (("sessions", "list"), ("ask", "韩峥是谁？", "--world", "demo")):
        run = lore(home, *args)
        lost = "none" if turns(home) == before else "the database was changed"
        suite.add("bad input", f"sessions.db from a newer version: {args[0]}", run, 3, lost)


def _secrets(suite: Any, lore: Callable[..., Any]) -> None:
    sys.path.insert(0, str(DEMO.parents[1]))
    from tests.agent.fake_llm import FakeServer

    home = suite.home("secrets")
    key, password = "zq7-private-0f3a9c2e11b4d5", "hunter2pass"
    secrets = (key, password, base64.b64encode(f"lore:{password}".encode()).decode())
    with FakeServer("openai", failures=[503, 503, 401], echo_key=True,
                    retry_after_ms=10) as server:
        env = {"LORE_MODEL__PROVIDER": "openai", "LORE_MODEL__NAME": "fake-model",
               "LORE_MODEL__BASE_URL": server.url.replace("http://", f"http://lore:{password}@"),
               "LORE_MODEL__API_KEY_ENV": "MY_LLM_KEY", "MY_LLM_KEY": key}
        run = lore(home, "ask", "沈砚是谁？", "--world", "demo", env=env)
    raw = b"".join(p.read_bytes() for p in home.glob("sessions.db*"))
    leaked = [s for s in secrets if s in run.out + run.err or s.encode() in raw]
    suite.add("secrets", "key and URL password echoed in retry warnings", run, 4,
              "none" if not leaked else f"{len(leaked)} secrets shown or stored")
