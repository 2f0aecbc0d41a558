"""Plain text and Markdown prose: chapters by heading lines, scenes, paragraphs with line spans."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from stores.lang import is_han
from stores.models import Chapter, Paragraph
from stores.readers.headings import (
    chapter_heading,
    display_width,
    is_scene_break,
    is_volume_line,
    markdown_heading,
    numbered_heading,
)
from stores.readers.structure import ChapterBuilder

_WRAP_MAX_COLUMNS = 100
_WRAP_SAMPLE_LINES = 5000
_LINE_ENDINGS = tuple("。！？!?.…”」』\"’")


@dataclass(slots=True)
class _Mark:
    """What a line means for the structure: a chapter heading or a scene start."""

    kind: str  # "chapter" | "scene" | "skip"
    number: int | None = None
    title: str = ""


def parse_prose(text: str, path: str | Path, fallback_chapter: int = 1,
                markdown: bool = False) -> list[Chapter]:
    """Split prose into chapters, scenes and paragraphs.

    A blank-line-separated block is one paragraph when the text is hard-wrapped (or is
    Markdown, `markdown=True`), else every line is a paragraph. Line spans are 1-based.
    """
    lines = text.split("\n")
    start, end = _gutenberg_bounds(lines)
    lines = _blank_illustrations(lines, start, end)
    marks = _structure_marks(lines, start, end)
    join_blocks = _joins_blocks(lines, start, end, marks, markdown)
    builder = ChapterBuilder(path, fallback_chapter)
    block: list[tuple[int, str]] = []

    def flush() -> None:
        for paragraph in _paragraphs(block, join_blocks):
            builder.paragraph(paragraph)
        block.clear()

    for i in range(start, end):
        mark = marks.get(i)
        if mark is not None:
            flush()
            if mark.kind == "chapter":
                builder.chapter(mark.number, mark.title, i + 1)
            elif mark.kind == "scene":
                builder.scene(mark.title)
            continue
        line = lines[i].strip()
        if line:
            block.append((i + 1, line))
        else:
            flush()
    flush()
    return builder.finish()


def _gutenberg_bounds(lines: list[str]) -> tuple[int, int]:
    """Line range between Project Gutenberg's START and END markers (the whole file if none)."""
    start, end = 0, len(lines)
    for i, line in enumerate(lines):
        if "utenberg" not in line and "UTENBERG" not in line:
            continue
        upper = line.strip().upper()
        if upper.startswith("***") and "START OF" in upper:
            start = i + 1
        elif (upper.startswith("***") and "END OF" in upper) or upper.startswith(
                ("END OF PROJECT GUTENBERG", "END OF THE PROJECT GUTENBERG")):
            end = i
            break
    return start, end


_IMAGE_ID = re.compile(r"\s*\d{3,}[a-z]\s*")
"""A line that is only an image's file name, which a Gutenberg text made from its HTML edition
keeps where the picture stood ("40062m" in The Count of Monte Cristo: 351 of them)."""


def _blank_illustrations(lines: list[str], start: int, end: int) -> list[str]:
    """Blank Gutenberg `[Illustration: …]` blocks (captions, not story), keeping headings, and
    the lines that are only an image's file name (`_IMAGE_ID`)."""
    lines = [("" if _IMAGE_ID.fullmatch(line) else line) if start <= i < end else line
             for i, line in enumerate(lines)]
    if not any(line.lstrip().startswith("[Illustration") for line in lines[start:end]):
        return lines
    depth = 0
    for i in range(start, end):
        line = lines[i]
        if depth == 0 and not line.lstrip().startswith("[Illustration"):
            continue
        depth += line.count("[") - line.count("]")
        depth = max(depth, 0)
        heading = chapter_heading(line)
        lines[i] = line.strip().rstrip("]") if heading else ""
    return lines


