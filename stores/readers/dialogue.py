"""Dialogue scripts: `Speaker：line` / `Speaker: line`, scene headings, narration lines."""

from __future__ import annotations

import re
from pathlib import Path

from stores.lang import en, zh
from stores.models import Chapter, Paragraph
from stores.readers.headings import chapter_heading, is_scene_break, markdown_heading
from stores.readers.structure import ChapterBuilder

# A speaker is a short name (a few words, or up to a dozen CJK characters), optionally with a
# parenthetical direction: `林照（低声）：…`, `Captain Mara: …`. An ASCII colon must be followed
# by a space so that `12:30` and `http://` never look like speakers.
_SPEAKER = re.compile(
    r"^(?P<speaker>[^\W\d_][\w.'’\-]*(?:[ ·][\w.'’\-]+){0,3}"
    r"(?:\s*[（(][^）)]{1,20}[）)])?)\s*(?:：|:(?=\s))\s*(?P<line>\S.*)$")
_SCENE_HEADINGS = en.SCENE_HEADINGS + zh.SCENE_HEADINGS
_PARENTHETICAL = re.compile(r"\s*[（(].*$")
_MAX_SPEAKER = 24
DIALOGUE_SHARE = 0.6
_SAMPLE_LINES = 3000


def speaker_line(line: str) -> tuple[str, str] | None:
    """(speaker, words) when `line` is `Speaker：words`, else None."""
    match = _SPEAKER.match(line.strip())
    if match is None or len(match.group("speaker")) > _MAX_SPEAKER:
        return None
    return match.group("speaker").strip(), match.group("line").strip()


def scene_heading(line: str) -> str | None:
    """The scene title when `line` is a scene heading (`[Scene: …]`, `场景：…`, `第N幕`, INT.)."""
    text = line.strip()
    for pattern in _SCENE_HEADINGS:
        match = pattern.match(text)
        if match:
            return match.group("title").strip()
    return None


def looks_like_dialogue(text: str) -> bool:
    """Most content lines are `Speaker: line` with names that recur (not a `key: value` list)."""
    content, speakers = 0, []
    lines = text.split("\n")
    # A sample spread over the file is as telling as every line, and keeps big novels fast.
    for line in lines[::max(1, len(lines) // _SAMPLE_LINES)]:
        if not line.strip() or _is_structure(line):
            continue
        content += 1
        found = speaker_line(line)
        if found is not None:
            speakers.append(_PARENTHETICAL.sub("", found[0]))
    if content < 2 or len(speakers) < DIALOGUE_SHARE * content:
        return False
    return len(set(speakers)) <= max(3, 0.7 * len(speakers))


def _is_structure(line: str) -> bool:
    if line.lstrip().startswith("#"):
        return markdown_heading(line) is not None or is_scene_break(line)
    return (scene_heading(line) is not None
            or chapter_heading(line) is not None or is_scene_break(line))


def parse_dialogue(text: str, path: str | Path, fallback_chapter: int = 1) -> list[Chapter]:
    """One paragraph per line, kept whole (`林照：…`); its speaker as written ("" = narration)."""
    lines = text.split("\n")
    levels = {md[0] for line in lines if (md := markdown_heading(line))}
    # `# Act` over `## Scene`: the top level is a chapter only when a lower level exists.
    chapter_level = min(levels) if len(levels) > 1 else None
    builder = ChapterBuilder(path, fallback_chapter, title_from_first_line=False)
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        md = markdown_heading(line)
        heading = chapter_heading(md[1] if md else line)
        if heading is not None:
            builder.chapter(heading.number, heading.title, number)
        elif md is not None and md[0] == chapter_level:
            builder.chapter(None, md[1], number)
        elif md is not None:
            builder.scene(md[1])
        elif (title := scene_heading(line)) is not None:
            builder.scene(title)
        elif is_scene_break(line):
            builder.scene()
        elif (found := speaker_line(line)) is not None:
            builder.paragraph(Paragraph(line, number, number, speaker=found[0]))
        else:
            builder.paragraph(Paragraph(line, number, number))
    return builder.finish()
