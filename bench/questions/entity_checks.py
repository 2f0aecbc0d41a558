"""The checks of verify.py for the entity sets: `people_<book>.jsonl` (the main people, with
every name the book gives each) and `merges_<book>.jsonl` (name pairs that are one person, and
pairs that are not). See README.md, "Entity sets".

A quote or name is looked for in the whole book with each line break read as a space (English
chapter files are hard-wrapped; a Chinese file has one paragraph per line, so nothing changes).
"""

from __future__ import annotations

import re
from collections.abc import Callable

PEOPLE_PREFIX, MERGES_PREFIX = "people_", "merges_"
PERSON_FIELDS = ("id", "entity", "names", "evidence", "mentions")
PAIR_FIELDS = ("id", "a", "b", "same", "kind")
SAME_KINDS = frozenset({"given_name", "kin_word", "title", "courtesy", "identity", "pet_name",
                        "other"})
OTHER_KINDS = frozenset({"same_surname", "shared_given_name", "parent_child", "siblings",
                         "spouses", "shared_form", "similar", "other"})
QUOTE_MIN, QUOTE_MAX = 8, 80
MIN_USES = 3
"""A name listed for a person, or in a one-person pair, occurs at least this often."""

Error = Callable[[int, str], None]


def whole_text(chapters: dict[int, str]) -> str:
    """The book as one string, line breaks read as spaces."""
    return re.sub(r"[ \t]*\n[ \t]*", " ", "\n".join(chapters[n] for n in sorted(chapters)))


def _quote(error: Error, line: int, quote: object, name: str, text: str | None) -> None:
    if not isinstance(quote, str) or not QUOTE_MIN <= len(quote) <= QUOTE_MAX:
        error(line, f"the quote for {name!r} must be a string of {QUOTE_MIN}–{QUOTE_MAX} "
                    f"characters: {quote!r}")
        return
    if name not in quote:
        error(line, f"the quote for {name!r} does not contain it: {quote!r}")
    if text is not None and quote not in text:
        error(line, f"the quote for {name!r} is not in the book: {quote!r}")


def _uses(error: Error, line: int, name: str, text: str | None, least: int) -> None:
    if text is not None and (n := text.count(name)) < least:
        error(line, f"{name!r} occurs {n} times in the book, not at least {least}")


def check_person(error: Error, line: int, obj: dict, text: str | None) -> None:
    """One line of a people file."""
    if missing := [f for f in PERSON_FIELDS if f not in obj]:
        error(line, f"missing field(s) {missing}")
        return
    names, evidence = obj["names"], obj["evidence"]
    if not isinstance(names, list) or not names or not all(isinstance(n, str) and n.strip()
                                                           for n in names):
        error(line, "names must be a non-empty list of non-empty strings")
        return
    if names[0] != obj["entity"]:
        error(line, f"names must start with the entity {obj['entity']!r}")
    if len(set(names)) != len(names):
        error(line, "names repeats a name")
    if not isinstance(evidence, dict):
        error(line, "evidence must map each name but the entity to a quote")
        return
    for name in names:
        _uses(error, line, name, text, MIN_USES)
    for name in names[1:]:
        if name not in evidence:
            error(line, f"no evidence quote for {name!r}")
        else:
            _quote(error, line, evidence[name], name, text)
    if extra := [n for n in evidence if n not in names]:
        error(line, f"evidence for names not listed: {extra}")


def check_pair(error: Error, line: int, obj: dict, text: str | None) -> None:
    """One line of a merges file."""
    if missing := [f for f in PAIR_FIELDS if f not in obj]:
        error(line, f"missing field(s) {missing}")
        return
    a, b, same, kind = obj["a"], obj["b"], obj["same"], obj["kind"]
    if not (isinstance(a, str) and isinstance(b, str) and a and b) or a == b:
        error(line, "a and b must be two different non-empty names")
        return
    if not isinstance(same, bool):
        error(line, f"same must be true or false, not {same!r}")
        return
    kinds = SAME_KINDS if same else OTHER_KINDS
    if kind not in kinds:
        error(line, f"kind {kind!r} is not one of {sorted(kinds)} (same: {same})")
    for name in (a, b):
        _uses(error, line, name, text, MIN_USES if same else 1)
    quote = obj.get("evidence")
    if same and not quote:
        error(line, "a one-person pair needs an evidence quote")
    elif quote:
        if not isinstance(quote, str) or not QUOTE_MIN <= len(quote) <= QUOTE_MAX:
            error(line, f"evidence must be {QUOTE_MIN}–{QUOTE_MAX} characters: {quote!r}")
        elif text is not None and quote not in text:
            error(line, f"evidence is not in the book: {quote!r}")


def pair_key(obj: dict) -> frozenset[str]:
    """A pair without its order, to find one written twice."""
    return frozenset((str(obj.get("a")), str(obj.get("b"))))
