"""Secrets never reach the session database."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from sessions import SessionStore, StackEntry, scrub
from sessions.scrub import REDACTED

FAKE_KEY = "AIzaSyFAKE0123456789abcdefghijklmnopqrstu"
# Looks like nothing in particular: only the env-variable rule can catch it.
FAKE_TOKEN = 'plain-"token"\\value-4242'


@pytest.mark.parametrize(
    "text",
    [
        f"400 Bad Request: API key {FAKE_KEY} not valid",
        "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc123",
        "OPENAI key sk-proj-AbCdEf0123456789AbCdEf0123 rejected",
        "https://host/v1?api_key=s3cr3tvalue99&x=1",
        '{"x-api-key": "zzzzzz123456"}',
        "ghp_0123456789abcdefghijABCDEFGHIJ012345",
    ],
)
def test_key_looking_strings_are_removed(text: str) -> None:
    out = scrub(text, environ={})
    assert REDACTED in out
    for secret in (FAKE_KEY, "eyJhbGciOiJIUzI1NiJ9", "sk-proj-AbCd", "s3cr3tvalue99",
                   "zzzzzz123456", "ghp_0123"):
        assert secret not in out


@pytest.mark.parametrize(
    "text",
    [
        "He was the bearer of bad tidings from Marseilles.",
        "Basic training was over; the count smiled.",
        "刘备，字玄德，涿郡涿县人。曹操问：“key 在哪里？”",
        "The task-list had 12 items; ask-me-anything later.",
    ],
)
def test_lore_text_is_left_alone(text: str) -> None:
    assert scrub(text, environ={}) == text


def test_env_values_are_removed_raw_and_json_escaped() -> None:
    env = {"MY_SERVICE_TOKEN": FAKE_TOKEN, "DB_PASSWORD": "hunter2hunter2", "HOME": "/root",
           "SHORT_API_KEY": "abc"}
    doc = json.dumps({"content": f"token {FAKE_TOKEN} and pw hunter2hunter2 in /root abc"})
    out = scrub(doc, environ=env)
    assert json.loads(out) == {"content": f"token {REDACTED} and pw {REDACTED} in /root abc"}
    assert scrub(f"raw {FAKE_TOKEN}", environ=env) == f"raw {REDACTED}"


def test_no_secret_reaches_the_database_file(
    lore_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", FAKE_KEY)
    monkeypatch.setenv("LORE_TEST_TOKEN", FAKE_TOKEN)
    leak = f"key={FAKE_KEY} tok={FAKE_TOKEN}"
    db = lore_home / "sessions.db"
    with SessionStore(db) as store:
        s = store.create_session("sanguo", title=leak)
        t = store.begin_turn(s.id, f"why does {leak} fail?")
        store.finish_turn(
            t.id, resolved_question=leak, answer=leak,
            messages_json=json.dumps([{"parts": [{"content": leak, "args": {"k": FAKE_TOKEN}}]}]),
            citations=[{"note": leak}], tool_calls=[{"args": leak}],
            stack=[StackEntry(entity="刘备", referred_as=leak)],
        )
        failed = store.begin_turn(s.id, "again")
        store.fail_turn(failed.id, f"google.genai error: 400 API key not valid: {FAKE_KEY}")
        store.add_summary(s.id, 1, 1, leak, leak, ["c1"])
        store.set_tracked(s.id, "刘备")
        turn = store.turns(s.id)[0]
        assert json.loads(turn.messages_json)[0]["parts"][0]["args"] == {"k": REDACTED}
        assert turn.answer == f"key={REDACTED} tok={REDACTED}"
        stored = b"".join(p.read_bytes() for p in lore_home.glob("sessions.db*"))
    stored += b"".join(p.read_bytes() for p in lore_home.glob("sessions.db*"))
    assert REDACTED.encode() in stored  # the rows really are in the bytes we searched
    for secret in (FAKE_KEY, FAKE_TOKEN, json.dumps(FAKE_TOKEN)[1:-1], "AIzaSy"):
        assert secret.encode() not in stored, secret


@pytest.mark.parametrize(("text", "kept"), [
    ("POST http://lore:hunter2pass@127.0.0.1:8080/v1/chat failed", "http://lore:[REDACTED]@127.0.0.1"),
    ("Authorization: Basic bG9yZTpodW50ZXIycGFzcw==", "Authorization: Basic [REDACTED]"),
    ("Basic dXNlcjpwYXNz", "Basic [REDACTED]"),  # no digit in it, still a user:password pair
])
def test_url_passwords_and_basic_auth_pairs_are_removed(text: str, kept: str) -> None:
    out = scrub(text, environ={})
    assert kept in out and "hunter2pass" not in out and "bG9yZTpodW50ZXIycGFzcw" not in out


@pytest.mark.parametrize("text", ["Basic training made him a soldier.",
                                  "the server at http://127.0.0.1:8080/v1 and mail@host.org"])
def test_urls_without_a_password_and_prose_are_kept(text: str) -> None:
    assert scrub(text, environ={}) == text


def test_a_secret_right_after_chinese_text_is_redacted() -> None:
    """A Han character is a word character: a \\b before the key let these through."""
    pair = base64.b64encode(b"lore:hunter2pass").decode()
    text = f"钥匙sk-abcdefghijklmnopqrstu，地址http://lore:hunter2pass@x.org/v1，见Basic {pair}"
    cleaned = scrub(text)
    for secret in ("abcdefghijklmnopqrstu", "hunter2pass", pair):
        assert secret not in cleaned, cleaned
    assert scrub("risk-abcdefghijklmnopqrstu") == "risk-abcdefghijklmnopqrstu"  # not a key
