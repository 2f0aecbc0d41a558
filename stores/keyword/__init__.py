"""The keyword index (BM25 over segmented text) and its segmentation."""

from stores.keyword.bm25 import BM25Index
from stores.keyword.segment import Segmenter, add_words, tokens

__all__ = ["BM25Index", "Segmenter", "add_words", "tokens"]
