"""Questions in their normal form (issue 39, item 12): a question of zero-width characters only
was saved as an invisible turn, and an invisible character or full-width letters inside a name
(沈\\u200b砚, Ｓｕ Ｗａｎ) made the answer worse. A question is stored, and answered, as the
world's text spells it."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tests.integration.lore import lore

pytestmark = pytest.mark.slow  # `lore` in subprocesses


def questions(home: Path) -> list[str]:
    if not (home / "sessions.db").exists():
        return []
    with closing(sqlite3.connect(home / "sessions.db")) as db:
        return [q for (q,) in db.execute("SELECT question FROM turns ORDER BY created")]


def answer(home: Path, question: str) -> tuple[str, list[str]]:
    asked = lore("ask", question, "--world", "demo", "--new", "--json", home=home)
    assert asked.code == 0, asked.err
    reply = json.loads(asked.out)
    return reply["answer"], [c["chunk_id"] for c in reply["citations"]]


def test_a_question_of_invisible_characters_is_refused(demo_copy: Path) -> None:
    before = questions(demo_copy)
    asked = lore("ask", "\u200b\u200b\u2060\ufeff", "--world", "demo", home=demo_copy)
    assert asked.code == 2 and "the question is empty" in asked.err
    assert questions(demo_copy) == before


@pytest.mark.parametrize("typed, plain", [
    ("沈\u200b砚是谁？", "沈砚是谁？"),
    ("Ｗｈｏ ｉｓ Ｓｕ Ｗａｎ？", "Who is Su Wan?"),
    ("Who is S\u00adu W\u200dan?", "Who is Su Wan?"),
], ids=["zero-width space", "full-width", "soft hyphen and joiner"])
def test_a_name_with_invisible_or_full_width_letters_is_answered_as_the_name(
        demo_copy: Path, typed: str, plain: str) -> None:
    assert answer(demo_copy, typed) == answer(demo_copy, plain)
    assert questions(demo_copy)[-2:] == [plain, plain]
