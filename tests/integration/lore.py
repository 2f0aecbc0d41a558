"""Run the `lore` command line as a user would: a separate process, real stores on disk."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Result:
    code: int
    out: str
    err: str


def lore(*args: str | Path, home: Path | None = None, env: dict[str, str] | None = None,
         timeout: float = 300, stdin: str | None = None) -> Result:
    """`lore ARGS...` in a subprocess with LORE_HOME set; returns exit code, stdout, stderr.
    `stdin` is typed into a pipe (so the command sees no terminal), else stdin is inherited."""
    full_env = {**os.environ, **(env or {})}
    if home is not None:
        full_env["LORE_HOME"] = str(home)
    proc = subprocess.run([sys.executable, "-m", "tui", *map(str, args)], cwd=ROOT,
                          env=full_env, capture_output=True, text=True, timeout=timeout,
                          input=stdin)
    return Result(proc.returncode, proc.stdout, proc.stderr)


def asked_new(home: Path, world: str, question: str) -> dict:
    """`lore ask --json` in a new session of `world`, as a user types it; the printed answer."""
    result = lore("ask", question, "--world", world, "--new", "--json", home=home)
    assert result.code == 0, result.err
    return json.loads(result.out)


def ingested(home: Path, world: str, chapters: dict[str, str], *options: str | Path) -> Path:
    """`home` with `chapters` (file name → text) written to a corpus beside it and ingested as
    `world` by `lore ingest` (with `options`, such as a glossary), as a user would."""
    corpus = home.parent / f"{home.name}-corpus"
    corpus.mkdir()
    for name, text in chapters.items():
        (corpus / name).write_text(text, encoding="utf-8")
    result = lore("ingest", corpus, "--world", world, *options, home=home)
    assert result.code == 0, result.err
    return home
