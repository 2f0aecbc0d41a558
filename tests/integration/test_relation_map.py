"""`lore map` and `lore chart` as a user runs them: the demo's 沈砚 as the glossary and text
have him, the spoiler horizon (a relation stated later is not drawn, and counted), the SVG
parsed, Mermaid and DOT, and the presence chart's counts."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.integration.lore import ingested, lore

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow
NEEDS_DOT = pytest.mark.skipif(shutil.which("dot") is None,
                               reason="Graphviz's dot is not installed (apt-get install graphviz)")
SVG = "{http://www.w3.org/2000/svg}"

# A short original story: Mira's father is stated in chapter 1, Hale's kinship in chapter 3;
# the glossary declares an alliance from chapter 2 (its entry carries chapter = 2) and an
# enmity with no chapter (hidden under any horizon, like the entry itself).
CHAPTERS = {
    "01.txt": "Chapter 1. The Lamp\n\nMira, the daughter of Tobias Wren, trimmed the wick at "
              "Gull Point. Tobias Wren watched Mira from the stairs.\n",
    "02.txt": "Chapter 2. The Wreck\n\nCaptain Hale ran aground below Gull Point. Tobias Wren "
              "rowed out to Captain Hale while Old Gull jeered from the rocks.\n",
    "03.txt": "Chapter 3. The Letter\n\nCaptain Hale, the brother of Tobias Wren, wrote from "
              "Saltmarsh. Mira read the letter of Captain Hale twice.\n",
}
GLOSSARY = """
[[entity]]
name = "Tobias Wren"
type = "person"
chapter = 2
description = "Keeper of the lamp at Gull Point, and Captain Hale's ally."
relations = [{type = "ally", target = "Captain Hale"}]

[[entity]]
name = "Old Gull"
type = "person"
description = "A wrecker who hates Tobias Wren."
relations = [{type = "enemy", target = "Tobias Wren"}]

[[entity]]
name = "Captain Hale"
type = "person"

