"""`lore ingest` on real 三国演义 and Monte Cristo chapters, into the real embedded stores."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from stores.catalog import Catalog
from stores.world import WorldStores
from tests.integration.conftest import SANGUO_CHAPTERS
from tests.integration.lore import lore
from tui.settings import load_settings

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow


def entities(home: Path, world: str) -> dict[str, dict]:
    result = lore("entities", "--world", world, "--json", home=home)
    assert result.code == 0, result.err
    return {row["name"]: row for row in json.loads(result.out)}


def test_courtesy_names_become_aliases(sanguo_home: Path) -> None:
    found = entities(sanguo_home, "sanguo")
    assert "玄德" in found["刘备"]["aliases"]
    assert "云长" in found["关羽"]["aliases"]
    assert "孔明" in found["诸葛亮"]["aliases"]
    assert found["刘备"]["type"] == "person"
    assert found["刘备"]["mentions"] > 100
    # an alias is never an entity of its own
    assert "玄德" not in found and "孔明" not in found


def test_chapters_and_provenance(sanguo_home: Path, sanguo_corpus: Path) -> None:
    settings = load_settings(data_dir=sanguo_home)
    catalog = Catalog(settings.catalog_path)
    chunks = catalog.chunks("sanguo")
    assert sorted({c.chapter for c in chunks}) == SANGUO_CHAPTERS
    assert [c.event_order for c in chunks] == list(range(1, len(chunks) + 1))
    first = chunks[0]
    assert first.chapter_title == "宴桃园豪杰三结义 斩黄巾英雄首立功"
    for chunk in chunks[:: max(1, len(chunks) // 25)]:
        lines = Path(chunk.document).read_text(encoding="utf-8").splitlines()
        span = "".join(lines[chunk.line_start - 1: chunk.line_end])
        assert chunk.text.replace("\n", "")[:20] in span, chunk.id
    oath = [c for c in chunks if "桃园" in c.text and c.chapter == 1]
    assert oath and {"刘备", "关羽", "张飞"} <= set().union(*(c.entities for c in oath))


def test_every_index_holds_the_world(sanguo_home: Path) -> None:
    settings = load_settings(data_dir=sanguo_home)
    stores = WorldStores(settings, "sanguo")
    try:
        catalog_ids = {c.id for c in stores.catalog.chunks("sanguo")}
        assert stores.vectors.ids() == catalog_ids
        hits = stores.keywords.search("桃园 结义", 5)
        assert hits and stores.catalog.chunks("sanguo", "c.id = ?", [hits[0].chunk_id])[0].chapter == 1
        edges = stores.graph.relations_between("刘备", "关羽")
        assert any(e.type == "co_occurs" and 1 in e.chapters for e in edges)
        counts = stores.graph.counts()
        assert counts["chunks"] == len(catalog_ids) and counts["appears_in"] > len(catalog_ids)
    finally:
        stores.close()


def test_rerun_is_a_noop_and_a_changed_file_is_reindexed(sanguo_home: Path,
                                                         sanguo_corpus: Path, tmp_path: Path) -> None:
    again = lore("ingest", sanguo_corpus, "--world", "sanguo", home=sanguo_home)
    assert again.code == 0 and "nothing changed" in again.out
    # A private copy of the world, so the shared fixture stays as it was.
    home, corpus = tmp_path / "home", tmp_path / "corpus"
    shutil.copytree(sanguo_home, home)
    shutil.copytree(sanguo_corpus, corpus)
    chapter = corpus / "002.txt"
    chapter.write_text(chapter.read_text(encoding="utf-8") + "\n张飞大笑而去。\n", encoding="utf-8")
    # a world of its own from the copied files (into `sanguo` they would only move its
    # documents' paths: see test_identity.py)
    result = lore("ingest", corpus, "--world", "copy", home=home)
    assert result.code == 0, result.err
    # the relations the text states apart from the names it writes together: "71 relations"
    # beside maps that said "0 relations" puzzled a newcomer (呐喊)
    said = re.search(r"(\d+) relations? stated, (\d+) pairs? seen together", result.out)
    kinds = [r.type for r in Catalog(load_settings(data_dir=home).catalog_path).relations("copy")]
    assert said and (int(said[1]), int(said[2])) == (
        sum(k != "co_occurs" for k in kinds), kinds.count("co_occurs")), result.out
    chapter.write_text(chapter.read_text(encoding="utf-8") + "\n关公抚髯而笑。\n", encoding="utf-8")
    changed = lore("ingest", corpus, "--world", "copy", home=home)
    assert changed.code == 0, changed.err
    assert f"1 of {len(SANGUO_CHAPTERS)} files (re)indexed" in changed.out
    settings = load_settings(data_dir=home)
    texts = [c.text for c in Catalog(settings.catalog_path).chunks("copy", "c.chapter = 2")]
    assert any("关公抚髯而笑" in t for t in texts)


def test_english_world(monte_cristo_home: Path) -> None:
    found = entities(monte_cristo_home, "monte")
    names = set(found)
    assert "Edmond Dantès" in names or "Dantès" in names
    assert any("Morrel" in n for n in names)
    settings = load_settings(data_dir=monte_cristo_home)
    chunks = Catalog(settings.catalog_path).chunks("monte")
    assert chunks[0].chapter == 1 and chunks[0].chapter_title.startswith("Marseilles")
