"""The catalog: the world's documents, chunks, entities and relations in SQLite.

It is the source of truth; every index (vectors, BM25, graph) is rebuilt from it. Writes happen
in transactions so that a killed ingestion leaves either the old or the new state of a document.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import sqlite_utils

from stores.cards import Card
from stores.errors import StoreError, disk_full
from stores.models import LORE_KINDS, Chunk, Entity, GlossaryEntry, Relation
from stores.readonly import cannot_write, connect_read_only

SCHEMA = """
CREATE TABLE IF NOT EXISTS worlds (
  name TEXT PRIMARY KEY, created REAL, updated REAL, state TEXT, signature TEXT,
  embedder TEXT, dim INTEGER);
CREATE TABLE IF NOT EXISTS documents (
  id TEXT PRIMARY KEY, world TEXT, path TEXT, kind TEXT, encoding TEXT, sha256 TEXT,
  status TEXT, doc_order INTEGER, chunks INTEGER, ingested REAL);
CREATE INDEX IF NOT EXISTS documents_world ON documents(world);
CREATE TABLE IF NOT EXISTS chunks (
  id TEXT PRIMARY KEY, world TEXT, document_id TEXT, chapter INTEGER, chapter_title TEXT,
  scene INTEGER, chunk_order INTEGER, event_order INTEGER, text TEXT, text_hash TEXT,
  line_start INTEGER, line_end INTEGER, speakers TEXT, entities TEXT, indexed INTEGER DEFAULT 0);
CREATE INDEX IF NOT EXISTS chunks_world_order ON chunks(world, event_order);
CREATE INDEX IF NOT EXISTS chunks_document ON chunks(document_id, chunk_order);
CREATE TABLE IF NOT EXISTS glossary (
  world TEXT, document_id TEXT, name TEXT, entry TEXT);
CREATE INDEX IF NOT EXISTS glossary_world ON glossary(world);
CREATE TABLE IF NOT EXISTS entities (
  world TEXT, name TEXT, type TEXT, aliases TEXT, description TEXT, sources TEXT,
  mentions INTEGER, PRIMARY KEY (world, name));
CREATE TABLE IF NOT EXISTS aliases (
  world TEXT, alias TEXT, name TEXT, PRIMARY KEY (world, alias));
CREATE TABLE IF NOT EXISTS relations (
  world TEXT, source TEXT, target TEXT, type TEXT, weight REAL, chapters TEXT,
  evidence TEXT, declared INTEGER);
CREATE INDEX IF NOT EXISTS relations_world ON relations(world, source);
CREATE TABLE IF NOT EXISTS cards (
  world TEXT, entity TEXT, card TEXT, PRIMARY KEY (world, entity));
CREATE TABLE IF NOT EXISTS embeddings (
  model TEXT, text_hash TEXT, vector BLOB, PRIMARY KEY (model, text_hash));
"""


BUSY_TIMEOUT_S = 30
"""How long a catalog call waits for another process's write before SQLite says "locked"."""


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


