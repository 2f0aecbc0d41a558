"""A document is its text, wherever it lies: moved folders, copies, edits, deleted files and
glossaries reached by several paths leave every store as a clean ingest would (issue 15)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

from stores.world import WorldStores
from tests.integration.census import assert_consistent, census, paths
from tests.integration.lore import ROOT, Result, lore
from tui.settings import load_settings

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow


def ingest(home: Path, *args: str | Path) -> Result:
    result = lore("ingest", *args, home=home)
    assert result.code == 0, result.err
    assert "Traceback" not in result.err
    return result


def chapters(shared_data: Path, folder: Path, numbers: tuple[int, ...]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for n in numbers:
        shutil.copy(shared_data / "sanguo_yanyi" / "chapters" / f"{n:03d}.txt", folder)
    return folder


def timeline(home: Path, name: str) -> list[dict]:
    """`lore timeline NAME --format json`: the entity's events."""
    result = lore("timeline", name, "--world", "w", "--format", "json", home=home)
    assert result.code == 0, result.err
    return json.loads(result.out)["events"]


def counts(found: dict) -> dict:
    """A census without ids (ids are keyed by path, so two data dirs differ in them)."""
    return {k: v for k, v in found.items() if not k.endswith("ids")}


def test_a_copied_folder_changes_only_the_stored_paths(tmp_path: Path, shared_data: Path) -> None:
    home = tmp_path / "home"
    first = chapters(shared_data, tmp_path / "first", (1, 2, 5))
    ingest(home, first, "--world", "w")
    before = census(home, "w")
    assert_consistent(before)
    moved = tmp_path / "elsewhere" / "chapters"
    shutil.copytree(first, moved)

    result = ingest(home, moved, "--world", "w")

    assert "w: 3 files unchanged (3 moved: path updated); nothing indexed again." in result.out
    assert f"moved: {first / '001.txt'} -> {moved / '001.txt'}" in result.out
    assert census(home, "w") == before
    assert paths(home, "w") == [str(moved / f"{n:03d}.txt") for n in (1, 2, 5)]
    # Citations and exports name the new place, and it is all that is needed from now on.
    shutil.rmtree(first)
    sources = {row["source"] for row in timeline(home, "关羽")}
    assert sources and all(s.startswith(str(moved)) for s in sources)
    again = ingest(home, moved, "--world", "w")
    assert "nothing changed in 3 files" in again.out
    assert census(home, "w") == before


def test_two_files_with_one_text_are_kept_once(tmp_path: Path, shared_data: Path) -> None:
    home = tmp_path / "home"
    corpus = chapters(shared_data, tmp_path / "corpus", (1, 2))
    ingest(home, corpus, "--world", "w")
    before, events = census(home, "w"), timeline(home, "关羽")
    copy = corpus / "extra" / "001 again.txt"
    copy.parent.mkdir()
    shutil.copy(corpus / "001.txt", copy)

    added = ingest(home, corpus, "--world", "w")

    assert (f"same text given twice: {copy} is a copy of {corpus / '001.txt'}; kept once"
            in added.out)
    assert "nothing changed in 2 files, 1 copies skipped" in added.out
    assert census(home, "w") == before and timeline(home, "关羽") == events
    # Both copies in the first ingest of a world: one document, as if the copy were not there.
    fresh = ingest(tmp_path / "fresh", corpus, "--world", "w")
    assert "2 of 2 files (re)indexed" in fresh.out and str(copy) in fresh.out
    assert counts(census(tmp_path / "fresh", "w")) == counts(before)


