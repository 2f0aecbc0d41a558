"""Small things of issue 39 (item 17): `make run` printed nothing for two minutes while it
installed, `lore sessions list` said "1 turns", and `lore card 韩峥` without --world took the
world used last, which has no 韩峥, while another world has."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.integration.lore import ROOT, lore

pytestmark = pytest.mark.slow  # make and `lore` in subprocesses


def test_make_says_what_it_installs_before_it_does(tmp_path: Path) -> None:
    """The Makefile's install, run in a bare folder with a Python that fails at once: what
    it printed before its first slow step."""
    for name in ("Makefile", "pyproject.toml", "requirements.lock"):
        shutil.copy(ROOT / name, tmp_path)
    env = {k: v for k, v in os.environ.items()  # as from a shell, not inside `make test`
           if k not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS")}
    run = subprocess.run(["make", ".venv/.installed", "PYTHON=false"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode != 0  # stopped at `false -m venv`, as meant
    first = run.stdout.splitlines()[0]
    assert "installing the packages of requirements.lock" in first, run.stdout


def test_one_turn_is_one_turn(demo_copy: Path) -> None:
    assert lore("ask", "韩峥是谁？", "--world", "demo", "--new", home=demo_copy).code == 0
    listed = lore("sessions", "list", home=demo_copy)
    assert " 1 turn " in listed.out and "1 turns" not in listed.out


def test_card_without_world_takes_the_world_that_knows_the_name(demo_copy: Path,
                                                                 tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "01.txt").write_text("第一回 晨雾\n\n李四在湖边洗衣，晨雾未散。\n" * 3,
                                   encoding="utf-8")
    assert lore("ingest", corpus, "--world", "other", home=demo_copy).code == 0
    assert lore("ask", "李四在做什么？", "--world", "other", home=demo_copy).code == 0  # last used
    card = lore("card", "韩峥", "--json", home=demo_copy)
    assert card.code == 0, card.err
    assert "world: demo (the only world that knows 韩峥" in card.err
    assert json.loads(card.out)["world"] == "demo"
