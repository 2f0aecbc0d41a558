"""The model registry: every reader the agent can run (the librarian, Gemini, any
OpenAI-compatible server) is registered by a name and a factory, as simonw/llm's
`register_models` hook does; `make_reader` looks the configured name up and never special-cases
one.

A factory gets one typed `ReaderContext` (the [model] settings and the world's retriever) and
returns a `Reader`: the pydantic-ai model and the capabilities it brings to the agent (the
librarian brings the one through which it sees the conversation and hands back its ranking).
The built-in readers are named by module path, so a name costs an import only when it is used:
`lore ask` with Gemini never imports the librarian's rules.
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agent.settings import ModelSettings
from stores.errors import ConfigError

if TYPE_CHECKING:
    from pydantic_ai.capabilities import AbstractCapability
    from pydantic_ai.models import Model

    from agent.deps import LoreDeps
    from agent.retrieval import Retriever
    from agent.schemas import Passage


@dataclass(frozen=True)
class ReaderContext:
    """What a reader's factory may build its model from."""

    settings: ModelSettings
    """The [model] section."""
    retriever: Retriever | None = None
    """The world the reader will read (None when only the model is wanted, e.g. to check the
    settings); a reader that needs it says so with a ConfigError."""


@dataclass
class Reader:
    """A model as the agent runs it."""

    model: Model
    capabilities: list[AbstractCapability[Any]] = field(default_factory=list)
    """Added to the agent's own (tool rounds, backoff) when the agent is built."""


ReaderFactory = Callable[[ReaderContext], Reader]

_FACTORIES: dict[str, ReaderFactory | str] = {
    "offline": "agent.librarian.reader:librarian_reader",
    "google": "agent.models:gemini_reader",
    "openai": "agent.models:openai_reader",
}
"""Name → factory, or "module:function" for a built-in one imported on first use."""


def register_reader(name: str, factory: ReaderFactory | str) -> None:
    """Make `factory` the reader of `model.provider = name` (replacing one of that name)."""
    _FACTORIES[name] = factory


def reader_names() -> list[str]:
    """The registered names, as `model.provider` accepts them."""
    return sorted(_FACTORIES)


def unknown_provider(name: str, config_file: object = None) -> ConfigError:
    """The error for a `model.provider` no reader is registered under."""
    where = f"{config_file} [model.provider]" if config_file else "setting model.provider"
    return ConfigError(f"unknown model provider {name!r} in model.provider", where=where,
                       hint=f"set model.provider to one of: {', '.join(reader_names())} "
                            "(or LORE_MODEL__PROVIDER)")


def make_reader(context: ReaderContext) -> Reader:
    """The reader `context.settings.provider` names; ConfigError for a name nobody registered."""
    name = context.settings.provider
    factory = _FACTORIES.get(name)
    if factory is None:
        raise unknown_provider(name)
    if isinstance(factory, str):
        factory = _FACTORIES[name] = _load(factory)
    return factory(context)


FirstSearch = Callable[["LoreDeps"], Awaitable[list["Passage"]]]
"""A search that makes a model's first round for it: the passages for `deps.question`, best
first (`model.search_first`)."""

FIRST_SEARCHES: dict[str, str] = {"librarian": "agent.librarian.assist:librarian_search"}
"""`model.search_first` values served by another reader's search ("search" is the plain
search for the question, made through the agent's own vector_search)."""


def first_search(name: str) -> FirstSearch | None:
    """The search `model.search_first = name` hands a model its first round from (None: the
    plain search, or none)."""
    spec = FIRST_SEARCHES.get(name)
    return _load(spec) if spec else None


def _load(spec: str) -> Any:
    module, _, attr = spec.partition(":")
    return getattr(importlib.import_module(module), attr)
