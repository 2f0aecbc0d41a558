"""The entity graph: embedded ladybug by default, a Neo4j server when configured."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from stores.graph.cypher import GraphQueryError

if TYPE_CHECKING:
    from stores.config import Settings
    from stores.protocols import GraphStore

__all__ = ["GraphQueryError", "graph_path", "open_graph"]


def graph_path(settings: Settings, world: str) -> Path:
    """Where the embedded graph database of `world` lives."""
    return settings.world_dir(world) / "graph.lbug"


def open_graph(settings: Settings, world: str) -> GraphStore:
    """Open the world's graph store as the settings say (graph.backend / NEO4J_URI)."""
    graph = settings.graph
    if graph.backend == "neo4j":
        from stores.graph.neo4j_store import Neo4jGraphStore

        password = os.environ.get(graph.neo4j_password_env) if graph.neo4j_password_env else None
        return Neo4jGraphStore.connect(graph.neo4j_uri, graph.neo4j_user, password, world,
                                       max_depth=graph.max_depth,
                                       password_env=graph.neo4j_password_env)
    from stores.graph.ladybug_store import LadybugGraphStore

    return LadybugGraphStore(graph_path(settings, world), buffer_pool_mb=graph.buffer_pool_mb,
                             max_depth=graph.max_depth)
