"""The one way things are plugged in: Python entry points, as Harlequin finds its adapters.

Every reader (agent.readers.registry), first-round search, embedder, graph backend and reranker is named
in an entry-point group of a package's metadata (`[project.entry-points."lorekeeper.readers"]`
and so on in pyproject.toml), the built-in ones in Lorekeeper's own like a third-party
package's. A setting names one (`model.provider = "offline"`, `embedder.backend = "e5"`); it is
looked up here and imported only when it is used, so naming a backend loads nothing, and the
core holds no table of them and never special-cases one.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points
from typing import Any

READERS = "lorekeeper.readers"
"""Readers: `factory(ReaderContext) -> Reader` (agent.readers.registry)."""
FIRST_SEARCHES = "lorekeeper.first_searches"
"""Searches that make a model's first round (`model.search_first`): `factory(ReaderContext)
-> FirstSearch` (agent.readers.registry)."""
EMBEDDERS = "lorekeeper.embedders"
"""Embedder backends (`embedder.backend`): a class with `configured(settings)` and
`named(name, settings)` (stores.protocols.EmbedderBackend)."""
GRAPHS = "lorekeeper.graphs"
"""Graph backends (`graph.backend`): a class with `open(settings, world)`
(stores.protocols.GraphBackend)."""
RERANKERS = "lorekeeper.rerankers"
"""Rerankers (`retrieval.reranker = "<kind>:<model>"`): a class made with `(model, device=)`."""


def registered(group: str) -> dict[str, EntryPoint]:
    """The entry points of `group` by name (nothing imported)."""
    return {point.name: point for point in entry_points(group=group)}


def names(group: str) -> list[str]:
    """The names registered in `group`, sorted (what the settings accept)."""
    return sorted(registered(group))


def load(group: str, name: str) -> Any | None:
    """What the entry point `name` of `group` names, imported now; None when there is none."""
    point = registered(group).get(name)
    return None if point is None else point.load()
