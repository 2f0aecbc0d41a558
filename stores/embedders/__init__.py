"""Sentence embedders behind the `Embedder` protocol; each backend imports its library lazily.

The backends are the `lorekeeper.embedders` entry points (stores.plugins): `embedder.backend`
names one, and a world's catalog names the embedder that built its vectors, which every backend
is asked to recognise (`EmbedderBackend.named`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stores import plugins
from stores.errors import ConfigError

if TYPE_CHECKING:
    from stores.config import EmbedderSettings
    from stores.protocols import Embedder, EmbedderBackend


def backend(name: str) -> EmbedderBackend:
    """The embedder backend registered as `name` (its module imported, no model loaded)."""
    found: EmbedderBackend | None = plugins.load(plugins.EMBEDDERS, name)
    if found is None:
        raise ConfigError(f"unknown embedder backend {name!r}", where="embedder.backend",
                          hint=f"use one of: {', '.join(plugins.names(plugins.EMBEDDERS))}")
    return found


def make_embedder(settings: EmbedderSettings) -> Embedder:
    """The embedder the settings select. Nothing is loaded until the first `embed` (or `load`)."""
    return backend(settings.backend).configured(settings)


def one_model(name: str, settings: EmbedderSettings) -> None:
    """A ConfigError when `embedder.model` names a model for a backend that has one built in."""
    if settings.model:
        raise ConfigError(f"the {name} backend has one built-in model; got {settings.model!r}",
                          where="embedder.model",
                          hint="leave embedder.model empty, or set embedder.backend to "
                               "\"sentence-transformers\" or \"flagembedding\" for other models")


def fast_embedder(settings: EmbedderSettings) -> Embedder | None:
    """The embedder of a new world's first vector index while the e5 vectors are computed
    (stores/upgrade.py), or None when the fast index is BM25 alone; None too when the
    configured embedder is not one that is upgraded to in the background."""
    if settings.backend != "e5" or settings.fast_index == "bm25":
        return None
    return backend(settings.fast_index).configured(settings.model_copy(update={"model": ""}))


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
    for other in plugins.names(plugins.EMBEDDERS):
        found = backend(other).named(name, settings)
        if found is not None:
            return found
    switch = f"lore vectors --world {world}" if world else "lore vectors --world NAME"
    raise ConfigError(f"this world's vectors were built with {name!r}, which no embedder "
                      f"backend here makes (embedder.backend = {settings.backend!r})",
                      where="embedder.backend / embedder.model",
                      hint=f"run `{switch}` to compute the world's e5 vectors and search with "
                           "them from then on")
