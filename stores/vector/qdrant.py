"""The vector index on Qdrant: the embedded local store under the world's folder, or a server.

Point ids are uuid5 of the chunk id (Qdrant accepts only uuids and integers); the chunk id,
chapter and entity names ride in the payload. In local mode searches go through an
in-memory numpy mirror of the collection (see mirror.py for why and the figures); in
server mode Qdrant filters with payload indexes on `chapter` and `entities`.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
import uuid
import weakref
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from stores import backends
from stores.atomic import write_text
from stores.errors import REPAIR_HINT, IndexDamaged, StoreError, StoreHeld, disk_full
from stores.models import Chunk
from stores.protocols import ChunkFilter, Hit
from stores.readonly import cannot_write, read_only_error
from stores.vector.filters import CHAPTER, CHUNK_ID, ENTITIES, to_qdrant_filter
from stores.vector.mirror import VectorMirror

_POINT_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "lorekeeper/chunk")
HOLDER_FILE = "lorekeeper.holder.json"
_SERVER_HINT = ("start the Qdrant server, or fix vector.url / QDRANT_URL (and the API key "
                "variable named by vector.api_key_env); an empty vector.url uses the embedded store")
_REBUILD_HINT = REPAIR_HINT


def point_id(chunk_id: str) -> str:
    """The Qdrant point id of a chunk: a uuid5, stable across runs and machines."""
    return str(uuid.uuid5(_POINT_NAMESPACE, chunk_id))


def _describe_process() -> str:
    argv = [Path(sys.argv[0]).name if sys.argv else "python", *sys.argv[1:2]]
    if argv[0] == "lore" and len(argv) == 1:
        return "lore (the terminal app)"
    return " ".join(argv)


def _close_client(client: Any, holder: Path | None) -> None:
    # Already closed, or interpreter teardown: nothing is left to release.
    with contextlib.suppress(Exception):
        client.close()
    if holder is not None:
        try:
            if json.loads(holder.read_text()).get("pid") == os.getpid():
                holder.unlink()
        except (OSError, ValueError):
            pass


class QdrantVectorIndex:
    """VectorIndex on Qdrant. Local mode locks `path` for this process from construction on."""

    def __init__(self, path: Path | None = None, url: str | None = None,
                 collection: str = "chunks", api_key: str | None = None, *,
                 batch_size: int = 256, prefilter: bool = True, owner: str | None = None) -> None:
        if not path and not url:
            raise ValueError("QdrantVectorIndex needs a local path or a server url")
        self.path = Path(path) if path and not url else None
        self.url = url or None
        self.collection = collection
        self.batch_size = batch_size
        self.prefilter = prefilter
        self._where = self.url or str(self.path)
        self._mirror: VectorMirror | None = None
        self._dim: int | None = None
        self._closed = False
        self._seen = False
        self._client = self._connect(api_key, owner or _describe_process())

    # --- opening -------------------------------------------------------------------------
    def _connect(self, api_key: str | None, owner: str) -> Any:
        QdrantClient = backends.load("qdrant_client", "QdrantClient")  # noqa: N806

        if self.url:
            # No version handshake here: opening stays offline; the first call reports errors.
            client = QdrantClient(url=self.url, api_key=api_key, timeout=10,
                                  check_compatibility=False)
            self._finalizer = weakref.finalize(self, _close_client, client, None)
            return client
        assert self.path is not None
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            client = QdrantClient(path=str(self.path))
        except OSError as exc:
            raise StoreError(f"cannot open the vector index: {exc}", where=self.path,
                             hint="check that the data folder exists and is writable") from None
        except Exception as exc:  # the lock (a RuntimeError), or unreadable meta.json / config
            if isinstance(exc, RuntimeError) and "already accessed" in str(exc):
                raise self._locked_error() from None
            if (full := disk_full(exc, self.path)) is not None:
                raise full from None
            if cannot_write(self.path):
                raise read_only_error(self.path, "vector index") from None
            raise IndexDamaged(f"the vector index is unreadable ({type(exc).__name__}: {exc})",
                               where=self.path, hint=REPAIR_HINT) from None
        holder = self.path / HOLDER_FILE
        with contextlib.suppress(OSError):  # only makes the lock message friendlier
            write_text(holder, json.dumps({"pid": os.getpid(), "command": owner,
                                          "since": time.strftime("%Y-%m-%d %H:%M:%S")}))
        self._finalizer = weakref.finalize(self, _close_client, client, holder)
        self._tune_local_storage(client)
        return client

    def _locked_error(self) -> StoreHeld:
        assert self.path is not None
        who = "another process"
        try:
            info = json.loads((self.path / HOLDER_FILE).read_text())
            who = f"process {info['pid']} ({info['command']}, since {info['since']})"
        except (OSError, ValueError, KeyError):
            pass
        return StoreHeld(
            f"the vector index is in use by {who}", where=self.path,
            hint="Qdrant's embedded store serves one process at a time: close the other "
                 "Lorekeeper (a `lore` window or a running `lore ingest`) and retry, or run a "
                 "Qdrant server and set vector.url (or QDRANT_URL) to share the index")

    @staticmethod
    def _tune_local_storage(client: Any) -> None:
        """WAL without fsync per point: upserting 1,800 points drops from ~3 s to ~0.3 s.

        Local mode commits every point separately. The index is derived from the catalog
        and ingestion resumes after a crash, so losing the last writes on power loss is fine.
        """
        collections = getattr(getattr(client, "_client", None), "collections", {}) or {}
        for collection in collections.values():
            connection = getattr(getattr(collection, "storage", None), "storage", None)
            if connection is not None:
                connection.execute("PRAGMA journal_mode=WAL")
                connection.execute("PRAGMA synchronous=NORMAL")

    # --- helpers -------------------------------------------------------------------------
    def _call(self, what: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a client call; a server that cannot be reached becomes a StoreError."""
        if self._closed:
            raise StoreError("the vector index was closed", where=self._where,
                             hint="open the world's stores again")
        try:
            return fn(*args, **kwargs)
        except StoreError:
            raise
        except Exception as exc:
            if self.url is None:
                raise
            raise StoreError(f"Qdrant server: cannot {what} ({type(exc).__name__}: {exc})",
                             where=self.url, hint=_SERVER_HINT) from None

    def _exists(self) -> bool:
        # Cached once seen: on a server every check is a round trip.
        if not self._seen:
            self._seen = bool(self._call("list collections", self._client.collection_exists,
                                         self.collection))
        return self._seen

    def dim(self) -> int | None:
        """The vector size of the collection, or None when it does not exist yet."""
        if self._dim is None and self._exists():
            info = self._call("read the collection", self._client.get_collection, self.collection)
            vectors = info.config.params.vectors
            self._dim = int(vectors.size)
        return self._dim

    # --- VectorIndex ---------------------------------------------------------------------
    def reset(self, dim: int) -> None:
        """Drop everything and create an empty collection for vectors of `dim`."""
        from qdrant_client import models

        self._seen = False
        if self._exists():
            self._call("drop the collection", self._client.delete_collection, self.collection)
        self._call("create the collection", self._client.create_collection, self.collection,
                   vectors_config=models.VectorParams(size=dim, distance=models.Distance.COSINE))
        if self.url:  # local mode has no payload indexes (it filters by scanning)
            for key, schema in ((CHAPTER, models.PayloadSchemaType.INTEGER),
                                (ENTITIES, models.PayloadSchemaType.KEYWORD),
                                (CHUNK_ID, models.PayloadSchemaType.KEYWORD)):
                self._call("create a payload index", self._client.create_payload_index,
                           self.collection, field_name=key, field_schema=schema)
        else:
            self._tune_local_storage(self._client)
        self._dim, self._mirror, self._seen = dim, None, True

    def upsert(self, chunks: Sequence[Chunk], vectors: np.ndarray) -> None:
        """Insert or replace the chunks' points, `batch_size` points per request."""
        from qdrant_client import models

        matrix = np.asarray(vectors, dtype=np.float32)
        if matrix.ndim != 2 or matrix.shape[0] != len(chunks):
            raise ValueError(f"{len(chunks)} chunks but vectors of shape {matrix.shape}")
        if not chunks:
            return
        have = self.dim()
        if have is None:
            self.reset(matrix.shape[1])
        elif have != matrix.shape[1]:
            raise StoreError(f"the vector index holds {have}-d vectors, these are {matrix.shape[1]}-d",
                             where=self._where,
                             hint=f"the embedder changed since the index was built: {_REBUILD_HINT}")
        self._mirror = None
        for start in range(0, len(chunks), self.batch_size):
            points = [models.PointStruct(
                id=point_id(c.id), vector=matrix[start + i].tolist(),
                payload={CHUNK_ID: c.id, CHAPTER: int(c.chapter), ENTITIES: list(c.entities)})
                for i, c in enumerate(chunks[start:start + self.batch_size])]
            self._call("upsert points", self._client.upsert, self.collection, points=points,
                       wait=True)

    def delete(self, chunk_ids: Sequence[str]) -> None:
        """Remove the chunks' points (unknown ids are ignored)."""
        from qdrant_client import models

        if not chunk_ids or not self._exists():
            return
        self._mirror = None
        for start in range(0, len(chunk_ids), self.batch_size):
            batch = [point_id(c) for c in chunk_ids[start:start + self.batch_size]]
            self._call("delete points", self._client.delete, self.collection,
                       points_selector=models.PointIdsList(points=batch), wait=True)

    def _scroll(self, with_vectors: bool) -> Iterator[Any]:
        offset = None
        while True:
            records, offset = self._call(
                "read points", self._client.scroll, self.collection, limit=1024, offset=offset,
                with_payload=True if with_vectors else [CHUNK_ID], with_vectors=with_vectors)
            yield from records
            if offset is None:
                return

    def ids(self) -> set[str]:
        """Chunk ids of every point."""
        if not self._exists():
            return set()
        return {r.payload[CHUNK_ID] for r in self._scroll(with_vectors=False)}

    def count(self) -> int:
        """Number of points (0 when the collection does not exist)."""
        if not self._exists():
            return 0
        return int(self._call("count points", self._client.count, self.collection, exact=True).count)

    def _loaded_mirror(self) -> VectorMirror:
        if self._mirror is None:
            dim = self.dim() or 0
            rows = self._local_rows()
            if rows is None:
                rows = [(r.payload[CHUNK_ID], int(r.payload[CHAPTER]),
                         r.payload.get(ENTITIES) or [], r.vector)
                        for r in self._scroll(with_vectors=True)]
            self._mirror = VectorMirror(rows, dim)
        return self._mirror

    def _local_rows(self) -> list[tuple[str, int, list[str], np.ndarray]] | None:
        """The points straight from the local collection's arrays (5× faster than scrolling
        4,000 points through pydantic), or None when the library's layout is not the one
        this was written against (qdrant-client 1.20) — then scrolling does it."""
        try:
            collection = self._client._client.collections[self.collection]
            vectors, payloads = collection.vectors[""], collection.payload
            deleted = collection.deleted
            return [(payloads[i][CHUNK_ID], int(payloads[i][CHAPTER]),
                     payloads[i].get(ENTITIES) or [], vectors[i])
                    for i in range(len(collection.ids_inv)) if not deleted[i]]
        except (AttributeError, KeyError, IndexError, TypeError):
            return None

    def search(self, vector: np.ndarray, limit: int, where: ChunkFilter | None = None) -> list[Hit]:
        """The `limit` nearest chunks by cosine similarity that `where` admits, best first."""
        if limit <= 0 or not self._exists():
            return []
        if self.url is None and self.prefilter:
            return self._loaded_mirror().search(vector, limit, where)
        query = np.asarray(vector, dtype=np.float32).ravel().tolist()
        result = self._call("search", self._client.query_points, self.collection, query=query,
                            limit=limit, query_filter=to_qdrant_filter(where),
                            with_payload=[CHUNK_ID])
        return [Hit(p.payload[CHUNK_ID], float(p.score)) for p in result.points]

    def close(self) -> None:
        """Release the client (and the local folder's lock). Safe to call twice."""
        self._closed = True
        self._mirror = None
        self._finalizer()
