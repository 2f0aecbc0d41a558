"""The relations map's labels read as English: one passage shared is "1 passage" (a newcomer's
trial on Heart of Darkness read "1 passages")."""

from __future__ import annotations

from agent.views.pictures import map_dot, map_mermaid
from agent.views.relmap import RelationMap, Together


def test_one_shared_passage_is_one_passage() -> None:
    found = RelationMap("Kurtz", 1, 0, [], together=[Together("Marlow", 1, "c1"),
                                                     Together("the manager", 3, "c2")],
                        types={"Kurtz": "person", "Marlow": "person", "the manager": "person"})
    for drawn in (map_dot(found), map_mermaid(found)):
        assert "1 passage" in drawn and "1 passages" not in drawn and "3 passages" in drawn, drawn
