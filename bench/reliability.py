"""Reliability suite: bad inputs and injected faults against the real `lore` command, with what
the user saw and whether anything was lost or duplicated.

    .venv/bin/python bench/reliability.py [--seed 15] [--kills 3] [--json]

Every case runs `lore` as a separate process on a copy of one data dir (the demo world, a
session, and a second world `extra` from 8 chapters of 三国演义). After each fault the stores
are compared with a clean run: catalog rows and digests of documents, passages, entities and
relations, the vector / graph counts `lore doctor` reports, and every saved turn. A row is
green when the exit code is the expected one, there is no traceback, a failure's message says
what to do (a `→` hint), and nothing was lost or duplicated. Faults that need root (a tmpfs for
the full disk and the read-only folder) are skipped with the reason when mount is refused.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SANGUO = ROOT.parent / "shared" / "data" / "sanguo_yanyi" / "chapters"
EXTRA_CHAPTERS = range(1, 9)
HOSTILE = "\x1b]52;c;ZWNobyBwd25lZA==\x07"


@dataclass
class Run:
    code: int
    out: str
    err: str
    seconds: float


@dataclass
class Row:
    kind: str
    case: str
    saw: str
    code: int | None
    traceback: bool
    lost: str
    ok: bool


def lore(home: Path, *args: str | Path, env: dict[str, str] | None = None,
         timeout: float = 600) -> Run:
    """`lore ARGS` as a user runs it, on data dir `home`."""
    full = {**os.environ, "LORE_HOME": str(home), "LORE_CONFIG": str(ROOT / "config.toml"),
            **(env or {})}
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "tui", *map(str, args)], cwd=ROOT, env=full,
                          capture_output=True, text=True, timeout=timeout)
    return Run(proc.returncode, proc.stdout, proc.stderr, time.monotonic() - started)


def start(home: Path, *args: str | Path) -> subprocess.Popen:
    full = {**os.environ, "LORE_HOME": str(home), "LORE_CONFIG": str(ROOT / "config.toml")}
    return subprocess.Popen([sys.executable, "-m", "tui", *map(str, args)], cwd=ROOT, env=full,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(proc: subprocess.Popen, started: float) -> Run:
    out, err = proc.communicate(timeout=600)
    return Run(proc.returncode, out, err, time.monotonic() - started)


def first_line(run: Run) -> str:
    text = run.err if run.code else run.out
    line = next((x.strip() for x in text.splitlines() if x.strip() and "━" not in x), "")
    return line.removeprefix("error: ")[:110]


# -- what is stored -------------------------------------------------------------------------------
def _digest(rows: list[tuple]) -> str:
    return hashlib.sha256(json.dumps(sorted(rows), ensure_ascii=False).encode()).hexdigest()[:12]


def world_state(home: Path, world: str) -> dict:
    """Counts and digests of everything the catalog holds for `world`, and the index counts."""
    with closing(sqlite3.connect(f"file:{home / 'catalog.db'}?mode=ro", uri=True)) as db:
        def rows(sql: str) -> list[tuple]:
            return [tuple(r) for r in db.execute(sql, [world])]
        state = {
            "state": rows("SELECT state FROM worlds WHERE name = ?"),
            "documents": _digest(rows("SELECT sha256, chunks FROM documents WHERE world = ?")),
            "passages": len(rows("SELECT id FROM chunks WHERE world = ?")),
            "passage_digest": _digest(rows("SELECT chapter, chunk_order, text_hash FROM chunks "
                                           "WHERE world = ?")),
            "entities": _digest(rows("SELECT name, type, mentions FROM entities WHERE world = ?")),
            "relations": _digest(rows("SELECT source, target, type, declared FROM relations "
                                      "WHERE world = ?")),
        }
    doctor = lore(home, "doctor", "--world", world)
    state["indexes"] = next((line.split(":", 1)[1].strip() for line in doctor.out.splitlines()
                             if line.startswith(("ok   world", "FAIL world"))), doctor.out[-80:])
    return state


def turns(home: Path) -> list[tuple]:
    path = home / "sessions.db"
    if not path.exists():
        return []
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)) as db:
        return [tuple(r) for r in db.execute(
            "SELECT session_id, n, question, status FROM turns ORDER BY session_id, n")]


def compare(home: Path, expected: dict[str, dict], expected_turns: list[tuple] | None) -> str:
    """'none' when every world and turn matches the clean run, else what differs."""
    wrong = [f"{w}: {k} {str(v)[-60:]}" for w, want in expected.items()
             for k, v in world_state(home, w).items() if want.get(k) != v]
    if expected_turns is not None:
        have = turns(home)
        missing = [t for t in expected_turns if t not in have]
        dup = len(have) - len(set(have))
        if missing:
            wrong.append(f"{len(missing)} turns lost")
        if dup:
            wrong.append(f"{dup} turns duplicated")
    return "none" if not wrong else "; ".join(wrong)[:160]


# -- the cases --------------------------------------------------------------------------------------
class Suite:
    def __init__(self, work: Path, seed: int, kills: int) -> None:
        self.work, self.rng, self.kills = work, random.Random(seed), kills
        self.rows: list[Row] = []
        self.corpus = work / "extra-corpus"
        self.corpus.mkdir()
        for n in EXTRA_CHAPTERS:
            shutil.copy(SANGUO / f"{n:03d}.txt", self.corpus)
        self.base = work / "base"
        assert lore(self.base, "demo").code == 0
        assert lore(self.base, "ask", "沈砚是谁？", "--world", "demo").code == 0
        self.demo = world_state(self.base, "demo")
        self.base_turns = turns(self.base)
        clean = work / "clean"
        shutil.copytree(self.base, clean)
        run = lore(clean, "ingest", self.corpus, "--world", "extra")
        assert run.code == 0, run.err
        self.ingest_s = run.seconds
        self.extra = world_state(clean, "extra")

    def home(self, name: str, parent: Path | None = None) -> Path:
        home = (parent or self.work) / name
        shutil.copytree(self.base, home)
        return home

    def add(self, kind: str, case: str, run: Run | None, expect: int | tuple[int, ...],
            lost: str, saw: str = "") -> None:
        codes = expect if isinstance(expect, tuple) else (expect,)
        text = (run.out + run.err) if run else ""
        trace = "Traceback (most recent call last)" in text
        hinted = run is None or run.code == 0 or "→" in run.err or "FAIL" in run.out
        ok = (run is None or run.code in codes) and not trace and hinted and lost == "none"
        self.rows.append(Row(kind, case, saw or (first_line(run) if run else ""),
                             run.code if run else None, trace, lost, ok))

    def skip(self, kind: str, case: str, why: str) -> None:
        self.rows.append(Row(kind, case, f"skipped: {why}", None, False, "n/a", True))

    # bad input: each must fail with a message and change nothing
    def bad_inputs(self) -> None:
        home = self.home("bad")
        config = self.work / "typo.toml"
        config.write_text('[model]\nprovder = "google"\n', encoding="utf-8")
        glossary = self.work / "broken.toml"
        glossary.write_text('[[entity]\nname = "x"\n', encoding="utf-8")
        binary = self.work / "binary"
        binary.mkdir()
        (binary / "noise.txt").write_bytes(bytes(self.rng.randrange(256) for _ in range(4096)))
        existing = self.work / "notes.md"
        existing.write_text("mine\n", encoding="utf-8")
        cases: list[tuple[str, tuple, dict | None, int]] = [
            ("empty question", ("ask", "", "--world", "demo"), None, 2),
            ("blank question", ("ask", "   ", "--world", "demo"), None, 2),
            ("100,000-character question", ("ask", "a" * 100_000, "--world", "demo"), None, 2),
            ("world name with a newline", ("entities", "--world", "demo\n"), None, 2),
            ("unknown world", ("ask", "谁？", "--world", "nowhere"), None, 2),
            ("typo in a config section", ("--config", config, "worlds"), None, 2),
            ("typo in LORE_MODEL__PROVDER", ("worlds",), {"LORE_MODEL__PROVDER": "google"}, 2),
            ("LORE_EMBEDDER=notjson", ("worlds",), {"LORE_EMBEDDER": "notjson"}, 2),
            ("question too long for the setting", ("ask", "谁" * 30, "--world", "demo"),
             {"LORE_SESSIONS__MAX_QUESTION_CHARS": "10"}, 2),
            ("missing corpus path", ("ingest", self.work / "nope", "--world", "x"), None, 2),
            ("random bytes as a chapter", ("ingest", binary, "--world", "noise"), None, 2),
            ("glossary with a TOML error", ("ingest", self.corpus, "--world", "g", "--glossary",
                                            glossary), None, 2),
            ("--out onto an existing file", ("timeline", "沈砚", "--world", "demo", "--out",
                                             existing), None, 2),
            ("unknown session id", ("sessions", "show", "ZZZZ"), None, 2),
        ]
        for case, args, env, code in cases:
            run = lore(home, *args, env=env)
            self.add("bad input", case, run, code, "none")
        unchanged = compare(home, {"demo": self.demo}, self.base_turns)
        if existing.read_text(encoding="utf-8") != "mine\n":
            unchanged = "--out file overwritten"
        self.rows[-1].lost = unchanged
        self.rows[-1].ok = self.rows[-1].ok and unchanged == "none"
        self.hostile(home)

    def hostile(self, home: Path) -> None:
        asked = lore(home, "ask", f"{HOSTILE}沈砚是谁？", "--world", "demo", "--new")
        shown = [lore(home, "sessions", "list"), lore(home, "entities", "--world", "demo"),
                 lore(home, "timeline", "沈砚", "--world", "demo")]
        raw = any(c in r.out + r.err for r in [asked, *shown] for c in "\x1b\x07")
        run = Run(asked.code, "escape sequences shown as \\u001b, never sent raw" if not raw
                  else "RAW escape sequence reached the terminal", "", 0)
        self.add("bad input", "OSC 52 escape in a question", run, 0,
                 "none" if not raw else "terminal driven")

    # faults
    def kill_ingest(self) -> None:
        for i in range(self.kills):
            home = self.home(f"kill-ingest-{i}")
            delay = self.rng.uniform(1.5, max(2.0, self.ingest_s * 0.9))
            proc = start(home, "ingest", self.corpus, "--world", "extra")
            time.sleep(delay)
            proc.kill()
            proc.communicate()
            again = lore(home, "ingest", self.corpus, "--world", "extra")
            lost = compare(home, {"demo": self.demo, "extra": self.extra}, self.base_turns)
            self.add("fault", f"SIGKILL ingest at {delay:.1f} s, then re-run", again, 0, lost)

    def kill_ask(self) -> None:
        for i in range(self.kills):
            home = self.home(f"kill-ask-{i}")
            question = f"韩峥后来怎么样了？({i})"
            proc = start(home, "ask", question, "--world", "demo")
            started = time.monotonic()
            while time.monotonic() - started < 60 and proc.poll() is None:
                if any(t[2] == question for t in turns(home)):
                    break
                time.sleep(0.02)
            extra = self.rng.uniform(0, 1.5)
            time.sleep(extra)
            proc.kill()
            proc.communicate()
            again = lore(home, "ask", question, "--world", "demo")
            have = turns(home)
            pending = [t for t in have if t[3] == "pending"]
            lost = compare(home, {"demo": self.demo}, self.base_turns)
            if pending:
                lost = f"{len(pending)} turns left pending"
            elif not any(t[2] == question and t[3] == "answered" for t in have):
                lost = "re-asked question not answered"
            self.add("fault", f"SIGKILL ask {extra:.1f} s after saving, re-ask", again, 0, lost)

    def interrupt_ingest(self) -> None:
        home = self.home("sigint")
        proc = start(home, "ingest", self.corpus, "--world", "extra")
        started = time.monotonic()
        time.sleep(self.rng.uniform(2.0, max(2.5, self.ingest_s * 0.8)))
        proc.send_signal(signal.SIGINT)
        run = finish(proc, started)
        again = lore(home, "ingest", self.corpus, "--world", "extra")
        lost = compare(home, {"demo": self.demo, "extra": self.extra}, self.base_turns)
        self.add("fault", "Ctrl+C during ingest, then re-run", run,
                 (130, 0), lost if again.code == 0 else f"re-run failed: {first_line(again)}")

    def disk(self) -> None:
        point = self.work / "disk"
        point.mkdir()
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=5m", "tmpfs", str(point)],
                          capture_output=True).returncode != 0:
            self.skip("fault", "full disk during ingest", "mount refused (not root)")
            self.skip("fault", "read-only data folder", "mount refused (not root)")
            return
        try:
            home = self.home("home", point)
            run = lore(home, "ingest", self.corpus, "--world", "extra")
            subprocess.run(["mount", "-o", "remount,size=64m", str(point)], check=True)
            again = lore(home, "ingest", self.corpus, "--world", "extra")
            lost = compare(home, {"demo": self.demo, "extra": self.extra}, self.base_turns)
            if again.code != 0:
                lost = f"re-run failed: {first_line(again)}"
            self.add("fault", "full disk (5 MB tmpfs) during ingest, then room", run, 3, lost)
            remount = subprocess.run(["mount", "-o", "remount,size=64m,ro", str(point)],
                                     capture_output=True, text=True)
            if remount.returncode != 0:
                self.skip("fault", "read-only data folder", f"remount refused: {remount.stderr}")
                return
            for what, args in (("ask", ("ask", "苏绾是谁？", "--world", "demo")),
                               ("ingest", ("ingest", self.corpus, "--world", "more"))):
                run = lore(home, *args)
                self.add("fault", f"read-only data folder: {what}", run, 3, "none")
            subprocess.run(["mount", "-o", "remount,size=64m,rw", str(point)], check=True)
            self.rows[-1].lost = compare(home, {"demo": self.demo, "extra": self.extra},
                                         self.base_turns)
            self.rows[-1].ok = self.rows[-1].ok and self.rows[-1].lost == "none"
        finally:
            subprocess.run(["umount", "-l", str(point)], check=False)

    def truncated_sessions(self) -> None:
        home = self.home("truncated")
        path = home / "sessions.db"
        with closing(sqlite3.connect(path)) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        with open(path, "r+b") as f:
            f.truncate(path.stat().st_size // 2)
        doctor = lore(home, "doctor")
        self.add("fault", "truncated sessions.db: lore doctor", doctor, 1,
                 "none" if "FAIL session database" in doctor.out else "doctor said ok",
                 saw=next((x for x in doctor.out.splitlines() if "session database" in x), "")[:110])
        run = lore(home, "ask", "沈砚是谁？", "--world", "demo")
        lost = compare(home, {"demo": self.demo}, None)  # the fault itself damaged the sessions
        self.add("fault", "truncated sessions.db: lore ask", run, 3, lost)

    def two_processes(self) -> None:
        home = self.home("two-ask")
        started = time.monotonic()
        procs = [start(home, "ask", q, "--world", "demo", "--new")
                 for q in ("沈砚是谁？(A)", "苏绾是谁？(B)")]
        runs = [finish(p, started) for p in procs]
        have = {t[2] for t in turns(home)}
        lost = "none" if {"沈砚是谁？(A)", "苏绾是谁？(B)"} <= have else "a question was lost"
        for name, run in zip("AB", runs, strict=True):
            self.add("fault", f"two lore ask on one world at once ({name})", run, (0, 3), lost)
        home = self.home("two-ingest")
        procs = [start(home, "ingest", self.corpus, "--world", "extra") for _ in range(2)]
        runs = [finish(p, started) for p in procs]
        if any(r.code != 0 for r in runs):
            lore(home, "ingest", self.corpus, "--world", "extra")  # what the message says to do
        lost = compare(home, {"demo": self.demo, "extra": self.extra}, self.base_turns)
        for name, run in zip("AB", runs, strict=True):
            self.add("fault", f"two lore ingest of one world at once ({name})", run, (0, 3), lost)


def table(rows: list[Row]) -> str:
    head = f"{'':2} {'kind':9} {'case':48} {'exit':>4} {'tb':3} {'lost/dup':10} what the user saw"
    lines = [head, "-" * len(head)]
    for r in rows:
        mark = "ok" if r.ok else "XX"
        code = "-" if r.code is None else str(r.code)
        lines.append(f"{mark:2} {r.kind:9} {r.case[:48]:48} {code:>4} "
                     f"{'yes' if r.traceback else 'no':3} {r.lost[:10]:10} {r.saw}")
    lines += [f"XX {r.case}: {r.lost}" for r in rows if not r.ok and r.lost not in ("none", "n/a")]
    green = sum(r.ok for r in rows)
    lines.append(f"\n{green} of {len(rows)} green; tracebacks: {sum(r.traceback for r in rows)}; "
                 f"lost or duplicated: {sum(r.lost not in ('none', 'n/a') for r in rows)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=15, help="seed of the random kill points")
    parser.add_argument("--kills", type=int, default=3, help="SIGKILLs of ingest and of ask")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", choices=["repair", "39"], help="only issue 25's cases "
                        "(bench/reliability_repair.py) or issue 39's (bench/reliability_39.py)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="lore-reliability-") as tmp:
        started = time.monotonic()
        suite = Suite(Path(tmp), args.seed, args.kills)
        import reliability_39  # beside this file: the cases of issues 25 and 39
        import reliability_repair

        steps: list[Callable[[], None]] = [suite.bad_inputs, suite.kill_ingest, suite.kill_ask,
                                           suite.interrupt_ingest, suite.disk,
                                           suite.truncated_sessions, suite.two_processes]
        if args.only:
            steps = []

        def issue_25_cases() -> None:
            reliability_repair.run_cases(suite, sys.modules[__name__])

        def issue_39_cases() -> None:
            reliability_39.run_cases(suite, sys.modules[__name__])

        if args.only in (None, "repair"):
            steps.append(issue_25_cases)
        if args.only in (None, "39"):
            steps.append(issue_39_cases)
        for step in steps:
            try:
                step()
            except Exception as exc:  # noqa: BLE001  a broken case must not lose the table
                name = getattr(step, "__name__", "step")
                suite.rows.append(Row("bench", f"{name} stopped: {type(exc).__name__}",
                                      str(exc)[:110], None, False, "n/a", False))
        rows = suite.rows
    if args.json:
        print(json.dumps([asdict(r) for r in rows], ensure_ascii=False, indent=1))
    else:
        print(table(rows))
        print(f"({time.monotonic() - started:.0f} s, seed {args.seed})")
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
