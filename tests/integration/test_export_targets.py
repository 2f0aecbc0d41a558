"""Export targets (issue 39, item 15): a write-only --out file with --force was refused as "is
not readable" (the option checked that it could read a file it only writes), and a 363-character
entity name made the app's timeline export fail as "File name too long" with the advice to free
some disk space."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.lore import ROOT, Result

pytestmark = pytest.mark.slow  # `lore` in subprocesses, the app under Pilot

NOBODY = 65534


@pytest.fixture
def user_home(demo_world_home: Path) -> Iterator[tuple[Path, list[str]]]:
    """A copy of the demo data dir and the command prefix that runs `lore` as a user whom file
    permissions bind: root reads a write-only file anyway, so as root it runs as nobody."""
    folder = Path(tempfile.mkdtemp(prefix="lore-user-"))
    home = folder / "home"
    shutil.copytree(demo_world_home, home)
    prefix: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv: cannot act as a user")
        for path in [folder, *folder.rglob("*")]:
            os.chown(path, NOBODY, NOBODY)
        prefix = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    folder.chmod(0o755)
    yield home, prefix
    shutil.rmtree(folder, ignore_errors=True)


def lore_as(prefix: list[str], home: Path, *args: str | Path) -> Result:
    env = {**os.environ, "LORE_HOME": str(home), "HOME": str(home)}
    proc = subprocess.run([*prefix, sys.executable, "-m", "tui", *map(str, args)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)
    return Result(proc.returncode, proc.stdout, proc.stderr)


def test_a_write_only_file_is_overwritten_with_force(user_home: tuple[Path, list[str]]) -> None:
    home, prefix = user_home
    asked = lore_as(prefix, home, "ask", "沈砚是谁？", "--world", "demo", "--new")
    assert asked.code == 0, asked.err
    session = asked.err.split("new session ", 1)[1].split()[0]
    target = home.parent / "export.md"
    target.write_text("old\n", encoding="utf-8")
    if prefix:
        os.chown(target, NOBODY, NOBODY)
    target.chmod(0o200)  # the user may write it, not read it
    out = lore_as(prefix, home, "sessions", "export", session, "--format", "md", "--out",
                  target, "--force")
    assert out.code == 0, out.err
    target.chmod(0o600)
    assert "沈砚是谁？" in target.read_text(encoding="utf-8")
    timeline = lore_as(prefix, home, "timeline", "沈砚", "--world", "demo", "--out", target,
                       "--force")
    assert timeline.code == 0, timeline.err


async def test_the_app_exports_the_timeline_of_a_very_long_name(tmp_path: Path) -> None:
    from tests.integration.lore import lore
    from tests.tui.conftest import SIZE, make_app, settle
    from tui.settings import load_settings

    name = "沈" + "砚" * 362  # 363 characters, 1089 bytes
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "01.txt").write_text(f"第一回 夜雨\n\n{name}在灯下读书。\n{name}起身开门。\n",
                                   encoding="utf-8")
    glossary = tmp_path / "glossary.toml"
    glossary.write_text(f'[[entity]]\nname = "{name}"\ntype = "person"\n', encoding="utf-8")
    home = Path(os.environ["LORE_HOME"])
    assert lore("ingest", corpus, "--glossary", glossary, "--world", "long", home=home).code == 0
    app = make_app(load_settings(), world="long")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.jobs.track(app.conversation, name)
        await settle(pilot)
        app.action_export("timeline", "md")
        await settle(pilot)
    errors = [note for severity, note in app.notes if severity == "error"]
    assert not errors, errors
    (saved,) = list((home / "exports").iterdir())
    assert len(saved.name.encode("utf-8")) <= 255 and saved.name.startswith("long-timeline-沈砚")
    assert name in saved.read_text(encoding="utf-8")


def test_an_out_name_too_long_says_to_shorten_it(demo_home: Path, tmp_path: Path) -> None:
    from tests.integration.lore import lore

    target = tmp_path / ("砚" * 100 + ".md")  # 302 bytes
    out = lore("timeline", "沈砚", "--world", "demo", "--out", target, home=demo_home)
    assert out.code == 3 and "the file name is too long" in out.err and "shorten it" in out.err
    assert "disk space" not in out.err


def test_a_file_written_out_has_the_users_permissions(demo_world_home: Path,
                                                      tmp_path: Path) -> None:
    # exports came out -rw------- (newcomers' trials, twice): `lore` makes its own folders
    # private, and the file it writes out for the user read that as the user's umask
    from tests.integration.lore import lore

    home = tmp_path / "home"
    shutil.copytree(demo_world_home, home)
    mask = os.umask(0o022)
    try:
        target = tmp_path / "timeline.md"
        result = lore("timeline", "沈砚", "--world", "demo", "--out", target, home=home)
    finally:
        os.umask(mask)
    assert result.code == 0, result.err
    assert target.stat().st_mode & 0o777 == 0o644
