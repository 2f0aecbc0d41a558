"""Chunking on the real corpora: scene/chapter boundaries, sizes, order, spans and ids."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from stores.chunking import MERGE_CEILING, chunk_document, chunk_id, split_long
from stores.config import ChunkingSettings
from stores.models import Chapter, Chunk, Paragraph, ParsedDocument, Scene
from stores.readers import read_document

SETTINGS = ChunkingSettings()
_SPACE = re.compile(r"\s+")


def _squash(text: str) -> str:
    return _SPACE.sub("", text)


def _chapter_text(chapter: Chapter) -> str:
    return "".join(p.text for scene in chapter.scenes for p in scene.paragraphs)


def _check_invariants(doc: ParsedDocument, chunks: list[Chunk], limit_of: dict[int, int]) -> None:
    assert [c.chunk_order for c in chunks] == list(range(len(chunks)))
    assert len({c.id for c in chunks}) == len(chunks)
    for chapter in doc.chapters:
        mine = [c for c in chunks if c.chapter == chapter.number]
        # Nothing lost, nothing added, nothing reordered.
        assert _squash("".join(c.text for c in mine)) == _squash(_chapter_text(chapter))
        assert all(c.chapter_title == chapter.title for c in mine)
        limit = limit_of[chapter.number]
        assert all(len(c.text) <= limit * MERGE_CEILING for c in mine)
    # Only a tiny remainder merged into its neighbour may pass the limit, and that is rare.
    over = [c for c in chunks if len(c.text) > limit_of[c.chapter]]
    assert len(over) <= 0.03 * len(chunks)
    for chunk in chunks:
        assert chunk.document == doc.path and chunk.event_order == 0 and chunk.entities == []
        assert chunk.id == chunk_id("w", doc.path, chunk.chunk_order, chunk.text)


@pytest.mark.parametrize("number", [1, 36, 37])
def test_sanguo_chapters(shared_data: Path, number: int) -> None:
    path = shared_data / "sanguo_yanyi" / "chapters" / f"{number:03d}.txt"
    doc = read_document(path)
    chunks = chunk_document(doc, "w", SETTINGS)
    _check_invariants(doc, chunks, {number: SETTINGS.max_chars_cjk})
    assert all(c.chapter == number for c in chunks)
    assert all(len(c.text) <= SETTINGS.max_chars_cjk for c in chunks)
    lines = path.read_text(encoding="utf-8").split("\n")
    for chunk in chunks:
        # The span covers the chunk's text: its first and last paragraphs are on those lines.
        first, last = chunk.text.split("\n")[0], chunk.text.split("\n")[-1]
        span = "".join(lines[chunk.line_start - 1:chunk.line_end])
        assert first[:20] in span and last[-20:] in span
    sizes = sorted(len(c.text) for c in chunks)
    assert sizes[0] >= SETTINGS.max_chars_cjk // 4  # no crumbs
    assert len(chunks) >= len(_squash(_chapter_text(doc.chapters[0]))) / SETTINGS.max_chars_cjk


def test_monte_cristo_full_uses_latin_limit(shared_data: Path) -> None:
    doc = read_document(shared_data / "monte_cristo" / "pg1184_full.txt")
    chunks = chunk_document(doc, "w", SETTINGS)
    _check_invariants(doc, chunks, {c.number: SETTINGS.max_chars_latin for c in doc.chapters})
    assert [c.chapter for c in chunks] == sorted(c.chapter for c in chunks)
    median = sorted(len(c.text) for c in chunks)[len(chunks) // 2]
    assert 0.6 * SETTINGS.max_chars_latin <= median <= SETTINGS.max_chars_latin


def test_traditional_edition_splits_long_paragraphs_at_sentences(shared_data: Path) -> None:
    doc = read_document(shared_data / "sanguo_yanyi" / "pg23950_sanguo_yanyi_traditional.txt")
    chunks = chunk_document(doc, "w", SETTINGS)
    _check_invariants(doc, chunks, {c.number: SETTINGS.max_chars_cjk for c in doc.chapters})
    longest = max((p for ch in doc.chapters for s in ch.scenes for p in s.paragraphs),
                  key=lambda p: len(p.text))
    assert len(longest.text) > SETTINGS.max_chars_cjk
    pieces = [c for c in chunks
              if c.line_start <= longest.line_end and c.line_end >= longest.line_start]
    assert len(pieces) >= 2
    assert _squash(longest.text) in _squash("".join(c.text for c in pieces))
    # Cut at sentence ends (a closing quote may follow the full stop).
    assert all(c.text.endswith(("。", "」", "？", "！", "：", "；")) for c in pieces[:-1])


def test_chunks_never_cross_scenes(tmp_path: Path) -> None:
    path = tmp_path / "tale.txt"
    path.write_text("Chapter 1\n\nShort scene one.\n\n***\n\nShort scene two.\n\n"
                    "Chapter 2\n\nAnother chapter.\n", encoding="utf-8")
    chunks = chunk_document(read_document(path), "w", SETTINGS)
    assert [(c.chapter, c.scene, c.text) for c in chunks] == [
        (1, 1, "Short scene one."), (1, 2, "Short scene two."), (2, 1, "Another chapter.")]
    assert [c.line_start for c in chunks] == [3, 7, 11]


def test_dialogue_chunk_speakers(tmp_path: Path) -> None:
    path = tmp_path / "script.txt"
    path.write_text("林照：走吧。\n沈舟：好。\n雨停了。\n林照：到了。\n", encoding="utf-8")
    [chunk] = chunk_document(read_document(path), "w", SETTINGS)
    assert chunk.speakers == ["林照", "沈舟"]
    assert (chunk.line_start, chunk.line_end) == (1, 4)


def test_even_sizes_and_tiny_tail_merge() -> None:
    settings = ChunkingSettings(max_chars_latin=100)
    words = [Paragraph("x" * 30, i, i) for i in range(1, 5)]  # 4 × 30 + separators = 123
    doc = ParsedDocument("d.txt", "prose", "utf-8",
                         chapters=[Chapter(1, "", [Scene(1, "", words)])])
    chunks = chunk_document(doc, "w", settings)
    # Two even chunks, not a full one (30+30+30) and a remainder (30).
    assert [len(c.text) for c in chunks] == [61, 61]
    assert [(c.line_start, c.line_end) for c in chunks] == [(1, 2), (3, 4)]
    tail = [Paragraph("y" * 90, 1, 1), Paragraph("z" * 10, 2, 2)]
    doc.chapters[0].scenes[0].paragraphs = tail
    assert [len(c.text) for c in chunk_document(doc, "w", settings)] == [101]


def test_split_long_keeps_every_character() -> None:
    text = "他说：“快走！”众人四散。" * 40 + "没有句号的一长串字" * 30
    pieces = split_long(text, 100)
    assert all(len(piece) <= 100 for piece in pieces)
    assert "".join(pieces) == text
    english = "It was late. The bells rang; nobody moved! " * 30
    pieces = split_long(english.strip(), 150)
    assert all(len(p) <= 150 for p in pieces) and " ".join(pieces) == english.strip()


def test_a_long_paragraph_is_never_cut_after_a_title() -> None:
    # a title's full stop ends no sentence: a passage ended "and as a marriage with Mr." and
    # the answer quoted that much (a newcomer's trial on Mansfield Park)
    text = " ".join(f"Her {n} marriage with Mr. Rushworth would give her a larger income."
                    for n in range(3))
    pieces = split_long(text, 150)
    assert len(pieces) > 1 and " ".join(pieces) == text
    assert not any(p.endswith(("Mr.", "Dr.", "M.")) for p in pieces)


def test_chunk_id_is_stable_and_sensitive() -> None:
    base = chunk_id("w", "a.txt", 0, "text")
    assert len(base) == 16 and base == chunk_id("w", "a.txt", 0, "text")
    assert len({base, chunk_id("v", "a.txt", 0, "text"), chunk_id("w", "b.txt", 0, "text"),
                chunk_id("w", "a.txt", 1, "text"), chunk_id("w", "a.txt", 0, "texts")}) == 5


def test_the_whole_novels_chunk_within_limits(shared_data: Path) -> None:
    """All 120 三国演义 chapter files plus the full Monte Cristo; speed lives in bench/ingest.py."""
    files = sorted((shared_data / "sanguo_yanyi" / "chapters").glob("*.txt"))
    files.append(shared_data / "monte_cristo" / "pg1184_full.txt")
    chunks = [c for f in files for c in chunk_document(read_document(f), "w", SETTINGS)]
    assert len(chunks) > 4000
    assert max(len(c.text) for c in chunks) <= 1.5 * SETTINGS.max_chars_latin


def test_overlapping_passages_repeat_the_end_of_the_one_before(shared_data: Path) -> None:
    doc = read_document(shared_data / "sanguo_yanyi" / "chapters" / "005.txt")
    plain = chunk_document(doc, "sanguo", ChunkingSettings())
    overlapped = chunk_document(doc, "sanguo", ChunkingSettings(overlap=0.2))
    assert [c.text for c in chunk_document(doc, "sanguo", ChunkingSettings(overlap=0.0))] == [
        c.text for c in plain]
    assert len(overlapped) == len(plain)
    share = int(ChunkingSettings().max_chars_cjk * 0.2)
    repeated = 0
    for before, after, own in zip(plain, overlapped[1:], plain[1:], strict=False):
        assert after.text.endswith(own.text)
        carried = after.text[:len(after.text) - len(own.text)].rstrip("\n")
        if before.scene != own.scene or not carried:
            continue
        repeated += 1
        assert before.text.endswith(carried) and len(carried) <= share
        assert after.line_start <= own.line_start  # the span covers the repeated lines
    assert repeated >= len(plain) // 2


def test_a_wrapped_chapter_in_one_block_is_cited_by_each_passages_own_lines(
        tmp_path: Path) -> None:
    """A chapter hard-wrapped with no blank line between paragraphs is one long paragraph; its
    passages cite the lines they stand on, not the whole chapter's (11.txt:3–460)."""
    sentence = "The schoolmaster walked to the river and counted the boats again. "
    words = (sentence * 120).split()
    lines = [" ".join(words[i:i + 10]) for i in range(0, len(words), 10)]  # ~60 columns
    path = tmp_path / "01.txt"
    path.write_text("Chapter 1\n\n" + "\n".join(lines) + "\n", encoding="utf-8")
    chunks = chunk_document(read_document(path), "w", SETTINGS)
    assert len(chunks) > 3
    last_line = 2 + len(lines)
    for chunk in chunks:
        assert 3 <= chunk.line_start <= chunk.line_end <= last_line
        assert chunk.line_end - chunk.line_start < len(lines) / 2, "not the whole chapter"
        held = " ".join(path.read_text().splitlines()[chunk.line_start - 1:chunk.line_end])
        assert _squash(chunk.text.split(". ")[1]) in _squash(held)  # the lines hold its text
    assert chunks[0].line_start == 3 and chunks[-1].line_end == last_line