class Catalog:
    """One SQLite file holding every world's catalog (under the data dir)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.read_only = path.is_file() and cannot_write(path.parent)
        """Opened without writing (a read-only data folder): reads work, writes fail."""
        if self.read_only:
            self.db = sqlite_utils.Database(connect_read_only(path, BUSY_TIMEOUT_S))
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None,
                                   check_same_thread=False)
            self.db = sqlite_utils.Database(conn)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)
        except OSError as exc:
            taken = next((p for p in (path.parent, *path.parent.parents) if p.is_file()), None)
            why = (f"{taken} is a file, not a folder" if taken is not None
                   else exc.strerror or str(exc))
            raise StoreError(f"cannot write the data folder: {why}", where=path.parent,
                             hint="choose a writable folder with --data-dir or LORE_HOME") from None
        except sqlite3.DatabaseError as exc:
            if (full := disk_full(exc, path.parent)) is not None:
                raise full from None
            raise StoreError(f"cannot open the catalog: {exc}", where=path,
                             hint="check that the data folder is writable and the file is a "
                                  "Lorekeeper catalog; move it aside to start afresh") from None

    def close(self) -> None:
        self.db.close()

    # -- worlds -----------------------------------------------------------------------------
    def world(self, name: str) -> dict[str, Any] | None:
        rows = list(self.db.query("SELECT * FROM worlds WHERE name = ?", [name]))
        return rows[0] if rows else None

    def worlds(self) -> list[dict[str, Any]]:
        return list(self.db.query(
            "SELECT w.*, (SELECT COUNT(*) FROM documents d WHERE d.world = w.name) AS documents,"
            " (SELECT COUNT(*) FROM chunks c WHERE c.world = w.name) AS chunks,"
            " (SELECT COUNT(*) FROM entities e WHERE e.world = w.name) AS entities,"
            " (SELECT COUNT(DISTINCT c.chapter) FROM chunks c JOIN documents d"
            "  ON d.id = c.document_id WHERE c.world = w.name"
            f"  AND d.kind NOT IN ({', '.join(repr(k) for k in sorted(LORE_KINDS))})) AS chapters"
            " FROM worlds w ORDER BY w.updated DESC"))

    def set_world(self, name: str, **fields: Any) -> None:
        now = time.time()
        existing = self.world(name)
        row = {"name": name, "updated": now, **fields}
        if existing is None:
            row.setdefault("created", now)
        self.db.table("worlds").upsert(row, pk="name")

    # -- documents --------------------------------------------------------------------------
    def documents(self, world: str) -> dict[str, dict[str, Any]]:
        """Documents of a world by path."""
        rows = self.db.query("SELECT * FROM documents WHERE world = ?", [world])
        return {row["path"]: row for row in rows}

    def document_rows(self, world: str) -> list[dict[str, Any]]:
        """Documents of a world in story order (several may share a text in a world built
        before identity by content; ingest keeps one)."""
        return list(self.db.query(
            "SELECT * FROM documents WHERE world = ? ORDER BY doc_order", [world]))

    def relocate(self, world: str, moved: Sequence[tuple[str, str, str]],
                 dropped: Sequence[str]) -> bool:
        """In one transaction: give moved documents (id, old path, new path) their new path,
        and remove the `dropped` documents with their chunks and glossary entries. Returns
        whether a moved document has glossary entries (they name their file, so the world's
        entities must be redone)."""
        entries_moved = False
        with self.db.atomic():
            for doc_id, old, new in moved:
                self.db.execute("UPDATE documents SET path = ? WHERE id = ? AND world = ?",
                                [new, doc_id, world])
                rows = self.db.execute("SELECT rowid, entry FROM glossary WHERE document_id = ?",
                                       [doc_id]).fetchall()
                for rowid, text in rows:
                    entry = json.loads(text)
                    if entry.get("source", "").startswith(old):
                        entry["source"] = new + entry["source"][len(old):]
                        self.db.execute("UPDATE glossary SET entry = ? WHERE rowid = ?",
                                        [_dumps(entry), rowid])
                        entries_moved = True
            for doc_id in dropped:
                for table in ("chunks", "glossary"):
                    self.db.execute(f"DELETE FROM {table} WHERE document_id = ?", [doc_id])
                self.db.execute("DELETE FROM documents WHERE id = ?", [doc_id])
        return entries_moved

    def replace_document(self, doc: dict[str, Any], chunks: Sequence[Chunk],
                         glossary: Sequence[GlossaryEntry]) -> None:
        """Swap in a document's new chunks and glossary entries atomically."""
        doc_id = doc["id"]
        with self.db.atomic():
            for table in ("chunks", "glossary"):
                self.db.execute(f"DELETE FROM {table} WHERE document_id = ?", [doc_id])
            self.db.table("chunks").insert_all((_chunk_row(c, doc_id) for c in chunks), batch_size=500)
            self.db.table("glossary").insert_all(
                ({"world": doc["world"], "document_id": doc_id, "name": g.name,
                  "entry": _dumps(_entry_dict(g))} for g in glossary), batch_size=500)
            self.db.table("documents").upsert({**doc, "chunks": len(chunks), "status": "chunked",
                                         "ingested": time.time()}, pk="id")

    def set_documents_status(self, world: str, status: str) -> None:
        self.db.execute("UPDATE documents SET status = ? WHERE world = ?", [status, world])

    # -- chunks -----------------------------------------------------------------------------
    def renumber_events(self, world: str) -> None:
        """Story order over the whole world: chapter, then document order, then position."""
        with self.db.atomic():
            self.db.execute(
                "UPDATE chunks SET event_order = ranked.n FROM ("
                " SELECT c.id, ROW_NUMBER() OVER (ORDER BY c.chapter, d.doc_order, c.chunk_order)"
                " AS n FROM chunks c JOIN documents d ON d.id = c.document_id"
                " WHERE c.world = ?) AS ranked WHERE chunks.id = ranked.id", [world])

    def chunks(self, world: str, where: str = "", params: Sequence[Any] = ()) -> list[Chunk]:
        sql = (f"SELECT c.*, d.path, d.kind FROM chunks c JOIN documents d ON d.id = c.document_id "
               f"WHERE c.world = ? {('AND ' + where) if where else ''} ORDER BY c.event_order")
        return [_chunk_from_row(r) for r in self.db.query(sql, [world, *params])]

    def chunk_texts(self, world: str) -> list[tuple[str, int, str, list[str], list[str]]]:
        """(id, chapter, text, speakers, entities) in story order, without building Chunks."""
        rows = self.db.execute(
            "SELECT id, chapter, text, speakers, entities FROM chunks WHERE world = ?"
            " ORDER BY event_order", [world]).fetchall()
        return [(i, ch, t, json.loads(s), json.loads(e)) for i, ch, t, s, e in rows]

    def set_chunk_entities(self, updates: Sequence[tuple[str, list[str]]]) -> None:
        """Record each chunk's entities; a changed list marks the vector point stale."""
        with self.db.atomic():
            self.db.conn.executemany(
                "UPDATE chunks SET entities = ?, indexed = 0 WHERE id = ?",
                [(_dumps(names), chunk_id) for chunk_id, names in updates])

    def mark_indexed(self, chunk_ids: Sequence[str]) -> None:
        with self.db.atomic():
            self.db.conn.executemany("UPDATE chunks SET indexed = 1 WHERE id = ?",
                                     [(i,) for i in chunk_ids])

    def stale_chunks(self, world: str) -> list[Chunk]:
        return self.chunks(world, "c.indexed = 0")

    # -- glossary ------------------------------------------------------------
    def glossary(self, world: str) -> list[GlossaryEntry]:
        rows = self.db.query("SELECT entry FROM glossary WHERE world = ? ORDER BY rowid", [world])
        return [_entry_from(json.loads(r["entry"])) for r in rows]

    # -- entities and relations -------------------------------------------------------------
    def replace_entities(self, world: str, entities: Sequence[Entity],
                         relations: Sequence[Relation]) -> None:
        with self.db.atomic():
            for table in ("entities", "aliases", "relations"):
                self.db.execute(f"DELETE FROM {table} WHERE world = ?", [world])
            self.db.table("entities").insert_all(
                ({"world": world, "name": e.name, "type": e.type, "aliases": _dumps(e.aliases),
                  "description": e.description, "sources": _dumps(e.sources),
                  "mentions": e.mentions} for e in entities), batch_size=1000)
            alias_rows: dict[str, str] = {}
            for e in entities:
                for alias in [e.name, *e.aliases]:
                    alias_rows.setdefault(alias, e.name)
            self.db.table("aliases").insert_all(
                ({"world": world, "alias": a, "name": n} for a, n in alias_rows.items()),
                batch_size=2000)
            self.db.table("relations").insert_all(
                ({"world": world, "source": r.source, "target": r.target, "type": r.type,
                  "weight": r.weight, "chapters": _dumps(r.chapters),
                  "evidence": _dumps(r.evidence), "declared": int(r.declared)}
                 for r in relations), batch_size=2000)

    def entities(self, world: str) -> list[Entity]:
        rows = self.db.query(
            "SELECT * FROM entities WHERE world = ? ORDER BY mentions DESC, name", [world])
        return [Entity(name=r["name"], type=r["type"], aliases=json.loads(r["aliases"]),
                       description=r["description"], sources=json.loads(r["sources"]),
                       mentions=r["mentions"]) for r in rows]

    def relations(self, world: str, typed: bool = False) -> list[Relation]:
        """The world's relations; `typed`: only those that say how two are related, without
        co-occurrence (a few hundred rows where co-occurrence has thousands)."""
        where = " AND type != 'co_occurs'" if typed else ""
        rows = self.db.query(f"SELECT * FROM relations WHERE world = ?{where}", [world])
        return [Relation(source=r["source"], target=r["target"], type=r["type"],
                         weight=r["weight"], chapters=json.loads(r["chapters"]),
                         evidence=json.loads(r["evidence"]), declared=bool(r["declared"]))
                for r in rows]

    # -- entity cards -------------------------------------------------------------------------
    def replace_cards(self, world: str, cards: Sequence[Card]) -> None:
        with self.db.atomic():
            self.db.execute("DELETE FROM cards WHERE world = ?", [world])
            self.db.table("cards").insert_all(
                ({"world": world, "entity": c.entity, "card": c.to_json()} for c in cards),
                batch_size=1000)

    def card(self, world: str, entity: str) -> Card | None:
        """The entity's card (its canonical name), or None when the world has none for it."""
        row = self.db.execute("SELECT card FROM cards WHERE world = ? AND entity = ?",
                              [world, entity]).fetchone()
        return Card.from_json(row[0]) if row else None

    # -- embeddings cache -------------------------------------------------------------------
    def missing_embeddings(self, world: str, model: str) -> list[tuple[str, str]]:
        """(text_hash, text) of the world's chunks that have no vector for `model` yet."""
        rows = self.db.execute(
            "SELECT c.text_hash, MIN(c.text) FROM chunks c LEFT JOIN embeddings e"
            " ON e.model = ? AND e.text_hash = c.text_hash"
            " WHERE c.world = ? AND e.text_hash IS NULL GROUP BY c.text_hash"
            " ORDER BY MIN(c.event_order)", [model, world]).fetchall()
        return [(h, t) for h, t in rows]

    def drop_unused_embeddings(self) -> int:
        """Forget cached vectors no chunk of any world has any more (replaced or removed
        passages), so edits and prunes leave nothing behind. Returns how many went."""
        with self.db.atomic():
            cursor = self.db.execute(
                "DELETE FROM embeddings WHERE text_hash NOT IN (SELECT text_hash FROM chunks)")
        return cursor.rowcount

    def save_embeddings(self, model: str, hashes: Sequence[str], vectors: np.ndarray) -> None:
        with self.db.atomic():
            self.db.conn.executemany(
                "INSERT OR REPLACE INTO embeddings(model, text_hash, vector) VALUES (?, ?, ?)",
                [(model, h, np.asarray(v, dtype=np.float32).tobytes())
                 for h, v in zip(hashes, vectors, strict=True)])

    def vector_rows(self, world: str, model: str) -> list[tuple[str, int, list[str], np.ndarray]]:
        """(chunk id, chapter, entities, vector) of the world's chunks that have a vector for
        `model`: what the vector index holds, read from the catalog's cache of vectors."""
        rows = self.db.execute(
            "SELECT c.id, c.chapter, c.entities, e.vector FROM chunks c JOIN embeddings e"
            " ON e.model = ? AND e.text_hash = c.text_hash WHERE c.world = ?"
            " ORDER BY c.event_order", [model, world]).fetchall()
        return [(cid, chapter, json.loads(entities), np.frombuffer(vector, dtype=np.float32))
                for cid, chapter, entities, vector in rows]

    def embeddings(self, model: str, hashes: Sequence[str]) -> np.ndarray:
        """Vectors in the order of `hashes` (each must be cached)."""
        found: dict[str, bytes] = {}
        for batch in _batched(list(dict.fromkeys(hashes)), 900):
            marks = ",".join("?" * len(batch))
            found.update(self.db.execute(
                f"SELECT text_hash, vector FROM embeddings WHERE model = ?"
                f" AND text_hash IN ({marks})", [model, *batch]).fetchall())
        return np.stack([np.frombuffer(found[h], dtype=np.float32) for h in hashes])


