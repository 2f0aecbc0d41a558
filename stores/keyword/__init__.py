"""The keyword index (BM25 over segmented text) and its segmentation."""

from stores.keyword.bm25 import BM25Index
from stores.keyword.segment import Segmenter, stock_tokens

__all__ = ["BM25Index", "Segmenter", "stock_tokens"]
