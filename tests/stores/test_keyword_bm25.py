"""The BM25 keyword index and its segmentation: the conformance suite, persistence of the
dictionary words, and the errors a missing or damaged index gives."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from stores.errors import StoreError
from stores.keyword import BM25Index, Segmenter, stock_tokens
from stores.lang.text import fold_latin
from stores.models import Chunk
from tests.stores.index_conformance import ALIASES, KeywordIndexConformance, load_story_chunks


class TestBM25Conformance(KeywordIndexConformance):
    @pytest.fixture
    def open_index(self, tmp_path: Path) -> Callable[[], BM25Index]:
        return lambda: BM25Index(tmp_path / "bm25")


# --- segmentation ------------------------------------------------------------------------

def test_han_text_drops_punctuation_and_keeps_words() -> None:
    out = Segmenter(["玄德"]).tokens("玄德曰：“吾乃中山靖王之后。”")
    assert "玄德" in out and "中山" in out
    assert not any(ch in tok for tok in out for ch in "：“”。 ")


def test_search_mode_emits_the_alias_inside_a_full_name() -> None:
    seg = Segmenter(["刘玄德", "玄德"])
    assert {"刘玄德", "玄德"} <= set(seg.tokens("刘玄德大喜"))


def test_added_names_become_single_tokens() -> None:
    plain = Segmenter()
    assert "翼德" not in plain.tokens("张翼德大怒")
    named = Segmenter(["翼德", "张翼德"])
    assert "翼德" in named.tokens("张翼德大怒")
    assert "翼德" in named.tokens("翼德")


def test_a_segmenter_keeps_only_han_names_of_two_characters_or_more() -> None:
    assert Segmenter(["玄德", "玄德", "Dantès", "公", " 云长 "]).words == {"玄德", "云长"}


def test_the_stock_cut_is_the_stock_dictionary_s_whatever_was_segmented_before() -> None:
    """No segmenter lends its names to another, nor to the stock cut a reader's rules use: an
    answer never depends on which worlds the process opened or ingested before."""
    assert "翼德" in Segmenter(["翼德"]).tokens("张翼德大怒")
    assert "翼德" not in stock_tokens("张翼德大怒")
    assert "翼德" not in Segmenter(["玄德"]).tokens("张翼德大怒")
    assert stock_tokens("张翼德大怒") == Segmenter().tokens("张翼德大怒")


def test_latin_words_fold_stem_and_drop_stopwords() -> None:
    assert stock_tokens("The Pharaon arrived at Marseilles — Dantès's ship!") == \
        ["pharaon", "arriv", "marseill", "dant", "ship"]
    # A question's word finds the text's inflection, with or without accents.
    assert stock_tokens("Whom did Mercedes marry?") == stock_tokens("Mercédès married")
    assert fold_latin("Mercédès") == "mercedes"
    assert stock_tokens("In 1815, 三月") == ["1815", "三月"]


def test_name_recall_needs_search_mode_and_names(shared_data: Path) -> None:
    """Why the segmenter is what it is: the share of passages containing a name that a
    query for the name can match, under three segmentations."""
    chunks = load_story_chunks(shared_data)
    names = [s for spellings in list(ALIASES.values())[:7] for s in spellings]
    passages = [c.text for c in chunks if c.document.endswith(".txt") and "sanguo" in c.document]

    def recall(seg: Segmenter, cut: Callable[[Segmenter, str], list[str]]) -> float:
        docs = [set(cut(seg, p)) for p in passages]
        found = total = 0
        for name in names:
            query = set(cut(seg, name))
            for doc, text in zip(docs, passages, strict=True):
                if name in text:
                    total += 1
                    found += query <= doc
        return found / total

    def plain_cut(seg: Segmenter, text: str) -> list[str]:
        import rjieba

        return rjieba.cut(text)

    plain = recall(Segmenter(), plain_cut)
    with_names = recall(Segmenter(names), Segmenter.tokens)
    assert with_names >= 0.98
    assert with_names > plain + 0.05


# --- the index files ---------------------------------------------------------------------

@pytest.fixture
def story(shared_data: Path) -> tuple[Chunk, ...]:
    return load_story_chunks(shared_data)


def test_missing_index_says_to_repair(tmp_path: Path) -> None:
    index = BM25Index(tmp_path / "bm25")  # opening is free
    with pytest.raises(StoreError, match="lore doctor --repair") as caught:
        index.search("玄德", 5)
    assert str(tmp_path / "bm25") in str(caught.value)


@pytest.mark.parametrize("damage", ["docs-json", "docs-version", "matrix", "count"])
def test_damaged_index_says_to_repair(tmp_path: Path, story: tuple[Chunk, ...],
                                      damage: str) -> None:
    folder = tmp_path / "bm25"
    BM25Index(folder).build(story)
    docs = folder / "docs.json"
    if damage == "docs-json":
        docs.write_text(docs.read_text()[:100])
    elif damage == "docs-version":
        docs.write_text(json.dumps({**json.loads(docs.read_text()), "version": 99}))
    elif damage == "matrix":
        (folder / "model" / "data.csc.index.npy").write_bytes(b"\x93NUMPY garbage")
    else:
        data = json.loads(docs.read_text())
        docs.write_text(json.dumps({**data, "ids": data["ids"][:-1]}))
    with pytest.raises(StoreError, match="lore doctor --repair"):
        BM25Index(folder).search("玄德", 5)


def test_dictionary_words_travel_with_the_index(tmp_path: Path, story: tuple[Chunk, ...]) -> None:
    BM25Index(tmp_path / "bm25").build(story, ["翼德", "张翼德"])
    built = BM25Index(tmp_path / "bm25")
    with_words = built.search("翼德", 50)
    found = {h.chunk_id for h in with_words}
    assert found and all("翼德" in c.text + c.chapter_title for c in story if c.id in found)
    assert found >= {c.id for c in story if "翼德" in c.text}
    # A new handle (a new process): the index brings its own words, and lends them to no one.
    assert BM25Index(tmp_path / "bm25").search("翼德", 50) == with_words
    assert "翼德" not in stock_tokens("张翼德大怒")


def test_a_world_s_names_stay_in_its_own_index(tmp_path: Path, story: tuple[Chunk, ...]) -> None:
    """Two worlds built in one process (the app ingests one, then another): the second index
    keeps only its own names, and reopened, each cuts as it was built."""
    first, second = BM25Index(tmp_path / "a"), BM25Index(tmp_path / "b")
    first.build(story[:20], ["翼德", "张翼德"])
    second.build(story[20:40], ["孟德"])
    assert "翼德" in first.tokens("张翼德大怒") and "翼德" not in second.tokens("张翼德大怒")
    words = json.loads((tmp_path / "b" / "docs.json").read_text(encoding="utf-8"))["words"]
    assert words == ["孟德"]
    assert "翼德" not in BM25Index(tmp_path / "b").tokens("张翼德大怒")


def test_chapter_titles_are_searchable(tmp_path: Path, story: tuple[Chunk, ...]) -> None:
    # 草船借箭 is the title of 第四十六回; the text never says it.
    extra = dataclasses.replace(story[0], id="extra", chapter=46,
                                chapter_title="第四十六回 用奇谋孔明借箭 献密计黄盖受刑",
                                text="却说鲁肃领了周瑜言语，径来舟中相探孔明。")
    index = BM25Index(tmp_path / "bm25")
    index.build([*story, extra])
    assert index.search("借箭", 3)[0].chunk_id == "extra"


def test_empty_build(tmp_path: Path) -> None:
    index = BM25Index(tmp_path / "bm25")
    index.build([])
    assert len(index) == 0
    assert BM25Index(tmp_path / "bm25").search("玄德", 5) == []


def test_rebuild_leaves_no_temporary_folders(tmp_path: Path, story: tuple[Chunk, ...]) -> None:
    index = BM25Index(tmp_path / "bm25")
    index.build(story[:10])
    index.build(story[10:20])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bm25"]
    assert len(BM25Index(tmp_path / "bm25")) == 10


def test_a_question_finds_the_inflection_the_text_uses(tmp_path: Path) -> None:
    chunks = [Chunk(id=f"c{n}", world="w", document="d", chapter=n, chapter_title="", scene=1,
                    chunk_order=n, text=text, line_start=n, line_end=n, event_order=n)
              for n, text in enumerate(["Mercédès was married to Fernand while he was away.",
                                        "The ship came into the harbour at noon.",
                                        "Fernand went down to the harbour."], start=1)]
    index = BM25Index(tmp_path / "bm25")
    index.build(chunks)
    hits = index.search("Whom did Mercédès marry?", 2)
    assert hits and hits[0].chunk_id == "c1"
