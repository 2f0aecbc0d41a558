"""The keyword index: BM25 (bm25s) over segmented chunk text, persisted in one folder.

Layout of the folder: `model/` (bm25s's sparse score matrix and vocabulary), `docs.json`
(chunk ids, chapters and entity lists in index order, plus the world's names that its
segmenter keeps whole: the index owns its segmenter, built from the names `build` is given and
reopened with them, so no other world's names ever reach it). Filters are applied by masking the full score vector: scoring every
document costs well under a millisecond at novel scale, and the mask is exact where
over-fetching would miss hits of a rare entity.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from stores.errors import REPAIR_HINT, IndexDamaged, StoreError
from stores.keyword.segment import Segmenter, stock_tokens
from stores.lang import has_han
from stores.models import Chunk
from stores.protocols import ChunkFilter, Hit

FORMAT_VERSION = 1
_REBUILD_HINT = REPAIR_HINT


def _texts_with_titles(chunks: Sequence[Chunk]) -> list[str]:
    """Each chunk's text; the first chunk of a chapter carries the chapter title too.

    回 titles name events the text never names (借箭 in 第四十六回). Once per chapter, so a
    title word finds the chapter without making every passage in it match a name query.
    """
    first: dict[tuple[str, int], int] = {}
    for row, chunk in enumerate(chunks):
        key = (chunk.document, chunk.chapter)
        if key not in first or chunk.chunk_order < chunks[first[key]].chunk_order:
            first[key] = row
    heads = set(first.values())
    return [f"{c.chapter_title}\n{c.text}" if row in heads else c.text
            for row, c in enumerate(chunks)]


class _Loaded:
    """The in-memory index: the bm25s model and the per-document columns used by filters."""

    def __init__(self, model: Any, ids: list[str], chapters: list[int],
                 entities: list[list[str]], segmenter: Segmenter) -> None:
        self.model = model
        self.ids = ids
        self.chapters = np.asarray(chapters, dtype=np.int32)
        self.segmenter = segmenter
        by_entity: dict[str, list[int]] = {}
        for row, names in enumerate(entities):
            for name in set(names):
                by_entity.setdefault(name, []).append(row)
        self.by_entity = {name: np.asarray(rows, dtype=np.int64) for name, rows in by_entity.items()}

    def mask(self, where: ChunkFilter) -> np.ndarray:
        """Which documents `where` admits."""
        keep = np.ones(len(self.ids), dtype=bool)
        if where.chapter_min is not None:
            keep &= self.chapters >= where.chapter_min
        if where.chapter_max is not None:
            keep &= self.chapters <= where.chapter_max
        if where.entity is not None:
            only = np.zeros(len(self.ids), dtype=bool)
            only[self.by_entity.get(where.entity, np.empty(0, dtype=np.int64))] = True
            keep &= only
        return keep


class BM25Index:
    """KeywordIndex over bm25s. Opening is free; the index loads on the first search."""

    def __init__(self, folder: Path, *, k1: float = 1.5, b: float = 0.75) -> None:
        self.folder = Path(folder)
        self.k1, self.b = k1, b
        self._loaded: _Loaded | None = None

    def build(self, chunks: Sequence[Chunk], names: Iterable[str] = ()) -> None:
        """Replace the index with these chunks and persist it (atomically: old or new), with
        the world's entity names and aliases as its segmenter's words (saved with it)."""
        import bm25s

        segmenter = Segmenter(names)
        # One string object per distinct word: the segmenter makes a new one per occurrence,
        # and a 10-million-character book held 6 million of them at once (54 MB per million
        # characters; 7.6 MB shared).
        shared: dict[str, str] = {}
        corpus = [[shared.setdefault(token, token) for token in segmenter.tokens(text)]
                  for text in _texts_with_titles(chunks)]
        del shared
        docs: dict[str, Any] = {"version": FORMAT_VERSION, "ids": [c.id for c in chunks],
                "chapters": [c.chapter for c in chunks],
                "entities": [list(c.entities) for c in chunks],
                "words": sorted(segmenter.words), "k1": self.k1, "b": self.b}
        model = None
        if chunks:
            model = bm25s.BM25(k1=self.k1, b=self.b)
            # An all-stopword passage would leave an empty row; the "" token keeps bm25s happy.
            model.index([toks or [""] for toks in corpus], show_progress=False)
        building = self.folder.with_name(f".{self.folder.name}.building-{os.getpid()}")
        shutil.rmtree(building, ignore_errors=True)
        try:
            building.mkdir(parents=True)
            if model is not None:
                model.save(str(building / "model"), show_progress=False)
            (building / "docs.json").write_text(json.dumps(docs, ensure_ascii=False),
                                                encoding="utf-8")
            self._swap_in(building)
        except OSError as exc:
            shutil.rmtree(building, ignore_errors=True)
            raise StoreError(f"cannot write the keyword index: {exc}", where=self.folder,
                             hint="check that the data folder is writable and has free space") from None
        self._loaded = _Loaded(model, docs["ids"], docs["chapters"], docs["entities"], segmenter)

    def _swap_in(self, building: Path) -> None:
        old = self.folder.with_name(f".{self.folder.name}.old-{os.getpid()}")
        if self.folder.exists():
            os.replace(self.folder, old)
        os.replace(building, self.folder)
        shutil.rmtree(old, ignore_errors=True)

    def _load(self) -> _Loaded:
        if self._loaded is not None:
            return self._loaded
        docs_path = self.folder / "docs.json"
        if not docs_path.is_file():
            raise IndexDamaged("the keyword index is missing", where=self.folder, hint=_REBUILD_HINT)
        try:
            docs = json.loads(docs_path.read_text(encoding="utf-8"))
            if docs.get("version") != FORMAT_VERSION:
                raise ValueError(f"format version {docs.get('version')!r}, expected {FORMAT_VERSION}")
            model = None
            if docs["ids"]:
                import bm25s

                model = bm25s.BM25.load(str(self.folder / "model"), mmap=False,
                                        show_progress=False)
                if int(model.scores["num_docs"]) != len(docs["ids"]):
                    raise ValueError("the score matrix and docs.json disagree on the document count")
            self._loaded = _Loaded(model, docs["ids"], docs["chapters"], docs["entities"],
                                   Segmenter(docs["words"]))
        except StoreError:
            raise
        except Exception as exc:  # truncated JSON, missing .npy, foreign format: all mean rebuild
            raise IndexDamaged(f"the keyword index is unreadable ({type(exc).__name__}: {exc})",
                             where=self.folder, hint=_REBUILD_HINT) from None
        return self._loaded

    def ids(self) -> list[str]:
        """The chunk ids of the index, in index order (the repair check compares them)."""
        return list(self._load().ids)

    def __len__(self) -> int:
        return len(self._load().ids)

    def search(self, query: str, limit: int, where: ChunkFilter | None = None) -> list[Hit]:
        """The `limit` best passages for `query` that `where` admits; only positive scores."""
        index = self._load()
        if index.model is None or limit <= 0:
            return []
        token_ids = index.model.get_tokens_ids(index.segmenter.tokens(query))
        if not token_ids:
            return []
        scores = index.model.get_scores_from_ids(token_ids)
        if where is not None:
            scores = np.where(index.mask(where), scores, 0.0)
        candidates = np.flatnonzero(scores > 0)
        if len(candidates) > limit:
            # Keep every candidate tied with the k-th score, so ties resolve the same way
            # (index order) whatever the limit.
            kth = np.partition(scores[candidates], len(candidates) - limit)[len(candidates) - limit]
            candidates = candidates[scores[candidates] >= kth]
        order = sorted(candidates.tolist(), key=lambda row: (-float(scores[row]), row))[:limit]
        return [Hit(index.ids[row], float(scores[row])) for row in order]

    def tokens(self, text: str) -> list[str]:
        """`text` cut with the index's dictionary (the world's names as words)."""
        return self._load().segmenter.tokens(text)

    def close(self) -> None:
        """Drop the in-memory index (the files stay)."""
        self._loaded = None


class TextScores:
    """BM25 scores of a query against a few hundred texts held in memory (a conversation's
    summaries): nothing on disk, and the index of the last few sets of texts is kept, since a
    conversation asks of the same summaries again. One belongs to its caller (the session's
    memory), so what it keeps goes with it.

    A word that more than half the texts hold tells none of them apart (its classic
    Robertson–Spärck Jones weight is negative; bm25s keeps it positive), and among a handful
    of summaries it would still decide the order: such words are left out of the query, and so
    are single Han characters (的, 了, 他: a function word more often than not, which a few
    texts are too few to tell by counting)."""

    KEPT = 8
    """How many sets of texts keep their index."""

    def __init__(self, tokens: Callable[[str], list[str]] | None = None) -> None:
        self.tokens = tokens or stock_tokens
        """How text is cut into words: a world's keyword index's (`BM25Index.tokens`, which
        knows the world's names), else the stock dictionary's."""
        self._indexes: dict[tuple[str, ...], Any] = {}

    def __call__(self, query: str, texts: Sequence[str]) -> np.ndarray:
        """One score per text, 0 where no word matches."""
        if not texts:
            return np.zeros(0, dtype=np.float32)
        model = self._index(tuple(texts))
        words = [t for t in self.tokens(query) if len(t) > 1 or not has_han(t)]
        scores = np.zeros(len(texts), dtype=np.float32)
        for token_id in dict.fromkeys(model.get_tokens_ids(words)):
            word = np.asarray(model.get_scores_from_ids([token_id]), dtype=np.float32)
            if np.count_nonzero(word) <= len(texts) / 2:
                scores += word
        return scores

    def _index(self, texts: tuple[str, ...]) -> Any:
        model = self._indexes.pop(texts, None)
        if model is None:
            import bm25s

            model = bm25s.BM25()
            model.index([self.tokens(t) or [""] for t in texts], show_progress=False)
            while len(self._indexes) >= self.KEPT:  # the least recently used goes
                del self._indexes[next(iter(self._indexes))]
        self._indexes[texts] = model  # last: the most recently used
        return model
