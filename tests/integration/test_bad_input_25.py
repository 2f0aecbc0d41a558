"""Issue 25 #5: bad input that hung or crashed `lore` — a named pipe, deeply nested JSON or
TOML, a command-line argument that is not UTF-8, a session database from a newer version. Each
is refused with a message naming the file or argument and what to do; nothing is lost."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from tests.integration.lore import ROOT, lore

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow

DEMO_ZH = ROOT / "stores" / "demo_world" / "zh"


def test_a_named_pipe_is_refused_at_once(tmp_path: Path) -> None:
    pipe = tmp_path / "story.txt"
    os.mkfifo(pipe)
    result = lore("ingest", pipe, "--world", "p", home=tmp_path / "home", timeout=60)
    assert result.code == 2 and "Traceback" not in result.err
    assert f"{pipe}: not a regular file (a named pipe" in result.err
    assert "cat PIPE > story.txt" in result.err


DEEP = 50_000


@pytest.mark.parametrize(("name", "text", "as_glossary"), [
    ("deep.json", "[" * DEEP + "]" * DEEP, True),
    ("deep.toml", '[[entity]]\nname = "a"\nx = ' + "[" * DEEP + "]" * DEEP + "\n", True),
    ("deep.jsonl", '{"text": "x", "a": ' + "[" * DEEP + "]" * DEEP + "}\n", False),
    ("lorebook.json", '{"entries": ' + '{"a": ' * DEEP + "1" + "}" * DEEP + "}", False),
], ids=["json-glossary", "toml-glossary", "jsonl-corpus", "json-corpus"])
def test_deeply_nested_files_are_refused_without_a_traceback(
        tmp_path: Path, name: str, text: str, as_glossary: bool) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    args = ["ingest", DEMO_ZH, "--glossary", path] if as_glossary else ["ingest", path]
    result = lore(*args, "--world", "p", home=tmp_path / "home")
    assert result.code == 2 and "Traceback" not in result.err and "RecursionError" not in result.err
    assert f"{path}" in result.err and "nested too deeply to read" in result.err


def raw_lore(home: Path, *args: bytes) -> subprocess.CompletedProcess[bytes]:
    """`lore` with arguments given as bytes, as a shell passes $'\\xff…'."""
    env = {**os.environ, "LORE_HOME": str(home)}
    return subprocess.run([sys.executable.encode(), b"-m", b"tui", *args], cwd=ROOT, env=env,
                          capture_output=True, timeout=120)


def session_rows(home: Path) -> list[tuple]:
    with closing(sqlite3.connect(home / "sessions.db")) as db:
        return db.execute("SELECT id, (SELECT count(*) FROM turns t WHERE t.session_id = s.id)"
                          " FROM sessions s ORDER BY id").fetchall()


def test_an_argument_that_is_not_utf8_is_refused_before_anything_is_written(
        demo_copy: Path) -> None:
    asked = lore("ask", "沈砚是谁？", "--world", "demo", home=demo_copy)
    assert asked.code == 0, asked.err
    before = session_rows(demo_copy)
    for args in ([b"ask", b"\xff\xfe\xe6\xb2\x88", b"--world", b"demo"],
                 [b"ask", b"\xff\xfe", b"--world", b"demo", b"--new"],
                 [b"sessions", b"show", b"\xff"]):
        result = raw_lore(demo_copy, *args)
        err = result.stderr.decode("utf-8")
        assert result.returncode == 2 and "Traceback" not in err, err
        assert "is not valid UTF-8 text" in err and "LANG=C.UTF-8" in err
    assert session_rows(demo_copy) == before  # no empty session left behind


def newer(home: Path, how: str) -> None:
    with closing(sqlite3.connect(home / "sessions.db")) as db:
        if how == "migration":
            db.execute("INSERT INTO _migrations (name, applied) VALUES ('m099_future', 'x')")
        elif how == "status":
            db.execute("PRAGMA ignore_check_constraints = ON")
            db.execute("UPDATE turns SET status = 'archived'")
        else:  # a table rebuilt with a required column this version does not fill
            columns = ", ".join(r[1] for r in db.execute("PRAGMA table_info(sessions)"))
            sql = db.execute("SELECT sql FROM sqlite_master WHERE name = 'sessions'").fetchone()[0]
            db.execute("PRAGMA foreign_keys = OFF")
            db.execute(sql.replace("CREATE TABLE sessions (", "CREATE TABLE s2 (owner_key TEXT "
                                   "NOT NULL,", 1))
            db.execute(f"INSERT INTO s2 (owner_key, {columns}) SELECT 'k', {columns} FROM sessions")
            db.execute("DROP TABLE sessions")
            db.execute("ALTER TABLE s2 RENAME TO sessions")
        db.commit()
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def digest(home: Path) -> str:
    """The main database file (SQLite's -shm index changes whenever a reader opens it)."""
    return hashlib.sha256((home / "sessions.db").read_bytes()).hexdigest()


@pytest.mark.parametrize("how", ["migration", "status", "column"])
def test_a_session_database_from_a_newer_version_is_refused_untouched(
        demo_copy: Path, how: str) -> None:
    asked = lore("ask", "沈砚是谁？", "--world", "demo", home=demo_copy)
    assert asked.code == 0, asked.err
    session = asked.err.split("session ")[-1].split(" ")[0]
    newer(demo_copy, how)
    before = digest(demo_copy)
    for args in (["sessions", "list"], ["sessions", "show", session],
                 ["ask", "韩峥是谁？", "--world", "demo"]):
        result = lore(*args, home=demo_copy)
        assert result.code != 0 and "Traceback" not in result.err, result.err
        assert "written by a newer version of Lorekeeper" in result.err, result.err
        assert f"mv {demo_copy / 'sessions.db'}" in result.err
    doctor = lore("doctor", home=demo_copy)
    assert doctor.code == 1 and "FAIL session database" in doctor.out
    assert "newer version of Lorekeeper" in doctor.out
    assert digest(demo_copy) == before


@pytest.mark.parametrize(("name", "text", "needle"), [
    ("glossary.toml", '[[entity]]\nname = "沈砚"\naliases = ["青崖", 1, 2.5, true]\n',
     "an alias of entity '沈砚' is not text: 1"),
    ("lorebook.json", '{"entries": {"0": {"key": [null, 5, {"a": 1}], "comment": "",'
                      ' "content": "沈砚是书生。"}}}', "is not text: null"),
])
def test_glossary_names_that_are_not_text_are_refused(
        tmp_path: Path, name: str, text: str, needle: str) -> None:
    """Issue 25 #6: non-string keys and aliases made entities named `None` and aliases "True"."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = lore("ingest", DEMO_ZH, "--glossary", path, "--world", "g", home=tmp_path / "home")
    assert result.code == 2 and needle in result.err and str(path) in result.err, result.err
    assert "quoted string" in result.err and "Traceback" not in result.err


def test_a_world_name_too_long_for_a_folder_is_refused_up_front(tmp_path: Path) -> None:
    name = "𠀀" * 64  # 64 characters, 256 bytes: one past what a folder name may hold
    result = lore("ingest", DEMO_ZH, "--world", name, home=tmp_path / "home")
    assert result.code == 2 and "the world name is 256 bytes long in UTF-8" in result.err
    assert "File name too long" not in result.err and "Traceback" not in result.err
    ok = lore("ingest", DEMO_ZH, "--world", "𠀀" * 25, home=tmp_path / "home")
    assert ok.code == 0, ok.err


def test_a_gbk_file_with_a_utf8_line_names_the_line(tmp_path: Path, shared_data: Path) -> None:
    """Issue 25 #6: GB18030 decodes the UTF-8 bytes of 刘备 as 鍒樺… without an error; the line
    is found and named, as the reverse mix already was."""
    lines = (shared_data / "sanguo_yanyi" / "chapters" / "001.txt").read_text(
        encoding="utf-8").splitlines()[:30]
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    story = corpus / "001.txt"
    story.write_bytes(b"\n".join(line.encode("gbk", errors="ignore") for line in lines[:12])
                      + b"\n" + "刘备".encode() + b"\n"
                      + b"\n".join(line.encode("gbk", errors="ignore") for line in lines[12:]))
    result = lore("ingest", corpus, "--world", "mixed", home=tmp_path / "home")
    assert result.code == 2 and "Traceback" not in result.err, result.err
    assert f"{story}:13: line 13 is UTF-8 while the rest of the file is" in result.err
    clean = corpus / "001.txt"
    clean.write_bytes("\n".join(lines).encode("gbk", errors="ignore"))
    assert lore("ingest", corpus, "--world", "mixed", home=tmp_path / "home").code == 0


def test_a_data_folder_that_is_a_file_says_so(tmp_path: Path) -> None:
    """LORE_HOME set to a file printed only "File exists" (newcomer's trial)."""
    home = tmp_path / "afile"
    home.write_text("not a folder\n", encoding="utf-8")
    result = lore("worlds", home=home)
    assert result.code != 0 and "Traceback" not in result.err
    assert f"{home} is a file, not a folder" in result.err, result.err
    assert home.read_text(encoding="utf-8") == "not a folder\n"  # and it is left as it was
