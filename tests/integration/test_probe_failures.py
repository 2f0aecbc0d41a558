"""Failures a probe found (issue 15, #3–#12), each driven through `lore` as a user would, each
checking the message and that everything stored before is still there."""

from __future__ import annotations

import json
import sqlite3
import stat
from pathlib import Path

import pytest

from tests.agent.fake_llm import FakeServer
from tests.integration.lore import lore
from tests.integration.stored import stored

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow

OSC52 = "\x1b]52;c;ZWNobyBwd25lZA==\x07"  # would write "echo pwned" to the user's clipboard
CLEAR = "\x1b[2J"
RAW_CONTROLS = ("\x1b", "\x07", "\x9b", "\u202e")


def no_controls(text: str) -> bool:
    return not any(c in text for c in RAW_CONTROLS)


# -- #3 the key named by model.api_key_env ------------------------------------------------------
def test_the_key_named_by_api_key_env_is_never_stored_or_printed(demo_copy: Path) -> None:
    before = stored(demo_copy)
    key = "zq7-private-0f3a9c2e11b4d5"  # no known key shape: only the setting marks it secret
    with FakeServer("openai", failures=[401], echo_key=True) as server:
        env = {"LORE_MODEL__PROVIDER": "openai", "LORE_MODEL__NAME": "fake-model",
               "LORE_MODEL__BASE_URL": server.url, "LORE_MODEL__API_KEY_ENV": "MY_LLM_KEY",
               "MY_LLM_KEY": key}
        result = lore("ask", "沈砚是谁？", "--world", "demo", "--new", home=demo_copy, env=env)
    assert server.statuses == [401]
    assert result.code != 0 and "Incorrect API key provided: [REDACTED]" in result.err
    assert key not in result.out + result.err
    raw = b"".join(p.read_bytes() for p in demo_copy.glob("sessions.db*"))
    assert key.encode() not in raw
    after = stored(demo_copy)
    new = set(after["turns"]) - set(before["turns"])
    assert len(new) == 1 and after["turns"][new.pop()] == [("沈砚是谁？", "failed")]
    for fmt in ("md", "json"):
        session = next(iter(set(after["turns"]) - set(before["turns"])), None) or ""
        exported = lore("sessions", "export", session, "--format", fmt, home=demo_copy)
        assert exported.code == 0 and key not in exported.out and "[REDACTED]" in exported.out
    assert {k: v for k, v in after["turns"].items() if k in before["turns"]} == before["turns"]
    assert after["world"] == before["world"] and after["entities"] == before["entities"]


