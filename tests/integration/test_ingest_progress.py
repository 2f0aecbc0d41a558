"""`lore ingest` with its output to a pipe or a file, as three newcomers ran it into a log:
rich draws nothing there until it stops, so each stage says how far it is in plain lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.lore import lore

# It runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow


def test_ingest_to_a_pipe_says_how_far_each_stage_is(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for n in range(1, 6):
        (corpus / f"0{n}.txt").write_text(
            f"Chapter {n}. The Ferry\n\nOld Tamsin kept the ferry, and Wil rowed.\n",
            encoding="utf-8")
    result = lore("ingest", corpus, "--world", "ferry", home=tmp_path / "home")
    assert result.code == 0, result.err
    lines = result.out.splitlines()  # captured: no terminal
    assert "reading files: 0/5 (0:00)" in lines and "reading files: 5/5 (0:00)" in lines, lines
    assert any(line.startswith("finding entities: 5/5 (") for line in lines), lines
