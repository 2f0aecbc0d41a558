"""Where the app's exports go, and writing them (the formats come from the shared exporters
that also serve `lore timeline`, `lore sessions export`, `lore map` and `lore chart`)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any, cast

from stores.atomic import replacing, write_text
from stores.config import Settings
from stores.errors import LoreError, StoreError

TIMELINE_FORMATS = ("md", "json", "csv")
SESSION_FORMATS = ("md", "json")
SUFFIXES = {"mermaid": "mmd"}
"""File suffixes that are not the format's name."""


def picture_formats() -> dict[str, tuple[str, ...]]:
    """What the relations map and the presence chart export to (agent/views): the export menu
    and the command palette offer every one, as F1 says (the menu had three of the map's five,
    and a newcomer looked for the PNG F1 promised)."""
    from agent.views.pictures import MAP_FORMATS
    from agent.views.presence import CHART_FORMATS

    return {"map": tuple(f for f in MAP_FORMATS if f != "text"), "chart": CHART_FORMATS}


def exports_dir(settings: Settings) -> Path:
    """The app writes exports under the data dir (the working directory may be anywhere)."""
    return settings.data_dir / "exports"


SLUG_BYTES = 80
"""The most of a name an export's file name holds (UTF-8 bytes): a file name has 255, and a
363-character entity name made the export fail as 'File name too long'."""


def _slug(text: str) -> str:
    """A file-name-safe form that keeps CJK names readable (沈砚 stays 沈砚); a long name is
    cut at SLUG_BYTES, with a short digest of the whole so two long names stay apart."""
    slug = re.sub(r"[^\w.-]+", "_", text).strip("_") or "untitled"
    if len(slug.encode("utf-8")) <= SLUG_BYTES:
        return slug
    digest = hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]
    cut = slug.encode("utf-8")[:SLUG_BYTES - 9].decode("utf-8", "ignore").rstrip("_.-")
    return f"{cut}-{digest}"


def export_timeline_file(settings: Settings, retriever: Any, world: str, entity: str,
                         fmt: str, horizon: int = 0) -> Path:
    """Write the entity's timeline up to the spoiler horizon; the same entity and format
    overwrite the previous file."""
    from agent.conversation.exports import TimelineFormat, export_timeline

    text = export_timeline(retriever, entity, cast(TimelineFormat, fmt), horizon)  # checks fmt
    return _write(settings, f"{_slug(world)}-timeline-{_slug(entity)}.{fmt}", text)


def export_session_file(settings: Settings, store: Any, session_id: str, world: str,
                        fmt: str) -> Path:
    """Write a whole session (questions, answers, citations, entity stack)."""
    from agent.conversation.exports import SessionFormat, export_session

    text = export_session(store, session_id, cast(SessionFormat, fmt))  # it checks fmt
    return _write(settings, f"{_slug(world)}-session-{session_id}.{fmt}", text)


def export_picture_file(settings: Settings, retriever: Any, world: str, kind: str, fmt: str,
                        entities: list[str], hops: int = 1,
                        horizon: int = 0) -> tuple[str, Path]:
    """Write a relations map (`kind` map: of the first entity) or a presence chart (chart);
    (what was written, where)."""
    if not entities:
        raise LoreError("no entity is tracked in this session",
                        hint="select one in the Entities pane (F3) and press Enter")
    if kind == "map":
        path = export_map_file(settings, retriever, world, entities[0], fmt, hops, horizon)
        return f"Relations map of {entities[0]}", path
    path = export_chart_file(settings, retriever, world, entities, fmt, horizon)
    return f"Presence chart of {', '.join(entities)}", path


def export_map_file(settings: Settings, retriever: Any, world: str, entity: str, fmt: str,
                    hops: int = 1, horizon: int = 0) -> Path:
    """Write the entity's relations map as of the spoiler horizon (svg, png, dot, mermaid,
    json); the same entity, hops and format overwrite the previous file."""
    from agent.views.pictures import export_map
    from agent.views.relmap import relation_map

    found = relation_map(retriever, entity, hops, horizon)
    data = export_map(found, fmt)  # it checks fmt
    name = f"{_slug(world)}-map-{_slug(found.centre)}-{found.hops}hop.{SUFFIXES.get(fmt, fmt)}"
    return _write(settings, name, data)


def export_chart_file(settings: Settings, retriever: Any, world: str, entities: list[str],
                      fmt: str, horizon: int = 0) -> Path:
    """Write the presence chart of the entities as of the spoiler horizon (svg, png, csv,
    json)."""
    from agent.views.presence import export_chart, presence

    chart = presence(retriever, entities, horizon)
    data = export_chart(chart, fmt)  # it checks fmt
    return _write(settings, f"{_slug(world)}-presence-{_slug('-'.join(chart.entities))}.{fmt}",
                  data)


def _write(settings: Settings, name: str, text: str | bytes) -> Path:
    folder = exports_dir(settings)
    path = folder / name
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            with replacing(path, "wb") as f:
                f.write(text)
        else:
            write_text(path, text)
    except OSError as exc:
        raise write_error(exc, path, "choose another --data-dir / LORE_HOME") from None
    return path


def write_error(exc: OSError, path: Path, elsewhere: str) -> StoreError:
    """Why an export could not be written, with advice that fits the reason (`elsewhere`:
    how to write it somewhere else)."""
    import errno

    if exc.errno == errno.ENAMETOOLONG:
        return StoreError(f"the file name is too long ({len(path.name.encode('utf-8'))} bytes; "
                          "a file name holds 255)", where=path, hint=f"shorten it, or {elsewhere}")
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return StoreError("the disk is full", where=path,
                          hint=f"free some disk space (df -h {path.parent}), or {elsewhere}")
    return StoreError(f"cannot write the export: {exc.strerror or exc}", where=path,
                      hint=f"check that you may write in {path.parent}, or {elsewhere}")
