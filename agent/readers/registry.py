"""The model registry: every reader the agent can run (the librarian, Gemini, any
OpenAI-compatible server) is a factory named in the `lorekeeper.readers` entry-point group
(stores.plugins), the built-in ones in Lorekeeper's own pyproject.toml like a third-party
package's, so a new reader needs no edit here; `make_reader` looks the configured name up and
never special-cases one. Searches that make a small model's first round (`model.search_first`)
are named the same way, in `lorekeeper.first_searches`.

A factory gets one typed `ReaderContext` (the [model] settings and the world's retriever) and
returns a `Reader`: the pydantic-ai model, the capabilities it brings to the agent (the
librarian brings the one through which it sees the conversation; the OpenAI-compatible reader
what a small model needs), and what it declares of itself — the prompt it reads best and
whether it writes its answer as plain text. Naming a reader imports nothing: `lore ask` with
Gemini never imports the librarian's rules.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agent.readers.settings import PLAIN_SEARCHES, ModelSettings
from stores import plugins
from stores.errors import ConfigError

if TYPE_CHECKING:
    from pydantic_ai.capabilities import AbstractCapability
    from pydantic_ai.models import Model

    from agent.schemas import Passage
    from agent.tools.deps import LoreDeps
    from agent.world.open_world import OpenWorld
    from agent.world.retrieval import Retriever


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


@dataclass(frozen=True)
class Prompt:
    """What a reader is told besides the tools: its instructions and how much of the cards of
    the names in the question (agent.conversation.core builds both into the agent)."""

    instructions: str
    """The instructions; `{rounds}` is filled in with `model.max_tool_rounds`."""
    cards_budget: int
    """Characters of entity cards the instructions may hold."""
    cards: int = 2
    """How many of the question's names get their card."""


@dataclass
class Reader:
    """A model as the agent runs it, and what it declares of itself."""

    model: Model
    capabilities: list[AbstractCapability[Any]] = field(default_factory=list)
    """Added to the agent's own (tool rounds, backoff) when the agent is built."""
    prompt: Prompt | None = None
    """The prompt it reads best (a small model: a lean one); None: the core's own."""
    text_output: bool = False
    """It writes its answer as plain text citing passage ids ([P3]), which the core expands
    into citations (a small model runs out of tokens writing JSON); else as the typed Answer."""


ReaderFactory = Callable[[ReaderContext], Reader]
"""What a `lorekeeper.readers` entry point names."""


def reader_names() -> list[str]:
    """The registered names, as `model.provider` accepts them."""
    return plugins.names(plugins.READERS)


def unknown_provider(name: str, config_file: object = None) -> ConfigError:
    """The error for a `model.provider` no reader is registered under."""
    where = f"{config_file} [model.provider]" if config_file else "setting model.provider"
    return ConfigError(f"unknown model provider {name!r} in model.provider", where=where,
                       hint=f"set model.provider to one of: {', '.join(reader_names())} "
                            "(or LORE_MODEL__PROVIDER)")


def make_reader(context: ReaderContext) -> Reader:
    """The reader `context.settings.provider` names; ConfigError for a name nobody registered."""
    factory: ReaderFactory | None = plugins.load(plugins.READERS, context.settings.provider)
    if factory is None:
        raise unknown_provider(context.settings.provider)
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

def first_search_names() -> list[str]:
    """What `model.search_first` accepts: the plain ones and every registered first search."""
    return [*PLAIN_SEARCHES, *plugins.names(plugins.FIRST_SEARCHES)]


def first_search(name: str, context: ReaderContext) -> FirstSearch | None:
    """The search `model.search_first = name` hands a model its first round from, for the
    context's world (None: the plain search, or none)."""
    if name in PLAIN_SEARCHES:
        return None
    factory: FirstSearchFactory | None = plugins.load(plugins.FIRST_SEARCHES, name)
    if factory is None:
        raise ConfigError(f"no first search is registered as {name!r}",
                          where="model.search_first",
                          hint=f"set model.search_first to one of: "
                               f"{', '.join(first_search_names())}")
    if context.retriever is None:
        raise ConfigError(f"model.search_first = {name!r} searches one world, and none was given",
                          where="model.search_first",
                          hint="open a world first (lore ask --world NAME), or set "
                               "model.search_first to \"search\" or \"off\"")
    return factory(context)
