"""Segmentation for the keyword index: rjieba words for Han text, folded words for Latin text.

Han runs are cut with rjieba's search mode, which also emits the short words inside a long
one (刘玄德 → 刘玄德, 玄德), so a query for an alias finds passages that use the full name.
Entity names and aliases are added to the dictionary (`add_words`) because the stock
dictionary splits many courtesy names (翼德 → 翼 / 德). Measured on the first 30 chapters of
三国演义, 28 name queries matched 86.6 % of the passages that contain them with plain `cut`,
90.7 % with `cut_for_search`, 99.5 % with `cut_for_search` plus the names in the dictionary.
The HMM guesser is off: it glues names to the next character (玄德曰, 张角乃) differently in a
passage and in a query; without it, 20 names that were *not* added still match 95 % of
their passages (87 % with HMM), and the vocabulary halves. bench/retrieval_stores.py
prints these figures.

Latin words are NFKD-folded without combining marks (Dantès → dantes) and lowercased, so a
query typed without accents still matches; English stopwords are dropped, and the rest are
reduced to their Snowball stems (married, marry → marri), so a question's word finds the
text's inflection. Measured with `lore eval retrieval`, plain BM25 recall@5 / MRR: Monte
Cristo 0.54 / 0.42 → 0.60 / 0.46, FairytaleQA (20 stories) 0.80 / 0.66 → 0.81 / 0.68.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from stores.lang import HAN_RANGES, has_han
from stores.lang.en import STOPWORDS as ENGLISH_STOPWORDS
from stores.lang.text import fold_latin, stem

# A Han run, or a run of other word characters (letters, digits; not '_', not Han).
_RUNS = re.compile(f"([{HAN_RANGES}]+)|([^\\W_{HAN_RANGES}]+)")


class Segmenter:
    """Turns text into BM25 tokens; owns its rjieba dictionary so worlds don't share words."""

    def __init__(self, words: Iterable[str] = ()) -> None:
        self._jieba: Any = None  # rjieba.Jieba, created on first use
        self._words: set[str] = set()
        self.add_words(words)

    @property
    def words(self) -> frozenset[str]:
        """The names added to the dictionary so far (persisted beside a keyword index)."""
        return frozenset(self._words)

    def add_words(self, names: Iterable[str]) -> int:
        """Make each Han name (two characters or more) one token. Returns how many were new."""
        new = [n.strip() for n in names
               if n and len(n.strip()) >= 2 and has_han(n) and n.strip() not in self._words]
        new = sorted(set(new))
        if new and self._jieba is not None:
            for name in new:
                self._jieba.add_word(name, None, None)
        self._words.update(new)
        return len(new)

    def _cutter(self) -> Any:
        if self._jieba is None:
            import rjieba

            jieba = rjieba.Jieba()
            for name in sorted(self._words):
                jieba.add_word(name, None, None)
            self._jieba = jieba
        return self._jieba

    def tokens(self, text: str) -> list[str]:
        """Tokens of `text` in order: Han words (search mode), folded Latin words, digits."""
        out: list[str] = []
        for match in _RUNS.finditer(text):
            han, other = match.groups()
            if han:
                out.extend(self._cutter().cut_for_search(han, False))
                continue
            word = fold_latin(other)
            if word and word not in ENGLISH_STOPWORDS:
                out.append(stem(word))
        return out


_DEFAULT: dict[str, Segmenter] = {}


def default_segmenter() -> Segmenter:
    """The process-wide segmenter that `tokens` and `add_words` use (created on first use)."""
    seg = _DEFAULT.get("seg")
    if seg is None:
        seg = _DEFAULT["seg"] = Segmenter()
    return seg


def tokens(text: str) -> list[str]:
    """Segment `text` with the process-wide segmenter (see `Segmenter.tokens`)."""
    return default_segmenter().tokens(text)


def add_words(names: Iterable[str]) -> int:
    """Add entity names and aliases to the process-wide dictionary before `BM25Index.build`.

    The next build persists these words beside the index, and a later process that opens
    the index segments queries with the same dictionary.
    """
    return default_segmenter().add_words(names)
