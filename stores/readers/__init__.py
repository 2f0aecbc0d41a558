"""Corpus readers: turn a file into a ParsedDocument (chapters, or glossary entries).

`read_document` picks the reader by extension and, for plain text, by content (prose or a
dialogue script). `read_glossary` reads a `--glossary FILE` (TOML, JSON glossary or lorebook).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from stores.errors import InputError
from stores.models import GlossaryEntry, ParsedDocument
from stores.readers.encoding import decode_file

__all__ = ["decode_file", "lore_document", "read_document", "read_glossary", "TEXT_SUFFIXES", "SUFFIXES"]

TEXT_SUFFIXES = frozenset({".txt", ".md", ".markdown", ".text", ""})
SUFFIXES = TEXT_SUFFIXES | {".jsonl", ".toml", ".json"}


def read_document(path: Path, fallback_chapter: int = 1) -> ParsedDocument:
    """Read one corpus file.

    .txt/.md/.markdown/no extension: prose or a dialogue script (detected from the lines);
    .jsonl: records with `text`; .toml: a glossary; .json: a lorebook or a glossary.
    `fallback_chapter` numbers a file that names no chapter (neither heading nor file name).
    Raises InputError naming the file (and line) for anything it cannot read.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise InputError(f"unsupported file type {suffix!r}", where=path,
                         hint="ingest .txt, .md, .jsonl, a .toml/.json glossary or a "
                              "lorebook .json; convert other formats to text first")
    text, encoding = decode_file(path)
    name = str(path)
    if suffix == ".jsonl":
        from stores.readers.jsonl import parse_jsonl

        return ParsedDocument(name, "jsonl", encoding,
                              chapters=parse_jsonl(text, name, fallback_chapter))
    if suffix in (".toml", ".json"):
        kind, entries = _glossary(text, name, suffix)
        return lore_document(name, kind, encoding, entries)
    from stores.readers.dialogue import looks_like_dialogue, parse_dialogue

    if looks_like_dialogue(text):
        return ParsedDocument(name, "dialogue", encoding,
                              chapters=parse_dialogue(text, name, fallback_chapter))
    from stores.readers.prose import parse_prose

    chapters = parse_prose(text, name, fallback_chapter, markdown=suffix in (".md", ".markdown"))
    return ParsedDocument(name, "prose", encoding, chapters=chapters)


def lore_document(path: str, kind: Literal["glossary", "lorebook"], encoding: str,
                  entries: list[GlossaryEntry]) -> ParsedDocument:
    """A glossary or lorebook: its entries, and their descriptions as lore passages."""
    from stores.readers.lore import lore_chapters

    return ParsedDocument(path, kind, encoding, chapters=lore_chapters(entries), glossary=entries)


def read_glossary(path: Path) -> list[GlossaryEntry]:
    """The entities of a `--glossary FILE`: TOML, a JSON glossary or a SillyTavern lorebook."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".toml", ".json"):
        raise InputError(f"a glossary must be .toml or .json, not {suffix or 'no extension'!r}",
                         where=path, hint="write the glossary as TOML ([[entity]] tables) or "
                                          "JSON, or pass a SillyTavern lorebook .json")
    text, _ = decode_file(path)
    return _glossary(text, str(path), suffix)[1]


def _glossary(text: str, name: str,
              suffix: str) -> tuple[Literal["glossary", "lorebook"], list[GlossaryEntry]]:
    from stores.readers import glossary, lorebook

    if suffix == ".toml":
        return "glossary", glossary.parse_toml_glossary(text, name)
    data = glossary.load_json(text, name)
    if isinstance(data, list) or (isinstance(data, dict) and "entities" in data):
        return "glossary", glossary.parse_json_glossary(data, text, name)
    return "lorebook", lorebook.parse_lorebook(data, text, name)
