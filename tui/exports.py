"""Where the app's exports go, and writing them (the formats come from the shared exporters
that also serve `lore timeline` and `lore sessions export`)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, cast

from stores.atomic import write_text
from stores.config import Settings
from stores.errors import StoreError

TIMELINE_FORMATS = ("md", "json", "csv")
SESSION_FORMATS = ("md", "json")


def exports_dir(settings: Settings) -> Path:
    """The app writes exports under the data dir (the working directory may be anywhere)."""
    return settings.data_dir / "exports"


def _slug(text: str) -> str:
    """A file-name-safe form that keeps CJK names readable (沈砚 stays 沈砚)."""
    return re.sub(r"[^\w.-]+", "_", text).strip("_") or "untitled"


def export_timeline_file(settings: Settings, retriever: Any, world: str, entity: str,
                         fmt: str, horizon: int = 0) -> Path:
    """Write the entity's timeline up to the spoiler horizon; the same entity and format
    overwrite the previous file."""
    from agent.exports import TimelineFormat, export_timeline

    text = export_timeline(retriever, entity, cast(TimelineFormat, fmt), horizon)  # checks fmt
    return _write(settings, f"{_slug(world)}-timeline-{_slug(entity)}.{fmt}", text)


def export_session_file(settings: Settings, store: Any, session_id: str, world: str,
                        fmt: str) -> Path:
    """Write a whole session (questions, answers, citations, entity stack)."""
    from agent.exports import SessionFormat, export_session

    text = export_session(store, session_id, cast(SessionFormat, fmt))  # it checks fmt
    return _write(settings, f"{_slug(world)}-session-{session_id}.{fmt}", text)


def _write(settings: Settings, name: str, text: str) -> Path:
    folder = exports_dir(settings)
    path = folder / name
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_text(path, text)
    except OSError as exc:
        raise StoreError(f"cannot write the export: {exc.strerror or exc}", where=path,
                         hint="free some disk space or choose another --data-dir") from None
    return path
