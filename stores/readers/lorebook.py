"""SillyTavern World Info / lorebook JSON as a source of entity names, aliases and descriptions."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, cast

from stores.errors import InputError, at_line
from stores.models import EntityType, GlossaryEntry
from stores.readers.glossary import clean_aliases, line_locator, type_from_word

# `Lin Zhao (character)`, `[Location] Harbour`: a type hint written into the entry's title.
_SUFFIX_HINT = re.compile(r"^(?P<name>.+?)\s*[(（](?P<hint>[^)）]{1,20})[)）]$")
_PREFIX_HINT = re.compile(r"^[\[【](?P<hint>[^\]】]{1,20})[\]】]\s*(?P<name>.+)$")
_HINT_FIELDS = ("type", "category", "group")


def lorebook_entries(data: Any) -> Any:
    """The `entries` of a lorebook (also inside a character card's `character_book`), or None."""
    if not isinstance(data, dict):
        return None
    if "entries" in data:
        return data["entries"]
    for holder in (data.get("data"), data):
        if isinstance(holder, dict) and isinstance(holder.get("character_book"), dict):
            return holder["character_book"].get("entries")
    return None


def parse_lorebook(data: Any, text: str, path: str | Path) -> list[GlossaryEntry]:
    """Entries → glossary entries.

    Canonical name = `comment` if non-empty, else the first key; every primary key becomes an
    alias (secondary keys are activation filters, not names); `content` is the description.
    Entries with neither a comment nor a key name nothing and are skipped.
    """
    entries = lorebook_entries(data)
    if entries is None:
        raise InputError("not a lorebook: no \"entries\"", where=path,
                         hint="a SillyTavern lorebook is {\"entries\": {\"0\": {\"key\": [...], "
                              "\"content\": \"...\"}}}; a glossary is {\"entities\": [...]}")
    items = list(entries.values()) if isinstance(entries, dict) else entries
    if not isinstance(items, list) or not items:
        raise InputError("the lorebook has no entries", where=path,
                         hint="add entries with key/keys and content, or leave the file out")
    locate = line_locator(text)
    found = []
    for position, item in enumerate(items):
        if not isinstance(item, dict):
            raise InputError(f"lorebook entry #{position} is not an object", where=path,
                             hint="each entry needs key (a list of names) and content")
        entry = _entry(item, path, locate)
        if entry is not None:
            found.append(entry)
    return found


def _entry(item: dict[str, Any], path: str | Path, locate: Any) -> GlossaryEntry | None:
    keys = _keys(item.get("key", item.get("keys", [])), path, item)
    title = str(item.get("comment") or "").strip()
    hinted: str | None = None
    if title and (match := _SUFFIX_HINT.match(title) or _PREFIX_HINT.match(title)):
        hinted = type_from_word(match.group("hint"))
        if hinted is not None:
            title = match.group("name").strip()
    name = title or (keys[0] if keys else "")
    if not name:
        return None
    for field in _HINT_FIELDS:
        hinted = hinted or type_from_word(item.get(field))
    where = at_line(path, locate(str(item.get("comment") or "").strip() or name))
    return GlossaryEntry(
        name=name,
        aliases=clean_aliases(keys, name),
        type=cast(EntityType, hinted or "other"),
        description=str(item.get("content") or "").strip(),
        source=where,
    )


def _keys(value: Any, path: str | Path, item: dict[str, Any]) -> list[str]:
    """Keys as a list, or one comma-separated string as older exports write them. A key that
    is not text (null, a number, true, an object) is refused: it would name an entity `None`."""
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, list):
        return []
    for key in value:
        if not isinstance(key, str):
            title = str(item.get("comment") or "").strip()
            raise InputError(f"a key of entry {title or item.get('uid', '?')!r} is not text: "
                             f"{json.dumps(key, ensure_ascii=False)[:40]}", where=path,
                             hint="write every key as a quoted string, e.g. \"key\": "
                                  "[\"Liu Bei\", \"玄德\"], or remove that one")
    return [key.strip() for key in value if key.strip()]
