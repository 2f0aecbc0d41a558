"""Checking an answer's citations against the passages, and the answer of last resort.

A quote counts when it occurs in the cited passage after normalising what models change without
meaning to: whitespace and line breaks (removed), width and compatibility forms (NFKC), curly and
CJK quotation marks, and letter case. A quote elided with "…" counts when every piece occurs in
order. A long quote that was slightly reworded counts when a run of at least 8 characters and at
least 40% of it occurs verbatim; the citation then keeps that verbatim run, so a stored quote is
always words from the text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from agent.schemas import Answer, Citation, Passage
from stores.lang import clip
from stores.lang.text import sentences

MIN_RUN = 8
"""Shortest verbatim run that can stand for a reworded quote."""
MIN_SHARE = 0.4
"""…and the share of the quote it must cover."""

_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "「": '"', "」": '"', "『": '"', "』": '"',
                         "‘": "'", "’": "'", "‚": "'", "《": '"', "》": '"', "〈": "'", "〉": "'"})
_ELLIPSIS = re.compile(r"\.{3,}|…+|⋯+")


@dataclass(frozen=True)
class Folded:
    """Text with whitespace removed and forms normalised, mapped back to the original offsets."""

    text: str
    offsets: tuple[int, ...]

    def original(self, source: str, start: int, end: int) -> str:
        """The original text behind folded[start:end]."""
        return source[self.offsets[start]: self.offsets[end - 1] + 1].strip()


def fold(text: str) -> Folded:
    chars: list[str] = []
    offsets: list[int] = []
    for i, ch in enumerate(text):
        for out in unicodedata.normalize("NFKC", ch).translate(_QUOTES).casefold():
            if not out.isspace():
                chars.append(out)
                offsets.append(i)
    return Folded("".join(chars), tuple(offsets))


def match_quote(quote: str, text: str) -> str | None:
    """The words of `text` that `quote` stands for, or None when it does not occur there."""
    passage = fold(text)
    pieces = [fold(p).text for p in _ELLIPSIS.split(quote)]
    pieces = [p for p in pieces if p]
    if not pieces:
        return None
    at = 0
    for piece in pieces:  # every piece of an elided quote, in order
        found = passage.text.find(piece, at)
        if found < 0:
            break
        at = found + len(piece)
    else:
        return quote.strip()
    whole = "".join(pieces)
    run = SequenceMatcher(None, whole, passage.text, autojunk=False).find_longest_match(
        0, len(whole), 0, len(passage.text))
    if run.size >= MIN_RUN and run.size >= MIN_SHARE * len(whole):
        return passage.original(text, run.b, run.b + run.size)
    return None


def check_citations(answer: Answer, retriever: Any,
                    seen: Mapping[str, Passage]) -> tuple[Answer, list[str]]:
    """The answer with each citation's chapter, source and lines filled in, and what is wrong.

    A citation must point at a passage a tool returned in this run (`seen`, by chunk id) or at
    any passage of the world, and its quote must occur in that passage.
    """
    problems: list[str] = []
    fixed: list[Citation] = []
    for n, citation in enumerate(answer.citations, start=1):
        candidates = _candidates(citation.chunk_id, retriever, seen)
        if not candidates:
            problems.append(f"citation [{n}] points at chunk_id {citation.chunk_id!r}, which is not a "
                            "passage of this world: cite a chunk_id returned by a tool")
            continue
        for passage in candidates:
            words = match_quote(citation.quote, passage.text)
            if words is not None:
                fixed.append(citation.model_copy(update={
                    "quote": words, "chapter": passage.chapter, "source": passage.source,
                    "lines": passage.lines}))
                break
        else:
            problems.append(f"the quote of citation [{n}] ({_short(citation.quote)}) does not occur in "
                            f"passage {citation.chunk_id!r}: copy the words exactly from its text")
    return answer.model_copy(update={"citations": fixed}), problems


def _candidates(chunk_id: str, retriever: Any, seen: Mapping[str, Passage]) -> list[Passage]:
    """The passage itself (exact lines) first, then the wider window a tool showed."""
    found: list[Passage] = []
    chunk = retriever.chunks.get(chunk_id)
    if chunk is not None:
        found.append(retriever.passage(chunk))
    shown = seen.get(chunk_id)
    if shown is not None:
        found.append(shown)
    return found


def _short(quote: str, width: int = 40) -> str:
    quote = " ".join(quote.split())
    return repr(quote if len(quote) <= width else quote[: width - 1] + "…")


def first_sentence(text: str, width: int = 120) -> str:
    """The passage's first sentence, cut at `width` characters (a quote that always matches)."""
    flat = " ".join(text.split())
    return clip(next((s.text for s in sentences(flat, "quote")), flat), width)
