"""What every VectorIndex and KeywordIndex backend must do.

A backend's test module subclasses `VectorIndexConformance` / `KeywordIndexConformance` and
provides an `open_index` fixture: a factory that opens a handle on one store (calling it
again after `close()` reopens the same store). Chunks are real paragraphs of 三国演义
(chapters 1–6) and The Count of Monte Cristo (chapters 1–3) from `shared_data`; their
entity lists come from a small alias table, so filters can be checked against
`ChunkFilter.admits` by brute force.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from stores.errors import StoreError
from stores.models import Chunk
from stores.protocols import ChunkFilter, KeywordIndex, VectorIndex

# Canonical name → the spellings that count as a mention.
ALIASES: dict[str, tuple[str, ...]] = {
    "刘备": ("刘备", "玄德"), "关羽": ("关羽", "云长", "关公"), "张飞": ("张飞", "翼德"),
    "曹操": ("曹操", "孟德"), "董卓": ("董卓",), "吕布": ("吕布", "奉先"), "袁绍": ("袁绍", "本初"),
    "Edmond Dantès": ("Dantès", "Edmond"), "Morrel": ("Morrel",), "Danglars": ("Danglars",),
    "Fernand": ("Fernand",), "Mercédès": ("Mercédès",), "Caderousse": ("Caderousse",),
}
MAX_CJK, MAX_LATIN = 350, 1200


def _pieces(text: str, size: int) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)]


@lru_cache(maxsize=2)
def load_story_chunks(shared_data: Path) -> tuple[Chunk, ...]:
    """Chunks of real text, in story order, with entities found by alias matching."""
    out: list[Chunk] = []
    books = (("sanguo_yanyi", range(1, 7), "{:03d}.txt", MAX_CJK),
             ("monte_cristo", range(1, 4), "{:03d}.txt", MAX_LATIN))
    for book, chapters, pattern, size in books:
        for chapter in chapters:
            path = shared_data / book / "chapters" / pattern.format(chapter)
            lines = path.read_text(encoding="utf-8").splitlines()
            title = lines[0]
            for line_no, line in enumerate(lines[1:], start=2):
                for piece in _pieces(line.strip(), size):
                    if len(piece) < 40:
                        continue
                    names = [n for n, spellings in ALIASES.items()
                             if any(s in piece for s in spellings)]
                    out.append(Chunk(
                        id=f"{book}-{chapter:03d}-{len(out):04d}", world="test", document=str(path),
                        chapter=chapter, chapter_title=title, scene=1, chunk_order=len(out),
                        text=piece, line_start=line_no, line_end=line_no, event_order=len(out),
                        entities=names))
    return tuple(out)


def unit_vectors(n: int, dim: int, seed: int = 7) -> np.ndarray:
    rng = np.random.default_rng(seed)
    v = rng.standard_normal((n, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


FILTERS = [
    ChunkFilter(chapter_min=2, chapter_max=4),
    ChunkFilter(chapter_min=5),
    ChunkFilter(chapter_max=1),
    ChunkFilter(entity="刘备"),
    ChunkFilter(chapter_min=2, chapter_max=5, entity="曹操"),
    ChunkFilter(entity="Edmond Dantès"),
    ChunkFilter(chapter_min=3, chapter_max=3, entity="Danglars"),
]
FILTER_IDS = ["ch2-4", "ch5+", "ch-1", "刘备", "ch2-5+曹操", "Dantès", "ch3+Danglars"]


def admitted(chunks: tuple[Chunk, ...], where: ChunkFilter) -> set[str]:
    return {c.id for c in chunks if where.admits(c.chapter, c.entities)}


class VectorIndexConformance:
    """Subclasses provide `open_index` → Callable[[], VectorIndex]."""

    dim = 48

    @pytest.fixture
    def open_index(self, tmp_path: Path) -> Callable[[], VectorIndex]:
        raise NotImplementedError

    @pytest.fixture
    def chunks(self, shared_data: Path) -> tuple[Chunk, ...]:
        return load_story_chunks(shared_data)

    @pytest.fixture
    def index(self, open_index: Callable[[], VectorIndex]) -> Iterator[VectorIndex]:
        index = open_index()
        index.reset(self.dim)
        yield index
        index.close()

    @pytest.fixture
    def vectors(self, chunks: tuple[Chunk, ...]) -> np.ndarray:
        return unit_vectors(len(chunks), self.dim)

    @pytest.fixture
    def filled(self, index: VectorIndex, chunks: tuple[Chunk, ...],
               vectors: np.ndarray) -> VectorIndex:
        index.upsert(chunks, vectors)
        return index

    def brute_force(self, chunks: tuple[Chunk, ...], vectors: np.ndarray, query: np.ndarray,
                    k: int, where: ChunkFilter | None = None) -> list[str]:
        rows = [i for i, c in enumerate(chunks) if where is None or where.admits(c.chapter, c.entities)]
        scores = vectors[rows] @ query
        return [chunks[rows[i]].id for i in np.argsort(-scores, kind="stable")[:k]]

    def test_the_story_is_big_enough(self, chunks: tuple[Chunk, ...]) -> None:
        assert len(chunks) > 150
        for where in FILTERS:
            assert 0 < len(admitted(chunks, where)) < len(chunks), where

    def test_empty_index(self, index: VectorIndex) -> None:
        assert index.ids() == set()
        assert index.search(unit_vectors(1, self.dim)[0], 5) == []

    def test_ids_after_upsert(self, filled: VectorIndex, chunks: tuple[Chunk, ...]) -> None:
        assert filled.ids() == {c.id for c in chunks}

    def test_own_vector_is_nearest(self, filled: VectorIndex, chunks: tuple[Chunk, ...],
                                   vectors: np.ndarray) -> None:
        for row in range(0, len(chunks), 37):
            best = filled.search(vectors[row], 1)[0]
            assert best.chunk_id == chunks[row].id
            assert best.score == pytest.approx(1.0, abs=1e-4)

    def test_top_k_matches_brute_force(self, filled: VectorIndex, chunks: tuple[Chunk, ...],
                                       vectors: np.ndarray) -> None:
        queries = unit_vectors(5, self.dim, seed=99)
        for query in queries:
            hits = filled.search(query, 10)
            assert [h.chunk_id for h in hits] == self.brute_force(chunks, vectors, query, 10)
            scores = [h.score for h in hits]
            assert scores == sorted(scores, reverse=True)
            expected = sorted((vectors @ query).tolist(), reverse=True)[:10]
            assert scores == pytest.approx(expected, abs=1e-4)

    @pytest.mark.parametrize("where", FILTERS, ids=FILTER_IDS)
    def test_filter_admits_exactly(self, filled: VectorIndex, chunks: tuple[Chunk, ...],
                                   vectors: np.ndarray, where: ChunkFilter) -> None:
        query = unit_vectors(1, self.dim, seed=3)[0]
        everything = filled.search(query, len(chunks), where)
        assert {h.chunk_id for h in everything} == admitted(chunks, where)
        top = filled.search(query, 5, where)
        assert [h.chunk_id for h in top] == self.brute_force(chunks, vectors, query, 5, where)

    def test_unknown_entity_finds_nothing(self, filled: VectorIndex) -> None:
        query = unit_vectors(1, self.dim)[0]
        assert filled.search(query, 10, ChunkFilter(entity="诸葛亮")) == []
        assert filled.search(query, 10, ChunkFilter(chapter_min=90)) == []

    def test_upsert_replaces_vector_and_payload(self, filled: VectorIndex,
                                                chunks: tuple[Chunk, ...]) -> None:
        old = chunks[10]
        moved = dataclasses.replace(old, chapter=77, entities=["诸葛亮"])
        fresh = unit_vectors(1, self.dim, seed=1234)
        filled.upsert([moved], fresh)
        assert len(filled.ids()) == len(chunks)
        assert filled.search(fresh[0], 1)[0].chunk_id == old.id
        hits = filled.search(fresh[0], 5, ChunkFilter(chapter_min=77, entity="诸葛亮"))
        assert [h.chunk_id for h in hits] == [old.id]
        assert old.id not in {h.chunk_id for h in filled.search(fresh[0], 500, ChunkFilter(chapter_max=76))}

    def test_delete(self, filled: VectorIndex, chunks: tuple[Chunk, ...],
                    vectors: np.ndarray) -> None:
        gone = [chunks[0].id, chunks[5].id, "never-indexed"]
        filled.delete(gone)
        assert filled.ids() == {c.id for c in chunks} - set(gone)
        assert filled.search(vectors[0], 1)[0].chunk_id != chunks[0].id

    def test_reset_empties(self, filled: VectorIndex) -> None:
        filled.reset(self.dim)
        assert filled.ids() == set()

    def test_dimension_mismatch_is_a_store_error(self, filled: VectorIndex,
                                                 chunks: tuple[Chunk, ...]) -> None:
        with pytest.raises(StoreError, match="lore ingest"):
            filled.upsert(chunks[:2], unit_vectors(2, self.dim + 1))

    def test_reopen_keeps_points(self, open_index: Callable[[], VectorIndex],
                                 filled: VectorIndex, chunks: tuple[Chunk, ...],
                                 vectors: np.ndarray) -> None:
        before = filled.search(vectors[3], 5, ChunkFilter(chapter_min=2))
        filled.close()
        again = open_index()
        try:
            assert again.ids() == {c.id for c in chunks}
            after = again.search(vectors[3], 5, ChunkFilter(chapter_min=2))
            assert [h.chunk_id for h in after] == [h.chunk_id for h in before]
            assert [h.score for h in after] == pytest.approx([h.score for h in before], abs=1e-5)
        finally:
            again.close()


class KeywordIndexConformance:
    """Subclasses provide `open_index` → Callable[[], KeywordIndex]."""

    @pytest.fixture
    def open_index(self, tmp_path: Path) -> Callable[[], KeywordIndex]:
        raise NotImplementedError

    @pytest.fixture
    def chunks(self, shared_data: Path) -> tuple[Chunk, ...]:
        return load_story_chunks(shared_data)

    @pytest.fixture
    def built(self, open_index: Callable[[], KeywordIndex],
              chunks: tuple[Chunk, ...]) -> Iterator[KeywordIndex]:
        index = open_index()
        index.build(chunks, [s for spellings in ALIASES.values() for s in spellings])
        yield index
        index.close()

    @pytest.mark.parametrize("name", ["玄德", "云长", "翼德", "董卓", "Morrel", "Danglars"])
    def test_name_recall(self, built: KeywordIndex, chunks: tuple[Chunk, ...], name: str) -> None:
        expected = {c.id for c in chunks if name in c.text}
        hits = {h.chunk_id for h in built.search(name, len(chunks))}
        assert expected, name
        assert len(expected & hits) / len(expected) >= 0.95
        # Precision too: a name query returns passages that mention it (or whose chapter
        # title does, for backends that index titles).
        mentions = expected | {c.id for c in chunks if name in c.chapter_title}
        assert len(hits & mentions) / len(hits) >= 0.9

    def test_quote_finds_its_passage_first(self, built: KeywordIndex,
                                           chunks: tuple[Chunk, ...]) -> None:
        for chunk in (chunks[3], chunks[40], chunks[-5]):
            quote = chunk.text[60:110]
            assert built.search(quote, 3)[0].chunk_id == chunk.id, quote

    def test_tokens_are_the_index_s_own(self, built: KeywordIndex) -> None:
        """Other text (a conversation's summaries) is cut as the passages were: a name the
        world added stays whole, and a query's tokens are the ones `search` matches."""
        assert "翼德" in built.tokens("张翼德大喝一声")
        assert built.tokens("Dantès") == built.tokens("dantes")

    def test_accents_fold(self, built: KeywordIndex, chunks: tuple[Chunk, ...]) -> None:
        with_accent = {h.chunk_id for h in built.search("Dantès", 50)}
        assert with_accent
        assert {h.chunk_id for h in built.search("dantes", 50)} == with_accent
        assert {h.chunk_id for h in built.search("DANTÈS", 50)} == with_accent
        assert all("Dantès" in c.text for c in chunks if c.id in with_accent)

    @pytest.mark.parametrize("query", ["", "，。！", "the of and", "ZZZqqqxxx", "鼋鼍"])
    def test_nothing_to_match(self, built: KeywordIndex, query: str) -> None:
        assert built.search(query, 10) == []

    def test_limit_and_order(self, built: KeywordIndex) -> None:
        hits = built.search("玄德 曹操", 7)
        assert len(hits) == 7
        scores = [h.score for h in hits]
        assert scores == sorted(scores, reverse=True) and scores[-1] > 0

    @pytest.mark.parametrize("where", FILTERS, ids=FILTER_IDS)
    def test_filter_equals_filtering_everything(self, built: KeywordIndex,
                                                chunks: tuple[Chunk, ...],
                                                where: ChunkFilter) -> None:
        query = "玄德 曹操 张飞 Dantès Danglars Morrel ship"
        everything = built.search(query, len(chunks))
        expected = [h for h in everything if h.chunk_id in admitted(chunks, where)]
        filtered = built.search(query, len(chunks), where)
        assert {h.chunk_id: h.score for h in filtered} == pytest.approx(
            {h.chunk_id: h.score for h in expected})
        assert [h.chunk_id for h in built.search(query, 3, where)] == \
            [h.chunk_id for h in filtered[:3]]

    def test_reopen_gives_the_same_answers(self, open_index: Callable[[], KeywordIndex],
                                           built: KeywordIndex) -> None:
        queries = ["玄德", "翼德 张飞", "Dantès Pharaon", "Fernand"]
        before = [built.search(q, 10, ChunkFilter(chapter_max=5)) for q in queries]
        built.close()
        again = open_index()
        assert [again.search(q, 10, ChunkFilter(chapter_max=5)) for q in queries] == before

    def test_rebuild_replaces(self, built: KeywordIndex, chunks: tuple[Chunk, ...]) -> None:
        keep = [c for c in chunks if c.chapter == 1]
        built.build(keep)
        hits = built.search("玄德 曹操 Dantès", len(chunks))
        assert hits and {h.chunk_id for h in hits} <= {c.id for c in keep}
