"""World names that look like others (issue 39, item 11): `dеmo` with a Cyrillic е became a
second world beside demo, and the full-width `ｓｍａｌｌ` a world of its own that also pushed
the columns of `lore worlds` out of line. --world is read in its normal form (NFKC: ｓｍａｌｌ
is small), a new name mixing look-alike alphabets is refused, and `lore worlds` lines up wide
characters."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.cells import cell_len

from tests.integration.lore import lore

pytestmark = pytest.mark.slow  # `lore` in subprocesses


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "01.txt").write_text("第一回 夜雨\n\n" + "沈砚在灯下读书，门外雨声不绝。\n" * 4,
                                   encoding="utf-8")
    return folder


def names(home: Path) -> list[str]:
    listed = lore("worlds", "--json", home=home)
    assert listed.code == 0, listed.err
    return [w["name"] for w in json.loads(listed.out)]


def test_a_look_alike_of_a_world_is_refused(demo_copy: Path, corpus: Path) -> None:
    made = lore("ingest", corpus, "--world", "dеmo", home=demo_copy)  # Cyrillic е
    assert made.code == 2, made.out
    assert "Cyrillic" in made.err and "did you mean --world demo?" in made.err
    assert "Traceback" not in made.err
    assert names(demo_copy) == ["demo"]


def test_full_width_names_are_the_same_world_and_columns_line_up(tmp_path: Path,
                                                                  corpus: Path) -> None:
    home = tmp_path / "home"
    assert lore("ingest", corpus, "--world", "ｓｍａｌｌ", home=home).code == 0
    assert names(home) == ["small"]
    asked = lore("ask", "沈砚在做什么？", "--world", "ｓｍａｌｌ", home=home)
    assert asked.code == 0, asked.err
    assert lore("ingest", corpus, "--world", "small", home=home).code == 0  # the same world
    assert lore("ingest", corpus, "--world", "三国", home=home).code == 0
    assert sorted(names(home)) == sorted(["small", "三国"])
    listed = lore("worlds", home=home)
    starts = {cell_len(line.split(" ready")[0]) for line in listed.out.splitlines()}
    assert len(starts) == 1, listed.out  # the state column starts at one place
