"""The passage view's heading names where the passage stands: its chapter, or the lore for an
entry that names none (a newcomer read "Chapter 1000000" opening 沈砚's entry from his map)."""

from __future__ import annotations

from agent.schemas import Passage
from stores.models import LORE_CHAPTER
from tui.screens.passage import passage_heading


def test_a_chapter_and_a_lore_entry_are_headed_as_a_reader_says_them() -> None:
    chapter = Passage(chunk_id="c", chapter=3, chapter_title="第三回 夜雨", source="/w/03.txt",
                      lines=(12, 20), text="…")
    entry = Passage(chunk_id="g", chapter=LORE_CHAPTER, chapter_title="沈砚",
                    source="/w/glossary.toml", lines=(11, 39), text="…")
    assert passage_heading(chapter) == "Chapter 3 · 第三回 夜雨 — 03.txt, lines 12-20"
    assert passage_heading(entry) == "Lore · 沈砚 — glossary.toml, lines 11-39"
