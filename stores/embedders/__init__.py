"""Sentence embedders behind the `Embedder` protocol; each backend imports its library lazily."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stores.errors import ConfigError

if TYPE_CHECKING:
    from stores.config import EmbedderSettings
    from stores.protocols import Embedder


def make_embedder(settings: EmbedderSettings) -> Embedder:
    """The embedder the settings select. Nothing is loaded until the first `embed` (or `load`)."""
    if settings.backend == "use":
        if settings.model:
            raise ConfigError(f"the use backend has one built-in model; got {settings.model!r}",
                              where="embedder.model",
                              hint="leave embedder.model empty, or set embedder.backend to "
                                   "\"sentence-transformers\" or \"flagembedding\" for other models")
        from stores.embedders.use import UseEmbedder

        return UseEmbedder()
    if settings.backend == "sentence-transformers":
        from stores.embedders.sentence_transformers import SentenceTransformerEmbedder

        return SentenceTransformerEmbedder(settings.model, settings.device, settings.batch_size)
    if settings.backend == "flagembedding":
        from stores.embedders.flag import FlagEmbedder

        return FlagEmbedder(settings.model, settings.device, settings.batch_size)
    raise ConfigError(f"unknown embedder backend {settings.backend!r}", where="embedder.backend",
                      hint="use one of: use, sentence-transformers, flagembedding")
