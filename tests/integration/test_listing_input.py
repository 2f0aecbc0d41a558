"""Listing with bad input (issue 39, item 14): `lore entities --limit -1` dropped the last
entity without a word, and `lore sessions list --world nosuch` (or `../x`) said "No sessions
yet" as if the world were there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.integration.lore import lore

pytestmark = pytest.mark.slow  # `lore` in subprocesses


def test_a_negative_limit_is_refused(demo_home: Path) -> None:
    every = json.loads(lore("entities", "--world", "demo", "--json", home=demo_home).out)
    refused = lore("entities", "--world", "demo", "--limit", "-1", home=demo_home)
    assert refused.code == 2 and "--limit" in refused.err and not refused.out
    some = lore("entities", "--world", "demo", "--json", "--limit", "3", home=demo_home)
    assert json.loads(some.out) == every[:3]


@pytest.mark.parametrize("world, said", [
    ("nosuch", "no world named 'nosuch' (known worlds: demo)"),
    ("../x", "invalid world name '../x'"),
    ("Demo", "did you mean --world demo?"),
])
def test_sessions_of_an_unknown_world_name_it(demo_home: Path, world: str, said: str) -> None:
    listed = lore("sessions", "list", "--world", world, home=demo_home)
    assert listed.code == 2 and said in listed.err and "No sessions yet" not in listed.out


def test_a_known_world_without_sessions_has_none_yet(demo_home: Path) -> None:
    listed = lore("sessions", "list", "--world", "demo", home=demo_home)
    assert listed.code == 0 and "No sessions yet" in listed.out
