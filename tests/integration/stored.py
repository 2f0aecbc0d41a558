"""What a data dir holds, as the `lore` command line shows it: compared before and after a
failure to prove that nothing stored was lost or duplicated."""

from __future__ import annotations

import json
from pathlib import Path

from tests.integration.lore import lore


def stored(home: Path, world: str = "demo") -> dict:
    """The world's catalog counts, its entities and every session with its turns."""
    worlds = lore("worlds", "--json", home=home)
    assert worlds.code == 0, worlds.err
    rows = {w["name"]: w for w in json.loads(worlds.out)}
    entities = lore("entities", "--world", world, "--json", home=home)
    assert entities.code == 0, entities.err
    sessions = lore("sessions", "list", "--json", home=home)
    assert sessions.code == 0, sessions.err
    turns = {}
    for s in json.loads(sessions.out):
        shown = lore("sessions", "export", s["id"], "--format", "json", home=home)
        assert shown.code == 0, shown.err
        turns[s["id"]] = [(t["question"], t["status"]) for t in json.loads(shown.out)["turns"]]
    return {"world": rows.get(world), "entities": sorted(e["name"] for e in json.loads(entities.out)),
            "turns": turns}