def _structure_marks(lines: list[str], start: int, end: int) -> dict[int, _Mark]:
    """Chapter headings, sub-headings and scene breaks by line index."""
    marks: dict[int, _Mark] = {}
    markdown: list[tuple[int, int, str]] = []
    fenced = False
    for i in range(start, end):
        line = lines[i]
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if fenced or not line.strip():
            continue
        md = markdown_heading(line)
        if md is not None:
            markdown.append((i, md[0], md[1]))
        elif is_scene_break(line):
            marks[i] = _Mark("scene")
        elif is_volume_line(line):
            marks[i] = _Mark("skip")
        elif (heading := chapter_heading(line)) is not None:
            marks[i] = _Mark("chapter", heading.number, heading.title)
    plain_chapters = any(mark.kind == "chapter" for mark in marks.values())
    marks.update(_markdown_marks(markdown, plain_chapters))
    if not plain_chapters and not markdown:
        numbered = dict(_numbered_chapters(lines, start, end, marks))
        marks.update(numbered or _titled_chapters(lines, start, end, marks))
    return marks


TITLED_CHAPTERS_MIN = 3
"""How many titles in capitals make a book's capital lines its chapters' headings."""
TITLED_CHAPTER_LINES = 30
"""The fewest lines between two such titles: a headline or a sign quoted in a story (Dubliners'
"MUNICIPAL ELECTIONS") stands apart from the next by fewer, or is indented."""
_CAPITAL_TITLE = re.compile(r"[A-Z][A-Z0-9 ,.'’&:;!?-]{1,59}")


def _titled_chapters(lines: list[str], start: int, end: int,
                     marks: dict[int, _Mark]) -> dict[int, _Mark]:
    """Chapters headed by a title in capitals alone (Dubliners' stories: "THE SISTERS", "ARABY",
    … "THE DEAD", read as one chapter before): lines wholly in capitals, flush left, with a
    blank line either side, and TITLED_CHAPTERS_MIN of them; else none. Of two such lines
    closer than TITLED_CHAPTER_LINES the later heads (a book's title before its first
    story's)."""
    found: dict[int, _Mark] = {}
    last = -TITLED_CHAPTER_LINES
    for i in range(start, end):
        line = lines[i].rstrip()
        if (i in marks or not _CAPITAL_TITLE.fullmatch(line) or len(line.split()) > 8
                or (i > start and lines[i - 1].strip())
                or (i + 1 < end and lines[i + 1].strip())):
            continue
        if i - last < TITLED_CHAPTER_LINES:
            found.pop(last, None)  # the book's own title, or a list: the last line heads
        found[i] = _Mark("chapter", 0, line.strip())
        last = i
    if len(found) < TITLED_CHAPTERS_MIN:
        return {}
    return {i: _Mark("chapter", n, mark.title) for n, (i, mark) in enumerate(found.items(), 1)}


NUMBERED_CHAPTERS_MIN = 3
"""How many chapters, numbered 1, 2, 3 … in order, make a book's number-only lines its
headings."""


def _numbered_chapters(lines: list[str], start: int, end: int,
                       marks: dict[int, _Mark]) -> Iterator[tuple[int, _Mark]]:
    """Chapters headed by their number alone (`numbered_heading`: "I. IN THE DINGEY OF THE
    "LADY VAIN."" … "XXII. THE MAN ALONE." in The Island of Doctor Moreau, read as one
    chapter before): lines of that shape that stand after a blank line and count 1, 2, 3 …
    with no number skipped, at least NUMBERED_CHAPTERS_MIN of them. A numbered list in the
    text counts too rarely, or starts again, or its items are not in capitals."""
    found: list[tuple[int, _Mark]] = []
    for i in range(start, end):
        if i in marks or (i > start and lines[i - 1].strip()):
            continue
        heading = numbered_heading(lines[i])
        if heading is not None and heading.number == len(found) + 1:
            found.append((i, _Mark("chapter", heading.number, heading.title)))
    if len(found) >= NUMBERED_CHAPTERS_MIN:
        yield from found


