"""JSONL records: one object a line with `text` and optional chapter, chapter_title, scene, speaker."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from stores.errors import InputError, at_line
from stores.models import Chapter, Paragraph, Scene

_FIELDS = "text (required), chapter (int), chapter_title, scene (int or text), speaker"


def parse_jsonl(text: str, path: str | Path, fallback_chapter: int = 1) -> list[Chapter]:
    """Consecutive records with the same chapter form that chapter; same for scenes.

    A record without `chapter` belongs to `fallback_chapter`. Raises InputError naming the
    line of a malformed record.
    """
    chapters: list[Chapter] = []
    chapter_key: int | None = None
    scene_key: Any = object()
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        record = _record(line, path, number)
        words = record["text"].strip()
        if not words:
            continue
        chapter_no = _chapter_number(record, path, number, fallback_chapter)
        if not chapters or chapter_no != chapter_key:
            chapters.append(Chapter(number=chapter_no, title="", line_start=number))
            chapter_key, scene_key = chapter_no, object()
        chapter = chapters[-1]
        if not chapter.title and isinstance(record.get("chapter_title"), str):
            chapter.title = record["chapter_title"].strip()
        scene = record.get("scene")
        if scene != scene_key:
            chapter.scenes.append(_scene(scene, len(chapter.scenes) + 1, path, number))
            scene_key = scene
        speaker = record.get("speaker")
        chapter.scenes[-1].paragraphs.append(Paragraph(
            words, number, number, speaker=speaker.strip() if isinstance(speaker, str) else ""))
    return chapters


def _record(line: str, path: str | Path, number: int) -> dict[str, Any]:
    where = at_line(path, number)
    try:
        record = json.loads(line)
    except RecursionError:
        from stores.readers.glossary import too_deep

        raise too_deep(where) from None
    except ValueError as exc:  # JSONDecodeError is one; a 5000-digit number another
        from stores.readers.glossary import huge_number

        if (huge := huge_number(exc, line, path, number)) is not None:
            raise huge from None
        if not isinstance(exc, json.JSONDecodeError):
            raise
        raise InputError(f"line {number} is not valid JSON: {exc.msg} (column {exc.colno})",
                         where=where, hint="fix the record; each line must be one JSON object "
                                           f"with the fields {_FIELDS}") from None
    if not isinstance(record, dict):
        raise InputError(f"line {number} is a JSON {type(record).__name__}, not an object",
                         where=where, hint=f"write one object per line with {_FIELDS}")
    if not isinstance(record.get("text"), str):
        problem = "has no \"text\" field" if "text" not in record else "has a non-text \"text\""
        raise InputError(f"the record on line {number} {problem}", where=where,
                         hint="give every record a \"text\" string (the passage itself)")
    return record


def _chapter_number(record: dict[str, Any], path: str | Path, number: int,
                    fallback: int) -> int:
    value = record.get("chapter")
    if value is None:
        return fallback
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(f"the record on line {number} has chapter {value!r}, not a number",
                         where=at_line(path, number),
                         hint="give \"chapter\" as a whole number (1, 2, …) or leave it out")
    return value


def _scene(value: Any, position: int, path: str | Path, number: int) -> Scene:
    if value is None:
        return Scene(position, "")
    if isinstance(value, int) and not isinstance(value, bool):
        return Scene(value, "")
    if isinstance(value, str):
        return Scene(int(value), "") if value.strip().isdigit() else Scene(position, value.strip())
    raise InputError(f"the record on line {number} has scene {value!r}",
                     where=at_line(path, number),
                     hint="give \"scene\" as a number or a short title, or leave it out")
