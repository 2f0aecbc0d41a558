"""What a command assumes when the user leaves it out, and says so: the world (the only one,
else the one used last) and the session `lore ask` continues."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stores.errors import LoreError

if TYPE_CHECKING:
    from sessions.records import Session
    from sessions.store import SessionStore
    from stores.config import Settings


def world_option(value: str | None) -> str | None:
    """What every `--world` option passes on: the name in its normal form (NFKC, so the
    full-width ｓｍａｌｌ is small; stores.world.normal_world_name)."""
    if value is None:
        return None
    from stores.world import normal_world_name

    return normal_world_name(value)


def default_world(settings: Settings, store: SessionStore, example: str,
                  entity: str | None = None) -> tuple[str, str]:
    """(world, why it was chosen) for a command run without --world; `example` is the command
    as the user would type it with `--world NAME` added, for the error's advice. With `entity`
    (lore card), only the worlds that know that name are candidates: the world used last did
    not, and the card said so without a word of the world that does."""
    from stores.catalog import Catalog

    catalog = Catalog(settings.catalog_path)
    try:
        names = [row["name"] for row in catalog.worlds()]
        knowing = _worlds_knowing(catalog, entity) if entity and len(names) > 1 else []
    finally:
        catalog.close()
    if not names:
        raise LoreError("no world is ingested yet", where="--world",
                        hint="`lore demo` ingests the bundled demo world; `lore ingest PATH... "
                             "--world NAME` your own")
    if len(names) == 1:
        return names[0], "the only world"
    if len(knowing) == 1:
        return knowing[0], f"the only world that knows {entity}"
    candidates = knowing or names
    last = next((s.world for s in store.list_sessions() if s.world in candidates), None)
    if last is not None:
        why = "the world used last" + (f" of the {len(knowing)} that know {entity}"
                                       if knowing else "")
        return last, why
    names = candidates
    raise LoreError(f"which world? There are {len(names)}: {', '.join(names)}", where="--world",
                    hint=f"add --world, e.g. {example} --world {names[0]}")


def _worlds_knowing(catalog: Any, name: str) -> list[str]:
    """The worlds with an entity or alias of exactly this name, in the catalog's order."""
    rows = catalog.db.execute("SELECT world FROM entities WHERE name = ? UNION "
                              "SELECT world FROM aliases WHERE alias = ?", [name, name])
    found = {row[0] for row in rows}
    return [row["name"] for row in catalog.worlds() if row["name"] in found]


def session_line(session: Session, continued: bool) -> str:
    """`continuing session 01J… “title” (3 turns); --new starts a new one`, or `new session …`."""
    if not continued:
        return f"new session {session.id}"
    title = f" “{session.title}”" if session.title else ""
    from stores.lang.en import counted

    turns = counted(session.turn_count, "turn")
    return f"continuing session {session.id}{title} ({turns}); --new starts a new one"
