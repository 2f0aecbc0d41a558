"""A book in one file whose chapters a user's text heads its own way (a newcomer's trial on The
Island of Doctor Moreau, issue 37): headings that are a Roman numeral and a title in capitals
("I. IN THE DINGEY OF THE "LADY VAIN."") were not read, the book was one chapter, and every
answer and timeline said chapter 1 with no word of why. They are read now; and a long file in
which no heading is found says so at ingest, with the fix, which works."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.lore import lore

pytestmark = pytest.mark.slow  # `lore` in subprocesses

PLACES = ["the ferry", "the mill", "the orchard", "the chapel", "the quay", "the ridge"]


def _chapter_text(n: int, paragraphs: int) -> str:
    """Made-up story paragraphs for chapter `n`, each naming Maren Vell at some place."""
    return "\n\n".join(
        f"In the {n}th week Maren Vell walked down to {PLACES[(n + i) % len(PLACES)]} and "
        f"counted {n * 7 + i} gulls on the water. The keeper said the tide would turn before "
        f"evening, and she wrote the number in her book beside the others."
        for i in range(paragraphs))


def test_roman_numeral_headings_make_the_chapters(tmp_path: Path) -> None:
    book = tmp_path / "gulls.txt"
    book.write_text("INTRODUCTION.\n\nThese notes were found among her papers.\n\n" + "\n\n".join(
        f"{numeral}. {title}\n\n{_chapter_text(n, 4)}"
        for n, (numeral, title) in enumerate([("I", "THE FERRY."), ("II", "THE MILL."),
                                             ("III", "THE ORCHARD.")], start=1)),
        encoding="utf-8")
    result = lore("ingest", book, "--world", "gulls")
    assert result.code == 0, result.err
    assert "read as one chapter" not in result.out
    worlds = lore("worlds")
    assert "3 chapters" in worlds.out, worlds.out
    timeline = lore("timeline", "Maren Vell", "--world", "gulls", "--format", "csv")
    assert timeline.code == 0, timeline.err
    chapters = {line.split(",")[0] for line in timeline.out.splitlines()[1:]}
    assert {"1", "2", "3"} <= chapters, timeline.out


def test_a_long_book_with_no_heading_found_says_so_and_how_to_mark_them(tmp_path: Path) -> None:
    book = tmp_path / "gulls.txt"
    parts = [_chapter_text(n, 170) for n in (1, 2)]  # 67,000 characters
    book.write_text("\n\n".join(parts), encoding="utf-8")
    first = lore("ingest", book, "--world", "gulls")
    assert first.code == 0, first.err
    assert "gulls.txt was read as one chapter: no chapter heading was found" in first.out
    assert '→ put a heading line before each chapter ("Chapter 1"' in first.out
    # the advice, followed: a heading line before each chapter, the same command again
    book.write_text("\n\n".join(f"Chapter {n}\n\n{text}" for n, text in enumerate(parts, 1)),
                    encoding="utf-8")
    again = lore("ingest", book, "--world", "gulls")
    assert again.code == 0 and "read as one chapter" not in again.out, again.out
    assert "2 chapters" in lore("worlds").out
