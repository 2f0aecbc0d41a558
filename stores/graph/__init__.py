"""The entity graph: embedded ladybug by default, a Neo4j server when configured.

The backends are the `lorekeeper.graphs` entry points (stores.plugins); `graph.backend` names one.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from stores import plugins
from stores.errors import ConfigError
from stores.graph.cypher import GraphQueryError

if TYPE_CHECKING:
    from stores.config import Settings
    from stores.protocols import GraphBackend, GraphStore

__all__ = ["GraphQueryError", "graph_path", "open_graph"]


def graph_path(settings: Settings, world: str) -> Path:
    """Where the embedded graph database of `world` lives."""
    return settings.world_dir(world) / "graph.lbug"


def open_graph(settings: Settings, world: str) -> GraphStore:
    """Open the world's graph store as the settings say (graph.backend / NEO4J_URI)."""
    backend: GraphBackend | None = plugins.load(plugins.GRAPHS, settings.graph.backend)
    if backend is None:
        raise ConfigError(f"unknown graph backend {settings.graph.backend!r}",
                          where="graph.backend",
                          hint=f"use one of: {', '.join(plugins.names(plugins.GRAPHS))}")
    return backend.open(settings, world)