# -- #4 terminal escape injection ---------------------------------------------------------------
@pytest.fixture(scope="module")
def hostile_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A world whose glossary names and aliases hold escape sequences, and a session whose
    question holds one."""
    home = tmp_path_factory.mktemp("hostile-home")
    corpus = home.parent / f"{home.name}-corpus"
    corpus.mkdir()
    (corpus / "01.txt").write_text(
        "第一回 夜雨\n\n" + "沈砚在灯下读书，门外雨声不绝。沈砚起身开门，见一人立于檐下。\n" * 6,
        encoding="utf-8")
    glossary = corpus.parent / f"{home.name}-glossary.toml"
    glossary.write_text(
        '[[entity]]\nname = "沈砚\\u001b]52;c;ZWNobyBwd25lZA==\\u0007"\n'
        'aliases = ["沈砚", "青崖\\u001b[2J\\u009b31m", "\\u202e砚沈"]\ntype = "person"\n',
        encoding="utf-8")
    result = lore("ingest", corpus, "--world", "night", "--glossary", glossary, home=home)
    assert result.code == 0, result.err
    asked = lore("ask", f"{OSC52}沈砚是谁？{CLEAR}", "--world", "night", home=home)
    assert asked.code == 0, asked.err
    return home


def test_names_and_questions_never_reach_the_terminal_raw(hostile_home: Path) -> None:
    entities = lore("entities", "--world", "night", home=hostile_home)
    assert entities.code == 0, entities.err
    assert "沈砚\\u001b]52;c;ZWNobyBwd25lZA==\\u0007" in entities.out  # shown, escaped
    timeline = lore("timeline", "沈砚", "--world", "night", home=hostile_home)
    listed = lore("sessions", "list", home=hostile_home)
    session = listed.out.split()[0]
    outputs = [entities, timeline, listed,
               lore("sessions", "show", session, home=hostile_home),
               lore("sessions", "export", session, "--format", "md", home=hostile_home),
               lore("ask", f"{CLEAR}他在做什么？", "--world", "night", home=hostile_home),
               lore("timeline", "沈砚", "--world", "night", "--format", "csv", home=hostile_home)]
    for result in outputs:
        assert result.code == 0, result.err
        assert no_controls(result.out) and no_controls(result.err), result.out
    assert "\\u001b]52" in listed.out and "\\u001b[2J" in listed.out
    # JSON stays valid and gives the exact names back
    rows = json.loads(lore("entities", "--world", "night", "--json", home=hostile_home).out)
    assert any(r["name"] == "沈砚\x1b]52;c;ZWNobyBwd25lZA==\x07" for r in rows)


def test_an_error_naming_a_hostile_value_is_escaped_too(hostile_home: Path) -> None:
    result = lore("sessions", "show", f"{OSC52}nope", home=hostile_home)
    assert result.code != 0 and "no session" in result.err and no_controls(result.err)


# -- #5 private files ---------------------------------------------------------------------------
def test_what_lore_creates_is_private(demo_world_home: Path, tmp_path: Path) -> None:
    home = tmp_path / "fresh" / "home"  # lore creates the data dir itself
    assert lore("worlds", home=home).code == 0
    assert lore("sessions", "list", home=home).code == 0
    shared = []
    for root in (home, demo_world_home):
        for path in [root, *root.rglob("*")]:
            if path.is_symlink() or (path == demo_world_home):
                continue  # pytest made that folder, not lore
            if stat.S_IMODE(path.stat().st_mode) & 0o077:
                shared.append(f"{path} {oct(stat.S_IMODE(path.stat().st_mode))}")
    assert not shared
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    assert stat.S_IMODE((home / "sessions.db").stat().st_mode) == 0o600
    assert stat.S_IMODE((demo_world_home / "catalog.db").stat().st_mode) == 0o600


# -- #6 blank questions -------------------------------------------------------------------------
@pytest.mark.parametrize("question", ["", "   ", "\n\t"])
def test_a_blank_question_is_refused_before_anything_loads(demo_copy: Path, question: str) -> None:
    before = stored(demo_copy)
    for _ in range(3):  # the crash came in 3 of 5 runs
        result = lore("ask", question, "--world", "demo", home=demo_copy)
        assert result.code == 2, result.err
        assert "the question is empty" in result.err and "Traceback" not in result.err
    assert stored(demo_copy) == before


# -- #8 question length -------------------------------------------------------------------------
def test_a_huge_question_is_refused_with_the_setting_to_raise(demo_copy: Path) -> None:
    before = stored(demo_copy)
    # 100,000 characters: one argument may not pass 128 KiB (the TUI takes longer pastes).
    result = lore("ask", "Who is Shen Yan? " + "a" * 99_983, "--world", "demo", home=demo_copy,
                  timeout=60)
    assert result.code == 2 and "100,000 characters long; at most 2,000" in result.err
    assert "sessions.max_question_chars" in result.err
    assert stored(demo_copy) == before
    raised = lore("ask", "沈砚是谁？" + "。" * 2500, "--world", "demo", home=demo_copy,
                  env={"LORE_SESSIONS__MAX_QUESTION_CHARS": "5000"})
    assert raised.code == 0, raised.err


# -- #9 / #10 settings that name nothing or cannot be read ---------------------------------------
def test_a_typo_in_a_config_section_is_an_error_naming_the_line(demo_copy: Path,
                                                                tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[model]\nname = ""\nprovder = "google"\n', encoding="utf-8")
    for args in (("--config", config, "worlds"), ("--config", config, "doctor")):
        result = lore(*args, home=demo_copy)
        text = result.out + result.err
        assert result.code != 0 and f"{config}:3 [model.provder]" in text, text
        assert "unknown setting 'model.provder'" in text and "did you mean provider?" in text


@pytest.mark.parametrize(("variable", "suggestion"), [
    ("LORE_MODEL__PROVDER", "did you mean provider?"),
    ("LORE_MODELL__NAME", "did you mean model?"),
    ("LORE_EMBEDER", "did you mean embedder?"),
])
def test_a_typo_in_a_variable_is_an_error_naming_it(demo_copy: Path, variable: str,
                                                    suggestion: str) -> None:
    for command in ("worlds", "doctor"):
        result = lore(command, home=demo_copy, env={variable: "google"})
        text = result.out + result.err
        assert result.code != 0 and f"environment variable {variable}" in text, text
        assert suggestion in text and "Traceback" not in text
    assert lore("worlds", home=demo_copy).code == 0


def test_a_section_variable_that_is_not_json_names_the_variable(demo_copy: Path) -> None:
    result = lore("worlds", home=demo_copy, env={"LORE_EMBEDDER": "notjson"})
    assert result.code == 2 and "environment variable LORE_EMBEDDER" in result.err
    assert "config file" not in result.err and "TOML" not in result.err
    assert "LORE_EMBEDDER__<KEY>=value" in result.err


# -- #11 a damaged session database --------------------------------------------------------------
def test_doctor_finds_a_truncated_session_database(demo_copy: Path) -> None:
    assert lore("ask", "沈砚是谁？", "--world", "demo", home=demo_copy).code == 0
    sessions = demo_copy / "sessions.db"
    with sqlite3.connect(sessions) as db:  # enough rows that losing the tail loses pages
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert lore("doctor", home=demo_copy).code == 0
    size = sessions.stat().st_size
    with open(sessions, "r+b") as f:
        f.truncate(size // 2)
    result = lore("doctor", home=demo_copy)
    assert result.code == 1
    line = next(line for line in result.out.splitlines() if "session database" in line)
    assert line.startswith("FAIL") and str(sessions) in line
    assert f"mv {sessions} {sessions}.broken" in result.out
    assert "world demo" in result.out  # the other checks still ran


# -- #12 world names ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["demo\n", "night\n", "a\nb", "x" * 65])
def test_a_world_name_with_a_newline_is_refused(demo_copy: Path, tmp_path: Path,
                                                name: str) -> None:
    before = stored(demo_copy)
    text = tmp_path / "01.txt"
    text.write_text("第一回\n\n沈砚读书。\n", encoding="utf-8")
    for args in (("ingest", text, "--world", name), ("entities", "--world", name)):
        result = lore(*args, home=demo_copy)
        assert result.code == 2 and "invalid world name" in result.err, result.err
    assert stored(demo_copy) == before
    assert not any("\n" in p.name for p in (demo_copy / "worlds").iterdir())


# -- --out never overwrites without being told ---------------------------------------------------
def test_out_refuses_to_overwrite_an_existing_file_without_force(demo_copy: Path,
                                                                 tmp_path: Path) -> None:
    out = tmp_path / "notes.md"
    out.write_text("my own notes, not an export\n", encoding="utf-8")
    assert lore("ask", "沈砚是谁？", "--world", "demo", home=demo_copy).code == 0
    session = json.loads(lore("sessions", "list", "--json", home=demo_copy).out)[0]["id"]
    for args in (("timeline", "沈砚", "--world", "demo", "--out", out),
                 ("sessions", "export", session, "--out", out)):
        refused = lore(*args, home=demo_copy)
        assert refused.code == 2 and f"{out}: the file exists and was left as it was" in refused.err
        assert "--force" in refused.err
        assert out.read_text(encoding="utf-8") == "my own notes, not an export\n"
        forced = lore(*args, "--force", home=demo_copy)
        assert forced.code == 0 and f"wrote {out}" in forced.out
        assert out.read_text(encoding="utf-8") != "my own notes, not an export\n"
        out.write_text("my own notes, not an export\n", encoding="utf-8")
    fresh = lore("timeline", "沈砚", "--world", "demo", "--out", tmp_path / "new.md", home=demo_copy)
    assert fresh.code == 0 and (tmp_path / "new.md").read_text(encoding="utf-8").strip()


# -- a hanging model gives up in bounded time ----------------------------------------------------
def test_a_hanging_model_gives_up_within_the_total_time_and_keeps_the_question(
        demo_copy: Path) -> None:
    before = stored(demo_copy)
    with FakeServer("openai", delay_s=30) as server:
        env = {"LORE_MODEL__PROVIDER": "openai", "LORE_MODEL__NAME": "fake-model",
               "LORE_MODEL__BASE_URL": server.url, "LORE_MODEL__TIMEOUT_S": "3",
               "LORE_MODEL__TOTAL_TIMEOUT_S": "5", "LORE_MODEL__RETRIES": "3"}
        result = lore("ask", "沈砚是谁？", "--world", "demo", "--new", home=demo_copy, env=env)
    # What the test means, with no clock that machine load could push over (issue 25 #7): the
    # total limit ended the request (its own message), and the retries did not run their
    # course — 3 s tries within 5 s in all leave room for 2 of the 4 that retries = 3 allows.
    assert result.code == 4, result.err
    assert 1 <= len(server.requests) <= 2, len(server.requests)
    assert "no answer within 5 s in all" in result.err
    assert "model.total_timeout_s" in result.err and "your question is saved" in result.err
    after = stored(demo_copy)
    new = [t for s, t in after["turns"].items() if s not in before["turns"]]
    assert new == [[("沈砚是谁？", "failed")]]


@pytest.mark.parametrize("argv, needle", [
    (("ask", "--bogus", "谁？"), "No such option: --bogus"),
    (("eval", "dialogues", "--world", "demo", "--questions", "q.jsonl"), "No such option"),
    (("nosuchcommand",), "No such command"),
])
def test_a_mistyped_command_line_is_a_usage_error_not_a_traceback(tmp_path: Path, argv: tuple,
                                                                  needle: str) -> None:
    result = lore(*argv, home=tmp_path / "home")
    assert result.code == 2
    assert needle in result.err and "Try 'lore" in result.err
    assert "Traceback" not in result.err, result.err
