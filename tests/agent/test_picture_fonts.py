"""A PNG of Chinese names says when no font can draw them (a newcomer's trial on 呐喊: every name
of the chart and the map was an empty box, and nothing said so)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agent.views.pictures import missing_font


def fc_list(folder: Path, families: str) -> None:
    """A fontconfig `fc-list` on PATH that lists `families` for any query."""
    script = folder / "fc-list"
    script.write_text(f"#!/bin/sh\nprintf '%s' '{families}'\n", encoding="utf-8")
    script.chmod(0o755)


def test_a_png_of_chinese_names_without_a_chinese_font_says_what_to_install(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    fc_list(tmp_path, "")
    note = missing_font("png", "阿Ｑ 孔乙己")
    assert "empty boxes" in note and "apt-get install fonts-noto-cjk" in note
    assert missing_font("svg", "阿Ｑ") == ""  # the viewer draws an SVG's names
    assert missing_font("png", "Edmond Dantès") == ""
    fc_list(tmp_path, "Noto Sans CJK SC\n")
    assert missing_font("png", "阿Ｑ") == ""


def test_lore_doctor_says_no_font_draws_chinese_names(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # `lore doctor` said "ok pictures" while every Chinese name of a PNG was an empty box (a
    # newcomer's trial on 三国演义)
    from tui.commands.doctor import _pictures

    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    fc_list(tmp_path, "")
    (tmp_path / "dot").write_text("#!/bin/sh\n", encoding="utf-8")
    (tmp_path / "dot").chmod(0o755)
    check = _pictures()
    assert check.ok and "fonts-noto-cjk" in check.detail
    fc_list(tmp_path, "Noto Sans CJK SC\n")
    assert "fonts-noto-cjk" not in _pictures().detail
