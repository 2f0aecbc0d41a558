"""Rebuilding a world's indexes from its catalog, for `lore ingest --rebuild` and
`lore doctor --repair`: what was wrong, then that it is rebuilt."""

from __future__ import annotations

from stores.config import Settings
from tui.terminal import echo


def rebuild_indexes(settings: Settings, world: str, force: bool = True) -> bool:
    """Rebuild `world`'s indexes (every one with `force`, else those that disagree with the
    catalog) and say what was done; whether anything was rebuilt."""
    from tui.progress import repair_with_progress

    failed = repair_with_progress(settings, world, force)
    if not failed:
        echo(f"{world}: every index agrees with the catalog; nothing to rebuild.")
        return False
    for check in failed:
        found = "" if check.ok else f" (found {check.detail})"
        what = {"vectors": "vector", "keywords": "keyword"}.get(check.index, check.index)
        echo(f"{world}: rebuilt the {what} index from the catalog{found}.")
    return True
