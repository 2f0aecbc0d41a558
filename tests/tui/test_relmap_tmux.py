"""The relations map in a real 80×24 terminal (tmux), with the keyboard alone: open it, move
between columns, recentre on a relative and come back, two hops, the sentence behind a
relation, and back to the chat."""

from __future__ import annotations

import re
import shutil
import sys
import time

import pytest

from tests.tui.test_relmap import _track
from tests.tui.test_smoke_tmux import ROOT, Tmux

pytestmark = [pytest.mark.slow,  # the app in a real terminal: seconds to start
              pytest.mark.skipif(shutil.which("tmux") is None,
                                 reason="tmux is not installed (apt-get install tmux)")]

HEADING = re.compile(r"Relations of (\S+) · (\d) hops?")


def test_the_map_is_walked_with_the_keyboard_in_80_by_24(settings):
    _track(settings)
    tmux = Tmux()
    keys = lambda *k: tmux("send-keys", "-t", "smoke", *k)  # noqa: E731
    try:
        command = (f"cd {ROOT} && exec env -u COLUMNS -u LINES LORE_HOME={settings.data_dir} "
                   f"LORE_CONFIG={ROOT / 'config.toml'} {sys.executable} -m tui")
        tmux("new-session", "-d", "-s", "smoke", "-x", "80", "-y", "24", command)
        tmux.wait_for(lambda s: "Ask about demo" in s and "opening" not in s, "the demo world")
        keys("C-r")
        # (the note that the last session goes on may cover the map's corner for a moment)
        screen = tmux.wait_for(lambda s: "Relations of 沈砚 · 1 hop" in s
                               and "not a relation" in s, "沈砚's map")
        assert "sworn brothers" in screen and "master and disciple" in screen
        assert "not a relation" in screen  # co-occurrence apart, named as such
        # every line of the map fits the terminal: nothing wraps past 80 columns
        assert all(len(line) <= 80 for line in screen.splitlines())
        keys("Right")
        time.sleep(0.3)
        keys("Enter")  # recentre on the highlighted name
        screen = tmux.wait_for(lambda s: (m := HEADING.search(s)) is not None
                               and m.group(1) != "沈砚", "the map recentred")
        centre = HEADING.search(screen).group(1)
        keys("BSpace")
        tmux.wait_for(lambda s: "Relations of 沈砚 · 1 hop" in s, "back on 沈砚")
        keys("h")
        tmux.wait_for(lambda s: "Relations of 沈砚 · 2 hops" in s, "two hops")
        keys("s")  # the sentence behind the highlighted relation
        screen = tmux.wait_for(lambda s: re.search(r"— \S+, lines \d+-\d+", s) is not None,
                               "the passage view")
        keys("Escape")
        tmux.wait_for(lambda s: "Relations of 沈砚 · 2 hops" in s, "the map again")
        keys("Escape")
        screen = tmux.wait_for(lambda s: "Ask about demo" in s and "Relations of" not in s,
                               "the chat")
        assert centre != "沈砚" and "Traceback" not in screen
    finally:
        tmux("kill-server")
