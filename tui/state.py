"""What the app shows about the open world and the model, and how it picks the world to open.

No Textual here: these are plain functions of the settings and the stores, tested directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tui.settings import AppSettings


@dataclass
class WorldInfo:
    """The open world as the status bar shows it."""

    name: str
    state: str = "ready"
    chapters: int = 0
    passages: int = 0
    entities: int = 0
    last_chapter: int = 0
    """The highest chapter number (the spoiler horizon's upper bound)."""

    @classmethod
    def from_row(cls, row: dict[str, Any], last_chapter: int = 0) -> WorldInfo:
        """From a row of `Catalog.worlds()`."""
        return cls(name=row["name"], state=row.get("state") or "ready",
                   chapters=row.get("chapters") or 0, passages=row.get("chunks") or 0,
                   entities=row.get("entities") or 0, last_chapter=last_chapter)

    def size(self) -> str:
        """`10 chapters · 68 passages · 29 entities`"""
        return (f"{self.chapters} chapters · {self.passages} passages · "
                f"{self.entities} entities")


OFFLINE_LABEL = "built-in"
"""The status bar's name for the offline reader: no model, not a model that is offline."""
OFFLINE_NOTE = ("Answers come from the built-in reader: it quotes the sentences that answer and "
                "says what the world's lore knows, without a language model. For written "
                "answers, set [model] in config.toml (Gemini, or an OpenAI-compatible server "
                "such as Ollama).")


def model_label(settings: AppSettings) -> str:
    """The model in use, as the status bar names it."""
    model = settings.model
    if model.provider == "offline":
        return OFFLINE_LABEL
    name = model.name or "default"
    if model.provider == "openai" and model.base_url:
        return f"{name} @ {model.base_url}"
    return f"{model.provider}:{name}"


def horizon_label(chapter: int | None) -> str:
    """`ch. 5` or `none` (0 and None both mean no limit in the app)."""
    return f"ch. {chapter}" if chapter else "none"


def pick_world(rows: list[dict[str, Any]], last_session_world: str | None,
               requested: str | None) -> str | None:
    """The world to open: the one asked for, else the last session's, else the newest ingested.

    `rows` are `Catalog.worlds()` (newest first). None when there is no world at all.
    """
    names = [r["name"] for r in rows]
    if requested:
        return requested  # opening it reports a clear error when it does not exist
    if last_session_world in names:
        return last_session_world
    ready = [r["name"] for r in rows if r.get("state") == "ready"]
    return (ready or names or [None])[0]


def session_title(title: str, first_question: str, width: int = 48) -> str:
    """A session's title for lists: its own, else its first question, else `new session`."""
    text = (title or first_question or "new session").replace("\n", " ").strip()
    return text if len(text) <= width else text[: width - 1] + "…"


def welcome_text(info: WorldInfo, intro: Any, offline: bool = False) -> str:
    """What the empty chat says: the world, its size and origin, how to begin, and, when no
    model is set (`offline`), who answers and how to set one."""
    title = f"{intro.title} (world {info.name})" if intro and intro.title else info.name
    origin = f", from {intro.origin}" if intro and intro.origin else ""
    start = ("Try a question below (↓ then Enter), or type your own."
             if intro and intro.examples else f"Ask anything about {info.name}.")
    return (f"{title}: {info.size()}{origin}.\n{start} Follow-ups may say he / she / it / "
            "他 / 她: the Entities pane on the right says who."
            + (f"\n{OFFLINE_NOTE}" if offline else ""))
