"""Issue 25 #3 and #4: secrets echoed by a server never reach the terminal, a log or the
database (one redaction point), and an export interrupted by a full disk or a kill -9 leaves the
previous file whole (temporary file + rename)."""

from __future__ import annotations

import base64
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest

from tests.agent.fake_llm import FakeServer
from tests.integration.disk import fill, resize
from tests.integration.lore import ROOT, lore

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow

KEY = "zq7-private-0f3a9c2e11b4d5"
PASSWORD = "hunter2pass"


def test_retry_warnings_and_url_passwords_are_redacted_everywhere(demo_copy: Path) -> None:
    pair = base64.b64encode(f"lore:{PASSWORD}".encode()).decode()
    with FakeServer("openai", failures=[503, 503, 401], echo_key=True,
                    retry_after_ms=10) as server:
        url = server.url.replace("http://", f"http://lore:{PASSWORD}@")
        env = {"LORE_MODEL__PROVIDER": "openai", "LORE_MODEL__NAME": "fake-model",
               "LORE_MODEL__BASE_URL": url, "LORE_MODEL__API_KEY_ENV": "MY_LLM_KEY",
               "MY_LLM_KEY": KEY}
        result = lore("ask", "沈砚是谁？", "--world", "demo", "--new", home=demo_copy, env=env)
    assert server.statuses == [503, 503, 401]
    assert result.code != 0 and "attempt 2 of" in result.err  # the retry warnings were shown
    shown = result.out + result.err
    for secret in (KEY, PASSWORD, pair):
        assert secret not in shown, secret
    assert "[REDACTED]" in result.err
    raw = b"".join(p.read_bytes() for p in demo_copy.glob("sessions.db*"))
    for secret in (KEY, PASSWORD, pair):
        assert secret.encode() not in raw, secret


def test_an_export_that_cannot_finish_leaves_the_previous_file_whole(
        demo_copy: Path, small_disk: Path) -> None:
    resize(small_disk, "1m")
    first = lore("ask", "沈砚是谁？", "--world", "demo", "--new", home=demo_copy)
    assert first.code == 0, first.err
    session = first.err.split("session ")[-1].split(" ")[0]
    out = small_disk / "session.json"
    done = lore("sessions", "export", session, "--format", "json", "--out", out, home=demo_copy)
    assert done.code == 0, done.err
    good = out.read_bytes()
    for question in ("韩峥是谁？", "断鸿剑在哪里？", "沈砚的师父是谁？", "顾怀山是谁？", "若汀是谁？"):
        asked = lore("ask", question, "--world", "demo", "--session", session, home=demo_copy)
        assert asked.code == 0, asked.err
    bigger = lore("sessions", "export", session, "--format", "json", home=demo_copy).out
    # bigger than the old file's pages and the slack: writing over it in place would fail too
    assert len(bigger.encode()) > len(good) + 8192
    fill(small_disk)  # leave less room than the new export needs
    result = lore("sessions", "export", session, "--format", "json", "--out", out, "--force",
                  home=demo_copy)
    assert result.code != 0 and "Traceback" not in result.err
    assert "the disk is full" in result.err and "free some disk space" in result.err
    assert out.read_bytes() == good  # the previous export, whole
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler", "session.json"]  # no .partial


def test_a_full_disk_is_not_called_a_damaged_index(demo_copy: Path, small_disk: Path) -> None:
    """Issue 25 #2: with the disk full, opening the vector index fails with SQLite's "disk I/O
    error"; that is a full disk (free space, retry), never a damaged index to rebuild."""
    import shutil
    import sqlite3
    from contextlib import closing

    home = small_disk / "home"
    shutil.copytree(demo_copy, home)
    # another Lorekeeper has the catalog open (as the app would): its -shm exists, so only the
    # stores that must write on opening meet the full disk
    with closing(sqlite3.connect(home / "catalog.db")) as holder:
        holder.execute("SELECT count(*) FROM chunks").fetchone()
        fill(small_disk)
        doctor = lore("doctor", "--world", "demo", home=home)
        ingest = lore("ingest", "--rebuild", "--world", "demo", home=home)
    world = next(line for line in doctor.out.splitlines() if "world demo" in line)
    assert "data folder is full" in world and "unreadable" not in world and "--repair" not in doctor.out
    assert ingest.code == 3 and "data folder is full" in ingest.err and "Traceback" not in ingest.err
    assert "doctor --repair" not in ingest.err and "delete" not in ingest.err
    assert not list((home / "worlds" / "demo").glob("*.damaged"))  # nothing set aside
    (small_disk / "filler").unlink()
    after = lore("doctor", "--world", "demo", home=home)
    assert after.code == 0 and "vectors 95 vectors" in after.out, after.out


