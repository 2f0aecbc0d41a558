"""FlagEmbedding's BGE-M3 (dense vectors only), from "BAAI/bge-m3" or a local folder."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from stores import backends
from stores.embedders.hub import first_line, quiet_model_loading, resolve_model
from stores.errors import ConfigError

if TYPE_CHECKING:
    from stores.config import EmbedderSettings

DEFAULT_MODEL = "BAAI/bge-m3"
_SETTING = "embedder.model"
FETCH_HINT = ("Download BAAI/bge-m3 where you have internet (e.g. `hf download BAAI/bge-m3 "
              "--local-dir ./bge-m3`), copy the folder here and set embedder.model to it; "
              "or set embedder.backend = \"use\" for the offline default")


class FlagEmbedder:
    """BGEM3FlagModel dense vectors (1024-d for bge-m3), normalised."""

    def __init__(self, model: str = "", device: str = "cpu", batch_size: int = 64) -> None:
        self.model = model or DEFAULT_MODEL
        self.device = device
        self.batch_size = batch_size
        self.name = f"flag:{self.model}"
        self._model: Any = None
        self._dim: int | None = None

    @classmethod
    def configured(cls, settings: EmbedderSettings) -> FlagEmbedder:
        """`embedder.backend = "flagembedding"`: `embedder.model` (empty: bge-m3)."""
        return cls(settings.model, settings.device, settings.batch_size)

    @classmethod
    def named(cls, name: str, settings: EmbedderSettings) -> FlagEmbedder | None:
        """The model of vectors named `flag:<model>`."""
        kind, _, model = name.partition(":")
        return cls(model, settings.device, settings.batch_size) if kind == "flag" and model else None

    def load(self) -> None:
        """Load the weights now; a model that cannot be loaded is a ConfigError."""
        if self._model is not None:
            return
        source, _ = resolve_model(self.model, setting=f"{_SETTING} / embedder.backend",
                                  what="FlagEmbedding model", fetch_hint=FETCH_HINT)
        BGEM3FlagModel = backends.load("FlagEmbedding", "BGEM3FlagModel")

        quiet_model_loading()
        try:
            self._model = BGEM3FlagModel(source, use_fp16=False, devices=self.device,
                                         batch_size=self.batch_size)
        except Exception as exc:
            raise ConfigError(f"cannot load FlagEmbedding model {self.model!r}: {first_line(exc)}",
                              where=f"{_SETTING} / embedder.backend", hint=FETCH_HINT) from None

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = int(self.embed(["dimension probe"]).shape[1])
        return self._dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """(n, dim) float32, L2-normalised dense vectors."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        self.load()
        out = self._model.encode(list(texts), batch_size=self.batch_size, return_dense=True,
                                 return_sparse=False, return_colbert_vecs=False)
        vectors = np.asarray(out["dense_vecs"], dtype=np.float32).reshape(len(texts), -1)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms == 0, 1, norms)

    def embed_query(self, text: str) -> np.ndarray:
        """BGE-M3 takes queries as they are (no instruction)."""
        return self.embed([text])[0]
