"""The reliability cases of issue 25 (the second probe), run by bench/reliability.py: damaged
or lost indexes rebuilt from the catalog, the advice of `lore ask` followed, bad input that hung
or crashed (a named pipe, deep nesting, a non-UTF-8 argument, a newer sessions.db), secrets an
echoing server sends back or a streamed reply cuts in two, a runaway reply, and an export
killed while it writes."""

from __future__ import annotations

import base64
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
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


def _vectors(world: Path) -> Path:
    """The world's embedded vector index: `qdrant`, or `qdrant-e5` for e5 vectors (the
    default embedder, stores/world.py)."""
    return next(p for p in sorted(world.glob("qdrant*")) if (p / "meta.json").exists())


DAMAGES: dict[str, Callable[[Path], None]] = {
    "qdrant storage.sqlite truncated":
        lambda w: _truncate(next(_vectors(w).rglob("storage.sqlite"))),
    "qdrant meta.json truncated": lambda w: _truncate(_vectors(w) / "meta.json"),
    "graph.lbug truncated": lambda w: _truncate(w / "graph.lbug"),
    "bm25/docs.json truncated": lambda w: _truncate(w / "bm25" / "docs.json"),
    "bm25 vocab.index.json truncated":
        lambda w: _truncate(w / "bm25" / "model" / "vocab.index.json"),
    "qdrant folder deleted": lambda w: shutil.rmtree(_vectors(w)),
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
    _truncate(_vectors(home / "worlds" / "demo") / "meta.json")
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
    _streamed_secrets(suite, lore)
    _kill_export(suite, lore, tools.start)


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


def _streamed_secrets(suite: Any, lore: Callable[..., Any]) -> None:
    """A reply streamed six characters at a time (every secret in it arrives cut in two), first
    a rejected 15,000-character one: nothing of the secrets on the terminal or in sessions.db,
    and the stored messages capped by model.max_answer_chars."""
    from tests.agent.fake_llm import FakeServer

    home = suite.home("streamed-secrets")
    key, password = "zq7-private-0f3a9c2e11b4d5", "hunter2pass"
    pair = base64.b64encode(f"lore:{password}".encode()).decode()
    leak = f"钥匙{key}，http://lore:{password}@llm.example/v1 ，Authorization: Basic {pair} "

    def brain(body: dict[str, Any], n: int) -> dict[str, Any]:
        if n == 1:  # an answer before any search: rejected
            return {"content": leak + "沈砚 " * 5000}
        if n == 2:
            return {"tool_calls": [{"name": "keyword_search", "arguments": {"query": "沈砚"}}]}
        ids = [row["id"] for m in body["messages"] if m["role"] == "tool"
               for row in json.loads(m["content"])["results"]]
        return {"content": f"{leak}沈砚是书生 [{ids[0]}]"}

    with FakeServer("openai", brain=brain) as server:
        env = {"LORE_MODEL__PROVIDER": "openai", "LORE_MODEL__NAME": "fake-model",
               "LORE_MODEL__BASE_URL": server.url, "LORE_MODEL__RETRIES": "0",
               "LORE_MODEL__PROMPT": "lean", "LORE_MODEL__OUTPUT": "text",
               "LORE_MODEL__TOOLS": '["vector_search", "keyword_search"]',
               "LORE_MODEL__MAX_ANSWER_CHARS": "2000", "LORE_MODEL__API_KEY_ENV": "MY_LLM_KEY",
               "MY_LLM_KEY": key}
        run = lore(home, "ask", "沈砚是谁？", "--world", "demo", "--new", env=env)
    raw = b"".join(p.read_bytes() for p in home.glob("sessions.db*"))
    leaked = [s for s in (key, password, pair) if s in run.out + run.err or s.encode() in raw]
    with closing(sqlite3.connect(home / "sessions.db")) as db:
        (longest,) = db.execute("SELECT length(messages_json) FROM turns WHERE question = ? "
                                "ORDER BY created DESC", ["沈砚是谁？"]).fetchone()
    lost = ("none" if not leaked and longest < 15_000 else
            f"{len(leaked)} secrets shown or stored; messages_json {longest:,} characters")
    suite.add("secrets", "secrets cut in two by the stream; a runaway reply", run, 0, lost)


def _kill_export(suite: Any, lore: Callable[..., Any], start: Callable[..., Any]) -> None:
    """SIGKILL `lore sessions export --out F --force` once it begins writing a 50 MB export:
    F must still be the previous export, and the same command must then write the new one."""
    home = suite.home("kill-export")
    with closing(sqlite3.connect(home / "sessions.db")) as db:
        columns = [r[1] for r in db.execute("PRAGMA table_info(turns)")]
        row = dict(zip(columns, db.execute("SELECT * FROM turns").fetchone(), strict=True))
    out = suite.work / "kill-export.json"
    export = ("sessions", "export", row["session_id"], "--format", "json", "--out", out)
    lore(home, *export)
    good, before = out.read_bytes(), out.stat()
    with closing(sqlite3.connect(home / "sessions.db")) as db:
        db.executemany(f"INSERT INTO turns ({', '.join(columns)}) VALUES "
                       f"({', '.join(':' + c for c in columns)})",
                       [{**row, "id": f"{row['id']}-{n}", "n": n, "answer": "沈砚是书生。" * 600}
                        for n in range(2, 4002)])
        db.commit()
    proc = start(home, *export, "--force")
    while proc.poll() is None:  # kill it once it begins to write (a temporary file, or F)
        now = out.stat()
        if list(suite.work.glob(".kill-export.json.*")) or (now.st_size, now.st_mtime_ns) != (
                before.st_size, before.st_mtime_ns):
            proc.kill()
            break
        time.sleep(0.001)
    proc.communicate()
    killed = proc.returncode == -9
    whole = out.read_bytes() == good
    again = lore(home, *export, "--force")
    written = again.code == 0 and len(json.loads(out.read_bytes())["turns"]) == 4001
    lost = ("none" if killed and whole and written else
            "the export ended before the kill" if not killed else
            "the previous file was not left whole" if not whole else "the re-run failed")
    suite.add("fault", "SIGKILL sessions export --force mid-write, then re-run", again, 0, lost)