[[entity]]
name = "Mira"
type = "person"
"""


@pytest.fixture(scope="module")
def lamp_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("lamp-map-home")
    glossary = home.parent / f"{home.name}-glossary.toml"
    glossary.write_text(GLOSSARY, encoding="utf-8")
    return ingested(home, "lamp", CHAPTERS, "--glossary", glossary)


def _map(home: Path, entity: str, *args: str) -> dict:
    result = lore("map", entity, "--format", "json", *args, home=home)
    assert result.code == 0, result.err
    return json.loads(result.out)


def _relations(found: dict) -> set[tuple[str, str, str]]:
    """(source, type, target) of each relation drawn, a symmetric one's ends in name order (as
    its id has them, whichever end stated it)."""
    return {tuple(r["id"].removeprefix("rel:").split("|")) for r in found["relations"]}


def test_shen_yans_map_is_the_glossarys_and_the_texts(demo_home: Path) -> None:
    found = _map(demo_home, "Shen Yan", "--world", "demo")  # any of his names
    assert found["centre"] == "沈砚" and found["hops"] == 1 and found["horizon"] is None
    # every relation the glossary gives 沈砚, in his entry or another's, each once
    assert _relations(found) == {
        ("沈砚", "mentor", "苏绾"), ("沈砚", "sworn_sibling", "韩峥"), ("沈砚", "member_of", "雁回楼"),
        ("沈砚", "owns", "断鸿剑"), ("沈砚", "enemy", "裴昭"), ("沈砚", "ally", "顾青禾"),
        ("Eleanor Vance", "ally", "沈砚"), ("沈砚", "located_in", "柳溪镇"),
        ("沈砚", "enemy", "韩峥"), ("沈砚", "rival", "韩峥"), ("顾怀山", "mentor", "沈砚")}
    by_far = {r["far"]: r for r in found["relations"] if r["type"] in ("mentor", "sworn_sibling")}
    assert (by_far["苏绾"]["role"], by_far["顾怀山"]["role"]) == ("disciple", "master")
    assert by_far["韩峥"]["role"] == "sworn brother"
    # the sentence that states it: his entry's, naming her (as his card cites it)
    assert by_far["苏绾"]["sentence"] == "苏绾之师，韩峥的结义大哥。"
    assert by_far["顾怀山"]["sentence"].startswith("顾怀山：") and "沈砚与韩峥的师父" in \
        by_far["顾怀山"]["sentence"]
    assert all(r["chapter"] is None and r["declared_in"].startswith("glossary.toml:")
               for r in found["relations"])
    # co-occurrence apart, not among the relations
    names = [n["name"] for n in found["co_occurrence"]["names"]]
    assert names[0] == "苏绾" and "not a relation" in found["co_occurrence"]["note"]


def test_the_horizon_hides_what_is_stated_later_and_says_how_much(lamp_home: Path) -> None:
    whole = _map(lamp_home, "Tobias Wren", "--world", "lamp")
    assert _relations(whole) == {("Tobias Wren", "parent_of", "Mira"),
                                 ("Captain Hale", "sibling", "Tobias Wren"),
                                 ("Captain Hale", "ally", "Tobias Wren"),
                                 ("Old Gull", "enemy", "Tobias Wren")}
    chapters = {r["type"]: r["chapter"] for r in whole["relations"]}
    assert chapters == {"parent_of": 1, "ally": 2, "sibling": 3, "enemy": None}
    stated = {r["type"]: r["sentence"] for r in whole["relations"]}
    assert stated["parent_of"].startswith("Mira, the daughter of Tobias Wren")
    assert stated["sibling"].startswith("Captain Hale, the brother of Tobias Wren")
    seen = {}
    for horizon in (1, 2, 3):
        found = _map(lamp_home, "Tobias Wren", "--world", "lamp", "--horizon", str(horizon))
        seen[horizon] = ({r["type"] for r in found["relations"]}, found["hidden_by_horizon"])
    assert seen == {1: ({"parent_of"}, 3), 2: ({"parent_of", "ally"}, 2),
                    3: ({"parent_of", "ally", "sibling"}, 1)}  # the enmity names no chapter
    # the heading says it, on stderr (stdout is the picture)
    result = lore("map", "Tobias Wren", "--world", "lamp", "--horizon", "1", "--format",
                  "mermaid", home=lamp_home)
    assert "as of ch. 1 · 1 relation · 3 hidden beyond the horizon" in result.err
    # "Mira, the daughter of Tobias Wren": the kin word beside her name says she is a woman
    assert '["Mira"]' in result.out and "daughter · ch. 1" in result.out


@NEEDS_DOT
def test_the_svg_parses_and_holds_every_relation(demo_home: Path, tmp_path: Path) -> None:
    found = _map(demo_home, "沈砚", "--world", "demo", "--hops", "2")
    out = tmp_path / "shen.svg"
    result = lore("map", "沈砚", "--world", "demo", "--hops", "2", "--out", out, home=demo_home)
    assert result.code == 0, result.err
    svg = ET.parse(out).getroot()
    edges = {g.get("id"): g for g in svg.iter(f"{SVG}g") if "edge" in (g.get("class") or "")}
    for s, t, o in _relations(found):
        edge = edges[f"rel:{s}|{t}|{o}"]
        # each edge is labelled with its role and chapter and tells its sentence on hover
        assert "lore" in {x.text for x in edge.iter(f"{SVG}text")}
    texts = {x.text for x in svg.iter(f"{SVG}text")}
    assert {name for r in found["relations"] for name in (r["source"], r["target"])} <= texts
    assert {"sworn brothers", "master and disciple", "allies"} <= texts
    # PNG too, and never to a terminal
    png = tmp_path / "shen.png"
    drawn = lore("map", "沈砚", "--world", "demo", "--format", "png", "--out", png,
                 home=demo_home)
    assert drawn.code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # Chinese names with no font for them are empty boxes: said, with what to do
    fc_list = shutil.which("fc-list")
    fontless = fc_list is not None and not subprocess.run(
        [fc_list, ":lang=zh", "family"], capture_output=True, text=True).stdout.strip()
    assert ("apt-get install fonts-noto-cjk" in drawn.err) == fontless, drawn.err
    refused = lore("map", "沈砚", "--world", "demo", "--format", "png", home=demo_home)
    assert refused.code != 0 and "--out" in refused.err


@NEEDS_DOT
def test_co_occurrence_is_drawn_apart_and_named(sanguo_home: Path, tmp_path: Path) -> None:
    out = tmp_path / "liubei.svg"
    result = lore("map", "玄德", "--world", "sanguo", "--out", out, home=sanguo_home)
    assert result.code == 0, result.err
    svg = ET.parse(out).getroot()
    texts = [x.text or "" for x in svg.iter(f"{SVG}text")]
    assert any("co-occurrence, not a relation" in t for t in texts)
    dashed = [g for g in svg.iter(f"{SVG}g") if (g.get("id") or "").startswith("co:刘备|")]
    assert dashed and all(p.get("stroke-dasharray") for g in dashed
                          for p in g.iter(f"{SVG}path"))


def test_dot_and_mermaid_are_text_a_tool_reads(demo_home: Path) -> None:
    dot = lore("map", "沈砚", "--world", "demo", "--format", "dot", home=demo_home)
    assert dot.code == 0 and dot.out.startswith("graph relations {")
    assert "subgraph cluster_sworn" in dot.out and '"rel:沈砚|sworn_sibling|韩峥"' in dot.out
    mermaid = lore("map", "沈砚", "--world", "demo", "--format", "mermaid", home=demo_home)
    assert mermaid.out.startswith("flowchart LR\n")
    assert '["master and disciple"]' in mermaid.out and "---|" in mermaid.out
    bad = lore("map", "沈砚", "--world", "demo", "--format", "gif", home=demo_home)
    assert bad.code != 0 and "svg, png, dot, mermaid, json" in bad.err


def test_the_text_form_is_what_a_terminal_shows_by_default(demo_home: Path) -> None:
    text = lore("map", "沈砚", "--world", "demo", "--format", "text", home=demo_home)
    assert text.code == 0 and text.out.startswith("沈砚 · 1 hop · whole story · ")
    assert "master and disciple:\n" in text.out and "  苏绾 — " in text.out
    assert "<svg" not in text.out and "often in the same passages" in text.out


def test_the_presence_chart_counts_mentions_by_chapter(demo_home: Path, tmp_path: Path) -> None:
    result = lore("chart", "沈砚", "Su Wan", "Eleanor Vance", "--world", "demo", "--format", "csv",
                  home=demo_home)
    assert result.code == 0, result.err
    rows = list(csv.reader(io.StringIO(result.out)))
    assert rows[0] == ["entity", *map(str, range(1, 11))]
    counts = {row[0]: list(map(int, row[1:])) for row in rows[1:]}
    assert list(counts) == ["沈砚", "苏绾", "Eleanor Vance"]
    assert all(counts["沈砚"]) and not any(counts["Eleanor Vance"][:6])  # she comes in ch. 7
    early = lore("chart", "沈砚", "--world", "demo", "--horizon", "3", "--format", "json",
                 home=demo_home)
    data = json.loads(early.out)
    assert data["chapters"] == [1, 2, 3] and list(data["mentions"]["沈砚"]) == ["1", "2", "3"]
    seven = ["沈砚", "苏绾", "韩峥", "顾怀山", "顾青禾", "裴昭", "何伯"]
    too_many = lore("chart", *seven, "--world", "demo", home=demo_home)
    assert too_many.code != 0 and "6 entities at most" in too_many.err
    if shutil.which("dot"):
        out = tmp_path / "presence.svg"
        assert lore("chart", "沈砚", "苏绾", "--world", "demo", "--out", out,
                    home=demo_home).code == 0
        texts = {x.text for x in ET.parse(out).getroot().iter(f"{SVG}text")}
        assert {"沈砚", "苏绾", "30"} <= texts
