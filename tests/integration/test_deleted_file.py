"""A file deleted from the corpus (issue 39, item 10): `lore ingest` said "nothing changed in 4
files" while the deleted file's passages went on answering. It now says which documents'
files are gone and that `lore prune` removes them — and doing so works."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.integration.lore import lore

pytestmark = pytest.mark.slow  # `lore` in subprocesses


def test_ingest_says_a_deleted_file_still_answers_and_how_to_remove_it(
        tmp_path: Path, shared_data: Path) -> None:
    corpus, home = tmp_path / "corpus", tmp_path / "home"
    corpus.mkdir()
    for n in (1, 2, 3, 4):
        shutil.copy(shared_data / "sanguo_yanyi" / "chapters" / f"{n:03d}.txt", corpus)
    assert lore("ingest", corpus, "--world", "w", home=home).code == 0
    gone = corpus / "004.txt"
    gone.unlink()
    again = lore("ingest", corpus, "--world", "w", home=home)
    assert again.code == 0, again.err
    assert "up to date" not in again.out
    assert "1 document's file is gone" in again.out and str(gone) in again.out
    advice = next(x for x in again.out.splitlines() if "→" in x)
    assert "lore prune --world w" in advice
    pruned = lore("prune", "--world", "w", "--yes", home=home)  # the advice, followed
    assert pruned.code == 0 and "removed 1 of 4 documents" in pruned.out, pruned.err
    last = lore("ingest", corpus, "--world", "w", home=home)
    assert "gone" not in last.out and "the world is up to date" in last.out
