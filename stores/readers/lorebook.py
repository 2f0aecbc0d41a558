"""SillyTavern World Info / lorebook JSON: each entry is lore about one entity.

Three shapes are read: the current World Info export (`{"entries": {"0": {"key": [...],
"keysecondary": [...], "comment": ..., "content": ..., "constant": ..., "disable": ...}}}`),
older exports (keys as one comma-separated string, `entries` as a list), and the
`character_book` of a character card (V2: `data.character_book.entries[]` with `keys`,
`secondary_keys`, `name`, `comment`, `content`, `enabled`).

An entry names its entity by its title (`comment`, else `name`), else by its first key. Its keys
are triggers, not names: "forest" activating the Eldoria entry does not make every forest in
the story a mention of Eldoria. They are kept with the entry (they raise it in a search); an
entry's own `aliases` list (not SillyTavern's, a glossary's) is the only source of aliases.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, cast

from stores.errors import InputError, at_line
from stores.models import EntityType, GlossaryEntry
from stores.readers.glossary import (
    Locator,
    SpanLocator,
    clean_aliases,
    entry_chapter,
    line_locator,
    span_locator,
    type_from_word,
)

# `Lin Zhao (character)`, `[Location] Harbour`: a type hint written into the entry's title.
_SUFFIX_HINT = re.compile(r"^(?P<name>.+?)\s*[(（](?P<hint>[^)）]{1,20})[)）]$")
_PREFIX_HINT = re.compile(r"^[\[【](?P<hint>[^\]】]{1,20})[\]】]\s*(?P<name>.+)$")
_HINT_FIELDS = ("type", "category", "group")
# SillyTavern's macros for the character and the user, in the current and the old spelling.
_CHAR_MACRO = re.compile(r"\{\{\s*char\s*\}\}|<BOT>", re.I)
_USER_MACRO = re.compile(r"\{\{\s*user\s*\}\}|<USER>", re.I)


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


def card_name(data: Any) -> str:
    """The character card's name (`{{char}}` in its book's entries), or "" for a lorebook."""
    if not isinstance(data, dict):
        return ""
    for holder in (data.get("data"), data):
        if isinstance(holder, dict) and isinstance(holder.get("character_book"), dict):
            name = holder.get("name")
            return name.strip() if isinstance(name, str) else ""
    return ""


def parse_lorebook(data: Any, text: str, path: str | Path) -> list[GlossaryEntry]:
    """Entries → glossary entries, each with its content as the description (macros written
    out: `{{char}}` as the card's name or "the character", `{{user}}` as "the user"). Disabled
    entries and entries that name nothing (no title, no key) are skipped."""
    entries = lorebook_entries(data)
    if entries is None:
        raise InputError("not a lorebook: no \"entries\"", where=path,
                         hint="a SillyTavern lorebook is {\"entries\": {\"0\": {\"key\": [...], "
                              "\"content\": \"...\"}}}; a glossary is {\"entities\": [...]}")
    items = list(entries.values()) if isinstance(entries, dict) else entries
    if not isinstance(items, list) or not items:
        raise InputError("the lorebook has no entries", where=path,
                         hint="add entries with key/keys and content, or leave the file out")
    locate, span = line_locator(text), span_locator(text)
    character = card_name(data)
    found = []
    for position, item in enumerate(items):
        if not isinstance(item, dict):
            raise InputError(f"lorebook entry #{position} is not an object", where=path,
                             hint="each entry needs key (a list of names) and content")
        item = {"uid": f"#{position}", **item}  # an entry without a title is named by it
        if _flag(item, "disable", path) is True or _flag(item, "enabled", path) is False:
            continue
        entry = _entry(item, path, locate, span, character)
        if entry is not None:
            found.append(entry)
    return found


def _entry(item: dict[str, Any], path: str | Path, locate: Locator, span: SpanLocator,
           character: str) -> GlossaryEntry | None:
    keys = _keys(item.get("key", item.get("keys", [])), path, item)
    written = _text(item.get("comment")) or _text(item.get("name"))
    title, hinted = written, None
    if title and (match := _SUFFIX_HINT.match(title) or _PREFIX_HINT.match(title)):
        hinted = type_from_word(match.group("hint"))
        if hinted is not None:
            title = match.group("name").strip()
    name = title or (keys[0] if keys else "")
    if not name:
        return None
    for field in _HINT_FIELDS:
        hinted = hinted or type_from_word(item.get(field))
    line = locate(written or name)
    where = at_line(path, line)
    raw = _content(item.get("content"), path, name)
    return GlossaryEntry(
        name=name,
        aliases=clean_aliases(item.get("aliases", []), name),
        type=cast(EntityType, hinted or "other"),
        description=write_macros(raw, character),
        source=where,
        lines=span(raw, line),
        triggers=[key for key in dict.fromkeys(keys) if key != name],
        chapter=entry_chapter(item.get("chapter"), where, name),
    )


def write_macros(text: str, character: str) -> str:
    """`{{char}}` as the card's name (or "the character"), `{{user}}` as "the user"."""
    text = _CHAR_MACRO.sub(lambda _: character or "the character", text)
    return _USER_MACRO.sub("the user", text)


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _flag(item: dict[str, Any], field: str, path: str | Path) -> bool | None:
    """An entry's `disable` / `enabled`: true or false, also written as the strings "true" and
    "false" (some editors quote them: "disable": "true" kept a disabled entry); None when
    absent. Anything else is refused, as it cannot be told which was meant."""
    value = item.get(field)
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    title = _text(item.get("comment")) or _text(item.get("name")) or str(item.get("uid"))
    raise InputError(f"entry {title!r} has {field} = {json.dumps(value, ensure_ascii=False)[:40]}"
                     ", not true or false", where=path,
                     hint=f"write \"{field}\": true or \"{field}\": false")


def _content(value: Any, path: str | Path, name: str) -> str:
    """An entry's content: text (absent or null: none). A list, a number or an object was
    ingested as an empty entry without a word; it is refused."""
    if value is None or isinstance(value, str):
        return _text(value)
    kinds: dict[type, str] = {list: "a list", dict: "an object"}
    kind = kinds.get(type(value), f"a {type(value).__name__}")
    raise InputError(f"the content of entry {name!r} is {kind}, not text", where=path,
                     hint="write \"content\" as one string, e.g. \"content\": \"Liu Bei is the "
                          "lord of Shu.\" (join several lines with \\n)")


def _keys(value: Any, path: str | Path, item: dict[str, Any]) -> list[str]:
    """Keys as a list, or one comma-separated string as older exports write them. A key that
    is not text (null, a number, true, an object) is refused: it would name an entity `None`;
    so are keys that are not a list or a string (an object dropped the entry silently)."""
    if isinstance(value, str):
        value = value.split(",")
    if value is None:
        return []
    if not isinstance(value, list):
        title = str(item.get("comment") or "").strip()
        raise InputError(f"the keys of entry {title or item.get('uid', '?')!r} are "
                         f"{json.dumps(value, ensure_ascii=False)[:40]}, not a list of text",
                         where=path, hint="write \"key\": [\"Liu Bei\", \"玄德\"] (a list of "
                                          "quoted names), or leave it out")
    for key in value:
        if not isinstance(key, str):
            title = str(item.get("comment") or "").strip()
            raise InputError(f"a key of entry {title or item.get('uid', '?')!r} is not text: "
                             f"{json.dumps(key, ensure_ascii=False)[:40]}", where=path,
                             hint="write every key as a quoted string, e.g. \"key\": "
                                  "[\"Liu Bei\", \"玄德\"], or remove that one")
    return [key.strip() for key in value if key.strip()]
