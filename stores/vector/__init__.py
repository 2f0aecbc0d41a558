"""The vector index (Qdrant, embedded or server) and the filter translation it uses."""

from stores.vector.filters import to_qdrant_filter
from stores.vector.qdrant import QdrantVectorIndex, point_id

__all__ = ["QdrantVectorIndex", "point_id", "to_qdrant_filter"]
