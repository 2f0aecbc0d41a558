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


def _roman_headed(book: Path) -> Path:
    """Three chapters headed "I. THE FERRY." …, after an introduction."""
    book.write_text("INTRODUCTION.\n\nThese notes were found among her papers.\n\n" + "\n\n".join(
        f"{numeral}. {title}\n\n{_chapter_text(n, 4)}"
        for n, (numeral, title) in enumerate([("I", "THE FERRY."), ("II", "THE MILL."),
                                             ("III", "THE ORCHARD.")], start=1)),
        encoding="utf-8")
    return book


def test_roman_numeral_headings_make_the_chapters(tmp_path: Path) -> None:
    book = _roman_headed(tmp_path / "gulls.txt")
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


def test_a_book_an_older_reader_took_for_one_chapter_is_read_again_by_the_next_ingest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a world built before the reader knew these headings: one chapter, as Moreau was; its
    # file is unchanged, and `lore ingest` used to leave it so (the user had to pick a new name)
    import stores.ingest
    import stores.readers.prose
    from stores.ingest import ingest
    from tui.settings import load_settings

    book = _roman_headed(tmp_path / "gulls.txt")
    with monkeypatch.context() as older:
        older.setattr(stores.readers.prose, "_numbered_chapters", lambda *args: iter(()))
        older.setattr(stores.ingest, "READING_VERSION", 0, raising=False)
        ingest(load_settings(), "gulls", [book])
    assert " 1 chapter " in lore("worlds").out
    again = lore("ingest", book, "--world", "gulls")
    assert again.code == 0, again.err
    assert "1 of 1 files (re)indexed" in again.out, again.out
    assert "3 chapters" in lore("worlds").out
