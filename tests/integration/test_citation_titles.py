"""A citation names its own file's chapter title (issue 39, item 9): two files of one world that
share a chapter number — `第一回.txt` titled 雪夜渡江 and `chapter-01.md` with no title — and
`lore ask` cited chapter-01.md as "第1回 雪夜渡江 · chapter-01.md", the other file's title."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.lore import lore

pytestmark = pytest.mark.slow  # `lore` in subprocesses


def test_each_file_is_cited_with_its_own_title(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "第一回.txt").write_text(
        "第一回 雪夜渡江\n\n沈砚在雪夜里渡江，船夫默然无语。沈砚望着对岸的灯火，想起了师父的话。\n",
        encoding="utf-8")
    (corpus / "chapter-01.md").write_text(
        "Lin Qiu walked to the old mill by the river and counted the stones. The miller "
        "watched Lin Qiu from the door.\n", encoding="utf-8")
    home = tmp_path / "home"
    assert lore("ingest", corpus, "--world", "mix", home=home).code == 0
    english = lore("ask", "Where did Lin Qiu walk?", "--world", "mix", home=home)
    assert english.code == 0, english.err
    (cited,) = [x for x in english.out.splitlines() if x.startswith("[") and "chapter-01.md" in x]
    assert "雪夜渡江" not in cited
    chinese = lore("ask", "沈砚在雪夜里做什么？", "--world", "mix", "--new", home=home)
    assert chinese.code == 0, chinese.err
    (cited,) = [x for x in chinese.out.splitlines() if x.startswith("[") and "第一回.txt" in x]
    assert "雪夜渡江" in cited  # its own title is still shown
