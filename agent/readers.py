"""The model registry: every reader the agent can run (the librarian, Gemini, any
OpenAI-compatible server) is registered by a name and a factory through one hook, as simonw/llm's
`register_models` plugins are: a module's `register_readers(register)` calls
`register(name, factory)` for each reader it brings. The built-in readers come through that hook
(`BUILT_IN`) like a third-party package's, which names its hook in the `lorekeeper.readers`
entry-point group of its own metadata, so a new reader needs no edit here; `make_reader` looks
the configured name up and never special-cases one.

A factory gets one typed `ReaderContext` (the [model] settings and the world's retriever) and
returns a `Reader`: the pydantic-ai model and the capabilities it brings to the agent (the
librarian brings the one through which it sees the conversation and hands back its ranking; the
OpenAI-compatible reader what a small model needs). A factory may be given as "module:function",
imported on first use: `lore ask` with Gemini never imports the librarian's rules.
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any

from agent.settings import ModelSettings
from stores.errors import ConfigError

if TYPE_CHECKING:
    from pydantic_ai.capabilities import AbstractCapability
    from pydantic_ai.models import Model

    from agent.deps import LoreDeps
    from agent.retrieval import Retriever
    from agent.schemas import Passage
    from agent.world import OpenWorld


@dataclass(frozen=True)
class ReaderContext:
    """What a reader's factory may build its model from."""

    settings: ModelSettings
    """The [model] section."""
    retriever: Retriever | None = None
    """The world the reader will read (None when only the model is wanted, e.g. to check the
    settings); a reader that needs it says so with a ConfigError."""
    open_world: OpenWorld | None = None
    """The open world the retriever belongs to, when there is one: what a reader keeps of the
    world between conversations lives there (`OpenWorld.shared`)."""


@dataclass
class Reader:
    """A model as the agent runs it."""

    model: Model
    capabilities: list[AbstractCapability[Any]] = field(default_factory=list)
    """Added to the agent's own (tool rounds, backoff) when the agent is built."""


ReaderFactory = Callable[[ReaderContext], Reader]
Register = Callable[[str, "ReaderFactory | str"], None]
"""What a hook is called with: `register(name, factory or "module:function")`."""

ENTRY_POINTS = "lorekeeper.readers"
"""The entry-point group of third-party readers: each names a `register_readers(register)`."""
BUILT_IN = ("agent.readers:register_readers",)
"""The hooks of the readers that ship with Lorekeeper."""


def register_readers(register: Register) -> None:
    """The readers that ship with Lorekeeper, registered through the hook every reader uses,
    each by module path: naming them (settings check `model.provider` when they load) imports
    no model library, so the app shows its world before pydantic-ai is loaded."""
    register("offline", "agent.librarian.reader:librarian_reader")
    register("google", "agent.models:gemini_reader")
    register("openai", "agent.models:openai_reader")


@cache
def _factories() -> dict[str, ReaderFactory | str]:
    """Name → factory (or "module:function"), from every hook, loaded once."""
    found: dict[str, ReaderFactory | str] = {}
    hooks = [_load(spec) for spec in BUILT_IN]
    hooks += [point.load() for point in entry_points(group=ENTRY_POINTS)]
    for hook in hooks:
        hook(found.__setitem__)
    return found


def register_reader(name: str, factory: ReaderFactory | str) -> None:
    """Make `factory` the reader of `model.provider = name` (replacing one of that name)."""
    _factories()[name] = factory


def reader_names() -> list[str]:
    """The registered names, as `model.provider` accepts them."""
    return sorted(_factories())


def unknown_provider(name: str, config_file: object = None) -> ConfigError:
    """The error for a `model.provider` no reader is registered under."""
    where = f"{config_file} [model.provider]" if config_file else "setting model.provider"
    return ConfigError(f"unknown model provider {name!r} in model.provider", where=where,
                       hint=f"set model.provider to one of: {', '.join(reader_names())} "
                            "(or LORE_MODEL__PROVIDER)")


def make_reader(context: ReaderContext) -> Reader:
    """The reader `context.settings.provider` names; ConfigError for a name nobody registered."""
    name = context.settings.provider
    factories = _factories()
    factory = factories.get(name)
    if factory is None:
        raise unknown_provider(name)
    if isinstance(factory, str):
        factory = factories[name] = _load(factory)
    return factory(context)


@dataclass(frozen=True)
class FirstRound:
    """What a search made for a model's first round found: the passages for the question, best
    first, and the answers they put forward, most likely first, each with the chunk id of the
    passage that puts it forward (a small model chooses among them better than it composes)."""

    passages: list[Passage]
    candidates: list[tuple[str, str]] = field(default_factory=list)
    sentences: list[tuple[str, str]] = field(default_factory=list)
    """The passages' sentences most likely to answer, best first, each with its chunk id
    (agent/librarian/ranking.py): what any model reads first."""


FirstSearch = Callable[["LoreDeps"], Awaitable[FirstRound]]
"""A search that makes a model's first round for it (`model.search_first`)."""
FirstSearchFactory = Callable[[ReaderContext], FirstSearch]
"""Makes the search for the context's world (it may keep what it learns of the world between
turns, in `context.open_world`)."""

FIRST_SEARCHES: dict[str, str] = {"librarian": "agent.librarian.assist:librarian_search"}
"""`model.search_first` values served by another reader's search ("search" is the plain
search for the question, made through the agent's own vector_search): their factories."""


def first_search(name: str, context: ReaderContext) -> FirstSearch | None:
    """The search `model.search_first = name` hands a model its first round from, for the
    context's world (None: the plain search, or none)."""
    spec = FIRST_SEARCHES.get(name)
    if spec is None:
        return None
    if context.retriever is None:
        raise ConfigError(f"model.search_first = {name!r} searches one world, and none was given",
                          where="model.search_first",
                          hint="open a world first (lore ask --world NAME), or set "
                               "model.search_first to \"search\" or \"off\"")
    factory: FirstSearchFactory = _load(spec)
    return factory(context)


def _load(spec: str) -> Any:
    module, _, attr = spec.partition(":")
    return getattr(importlib.import_module(module), attr)
