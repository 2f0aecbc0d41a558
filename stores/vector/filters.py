"""ChunkFilter → Qdrant Filter, and the payload layout both sides agree on."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from stores.protocols import ChunkFilter

if TYPE_CHECKING:
    from qdrant_client import models

# Payload keys of a point; `chunk_id` is the catalog's id (the point id is its uuid5).
CHUNK_ID = "chunk_id"
CHAPTER = "chapter"
ENTITIES = "entities"


def entity_condition(names: Sequence[str]) -> models.FieldCondition:
    """Chunks mentioning the entity (one name) or any of the entities (several names)."""
    from qdrant_client import models

    if not names:
        raise ValueError("entity_condition needs at least one name")
    match: models.MatchValue | models.MatchAny = (
        models.MatchValue(value=names[0]) if len(names) == 1 else models.MatchAny(any=list(names)))
    return models.FieldCondition(key=ENTITIES, match=match)


def chapter_condition(chapter_min: int | None, chapter_max: int | None) -> models.FieldCondition:
    """An inclusive chapter range; either end may be open."""
    from qdrant_client import models

    return models.FieldCondition(key=CHAPTER, range=models.Range(gte=chapter_min, lte=chapter_max))


def to_qdrant_filter(where: ChunkFilter | None) -> models.Filter | None:
    """The Qdrant filter that admits exactly what `where.admits` admits (None: no filter)."""
    if where is None:
        return None
    from qdrant_client import models

    must: list[models.Condition] = []
    if where.chapter_min is not None or where.chapter_max is not None:
        must.append(chapter_condition(where.chapter_min, where.chapter_max))
    if where.entity is not None:
        must.append(entity_condition([where.entity]))
    return models.Filter(must=must) if must else None
