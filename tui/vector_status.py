"""A world's vector status read from its catalog, for the CLI and the app's status line."""

from __future__ import annotations

from stores.catalog import Catalog
from stores.config import Settings
from stores.upgrade import VectorStatus, vector_status


def world_vector_status(settings: Settings, world: str) -> VectorStatus | None:
    """How far `world`'s e5 vectors are (None: it searches with the configured embedder)."""
    catalog = Catalog(settings.catalog_path)
    try:
        return vector_status(catalog, settings, world)
    finally:
        catalog.close()