def _markdown_marks(headings: list[tuple[int, int, str]],
                    plain_chapters: bool) -> Iterator[tuple[int, _Mark]]:
    """The top heading level present marks chapters, the next one scenes.

    A lone top heading over several `Chapter N` sub-headings is the book's title, not a chapter.
    Deeper headings stay in the text as paragraphs.
    """
    if not headings:
        return
    levels = sorted({level for _, level, _ in headings})
    top = levels[0]
    count = {lv: sum(1 for _, level, _ in headings if level == lv) for lv in levels}
    if count[top] == 1 and len(levels) > 1 and count[levels[1]] >= 2 and any(
            level == levels[1] and chapter_heading(text) for _, level, text in headings):
        yield next((i, _Mark("skip")) for i, level, _ in headings if level == top)
        top = levels[1]
    sub = next((lv for lv in levels if lv > top), None)
    for i, level, text in headings:
        heading = chapter_heading(text)
        if heading is not None:
            yield i, _Mark("chapter", heading.number, heading.title)
        elif plain_chapters:
            yield i, _Mark("scene", title=text)  # chapters come from the plain heading lines
        elif level == top:
            yield i, _Mark("chapter", None, text)
        elif level == sub:
            yield i, _Mark("scene", title=text)


def _joins_blocks(lines: list[str], start: int, end: int, marks: dict[int, _Mark],
                  markdown: bool) -> bool:
    """Whether the lines of a blank-line-separated block form one paragraph.

    Wrapped text (Gutenberg) runs nearly every line but a block's last close to a wrap width
    of at most ~100 columns, and wraps mid-sentence; a file with one paragraph per line has
    longer, ragged lines that end with a sentence. Markdown joins a block's lines by
    definition, unless its lines are that long (a novel saved as .md, one paragraph a line).
    """
    widths, inner, sentence_ends = [], [], 0
    step = max(1, (end - start) // _WRAP_SAMPLE_LINES)  # a spread-out sample is enough
    for i in range(start, end, step):
        line = lines[i].strip()
        if not line or i in marks:
            continue
        width = display_width(line)
        widths.append(width)
        nxt = lines[i + 1].strip() if i + 1 < end else ""
        if nxt and i + 1 not in marks:
            inner.append(width)
            sentence_ends += line.endswith(_LINE_ENDINGS)
    if not inner:
        return True  # every block is one line: joining changes nothing
    widths.sort()
    wrap = widths[int(len(widths) * 0.95)]
    if wrap > _WRAP_MAX_COLUMNS:
        return False
    if markdown:
        return True
    near = sum(1 for width in inner if width >= 0.7 * wrap)
    return sentence_ends <= 0.5 * len(inner) and near >= 0.7 * len(inner)


def _paragraphs(block: list[tuple[int, str]], join: bool) -> Iterator[Paragraph]:
    if not block:
        return
    if not join:
        for number, line in block:
            yield Paragraph(line, number, number)
        return
    text, offsets = joined([line for _, line in block])
    yield Paragraph(text, block[0][0], block[-1][0], line_offsets=offsets)


def join_lines(lines: list[str]) -> str:
    """Join wrapped lines: with a space in alphabetic text, with nothing between CJK characters."""
    return joined(lines)[0]


def joined(lines: list[str]) -> tuple[str, tuple[int, ...]]:
    """The lines joined as `join_lines` joins them, and where each line after the first begins
    in the result."""
    parts, offsets, size = [lines[0]], [], len(lines[0])
    for line in lines[1:]:
        glue = "" if _wide(parts[-1][-1]) or _wide(line[0]) else " "
        size += len(glue)
        offsets.append(size)
        parts += [glue, line]
        size += len(line)
    return "".join(parts), tuple(offsets)


def _wide(ch: str) -> bool:
    code = ord(ch)
    if code < 0x1100:  # the common case in alphabetic text
        return False
    return is_han(ch) or 0x3000 <= code <= 0x303F or 0xFF00 <= code <= 0xFFEF