def test_a_changed_file_leaves_nothing_of_its_old_version(tmp_path: Path,
                                                          shared_data: Path) -> None:
    home = tmp_path / "home"
    corpus = chapters(shared_data, tmp_path / "corpus", (1, 2))
    ingest(home, corpus, "--world", "w")
    before = census(home, "w")
    chapter = corpus / "002.txt"
    lines = chapter.read_text(encoding="utf-8").splitlines()
    chapter.write_text("\n".join(lines[: len(lines) // 2] + ["张飞大笑，自回新野去了。"]) + "\n",
                       encoding="utf-8")

    changed = ingest(home, corpus, "--world", "w")

    assert "1 of 2 files (re)indexed, 1 files unchanged" in changed.out
    after = census(home, "w")
    assert_consistent(after)
    assert after["chunks"] < before["chunks"] and after["documents"] == 2
    # Exactly what a clean ingest of the edited folder builds: no passage, vector, BM25 row,
    # mention, edge or cached embedding of the old version is left.
    clean = tmp_path / "clean"
    ingest(clean, corpus, "--world", "w")
    assert census(clean, "w") == after


def test_prune_lists_what_goes_and_asks_first(tmp_path: Path, shared_data: Path) -> None:
    home = tmp_path / "home"
    corpus = chapters(shared_data, tmp_path / "corpus", (1, 2, 5))
    ingest(home, corpus, "--world", "w")
    before = census(home, "w")
    gone = corpus / "005.txt"
    gone.unlink()

    refused = lore("prune", "--world", "w", home=home, stdin="y\n")  # a pipe, not a terminal

    assert refused.code != 0 and "Traceback" not in refused.err
    assert str(gone) in refused.out and "add --yes" in refused.err
    assert census(home, "w") == before

    pruned = lore("prune", "--world", "w", "--yes", home=home)

    assert pruned.code == 0, pruned.err
    assert str(gone) in pruned.out and "w: removed 1 of 3 documents" in pruned.out
    after = census(home, "w")
    clean = tmp_path / "clean"
    ingest(clean, corpus, "--world", "w")
    assert census(clean, "w") == after
    again = lore("prune", "--world", "w", home=home)
    assert again.code == 0 and "nothing to prune" in again.out
    # Killed right after its transaction removed the documents: the next prune finishes the job.
    (corpus / "002.txt").unlink()
    _removed_then_killed(home, str(corpus / "002.txt"))
    finished = lore("prune", "--world", "w", home=home)
    assert finished.code == 0 and "nothing to prune" in finished.out
    shutil.rmtree(clean)
    ingest(clean, corpus, "--world", "w")
    assert census(home, "w") == census(clean, "w")
    unknown = lore("prune", "--world", "nowhere", "--yes", home=home)
    assert unknown.code != 0 and "no world named 'nowhere'" in unknown.err


@pytest.fixture()
def demo(tmp_path: Path) -> Path:
    """The bundled demo world's Chinese chapters and glossary, copied."""
    folder = tmp_path / "demo"
    source = ROOT / "stores" / "demo_world"
    shutil.copytree(source / "zh", folder / "zh")
    shutil.copy(source / "glossary.toml", folder)
    return folder


def relative(path: Path) -> str:
    """`path` relative to the folder the `lore` of these tests runs in."""
    return os.path.relpath(path, ROOT)


def test_a_glossary_by_two_relative_paths_is_one_glossary(tmp_path: Path, demo: Path) -> None:
    home = tmp_path / "home"
    ingest(home, demo / "zh", "--world", "w", "--glossary", relative(demo / "glossary.toml"))
    before = census(home, "w")
    assert before["declared"] > 0 and before["documents"] == 7
    detour = str(Path(relative(demo / "zh")) / ".." / "glossary.toml")

    again = ingest(home, demo / "zh", "--world", "w", "--glossary", detour)

    assert "nothing changed in 7 files" in again.out
    assert census(home, "w") == before
    # The whole folder moved: the glossary's entries and the relations they declare name the
    # new file; nothing is embedded again.
    moved = tmp_path / "moved"
    shutil.copytree(demo, moved)
    result = ingest(home, moved / "zh", "--world", "w", "--glossary", moved / "glossary.toml")
    assert "0 of 7 files (re)indexed, 7 files unchanged (7 moved: path updated)" in result.out
    assert "0 passages embedded" in result.out
    assert census(home, "w") == before
    assert all(r["evidence"][0].startswith(str(moved / "glossary.toml")) for r in _declared(home))
    # The glossary inside the corpus folder and named by --glossary too: still read once.
    shutil.copy(demo / "glossary.toml", demo / "zh")
    inside = ingest(tmp_path / "inside", demo / "zh", "--world", "w",
                    "--glossary", relative(demo / "zh" / "glossary.toml"))
    assert "7 of 7 files (re)indexed" in inside.out
    assert counts(census(tmp_path / "inside", "w")) == counts(before)


def test_a_txt_glossary_is_refused_not_read_as_prose(tmp_path: Path, demo: Path) -> None:
    home = tmp_path / "home"
    ingest(home, demo / "zh", "--world", "w")
    before = census(home, "w")
    names = demo / "names.txt"
    names.write_text("沈砚：字青崖，雁回楼首座弟子。\n", encoding="utf-8")

    result = lore("ingest", demo / "zh", "--world", "w", "--glossary", relative(names),
                  home=home)

    assert result.code != 0 and "Traceback" not in result.err
    assert "a glossary must be .toml or .json" in result.err and "names.txt" in result.err
    assert census(home, "w") == before


def test_near_copies_never_fill_a_top_k_twice(tmp_path: Path, shared_data: Path) -> None:
    from agent.world.retrieval import Retriever
    from stores.dedup import NEAR_DUPLICATE, shingles, similarity
    from stores.world import WorldStores
    from tui.settings import load_settings

    home = tmp_path / "home"
    corpus = chapters(shared_data, tmp_path / "corpus", (5, 6))
    # Another edition of chapter 5: ASCII commas and colons, so a different file and text hash.
    text = (corpus / "005.txt").read_text(encoding="utf-8")
    (corpus / "005 edition.txt").write_text(text.replace("，", ",").replace("：", ":"),
                                            encoding="utf-8")
    result = ingest(home, corpus, "--world", "w")
    assert "3 of 3 files (re)indexed" in result.out  # not the same text: both are kept

    settings = load_settings(data_dir=home)
    stores = WorldStores(settings, "w")
    try:
        retriever = Retriever(stores, settings.retrieval)
        for question in ("谁斩了华雄？", "温酒斩华雄", "关羽 华雄 酒尚温", "曹操 矫诏"):
            raw = [retriever.chunks[h.chunk_id] for h in stores.keywords.search(question, 5)]
            assert _copies(raw, shingles, similarity, NEAR_DUPLICATE), question  # the case exists
            for found in (retriever.hybrid(question, 5), retriever.keyword(question, 5),
                          retriever.dense(question, 5)):
                assert len(found) == 5, question
                assert not _copies(found, shingles, similarity, NEAR_DUPLICATE), question
    finally:
        stores.close()
    asked = lore("ask", "谁斩了华雄？", "--world", "w", "--json", home=home)
    assert asked.code == 0, asked.err
    quotes = [c["quote"] for c in json.loads(asked.out)["citations"]]
    assert quotes and len({q.replace(",", "，").replace(":", "：") for q in quotes}) == len(quotes)


def _copies(passages, shingles, similarity, threshold) -> bool:
    grams = [shingles(p.text) for p in passages]
    return any(similarity(a, b) >= threshold for i, a in enumerate(grams) for b in grams[i + 1:])


def test_a_world_that_holds_a_text_twice_is_mended_by_the_next_ingest(
        tmp_path: Path, shared_data: Path) -> None:
    """A world ingested before identity by content may hold a copied folder twice; the next
    ingest of either folder keeps each text once and names what it removes."""
    from stores.catalog import Catalog
    from stores.chunking import chunk_document
    from stores.readers import read_document
    from tui.settings import load_settings

    home = tmp_path / "home"
    corpus = chapters(shared_data, tmp_path / "corpus", (1, 2))
    ingest(home, corpus, "--world", "w")
    clean = census(home, "w")
    copy = tmp_path / "copy"
    shutil.copytree(corpus, copy)
    settings = load_settings(data_dir=home)
    catalog = Catalog(settings.catalog_path)
    try:  # what the path-keyed ingest of version 6 stored for the copy
        for order, name in enumerate(("001.txt", "002.txt"), start=2):
            path = copy / name
            doc = read_document(path)
            row = {"id": f"old{order:013d}", "world": "w", "path": str(path), "kind": doc.kind,
                   "encoding": doc.encoding, "doc_order": order,
                   "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}
            catalog.replace_document(row, chunk_document(doc, "w", settings.chunking), [])
        catalog.db.execute("UPDATE worlds SET signature = json_set(signature, '$.pipeline', 6)")
    finally:
        catalog.close()

    mended = ingest(home, copy, "--world", "w")

    # The documents at the paths given stay; their twins elsewhere go.
    for name in ("001.txt", "002.txt"):
        assert (f"removed from the world: {corpus / name} (same text as another document)"
                in mended.out)
    assert "0 of 2 files (re)indexed, 2 files unchanged" in mended.out
    assert counts(census(home, "w")) == counts(clean)
    assert paths(home, "w") == [str(copy / "001.txt"), str(copy / "002.txt")]


def _declared(home: Path) -> list[dict]:
    from stores.catalog import Catalog
    from tui.settings import load_settings

    catalog = Catalog(load_settings(data_dir=home).catalog_path)
    try:
        return [{"evidence": r.evidence} for r in catalog.relations("w") if r.declared]
    finally:
        catalog.close()


def _removed_then_killed(home: Path, path: str) -> None:
    """The catalog as a prune killed after removing `path` leaves it: indexes not rebuilt."""
    from stores.catalog import Catalog
    from tui.settings import load_settings

    catalog = Catalog(load_settings(data_dir=home).catalog_path)
    try:
        doc_id = next(r["id"] for r in catalog.document_rows("w") if r["path"] == path)
        catalog.set_world("w", state="ingesting")
        catalog.relocate("w", [], [doc_id])
    finally:
        catalog.close()


def test_files_that_name_no_chapter_added_later_follow_the_others(tmp_path: Path) -> None:
    """Chapters are numbered by a file's place among the world's documents: the files of a
    second ingest had taken chapters 1 and 2 again, so two stories were cited as one chapter
    (newcomer's trial, FairytaleQA stories without headings)."""
    home = tmp_path / "home"
    first, more = tmp_path / "first", tmp_path / "more"
    for folder, names in ((first, ("a-fox", "b-wolf")), (more, ("c-bear", "d-hare"))):
        folder.mkdir()
        for name in names:
            (folder / f"{name}.txt").write_text(f"The {name[2:]} walked to the river alone.\n"
                                                f"It drank, and went home before dark.\n",
                                                encoding="utf-8")
    ingest(home, first, "--world", "w")
    ingest(home, more, "--world", "w")
    settings = load_settings(data_dir=home)
    stores = WorldStores(settings, "w")
    try:
        by_file = {Path(c.document).name: c.chapter for c in stores.catalog.chunks("w")}
    finally:
        stores.close()
    assert by_file == {"a-fox.txt": 1, "b-wolf.txt": 2, "c-bear.txt": 3, "d-hare.txt": 4}
    listed = lore("worlds", home=home)
    assert " 4 chapters " in listed.out and " 0 entities " in listed.out, listed.out


def test_one_of_a_kind_is_counted_in_the_singular(tmp_path: Path) -> None:
    """Not "1 chapters", "1 entities" (newcomer's trial)."""
    from tui.commands.world import counted

    assert [counted(1, "chapter"), counted(2, "chapter"), counted(1, "entity"),
            counted(0, "entity"), counted(12, "passage", 4)] == [
        "1 chapter", "2 chapters", "1 entity", "0 entities", "  12 passages"]
    home = tmp_path / "home"
    story = tmp_path / "story.txt"
    story.write_text("The fox walked to the river alone.\n", encoding="utf-8")
    assert " 1 passage, " in ingest(home, story, "--world", "w").out
    assert " 1 chapter " in lore("worlds", home=home).out
