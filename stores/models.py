"""The world's records as they flow from readers to the catalog and the indexes."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Literal

_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
"""C0 controls, DEL, C1 controls, and the bidi embeddings, overrides and isolates (Trojan
Source). Zero-width joiners are not among them: CJK and emoji text uses them."""


def escape_controls(text: str, keep: str = "") -> str:
    """`text` with every control character but those in `keep` as its `\\uXXXX` escape: visible
    to a person, and still the same character when the line is JSON."""
    return _CONTROLS.sub(lambda m: m[0] if m[0] in keep else f"\\u{ord(m[0]):04x}", text)


def shown_path(path: str) -> str:
    """A file's path (or name) as it is shown on one line: a newline or tab in a file's name
    is escaped with the other controls (a name holding "\\n[2] ch. 9 · evil.txt" faked a line
    in prune's list, a citation and a session export)."""
    return escape_controls(path)


EntityType = Literal["person", "place", "faction", "item", "event", "other"]
NOT_PEOPLE: frozenset[str] = frozenset({"place", "item", "faction", "event"})
"""Entity types that are surely no person (an `other` may be one the text never titled)."""

# Relation types a graph edge may carry. Nothing else reaches a Cypher string.
LORE_CHAPTER = 1_000_000
"""The chapter of a lore entry that names none (a glossary or lorebook description): after
every chapter of the story, so a spoiler horizon hides it like any later passage."""

LORE_KINDS = frozenset({"glossary", "lorebook"})
"""Document kinds whose passages are lore entries."""

RELATION_TYPES: frozenset[str] = frozenset({
    "co_occurs", "kin", "sworn_sibling", "lord_of", "serves", "ally", "enemy",
    "member_of", "spouse", "mentor", "rival", "located_in", "owns", "parent_of", "child_of",
    "grandparent_of", "sibling", "engaged",
})

BLOOD_TYPES: frozenset[str] = frozenset({"kin", "parent_of", "child_of", "grandparent_of", "sibling"})
"""Relations of blood: a pair so related is no married couple (stores/ingest_entities.py)."""

BOND_TYPES: frozenset[str] = frozenset({
    "kin", "sworn_sibling", "lord_of", "serves", "spouse", "mentor", "parent_of", "child_of",
    "grandparent_of", "sibling", "engaged",
})
"""Relations one person has to another by blood, marriage, oath or service: two of them
through a third person say how two people are related (his father's wife); allies, enemies,
places and factions do not."""

ANSWERING_TYPES: dict[str, frozenset[str]] = {
    "person": frozenset({"person"}), "place": frozenset({"place"}), "number": frozenset(),
    "name": frozenset({"person", "item", "faction", "place"}),
}
"""The entity types that answer each kind of question (stores.lang.asked_thing: who, where, how
many, what is it called). An untyped entity ("other") may answer any of them but a number."""


def may_answer(entity_type: str, asked: str) -> bool:
    """Whether an entity of this type may answer a question after `asked` (ANSWERING_TYPES)."""
    wanted = ANSWERING_TYPES.get(asked, frozenset())
    return entity_type in wanted or (entity_type == "other" and bool(wanted))


@dataclass(slots=True)
class Paragraph:
    """A block of source text with its 1-based line span in the source file."""

    text: str
    line_start: int
    line_end: int
    speaker: str = ""
    """For dialogue scripts: who says the line (as written)."""
    line_offsets: tuple[int, ...] = ()
    """Where in `text` each source line after the first begins, for a paragraph joined from
    wrapped lines (empty: one line). A passage cut from a long paragraph cites its own lines."""

    def lines_of(self, start: int, end: int) -> tuple[int, int]:
        """The source lines that hold text[start:end]."""
        first = self.line_start + bisect.bisect_right(self.line_offsets, start)
        last = self.line_start + bisect.bisect_right(self.line_offsets, max(start, end - 1))
        return first, min(last, self.line_end)


@dataclass(slots=True)
class Scene:
    """A run of paragraphs inside a chapter (a scene heading, or the whole chapter)."""

    number: int
    title: str
    paragraphs: list[Paragraph] = field(default_factory=list)


@dataclass(slots=True)
class Chapter:
    """One chapter as a reader found it: number, title and scenes in story order."""

    number: int
    title: str
    scenes: list[Scene] = field(default_factory=list)
    line_start: int = 1


@dataclass(slots=True)
class GlossaryEntry:
    """An entity declared by a glossary or lorebook."""

    name: str
    aliases: list[str] = field(default_factory=list)
    type: EntityType = "other"
    description: str = ""
    relations: list[tuple[str, str]] = field(default_factory=list)
    """Declared relations as (relation type, other entity's name)."""
    source: str = ""
    """file:line the entry came from, for error messages and provenance."""
    lines: tuple[int, int] = (0, 0)
    """The description's line span in its file (0, 0: unknown), cited by its lore entry."""
    triggers: list[str] = field(default_factory=list)
    """A lorebook's activation keys: words that raise the entry in a search, never names."""
    chapter: int | None = None
    """The chapter from which the entry may be read under a spoiler horizon (None: it may say
    anything about the whole story, so a horizon hides it)."""


@dataclass(slots=True)
class ParsedDocument:
    """What a reader makes of one corpus file: chapters, or glossary entries, or both."""

    path: str
    kind: Literal["prose", "dialogue", "jsonl", "glossary", "lorebook"]
    encoding: str
    chapters: list[Chapter] = field(default_factory=list)
    glossary: list[GlossaryEntry] = field(default_factory=list)


@dataclass(slots=True)
class Chunk:
    """A passage: the unit that is embedded, indexed, retrieved and cited."""

    id: str
    world: str
    document: str
    """The source file's path as given to `lore ingest` (resolved, absolute)."""
    chapter: int
    chapter_title: str
    scene: int
    chunk_order: int
    """Position inside its document."""
    text: str
    line_start: int
    line_end: int
    event_order: int = 0
    """Position in the whole world's story order; set by the catalog after every ingest."""
    speakers: list[str] = field(default_factory=list)
    entities: list[str] = field(default_factory=list)
    """Canonical names of the entities mentioned, most mentioned first."""
    lore: bool = False
    """A lore entry (a glossary or lorebook description), not the story's text: its
    chapter_title is the entity it describes."""


def chapter_number(chapter: int) -> int | None:
    """A passage's chapter as data shows it (`--json`): None for a lore entry that names no
    chapter, not its sorting key LORE_CHAPTER."""
    return None if chapter == LORE_CHAPTER else chapter


def chapter_label(chapter: int, chinese: bool) -> str:
    """How a passage's chapter is written for a reader: 第3回 / ch. 3, and 设定 / lore for a
    lore entry that names no chapter."""
    if chapter == LORE_CHAPTER:
        return "设定" if chinese else "lore"
    return f"第{chapter}回" if chinese else f"ch. {chapter}"


@dataclass(slots=True)
class Entity:
    """A person, place, faction or thing with its canonical name and aliases."""

    name: str
    type: EntityType = "other"
    aliases: list[str] = field(default_factory=list)
    description: str = ""
    sources: list[str] = field(default_factory=list)
    """Where it came from: glossary, lorebook, speaker, pattern, tagger, llm."""
    mentions: int = 0


@dataclass(slots=True)
class Relation:
    """An edge of the entity graph with the passages that show it."""

    source: str
    target: str
    type: str
    weight: float = 1.0
    chapters: list[int] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)
    """Chunk ids where both entities appear (co-occurrence) or the declaring glossary line."""
    declared: bool = False
