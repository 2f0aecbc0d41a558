"""Lore entries: a glossary's or lorebook's descriptions as passages of the world.

Each entry with a description becomes a chapter of its own, titled with the entity's name and
numbered with the entry's `chapter` (else LORE_CHAPTER, after the whole story, so a spoiler
horizon hides it), holding one paragraph: the name, then the description as written, cited by
the description's line span in the file. A lorebook entry's keys follow as one line, so a
search for a trigger word finds the entry.
"""

from __future__ import annotations

from stores.lang import has_han
from stores.models import LORE_CHAPTER, Chapter, GlossaryEntry, Paragraph, Scene


def lore_chapters(entries: list[GlossaryEntry]) -> list[Chapter]:
    """One chapter per entry that has a description, in the file's order."""
    chapters = []
    for entry in entries:
        if not entry.description:
            continue
        start, end = entry.lines if entry.lines != (0, 0) else (_line_of(entry),) * 2
        paragraph = Paragraph(lore_text(entry), start, end)
        number = LORE_CHAPTER if entry.chapter is None else entry.chapter
        chapters.append(Chapter(number=number, title=entry.name,
                                scenes=[Scene(1, "", [paragraph])], line_start=start))
    return chapters


def lore_text(entry: GlossaryEntry) -> str:
    """「沈砚：字青崖。雁回楼…」 / "Eldoria: a land of… Keys: forest, wood." """
    chinese = has_han(entry.name + entry.description[:40])
    text = f"{entry.name}{'：' if chinese else ': '}{entry.description}"
    if entry.triggers:
        keys = ("、" if chinese else ", ").join(entry.triggers)
        text += f"\n（触发词：{keys}）" if chinese else f"\n(Keys: {keys}.)"
    return text


def _line_of(entry: GlossaryEntry) -> int:
    tail = entry.source.rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else 1
