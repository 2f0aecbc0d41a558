"""Glossaries (TOML `[[entity]]` tables or JSON objects) as the source of entity names."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast, get_args

from stores.errors import InputError, at_line
from stores.lang import en, zh
from stores.models import RELATION_TYPES, EntityType, GlossaryEntry

ENTITY_TYPES: tuple[str, ...] = get_args(EntityType)
# Words glossaries and lorebooks use for our entity types, in either language.
TYPE_WORDS: dict[str, str] = {word: kind for language in (en, zh)
                              for kind, words in language.ENTITY_TYPE_WORDS.items()
                              for word in words}
_TOML_LINE = re.compile(r"line (\d+)")
_HINT = "each [[entity]] needs name; optional aliases, type, description, relations"

Locator = Callable[[str], int | None]
SpanLocator = Callable[[str, int | None], tuple[int, int]]


def parse_toml_glossary(text: str, path: str | Path) -> list[GlossaryEntry]:
    """`[[entity]]` tables (`[[entities]]` works too) → glossary entries."""
    import tomllib

    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise too_deep(path) from None
    except ValueError as exc:  # TOMLDecodeError is one; a 5000-digit number another
        if (huge := huge_number(exc, text, path)) is not None:
            raise huge from None
        if not isinstance(exc, tomllib.TOMLDecodeError):
            raise
        found = _TOML_LINE.search(str(exc))
        raise InputError(f"TOML syntax error: {exc}",
                         where=at_line(path, int(found.group(1)) if found else None),
                         hint="fix the TOML at that line (strings need quotes, "
                              "tables are [[entity]])") from None
    items = data.get("entity", data.get("entities"))
    if not isinstance(items, list) or not items:
        raise InputError("no [[entity]] tables found", where=path,
                         hint=f"write one [[entity]] table per entity; {_HINT}")
    return entries_from_objects(items, path, line_locator(text), span_locator(text))


def huge_number(exc: ValueError, text: str, path: str | Path,
                first_line: int = 1) -> InputError | None:
    """The error for a number too long to read (Python refuses to convert more than 4300
    digits: "Exceeds the limit … for integer string conversion"), naming its line (`text`
    starts at `first_line` of the file); None for any other ValueError."""
    if "integer string conversion" not in str(exc):
        return None
    found = re.search(rf"\d{{{sys.get_int_max_str_digits() + 1},}}", text)
    line = text.count("\n", 0, found.start()) + first_line if found else None
    digits = len(found.group()) if found else 0
    return InputError(f"a number of {digits:,} digits, too long to read", where=at_line(path, line),
                      hint="a chapter, uid or count is a few digits: fix that number or remove "
                           "it")


def too_deep(where: str | Path) -> InputError:
    """Arrays or objects nested past what the parser can follow (hundreds deep): no glossary,
    lorebook or record is shaped like that."""
    return InputError("nested too deeply to read (hundreds of arrays or objects inside each "
                      "other)", where=where,
                      hint="this is not a glossary, lorebook or record file: check that it is "
                           "the file you meant, or leave it out of the ingest")


def load_json(text: str, path: str | Path) -> Any:
    """json.loads with an InputError naming the file and line of a syntax error."""
    try:
        return json.loads(text)
    except RecursionError:
        raise too_deep(path) from None
    except ValueError as exc:  # JSONDecodeError is one; a 5000-digit number another
        if (huge := huge_number(exc, text, path)) is not None:
            raise huge from None
        if not isinstance(exc, json.JSONDecodeError):
            raise
        raise InputError(f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})",
                         where=at_line(path, exc.lineno),
                         hint="fix the JSON at that line (a missing comma or quote?)") from None


def parse_json_glossary(data: Any, text: str, path: str | Path) -> list[GlossaryEntry]:
    """A list of entity objects, or `{"entities": [...]}`."""
    items = data.get("entities") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise InputError("not a glossary: expected a list of entities or {\"entities\": [...]}",
                         where=path, hint="see the glossary format in the README")
    return entries_from_objects(items, path, line_locator(text), span_locator(text))


def entries_from_objects(items: list[Any], path: str | Path, locate: Locator,
                         span: SpanLocator) -> list[GlossaryEntry]:
    """Validate glossary objects (name, aliases, type, description, relations, chapter)."""
    entries = []
    for index, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            raise InputError(f"entity #{index} is not a table/object", where=path, hint=_HINT)
        name = item.get("name")
        if not isinstance(name, str) or not name.strip():
            raise InputError(f"entity #{index} has no name", where=path, hint=_HINT)
        name = name.strip()
        line = locate(name)
        where = at_line(path, line)
        description = str(item.get("description") or "").strip()
        entries.append(GlossaryEntry(
            name=name,
            aliases=clean_aliases(text_aliases(item.get("aliases", []), where, name), name),
            type=entity_type(item.get("type"), where, name),
            description=description,
            relations=relations(item.get("relations", []), where, name),
            source=where,
            lines=span(description, line),
            chapter=entry_chapter(item.get("chapter"), where, name),
        ))
    return entries


def entry_chapter(value: Any, where: str, name: str) -> int | None:
    """The chapter from which an entry may be read under a spoiler horizon (None: not given)."""
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(f"entity {name!r} has chapter {value!r}, not a chapter number",
                         where=where, hint="write chapter = 3 (the chapter from which a reader "
                                           "may see the entry), or leave it out")
    return value


def text_aliases(value: Any, where: str, name: str) -> Any:
    """`value`, refused when an alias in it is not text (1, 2.5, true would become "True")."""
    for alias in value if isinstance(value, list) else []:
        if not isinstance(alias, str):
            raise InputError(f"an alias of entity {name!r} is not text: "
                             f"{json.dumps(alias, ensure_ascii=False)[:40]}", where=where,
                             hint=f"write aliases as quoted strings, e.g. aliases = "
                                  f"[\"{name}\", \"…\"], or remove that one")
    return value


def clean_aliases(value: Any, name: str) -> list[str]:
    """A list (or one string) of aliases without blanks, duplicates or the name itself."""
    values = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    seen: list[str] = []
    for alias in values:
        alias = str(alias).strip()
        if alias and alias != name and alias not in seen:
            seen.append(alias)
    return seen


def type_from_word(word: Any) -> str | None:
    """`character` → person, `地点` → place …; None when the word is not a known type."""
    return TYPE_WORDS.get(str(word).strip().lower()) if word else None


def entity_type(value: Any, where: str, name: str) -> EntityType:
    """The declared type, mapped through common synonyms; unknown words are an InputError."""
    if value is None or value == "":
        return "other"
    found = type_from_word(value)
    if found is None:
        raise InputError(f"entity {name!r} has unknown type {value!r}", where=where,
                         hint=f"use one of: {', '.join(ENTITY_TYPES)}")
    return cast(EntityType, found)


def relations(value: Any, where: str, name: str) -> list[tuple[str, str]]:
    """[{type, target}] (or [type, target] pairs) with every type in RELATION_TYPES."""
    if not isinstance(value, list):
        raise InputError(f"entity {name!r}: relations must be a list", where=where,
                         hint='write relations = [{type = "ally", target = "Name"}]')
    found = []
    for item in value:
        if isinstance(item, dict):
            kind, target = item.get("type"), item.get("target")
        elif isinstance(item, list | tuple) and len(item) == 2:
            kind, target = item
        else:
            kind = target = None
        if not isinstance(kind, str) or not isinstance(target, str) or not target.strip():
            raise InputError(f"entity {name!r} has a relation without type and target: {item!r}",
                             where=where, hint='write {type = "ally", target = "Name"}')
        written, kind = kind, kind.strip().lower().replace("-", "_").replace(" ", "_")
        if kind not in RELATION_TYPES:
            raise InputError(f"entity {name!r} has unknown relation type {written!r}", where=where,
                             hint=f"use one of: {', '.join(sorted(RELATION_TYPES))}")
        found.append((kind, target.strip()))
    return found


def line_locator(text: str) -> Locator:
    """Best-effort line of each entity's name, searched in order through the file."""
    lines = text.split("\n")
    cursor = 0

    def locate(name: str) -> int | None:
        nonlocal cursor
        needles = {f'"{name}"', f"'{name}'", json.dumps(name)}
        keyed = re.compile(r"(?:name|comment)[\"']?\s*[=:]\s*(?:" +
                           "|".join(re.escape(n) for n in needles) + ")")
        for test in (keyed.search, lambda line: any(n in line for n in needles)):
            for i in range(cursor, len(lines)):
                if test(lines[i]):
                    cursor = i
                    return i + 1
        return None

    return locate


def span_locator(text: str) -> SpanLocator:
    """The line span of an entry's description, searched from the entry's own line on (then
    from the top): the first line holding its opening words to the line holding its closing
    words (as written, or as JSON escapes them). (0, 0) when it cannot be found."""
    lines = text.split("\n")

    def forms(words: str) -> set[str]:
        return {words, json.dumps(words, ensure_ascii=False)[1:-1], json.dumps(words)[1:-1]}

    def locate(description: str, after: int | None) -> tuple[int, int]:
        parts = [p.strip() for p in description.split("\n") if p.strip()]
        if not parts:
            return (0, 0)
        head, tail = forms(parts[0][:12]), forms(parts[-1][-12:])
        start = max((after or 1) - 1, 0)
        # after the entry's name line, else anywhere (a card's book writes content before name)
        first = next((i for i in [*range(start, len(lines)), *range(start)]
                      if any(h in lines[i] for h in head)), None)
        if first is None:
            return (0, 0)
        last = next((i for i in range(first, len(lines))
                     if any(t in lines[i] for t in tail)), first)
        return (first + 1, last + 1)

    return locate
