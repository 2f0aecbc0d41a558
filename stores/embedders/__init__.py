"""Sentence embedders behind the `Embedder` protocol; each backend imports its library lazily."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stores.errors import ConfigError

if TYPE_CHECKING:
    from stores.config import EmbedderSettings
    from stores.protocols import Embedder


def make_embedder(settings: EmbedderSettings) -> Embedder:
    """The embedder the settings select. Nothing is loaded until the first `embed` (or `load`)."""
    if settings.backend == "e5":
        if settings.model:
            raise ConfigError(f"the e5 backend has one built-in model; got {settings.model!r}",
                              where="embedder.model",
                              hint="leave embedder.model empty, or set embedder.backend to "
                                   "\"sentence-transformers\" or \"flagembedding\" for other models")
        from stores.embedders.e5 import E5Embedder

        return E5Embedder()
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
                      hint="use one of: e5, use, sentence-transformers, flagembedding")


def fast_embedder(settings: EmbedderSettings) -> Embedder | None:
    """The embedder of a new world's first vector index while the e5 vectors are computed
    (stores/upgrade.py), or None when the fast index is BM25 alone; None too when the
    configured embedder is not one that is upgraded to in the background."""
    if settings.backend != "e5" or settings.fast_index == "bm25":
        return None
    from stores.embedders.use import UseEmbedder

    return UseEmbedder()


def embedder_named(name: str, settings: EmbedderSettings, world: str = "") -> Embedder:
    """The embedder whose vectors a world's index holds (its catalog row names it), so a query
    is embedded in the same space as the passages whatever the settings say now: a world built
    with sentence-transformers or FlagEmbedding is still searched with that model when the
    settings have moved on to e5."""
    configured = make_embedder(settings)
    if configured.name == name:
        return configured
    fast = fast_embedder(settings)
    if fast is not None and fast.name == name:
        return fast
    from stores.embedders.e5 import NAME as E5_NAME
    from stores.embedders.use import UseEmbedder

    if name == UseEmbedder.name:
        return UseEmbedder()
    if name == E5_NAME:
        from stores.embedders.e5 import E5Embedder

        return E5Embedder()
    backend, _, model = name.partition(":")
    if backend == "st" and model:
        from stores.embedders.sentence_transformers import (
            DEFAULT_NAME,
            SentenceTransformerEmbedder,
        )

        return SentenceTransformerEmbedder("" if model == DEFAULT_NAME else model,
                                           settings.device, settings.batch_size)
    if backend == "flag" and model:
        from stores.embedders.flag import FlagEmbedder

        return FlagEmbedder(model, settings.device, settings.batch_size)
    switch = f"lore vectors --world {world}" if world else "lore vectors --world NAME"
    raise ConfigError(f"this world's vectors were built with {name!r}, which no embedder "
                      f"backend here makes (embedder.backend = {settings.backend!r})",
                      where="embedder.backend / embedder.model",
                      hint=f"run `{switch}` to compute the world's e5 vectors and search with "
                           "them from then on")
