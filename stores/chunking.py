"""Cut chapters into passages (chunks) that keep story order and source line spans.

A chunk never crosses a scene or a chapter. It packs whole paragraphs up to the size limit
(the CJK limit when the chapter is mostly Han characters, else the Latin one), aiming at even
sizes; a paragraph longer than the limit is split at sentence ends.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass

from stores.config import ChunkingSettings
from stores.lang import HAN_RANGES
from stores.lang.text import sentences as split_sentences
from stores.models import LORE_KINDS, Chapter, Chunk, ParsedDocument, Scene

# Counting by deleting runs is several times faster than findall on long texts.
_NOT_HAN = re.compile(f"[^{HAN_RANGES}]+")
_ALPHABETIC = re.compile("[0-9A-Za-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]+")
_SCRIPT_SAMPLE = 4000
_SOFT_BREAK = re.compile(r"[，,、：:\s]")
TINY_SHARE = 0.25
"""A chunk below this share of the limit joins its smaller neighbour in the scene …"""
MERGE_CEILING = 1.5
"""… as long as the merged chunk stays under this multiple of the limit."""


@dataclass(slots=True)
class _Unit:
    """A paragraph, or a sentence of an over-long one, with its source span and speaker."""

    text: str
    line_start: int
    line_end: int
    speaker: str
    glue: str = "\n"
    """What joins it to the unit before it in the same chunk: a newline between paragraphs,
    nothing (CJK) or a space between the sentences of one paragraph."""


def chunk_id(world: str, document: str, chunk_order: int, text: str) -> str:
    """Stable id: the first 16 hex digits of sha1(world \\0 document \\0 order \\0 text)."""
    key = "\x00".join((world, document, str(chunk_order), text))
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:16]


def chunk_document(doc: ParsedDocument, world: str, settings: ChunkingSettings,
                   key: str = "") -> list[Chunk]:
    """The document's passages in reading order; chunk_order counts from 0 across chapters.

    Chunk ids are keyed by `key` (ingest passes the catalog's document id), else by the path.
    event_order (set by the catalog) and entities (set by entity resolution) are left empty.
    """
    chunks: list[Chunk] = []
    lore = doc.kind in LORE_KINDS
    for chapter in doc.chapters:
        limit = settings.max_chars_cjk if _mostly_han(chapter) else settings.max_chars_latin
        for scene in chapter.scenes:
            groups = _pack(list(_units(scene, limit)), limit)
            for units in _overlapped(groups, int(limit * settings.overlap)):
                text = _text(units)
                order = len(chunks)
                chunks.append(Chunk(
                    id=chunk_id(world, key or doc.path, order, text), world=world, document=doc.path,
                    chapter=chapter.number, chapter_title=chapter.title, scene=scene.number,
                    chunk_order=order, text=text,
                    line_start=min(unit.line_start for unit in units),
                    line_end=max(unit.line_end for unit in units),
                    speakers=_speakers(units), lore=lore,
                ))
    return chunks


def _mostly_han(chapter: Chapter) -> bool:
    """True when Han characters outnumber the other letters and digits of the chapter."""
    sample: list[str] = []
    size = 0
    for scene in chapter.scenes:  # the first few thousand characters tell the script
        for paragraph in scene.paragraphs:
            sample.append(paragraph.text)
            size += len(paragraph.text)
            if size > _SCRIPT_SAMPLE:
                return _mostly_han_text("".join(sample))
    return _mostly_han_text("".join(sample))


def _mostly_han_text(text: str) -> bool:
    text = text[:_SCRIPT_SAMPLE]
    han = len(_NOT_HAN.sub("", text))
    alphabetic = len(text) - len(_ALPHABETIC.sub("", text))
    return han > alphabetic


def _units(scene: Scene, limit: int) -> Iterator[_Unit]:
    """Whole paragraphs; an over-long one as its sentences, so that chunks can fill up with
    them (a short paragraph before a long one then shares a chunk instead of standing alone),
    each sentence with the source lines it stands on (a wrapped chapter written as one block
    is cited by the lines of each passage, not by the whole chapter's)."""
    for paragraph in scene.paragraphs:
        span = (paragraph.line_start, paragraph.line_end, paragraph.speaker)
        if len(paragraph.text) <= limit:
            yield _Unit(paragraph.text, *span)
            continue
        joiner = "" if _mostly_han_text(paragraph.text) else " "
        at = 0
        for i, sentence in enumerate(sentence_pieces(paragraph.text, limit)):
            found = paragraph.text.find(sentence, at)
            first, last = (paragraph.line_start, paragraph.line_end) if found < 0 else \
                paragraph.lines_of(found, found + len(sentence))
            at = max(at, found + len(sentence))
            yield _Unit(sentence, first, last, paragraph.speaker,
                        glue="\n" if i == 0 else joiner)


def sentence_pieces(text: str, limit: int) -> list[str]:
    """The sentences of `text` (ends: 。！？!?；;… or a period before a space, with closing
    quotes), stripped; one longer than `limit` is cut at a comma or space, else hard."""
    found: list[str] = []
    for sentence in (s.text for s in split_sentences(text, "chunk")):
        found.extend(piece.strip() for piece in _cut(sentence, limit))
    return [piece for piece in found if piece]


def split_long(text: str, limit: int) -> list[str]:
    """An over-long paragraph as evenly sized pieces of at most `limit` characters, cut at
    sentence ends. Joined again (with nothing for CJK, a space otherwise) they give `text`
    back up to whitespace."""
    joiner = "" if _mostly_han_text(text) else " "
    units = [_Unit(s, 0, 0, "", glue=joiner) for s in sentence_pieces(text, limit)]
    return [_text(group) for group in _pack(units, limit)]


def _cut(sentence: str, limit: int) -> list[str]:
    pieces = []
    while len(sentence) > limit:
        breaks = [m.end() for m in _SOFT_BREAK.finditer(sentence, limit // 2, limit)]
        cut = breaks[-1] if breaks else limit
        pieces.append(sentence[:cut])
        sentence = sentence[cut:]
    pieces.append(sentence)
    return pieces


def _text(units: list[_Unit]) -> str:
    return units[0].text + "".join(unit.glue + unit.text for unit in units[1:])


def _size(units: list[_Unit]) -> int:
    return sum(len(unit.text) for unit in units) + sum(len(unit.glue) for unit in units[1:])


def _pack(units: list[_Unit], limit: int) -> list[list[_Unit]]:
    """Group consecutive units into chunks of at most `limit` characters, of even size.

    With k = ceil(total / limit) chunks needed, the grouping minimises the squared distance
    of each chunk from total / k (dynamic programming over the few units a chunk can hold),
    so a scene of 1.2 limits gives two chunks of 0.6 rather than one full and one tiny.
    A unit longer than the limit stands alone; a tiny chunk left over joins a neighbour.
    """
    if not units:
        return []
    target = _size(units) / math.ceil(_size(units) / limit)
    lengths = [len(unit.text) for unit in units]
    glues = [len(unit.glue) for unit in units]
    best = [0.0] + [math.inf] * len(units)
    start_of = [0] * (len(units) + 1)
    for end in range(1, len(units) + 1):
        size = 0
        for begin in range(end - 1, -1, -1):  # the chunk is units[begin:end]
            size += lengths[begin] + glues[begin + 1] if begin + 1 < end else lengths[begin]
            if size > limit and begin < end - 1:
                break
            cost = best[begin] + (size - target) ** 2
            if cost < best[end]:
                best[end], start_of[end] = cost, begin
    groups: list[list[_Unit]] = []
    end = len(units)
    while end > 0:
        groups.append(units[start_of[end]:end])
        end = start_of[end]
    return _merge_tiny(groups[::-1], limit)


def _overlapped(groups: list[list[_Unit]], share: int) -> list[list[_Unit]]:
    """Each group after the first begins with the last sentences of the one before it, up to
    `share` characters (none when 0, or when the last sentence alone is longer)."""
    if share <= 0:
        return groups
    result = [groups[0]] if groups else []
    for before, group in zip(groups, groups[1:], strict=False):
        last = before[-1]
        carried: list[str] = []
        size = 0
        for sentence in reversed(sentence_pieces(last.text, share)):
            if size + len(sentence) > share:
                break
            carried.insert(0, sentence)
            size += len(sentence)
        if not carried:
            result.append(group)
            continue
        joiner = "" if _mostly_han_text(last.text) else " "
        tail = _Unit(joiner.join(carried), last.line_start, last.line_end, last.speaker)
        result.append([tail, *group])
    return result


def _merge_tiny(groups: list[list[_Unit]], limit: int) -> list[list[_Unit]]:
    """Join a tiny chunk (a short remainder) to its smaller neighbour while the result stays
    under MERGE_CEILING × limit."""
    i = 0
    while i < len(groups) and len(groups) > 1:
        own = _size(groups[i])
        neighbours = [j for j in (i - 1, i + 1) if 0 <= j < len(groups)]
        j = min(neighbours, key=lambda k: _size(groups[k]))
        first, second = sorted((i, j))
        if own >= limit * TINY_SHARE or _size(groups[first] + groups[second]) > (
                limit * MERGE_CEILING):
            i += 1
            continue
        groups[first].extend(groups.pop(second))
        i = first
    return groups


def _speakers(units: list[_Unit]) -> list[str]:
    seen: list[str] = []
    for unit in units:
        if unit.speaker and unit.speaker not in seen:
            seen.append(unit.speaker)
    return seen
