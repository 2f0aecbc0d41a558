"""`lore ingest`: corpus files → catalog → entities → embeddings → vector, keyword and graph indexes.

Idempotent and resumable. A document whose content hash is unchanged is not read again; a killed
run leaves the catalog consistent (each document is swapped in one transaction, embeddings are
committed per batch) and the next run carries on from the first unfinished stage.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stores.catalog import Catalog
from stores.chunking import chunk_document
from stores.config import Settings
from stores.errors import InputError, StoreError
from stores.models import ParsedDocument
from stores.readers import read_document, read_glossary
from stores.world import WorldStores, check_world_name

Progress = Callable[[str, int, int], None]
"""progress(stage, done, total): stages are read, entities, embed, index."""

CORPUS_SUFFIXES = {".txt", ".md", ".markdown", ".jsonl", ".json", ".toml", ""}


@dataclass
class IngestReport:
    """What an ingestion did, for the CLI and the benchmark."""

    world: str
    files: int = 0
    changed: list[str] = field(default_factory=list)
    chunks: int = 0
    entities: int = 0
    relations: int = 0
    embedded: int = 0
    noop: bool = False
    seconds: dict[str, float] = field(default_factory=dict)


def _no_progress(stage: str, done: int, total: int) -> None:
    return None


def ingest(settings: Settings, world: str, paths: Sequence[Path],
           glossary: Path | None = None, progress: Progress = _no_progress) -> IngestReport:
    """Bring `world` up to date with the files under `paths` (and the optional glossary)."""
    check_world_name(world)
    files = corpus_files(paths)
    if glossary is not None:
        files.append(_existing(glossary))
    report = IngestReport(world=world, files=len(files))
    clock = _Clock(report)
    stores = WorldStores(settings, world)
    try:
        catalog = stores.catalog
        signature = _signature(settings)
        state = catalog.world(world)
        stored = json.loads(state["signature"] or "{}") if state else {}
        rechunk_all = stored.get("chunking") != signature["chunking"]
        todo = _changed_files(catalog, world, files, rechunk_all)
        if not todo and is_current(settings, state):
            report.noop = True
            return report
        # Parse everything first: a bad file stops the run before anything is written.
        parsed = _parse(todo, glossary, progress)
        clock.lap("read")
        _open_indexes(stores)
        catalog.set_world(world, state="ingesting", signature=json.dumps(signature))
        _write_documents(catalog, world, parsed, settings)
        catalog.renumber_events(world)
        report.changed = [doc.path for doc, _ in parsed]
        clock.lap("chunk")
        from stores.ingest_entities import resolve_world_entities

        report.entities, report.relations = resolve_world_entities(
            catalog, world, settings, progress)
        clock.lap("entities")
        report.embedded = _embed_missing(stores, progress)
        clock.lap("embed")
        _sync_indexes(stores, progress)
        clock.lap("index")
        report.chunks = catalog.db.execute(
            "SELECT COUNT(*) FROM chunks WHERE world = ?", [world]).fetchone()[0]
        catalog.set_documents_status(world, "ready")
        catalog.set_world(world, state="ready", embedder=stores.embedder.name,
                          dim=stores.embedder.dim)
        return report
    finally:
        stores.close()


def corpus_files(paths: Sequence[Path]) -> list[Path]:
    """Files under the given paths in natural order (001 < 002 < 010), hidden files skipped."""
    if not paths:
        raise InputError("no corpus path given", where="lore ingest",
                         hint="name the files or folders to ingest, e.g. lore ingest novel/ --world w")
    found: list[Path] = []
    for given in paths:
        path = _existing(given)
        if path.is_dir():
            inside = [p for p in path.rglob("*") if p.is_file() and p.suffix.lower()
                      in CORPUS_SUFFIXES and not any(part.startswith(".") for part in
                                                     p.relative_to(path).parts)]
            if not inside:
                raise InputError("the folder holds no .txt, .md, .jsonl, .json or .toml file",
                                 where=path, hint="point lore ingest at the story's text files")
            found.extend(sorted(inside, key=_natural_key))
        else:
            found.append(path)
    return list(dict.fromkeys(p.resolve() for p in found))


def _existing(path: Path) -> Path:
    path = path.expanduser()
    if not path.exists():
        raise InputError("no such file or folder", where=path,
                         hint="check the path (relative paths start from the current folder)")
    return path


def _natural_key(path: Path) -> list[object]:
    return [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", str(path))]


def _sha256(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror}", where=path,
                         hint="check its permissions") from None


def _doc_id(world: str, path: Path) -> str:
    return hashlib.sha1(f"{world}\x00{path}".encode()).hexdigest()[:16]


@dataclass
class _Todo:
    path: Path
    sha256: str
    order: int


def _changed_files(catalog: Catalog, world: str, files: list[Path],
                   rechunk_all: bool) -> list[_Todo]:
    known = catalog.documents(world)
    # New files go after the ones already in the world, in the order given.
    next_order = max((row["doc_order"] for row in known.values()), default=-1) + 1
    todo = []
    for path in files:
        sha = _sha256(path)
        row = known.get(str(path))
        if row is None:
            todo.append(_Todo(path, sha, next_order))
            next_order += 1
        elif rechunk_all or row["sha256"] != sha:
            todo.append(_Todo(path, sha, row["doc_order"]))
    return todo


def _parse(todo: list[_Todo], glossary: Path | None,
           progress: Progress) -> list[tuple[ParsedDocument, _Todo]]:
    parsed = []
    for i, item in enumerate(todo):
        progress("read", i, len(todo))
        if glossary is not None and item.path == glossary.expanduser().resolve():
            doc = ParsedDocument(path=str(item.path), kind="glossary", encoding="utf-8",
                                 glossary=read_glossary(item.path))
        else:
            doc = read_document(item.path, fallback_chapter=i + 1)
        parsed.append((doc, item))
    progress("read", len(todo), len(todo))
    return parsed


def _write_documents(catalog: Catalog, world: str,
                     parsed: list[tuple[ParsedDocument, _Todo]], settings: Settings) -> None:
    for doc, item in parsed:
        chunks = chunk_document(doc, world, settings.chunking)
        row = {"id": _doc_id(world, item.path), "world": world, "path": str(item.path),
               "kind": doc.kind, "encoding": doc.encoding, "sha256": item.sha256,
               "doc_order": item.order}
        catalog.replace_document(row, chunks, doc.glossary)


def _open_indexes(stores: WorldStores) -> None:
    """Open the stores that lock their folder now, before the long embedding stage."""
    try:
        _ = stores.vectors, stores.graph
    except StoreError:
        raise
    except Exception as exc:  # a backend's own error type: say which store and what to do
        raise StoreError(f"cannot open the world's indexes: {exc}", where=stores.folder,
                         hint="close other Lorekeeper windows on this world, then retry") from None


def _embed_missing(stores: WorldStores, progress: Progress) -> int:
    catalog, embedder = stores.catalog, stores.embedder
    missing = catalog.missing_embeddings(stores.world, embedder.name)
    size = stores.settings.embedder.batch_size
    for start in range(0, len(missing), size):
        progress("embed", start, len(missing))
        batch = missing[start:start + size]
        vectors = embedder.embed([text for _, text in batch])
        catalog.save_embeddings(embedder.name, [h for h, _ in batch], vectors)
    progress("embed", len(missing), len(missing))
    return len(missing)


def _sync_indexes(stores: WorldStores, progress: Progress) -> None:
    catalog, world, embedder = stores.catalog, stores.world, stores.embedder
    state = catalog.world(world) or {}
    vectors = stores.vectors
    if state.get("embedder") != embedder.name or state.get("dim") != embedder.dim:
        vectors.reset(embedder.dim)
        catalog.db.execute("UPDATE chunks SET indexed = 0 WHERE world = ?", [world])
    stale = catalog.stale_chunks(world)
    for start in range(0, len(stale), 512):
        progress("index", start, len(stale))
        batch = stale[start:start + 512]
        hashes = [hashlib.sha1(c.text.encode("utf-8")).hexdigest() for c in batch]
        vectors.upsert(batch, catalog.embeddings(embedder.name, hashes))
        catalog.mark_indexed([c.id for c in batch])
    all_chunks = catalog.chunks(world)
    leftovers = vectors.ids() - {c.id for c in all_chunks}
    if leftovers:
        vectors.delete(sorted(leftovers))
    from stores.keyword.segment import add_words

    entities = catalog.entities(world)
    add_words([name for e in entities for name in (e.name, *e.aliases)])
    stores.keywords.build(all_chunks)
    stores.graph.rebuild([(e.name, e.type) for e in entities], all_chunks,
                         catalog.relations(world))
    progress("index", len(stale), len(stale))


PIPELINE_VERSION = 6
"""Raise it when entity extraction or indexing changes, so existing worlds are brought up to
date by the next `lore ingest` (their chunks and cached embeddings are kept)."""


def is_current(settings: Settings, row: Mapping[str, Any] | None) -> bool:
    """Whether a world's catalog row says it is ready and built the way `settings` and this
    version of the pipeline would build it (an older world is brought up to date by ingest)."""
    return (row is not None and row["state"] == "ready"
            and json.loads(row["signature"] or "{}") == _signature(settings))


def _signature(settings: Settings) -> dict[str, object]:
    """What a world was built with: chunking (changes re-chunk everything), the embedder
    (changes re-embed), entity settings and the pipeline version (changes redo entities and
    indexes)."""
    return {"chunking": settings.chunking.model_dump(),
            "embedder": settings.embedder.model_dump(exclude={"batch_size", "device"}),
            "entities": settings.entities.model_dump(), "pipeline": PIPELINE_VERSION}


class _Clock:
    def __init__(self, report: IngestReport) -> None:
        self.report, self.last = report, time.perf_counter()

    def lap(self, stage: str) -> None:
        now = time.perf_counter()
        self.report.seconds[stage] = round(now - self.last, 3)
        self.last = now
