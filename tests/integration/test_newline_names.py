"""A newline in a corpus file's name (issue 39, item 16) printed raw in prune's list, in
citations and in session exports, faking a line ("[2] ch. 9 · evil.txt"). It is escaped as
\\u000a, like every other control character."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.integration.lore import lore

pytestmark = pytest.mark.slow  # `lore` in subprocesses

NAME = "02 fake\n[2] ch. 9 · evil.txt"
FAKE = "[2] ch. 9 · evil.txt"


def faked(text: str) -> bool:
    return any(line.lstrip().startswith(FAKE) for line in text.splitlines())


def test_a_newline_in_a_file_name_never_makes_a_line(tmp_path: Path) -> None:
    corpus, home = tmp_path / "corpus", tmp_path / "home"
    corpus.mkdir()
    (corpus / "01.txt").write_text("第一回 夜雨\n\n沈砚在灯下读书，门外雨声不绝。\n", encoding="utf-8")
    (corpus / NAME).write_text("第二回 晨雾\n\n苏绾在湖边洗衣，晨雾未散。\n", encoding="utf-8")
    assert lore("ingest", corpus, "--world", "nl", home=home).code == 0
    asked = lore("ask", "苏绾在湖边做什么？", "--world", "nl", home=home)
    assert asked.code == 0, asked.err
    assert "02 fake\\u000a[2] ch. 9 · evil.txt" in asked.out and not faked(asked.out)
    session = json.loads(lore("sessions", "list", "--json", home=home).out)[0]["id"]
    for fmt in ("md", "json"):
        exported = lore("sessions", "export", session, "--format", fmt, home=home)
        assert exported.code == 0 and not faked(exported.out), exported.out
    timeline = lore("timeline", "苏绾", "--world", "nl", "--format", "md", home=home)
    assert not faked(timeline.out)
    (corpus / NAME).unlink()
    pruned = lore("prune", "--world", "nl", "--yes", home=home)
    assert pruned.code == 0, pruned.err
    assert "1 document's file is gone" in pruned.out and not faked(pruned.out)
    assert "02 fake\\u000a[2]" in pruned.out
