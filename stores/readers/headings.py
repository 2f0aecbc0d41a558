"""Recognise chapter headings, Markdown headings and scene breaks, shared by the readers."""

from __future__ import annotations

import re
from dataclasses import dataclass

from stores.lang import WIDE, zh
from stores.lang.asking import CHAPTER_REF
from stores.lang.en import CHAPTER_HEADING as _LATIN_HEADING
from stores.lang.en import NUMBER_WORDS as _LATIN_WORDS
from stores.lang.en import VOLUME_HEADING as _VOLUME
from stores.lang.zh import CHAPTER_HEADING as _CJK_HEADING
from stores.lang.zh import NUMERAL_DIGITS as _CN_DIGITS
from stores.lang.zh import NUMERAL_UNITS as _CN_UNITS
from stores.lang.zh import NUMERALS as _CN_NUMERAL

CJK_NUMERAL = _CN_NUMERAL
"""A regex character class (without brackets) of what `parse_cjk_number` reads."""

_ROMAN = re.compile(r"^M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})$")
_MARKDOWN = re.compile(r"^(#{1,6})\s+(.+?)(?:\s+#+)?\s*$")
_SCENE_BREAK = re.compile(r"^(?:[*＊◇◆○●·•~～=＝#\-—_]\s*){3,}$|^[※◇◆]+$")
_BREAK_CHARS = frozenset("*＊◇◆○●·•~～=＝#-—_※")
_SENTENCE_END = tuple(zh.SENTENCE_END + "!?")


@dataclass(frozen=True, slots=True)
class Heading:
    """A chapter heading: its number and the title after the number ("" if none)."""

    number: int
    title: str


def parse_cjk_number(numeral: str) -> int | None:
    """第一百二十 → 120, 一一八 → 118 (digit by digit, as in some editions), 12 → 12."""
    numeral = numeral.replace("廿", "二十").replace("卅", "三十")
    if numeral.isdigit():
        return int(numeral)
    if not any(ch in _CN_UNITS for ch in numeral):
        digits = [_CN_DIGITS.get(ch) for ch in numeral]
        if None in digits:
            return None
        return int("".join(str(d) for d in digits))
    total, current = 0, 0
    for ch in numeral:
        if ch in _CN_DIGITS:
            current = _CN_DIGITS[ch]
        elif ch in _CN_UNITS:
            total += (current or 1) * _CN_UNITS[ch]
            current = 0
        else:
            return None
    return total + current


def chapters_named(text: str) -> list[int]:
    """The chapters a question names, in order: "What happens in chapter 2?" → [2], 第三回 → [3]."""
    return [n for m in CHAPTER_REF.finditer(text)
            if (n := parse_cjk_number(m.group(1) or m.group(2))) is not None]


def parse_latin_number(token: str) -> int | None:
    """'12' → 12, 'XII' → 12, 'twenty-one' → 21; None for anything else."""
    if token.isdigit():
        return int(token)
    upper = token.upper()
    if _ROMAN.match(upper):
        values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
        total = 0
        for i, ch in enumerate(upper):
            value = values[ch]
            nxt = values[upper[i + 1]] if i + 1 < len(upper) else 0
            total += -value if value < nxt else value
        return total
    parts = token.lower().split("-")
    if all(part in _LATIN_WORDS for part in parts) and len(parts) <= 2:
        return sum(_LATIN_WORDS[part] for part in parts)
    return None


def chapter_heading(line: str) -> Heading | None:
    """The chapter heading on `line`, if it is one (第N回 …, Chapter N. Title, CHAPTER IV.)."""
    text = line.strip().rstrip("]").strip()
    if not text or text[0] not in "第Cc" or len(text) > 120:
        return None
    match = _CJK_HEADING.match(text)
    if match:
        number = parse_cjk_number(match.group(1))
        title = match.group(3).strip()
        # A body line that happens to start with 第N回 is long or is a sentence.
        if number is None or len(title) > 50 or zh.FULL_STOP in title or title.endswith(_SENTENCE_END):
            return None
        return Heading(number, title)
    match = _LATIN_HEADING.match(text)
    if match:
        number = parse_latin_number(match.group(1))
        title = match.group(2).strip()
        if number is None or len(title) > 100 or (title and title[0].islower()):
            return None
        return Heading(number, title)
    return None


_NUMBERED = re.compile(r"^([IVXLC]+|\d{1,3})\.?(?:\s+(\S.*))?$")


def numbered_heading(line: str) -> Heading | None:
    """A heading that is a chapter's number alone, Roman or Arabic, maybe with a title in
    capitals ("I. IN THE DINGEY OF THE "LADY VAIN."", "XIV.", "3"): a chapter only where a
    book's lines of this shape count its chapters one by one (`prose._numbered_chapters`)."""
    match = _NUMBERED.match(line.strip())
    if match is None:
        return None
    title = (match.group(2) or "").strip()
    if len(title) > 100 or title != title.upper():
        return None
    number = parse_latin_number(match.group(1))
    return Heading(number, title) if number else None


def markdown_heading(line: str) -> tuple[int, str] | None:
    """(level, text) of a Markdown ATX heading (`## Title`), else None."""
    text = line.strip()
    if not text.startswith("#"):
        return None
    match = _MARKDOWN.match(text)
    return (len(match.group(1)), match.group(2).strip()) if match else None


def is_scene_break(line: str) -> bool:
    """`***`, `* * *`, `---`, `◇◇◇`, `※` and the like."""
    text = line.strip()
    return bool(text) and text[0] in _BREAK_CHARS and bool(_SCENE_BREAK.match(text))


def is_volume_line(line: str) -> bool:
    """`VOLUME ONE`, `BOOK II.`: book divisions between chapters, not story text."""
    text = line.strip()
    return text[:1] in ("V", "B", "P") and bool(_VOLUME.match(text))


def number_in_name(stem: str) -> int | None:
    """The chapter number a file name carries: `001` → 1, `chapter-07` → 7 (last digit run)."""
    runs = re.findall(r"\d+", stem)
    return int(runs[-1]) if runs else None


_WIDTH_SLICE = 65_536
"""Wide characters are counted this many at a time: `findall` over a whole line made a list of
one string per character, 82 MB per million (a 30 MB one-line file peaked at 1.5 GB)."""


def display_width(text: str) -> int:
    """Columns the text takes in a fixed-width font (wide East Asian characters count 2)."""
    if text.isascii():
        return len(text)
    wide = sum(len(WIDE.findall(text, start, start + _WIDTH_SLICE))
               for start in range(0, len(text), _WIDTH_SLICE))
    return len(text) + wide
