"""Issue 25 #1: a damaged or lost index is rebuilt from the catalog — by the next `lore ingest`
(nothing of the corpus read again), by `lore doctor --repair` and by `lore ingest --rebuild` —
and the advice every error gives about it is a step that works."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.integration.lore import ROOT, lore

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow

DEMO = ROOT / "stores" / "demo_world"
WORLD = "worlds/demo"


def ingest_demo(home: Path, *extra: str) -> str:
    result = lore("ingest", DEMO / "zh", DEMO / "en", DEMO / "dialogue", "--glossary",
                  DEMO / "glossary.toml", "--world", "demo", *extra, home=home)
    assert result.code == 0, result.err
    return result.out


def doctor(home: Path, *extra: str) -> tuple[int, str]:
    """The exit code and the world's line (with the advice under it) of `lore doctor`."""
    result = lore("doctor", "--world", "demo", *extra, home=home)
    lines = result.out.splitlines()
    at = next(i for i, line in enumerate(lines) if "world demo" in line)
    return result.code, "\n".join(lines[at:at + 2])


def truncate(path: Path) -> None:
    with path.open("r+b") as f:
        f.truncate(min(100, path.stat().st_size // 2))


HEALTHY = "vectors 95 vectors; keywords 95 passages; graph 30 entities, 317 relations"
DAMAGES = {
    "qdrant storage.sqlite truncated":
        lambda w: truncate(next((w / "qdrant").rglob("storage.sqlite"))),
    "qdrant meta.json truncated": lambda w: truncate(w / "qdrant" / "meta.json"),
    "graph.lbug truncated": lambda w: truncate(w / "graph.lbug"),
    "bm25 docs.json truncated": lambda w: truncate(w / "bm25" / "docs.json"),
    "bm25 vocab truncated": lambda w: truncate(w / "bm25" / "model" / "vocab.index.json"),
    "qdrant folder deleted": lambda w: shutil.rmtree(w / "qdrant"),
    "graph.lbug deleted": lambda w: (w / "graph.lbug").unlink(),
    "world folder deleted": lambda w: shutil.rmtree(w),
}


@pytest.mark.parametrize("damage", list(DAMAGES))
def test_the_next_ingest_rebuilds_a_damaged_index_from_the_catalog(
        demo_copy: Path, damage: str) -> None:
    DAMAGES[damage](demo_copy / WORLD)
    code, line = doctor(demo_copy)
    assert code == 1 and "FAIL" in line and "lore doctor --repair --world demo" in line
    out = ingest_demo(demo_copy)
    assert "rebuilt from the catalog" in out and "nothing changed" not in out
    assert "12 files unchanged" in out and "0 passages embedded" in out  # nothing read again
    code, line = doctor(demo_copy)
    assert code == 0 and HEALTHY in line
    if damage == "world folder deleted":  # once rebuilt, the world is up to date again
        assert "nothing changed in 12 files" in ingest_demo(demo_copy)


def test_following_the_advice_of_ask_repairs_the_world(demo_copy: Path) -> None:
    truncate(demo_copy / WORLD / "qdrant" / "meta.json")
    asked = lore("ask", "沈砚是谁？", "--world", "demo", "--new", home=demo_copy)
    assert asked.code != 0 and "lore doctor --repair" in asked.err
    repaired = lore("doctor", "--repair", home=demo_copy)
    assert repaired.code == 0, repaired.out + repaired.err
    assert "demo: rebuilt the vector index from the catalog" in repaired.out
    assert HEALTHY in repaired.out
    again = lore("ask", "沈砚是谁？", "--world", "demo", "--new", home=demo_copy)
    assert again.code == 0 and "[1]" in again.out, again.err


def test_ingest_rebuild_rebuilds_every_index_without_the_corpus(demo_copy: Path) -> None:
    (demo_copy / WORLD / "graph.lbug").unlink()
    shutil.rmtree(demo_copy / WORLD / "bm25")
    result = lore("ingest", "--rebuild", "--world", "demo", home=demo_copy)
    assert result.code == 0, result.err
    for index in ("vector", "keyword", "graph"):
        assert f"demo: rebuilt the {index} index from the catalog" in result.out
    code, line = doctor(demo_copy)
    assert code == 0 and HEALTHY in line
    nothing = lore("doctor", "--repair", "--world", "demo", home=demo_copy)
    assert "every index agrees with the catalog; nothing to rebuild" in nothing.out


def test_ingest_rebuild_of_an_unknown_world_names_the_known_ones(demo_copy: Path) -> None:
    result = lore("ingest", "--rebuild", "--world", "nowhere", home=demo_copy)
    assert result.code != 0 and "no world named 'nowhere' (known worlds: demo)" in result.err
    assert "Traceback" not in result.err


def test_a_damaged_e5_index_is_rebuilt_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The default embedder keeps its vectors in `qdrant-e5`: a damaged one was set aside as
    `qdrant` (not there), so ingest and doctor --repair failed 'the vector index is unreadable'."""
    monkeypatch.setenv("LORE_EMBEDDER__BACKEND", "e5")
    home = tmp_path / "home"
    ingest_demo(home)
    truncate(home / WORLD / "qdrant-e5" / "meta.json")
    out = ingest_demo(home)
    assert "rebuilt from the catalog" in out
    code, line = doctor(home)
    assert code == 0 and "vectors 95 vectors" in line, line