def test_a_read_only_data_folder_can_still_be_read(demo_copy: Path, small_disk: Path) -> None:
    """Issue 25 #6: reading needs no writing — worlds, entities, sessions, timelines and the
    doctor work on a read-only mount; asking says the folder is read-only, not damaged."""
    import shutil

    asked = lore("ask", "沈砚是谁？", "--world", "demo", "--new", home=demo_copy)
    assert asked.code == 0, asked.err
    session = asked.err.split("session ")[-1].split(" ")[0]
    home = small_disk / "home"
    shutil.copytree(demo_copy, home)
    resize(small_disk, "64m", readonly=True)
    for args, needle in ((("worlds",), "demo"), (("entities", "--world", "demo"), "沈砚"),
                         (("sessions", "list"), session), (("sessions", "show", session), "沈砚是谁"),
                         (("sessions", "export", session, "--format", "json"), "沈砚是谁"),
                         (("timeline", "沈砚", "--world", "demo", "--format", "md"), "沈砚")):
        result = lore(*args, home=home)
        assert result.code == 0 and needle in result.out, (args, result.err)
    doctor = lore("doctor", home=home)
    assert "ok   catalog" in doctor.out and "ok   session database" in doctor.out, doctor.out
    assert "read-only" in doctor.out and "--repair" not in doctor.out and "aside" not in doctor.out
    again = lore("ask", "韩峥是谁？", "--world", "demo", home=home)
    assert again.code == 3 and "read-only" in again.err and "Traceback" not in again.err


def test_a_full_standard_output_is_not_the_data_folder(demo_copy: Path) -> None:
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "tui", "worlds"], cwd=ROOT, stdout=full,
                                stderr=subprocess.PIPE, text=True, timeout=120,
                                env={**os.environ, "LORE_HOME": str(demo_copy)})
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "standard output: cannot write the output" in result.stderr
    assert "data folder" not in result.stderr


def test_kill_9_during_an_export_leaves_the_previous_file_whole(demo_copy: Path,
                                                                tmp_path: Path) -> None:
    """Issue 25 #4: `lore sessions export … --out F --force` killed (SIGKILL) once it has begun
    writing F's new content leaves the previous F whole, and the same command then writes the
    new one."""
    first = lore("ask", "沈砚是谁？", "--world", "demo", "--new", home=demo_copy)
    assert first.code == 0, first.err
    session = first.err.split("session ")[-1].split(" ")[0]
    out = tmp_path / "session.json"
    export = ("sessions", "export", session, "--format", "json", "--out", out)
    assert lore(*export, home=demo_copy).code == 0
    good = out.read_bytes()
    grow(demo_copy / "sessions.db", session, turns=4000)  # an export of some 50 MB
    env = {**os.environ, "LORE_HOME": str(demo_copy)}
    before = out.stat()
    proc = subprocess.Popen([sys.executable, "-m", "tui", *map(str, export), "--force"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    begun = False
    while proc.poll() is None:  # until it begins to write (a temporary file, or F itself)
        now = out.stat()
        if list(tmp_path.glob(".session.json.*")) or (now.st_size, now.st_mtime_ns) != (
                before.st_size, before.st_mtime_ns):
            proc.kill()
            begun = True
            break
        time.sleep(0.001)
    proc.wait(timeout=60)
    assert begun and proc.returncode == -signal.SIGKILL, "the export ended before it was killed"
    assert out.read_bytes() == good  # the previous export, whole
    again = lore(*export, "--force", home=demo_copy)
    assert again.code == 0 and "Traceback" not in again.err, again.err
    assert len(json.loads(out.read_bytes())["turns"]) == 4001


def grow(sessions_db: Path, session: str, turns: int) -> None:
    """Give `session` `turns` more answered turns, copies of its first with a long answer."""
    with closing(sqlite3.connect(sessions_db)) as db:
        columns = [r[1] for r in db.execute("PRAGMA table_info(turns)")]
        row = dict(zip(columns, db.execute("SELECT * FROM turns WHERE session_id = ?",
                                           [session]).fetchone(), strict=True))
        rows = [{**row, "id": f"{row['id']}-{n}", "n": n, "answer": "沈砚是书生。" * 600}
                for n in range(2, turns + 2)]
        db.executemany(f"INSERT INTO turns ({', '.join(columns)}) VALUES "
                       f"({', '.join(':' + c for c in columns)})", rows)
        db.commit()