def _batched(items: list[str], size: int) -> Iterator[list[str]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def _entry_from(data: dict[str, Any]) -> GlossaryEntry:
    if "lines" in data:
        data["lines"] = tuple(data["lines"])
    return GlossaryEntry(**data)


def _entry_dict(g: GlossaryEntry) -> dict[str, Any]:
    return {"name": g.name, "aliases": g.aliases, "type": g.type, "description": g.description,
            "relations": [list(r) for r in g.relations], "source": g.source,
            "lines": list(g.lines), "triggers": g.triggers, "chapter": g.chapter}


def _chunk_row(c: Chunk, doc_id: str) -> dict[str, Any]:
    from hashlib import sha1

    return {"id": c.id, "world": c.world, "document_id": doc_id, "chapter": c.chapter,
            "chapter_title": c.chapter_title, "scene": c.scene, "chunk_order": c.chunk_order,
            "event_order": c.event_order, "text": c.text,
            "text_hash": sha1(c.text.encode("utf-8")).hexdigest(),
            "line_start": c.line_start, "line_end": c.line_end,
            "speakers": _dumps(c.speakers), "entities": _dumps(c.entities), "indexed": 0}


def _chunk_from_row(r: dict[str, Any]) -> Chunk:
    return Chunk(id=r["id"], world=r["world"], document=r["path"], chapter=r["chapter"],
                 chapter_title=r["chapter_title"], scene=r["scene"], chunk_order=r["chunk_order"],
                 text=r["text"], line_start=r["line_start"], line_end=r["line_end"],
                 event_order=r["event_order"], speakers=json.loads(r["speakers"]),
                 entities=json.loads(r["entities"]), lore=r.get("kind") in LORE_KINDS)
