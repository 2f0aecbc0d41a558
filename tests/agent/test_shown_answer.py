"""A streaming answer read piece by piece: the JSON of the answer's call decoded once per
character (agent.answer.fields) and what of it the screen may show (agent.answer.shown)."""

from __future__ import annotations

import base64
import json
import random

import pytest

from agent.answer.fields import AnswerFields
from agent.answer.shown import HOLD_MAX, ShownAnswer
from agent.answer.streaming import Draft
from sessions.scrub import scrub

KEY = "zq7-private-0f3a9c2e11b4d5"
PAIR = base64.b64encode(b"lore:hunter2pass").decode()
LEAK = (f"沈砚的钥匙是{KEY}，网址 http://lore:hunter2pass@llm.example/v1 ，"
        f"Authorization: Basic {PAIR} and sk-{'a1' * 12} end. ")


def pieces(text: str, seed: int, most: int = 7) -> list[str]:
    rng, out, at = random.Random(seed), [], 0
    while at < len(text):
        step = rng.randint(1, most)
        out.append(text[at:at + step])
        at += step
    return out


@pytest.mark.parametrize("seed", range(40))
def test_the_text_field_is_decoded_whatever_the_pieces(seed: int) -> None:
    rng = random.Random(seed)
    text = "".join(rng.choice(['a', '沈', '"', '\\', '\n', '😀', ' ', '\x01', '/', '}', ','])
                   for _ in range(rng.randint(0, 60)))
    answer = {"resolved_question": '谁"是', "text": text, "stop_reason": "answered",
              "citations": [{"chunk_id": "c1", "quote": "text"}], "entities": ["text"]}
    if seed % 2:  # the fields in another order
        answer = {"citations": answer["citations"], "entities": ["a"], **answer}
    fields = AnswerFields()
    got = [fields.feed(p).get("text", "") for p in
           pieces(json.dumps(answer, ensure_ascii=bool(seed % 3)), seed)]
    assert "".join(got) == text == fields.value("text")
    assert fields.value("resolved_question") == '谁"是'
    assert fields.closed == {"text", "resolved_question"}


@pytest.mark.parametrize("seed", range(40))
def test_a_secret_cut_in_two_by_the_stream_is_never_shown(seed: int,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LORE_TEST_API_KEY", KEY)
    text = "沈砚是书生。" + LEAK * 2 + "他后来去了临安。"
    shown, at = ShownAnswer(), 0
    for piece in pieces(text, seed):
        again, out = shown.feed(Draft(piece, at))
        at += len(piece)
        assert not again
        for secret in (KEY, "hunter2pass", PAIR, "a1" * 12):
            assert secret not in shown.shown, (secret, shown.shown)
    assert scrub(text).startswith(shown.shown)  # all of it redacted, in order
    assert shown.shown.startswith("沈砚是书生。沈砚的钥匙是[REDACTED]")  # CJK is not held


def test_nothing_past_the_cap_is_shown_and_a_new_answer_begins_afresh() -> None:
    shown = ShownAnswer(limit=100)
    at = 0
    for piece in pieces("沈砚 " * 1000, 1):
        shown.feed(Draft(piece, at))
        at += len(piece)
    assert 90 <= len(shown.shown) <= 100 and shown.received == 3000
    assert shown.feed(Draft("重新回答", 0)) == (True, "重新回答")
    assert shown.shown == "重新回答"


def test_an_english_answer_holds_back_only_its_last_words() -> None:
    shown = ShownAnswer()
    text = "Edmond Dantès was arrested on his wedding day, and sent to the Château d'If. "
    at = 0
    for piece in pieces(text, 3):
        shown.feed(Draft(piece, at))
        at += len(piece)
    assert text.startswith(shown.shown) and len(shown.shown) > len(text) // 2


def test_a_long_run_of_ascii_is_shown_but_for_its_last_characters() -> None:
    blob = base64.b64encode(bytes(range(256)) * 20).decode()  # 6,828 characters, no space
    shown = ShownAnswer()
    for at, char in enumerate(blob):  # one character at a time
        shown.feed(Draft(char, at))
    assert blob.startswith(shown.shown) and len(blob) - len(shown.shown) <= HOLD_MAX
