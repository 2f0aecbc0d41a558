"""Assemble chapters, scenes and paragraphs in reading order, then tidy them up.

Readers feed a `ChapterBuilder` with what they find line by line; `finish()` applies the
rules every reader shares: front matter becomes chapter 0 only when it is substantial, a file
without headings is one chapter numbered from its name, table-of-contents entries (headings
with nothing under them) disappear, and empty scenes are dropped.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from stores.models import Chapter, Paragraph, Scene
from stores.readers.headings import display_width, number_in_name

FRONT_MATTER_MIN_CHARS = 200
_TITLE_ENDINGS = tuple("。！？!?.，,；;：:…”\"’」』")


class ChapterBuilder:
    """Collects chapters in reading order; the text before the first heading is front matter."""

    def __init__(self, path: str | Path, fallback_chapter: int, *,
                 title_from_first_line: bool = True) -> None:
        self.base = number_in_name(Path(path).stem) or fallback_chapter
        self.title_from_first_line = title_from_first_line
        self._chapters: list[Chapter] = [Chapter(number=0, title="", scenes=[Scene(1, "")])]
        self._numbered: list[bool] = [True]

    def chapter(self, number: int | None, title: str, line: int) -> None:
        """Start a chapter at a heading; `number` None means "the one after the previous"."""
        self._chapters.append(Chapter(number=number or 0, title=title,
                                      scenes=[Scene(1, "")], line_start=line))
        self._numbered.append(number is not None)

    def scene(self, title: str = "") -> None:
        """Start a new scene in the current chapter (a sub-heading or a scene break)."""
        scenes = self._chapters[-1].scenes
        if scenes[-1].paragraphs or scenes[-1].title:
            scenes.append(Scene(len(scenes) + 1, title))
        else:
            scenes[-1].title = title

    def paragraph(self, paragraph: Paragraph) -> None:
        """Add a paragraph to the current scene."""
        chapter = self._chapters[-1]
        if not any(scene.paragraphs for scene in chapter.scenes) and len(self._chapters) == 1:
            chapter.line_start = paragraph.line_start
        chapter.scenes[-1].paragraphs.append(paragraph)

    def finish(self) -> list[Chapter]:
        """The chapters in reading order, numbered, without empty scenes or TOC entries."""
        front, rest = self._chapters[0], self._chapters[1:]
        _drop_empty_scenes(front)
        if not rest:
            return _single_chapter(front, self.base, self.title_from_first_line)
        self._number(rest)
        for chapter in rest:
            _drop_empty_scenes(chapter)
        chapters = _drop_duplicates([ch for ch in rest if ch.scenes])
        if _size(front) > FRONT_MATTER_MIN_CHARS:
            chapters.insert(0, front)
        return chapters

    def _number(self, chapters: list[Chapter]) -> None:
        next_number = self.base
        for chapter, numbered in zip(chapters, self._numbered[1:], strict=True):
            if not numbered:
                chapter.number = next_number
            next_number = chapter.number + 1


def _single_chapter(chapter: Chapter, number: int, title_from_first_line: bool) -> list[Chapter]:
    """A file without headings: one chapter; a short first line is its title."""
    if not chapter.scenes:
        return []
    chapter.number = number
    first_scene = chapter.scenes[0]
    first = first_scene.paragraphs[0]
    more = len(first_scene.paragraphs) > 1 or len(chapter.scenes) > 1
    if title_from_first_line and more and first.line_start == first.line_end and _heading_like(first.text):
        chapter.title = first.text
        del first_scene.paragraphs[0]
        _drop_empty_scenes(chapter)
    return [chapter]


def _heading_like(text: str) -> bool:
    return 0 < display_width(text) <= 60 and not text.endswith(_TITLE_ENDINGS)


def _drop_empty_scenes(chapter: Chapter) -> None:
    chapter.scenes = [scene for scene in chapter.scenes if scene.paragraphs]
    for i, scene in enumerate(chapter.scenes, start=1):
        scene.number = i


def _size(chapter: Chapter) -> int:
    return sum(len(p.text) for scene in chapter.scenes for p in scene.paragraphs)


def _drop_duplicates(chapters: list[Chapter]) -> list[Chapter]:
    """Where a number occurs twice, a trivial occurrence (a TOC entry with a stray line) goes."""
    sizes: dict[int, list[int]] = defaultdict(list)
    for chapter in chapters:
        sizes[chapter.number].append(_size(chapter))
    kept = []
    for chapter in chapters:
        size = _size(chapter)
        trivial = size < FRONT_MATTER_MIN_CHARS and max(sizes[chapter.number]) > size
        if not (len(sizes[chapter.number]) > 1 and trivial):
            kept.append(chapter)
    return kept
