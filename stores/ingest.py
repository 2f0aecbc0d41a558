"""`lore ingest`: corpus files → catalog → entities → embeddings → vector, keyword and graph indexes.

Idempotent and resumable. A document whose content hash is unchanged is not read again, wherever
it now lies (stores/identity.py matches files to documents by text, then by path); a killed
run leaves the catalog consistent (each document is swapped in one transaction, embeddings are
committed per batch) and the next run carries on from the first unfinished stage.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stores.catalog import Catalog
from stores.chunking import chunk_document
from stores.config import Settings
from stores.errors import InputError
from stores.identity import Plan, Todo, plan_documents
from stores.indexing import Clock, Progress, Rebuilt, no_progress, open_indexes, rebuild_indexes
from stores.models import ParsedDocument
from stores.readers import lore_document, read_document, read_glossary
from stores.readers.headings import number_in_name
from stores.repair import mend_indexes
from stores.upgrade import first_index
from stores.world import WorldStores, check_world_name, refuse_look_alike

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
    stated: int = 0
    """Of the relations, those the text or a glossary states (the rest: names seen together)."""
    embedded: int = 0
    unchanged: int = 0
    moved: list[tuple[str, str]] = field(default_factory=list)
    """(old path, new path) of documents found with the same text at another path."""
    duplicates: list[tuple[str, str]] = field(default_factory=list)
    """(skipped path, kept path): files of this run holding the same text."""
    dropped: list[tuple[str, str]] = field(default_factory=list)
    """(path, why) of documents removed from the world."""
    gone: list[str] = field(default_factory=list)
    """Paths of the world's documents whose file is gone: they still answer until `prune`."""
    repaired: list[str] = field(default_factory=list)
    """Indexes found to disagree with the catalog and rebuilt from it, each with what was found."""
    unheaded: list[str] = field(default_factory=list)
    """Paths of long prose files read as one chapter: no chapter heading was found in them."""
    noop: bool = False
    seconds: dict[str, float] = field(default_factory=dict)


def ingest(settings: Settings, world: str, paths: Sequence[Path],
           glossary: Path | None = None, progress: Progress = no_progress) -> IngestReport:
    """Bring `world` up to date with the files under `paths` (and the optional glossary)."""
    world = check_world_name(world)
    files = corpus_files(paths)
    if glossary is not None:
        # Resolved like the corpus files, so a glossary inside the corpus folder (or given by a
        # relative path) is one file, read once, as a glossary.
        glossary = _existing(glossary).resolve()
        files = [p for p in files if p != glossary] + [glossary]
    report = IngestReport(world=world, files=len(files))
    clock = Clock(report.seconds)
    stores = WorldStores(settings, world)
    try:
        catalog = stores.catalog
        signature = _signature(settings)
        state = catalog.world(world)
        if state is None:  # a new world: not a look-alike of another (dеmo beside demo)
            refuse_look_alike(world, [w["name"] for w in catalog.worlds()])
        stored = json.loads(state["signature"] or "{}") if state else {}
        rechunk_all = stored.get("chunking") != signature["chunking"]
        if state is not None:  # an index damaged or lost since is rebuilt from the catalog
            report.repaired = [f"{c.index}: {c.detail}" for c in mend_indexes(stores)]
        plan = plan_documents(world, catalog.document_rows(world), files, glossary, rechunk_all)
        report.unchanged, report.moved = plan.unchanged, [(a, b) for _, a, b in plan.moved]
        report.duplicates = plan.duplicates
        report.dropped = [(path, why) for _, path, why in plan.dropped]
        report.gone = _gone(catalog.document_rows(world), plan)
        if (not plan.todo and not plan.dropped and is_current(settings, state)
                and not report.repaired):
            # Only paths changed: the text, and so every index, is as it was. A moved glossary's
            # entries name their file, so its relations' evidence is redone below.
            if not catalog.relocate(world, plan.moved, []):
                report.noop = True
                return report
            plan.moved = []
        # Parse everything first: a bad file stops the run before anything is written.
        parsed = _parse(plan.todo, glossary, progress)
        clock.lap("read")
        open_indexes(stores)
        catalog.set_world(world, state="ingesting", signature=json.dumps(signature))
        catalog.relocate(world, plan.moved, [doc_id for doc_id, _, _ in plan.dropped])
        _write_documents(catalog, world, parsed, settings)
        report.changed = [doc.path for doc, _ in parsed]
        report.unheaded = [doc.path for doc, _ in parsed if unheaded(doc)]
        clock.lap("chunk")
        _rebuilt(report, rebuild_indexes(stores, first_index, progress))
        return report
    finally:
        stores.close()


def _rebuilt(report: IngestReport, rebuilt: Rebuilt) -> None:
    report.entities, report.relations = rebuilt.entities, rebuilt.relations
    report.stated = rebuilt.stated
    report.embedded, report.chunks = rebuilt.embedded, rebuilt.chunks
    report.seconds.update(rebuilt.seconds)


def prune(settings: Settings, world: str, confirm: Callable[[list[str]], bool],
          progress: Progress = no_progress) -> IngestReport:
    """Remove the world's documents whose files are gone, once `confirm(paths)` agrees, and
    rebuild what they fed (entities, vectors, BM25, graph). `report.dropped` lists them."""
    stores = WorldStores(settings, world)
    try:
        finished = stores.require()["state"] == "ready"
        catalog = stores.catalog
        rows = catalog.document_rows(world)
        gone = [row for row in rows if not Path(row["path"]).exists()]
        report = IngestReport(world=world, files=len(rows))
        report.dropped = [(row["path"], "file gone") for row in gone]
        # A prune killed after removing its documents left the indexes to finish: do so now.
        if (not gone and finished) or (gone and not confirm([row["path"] for row in gone])):
            report.noop = True
            return report
        open_indexes(stores)
        catalog.set_world(world, state="ingesting")
        catalog.relocate(world, [], [row["id"] for row in gone])
        _rebuilt(report, rebuild_indexes(stores, first_index, progress))
        return report
    finally:
        stores.close()


def _gone(rows: Sequence[dict[str, Any]], plan: Plan) -> list[str]:
    """The documents whose file no longer exists, and that this run neither found elsewhere
    (moved) nor replaces: a deleted file keeps answering until `lore prune` removes it."""
    handled = {doc_id for doc_id, _, _ in plan.moved} | {doc_id for doc_id, _, _ in plan.dropped}
    return [row["path"] for row in rows
            if row["id"] not in handled and not Path(row["path"]).exists()]


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
    if not path.is_dir() and not path.is_file():
        from stores.readers.encoding import not_a_file

        raise not_a_file(path)
    return path


UNHEADED_CHARS = 60_000
"""A prose file this long read as one chapter, whose name carries no chapter number, is a book
whose chapter headings were not found (The Island of Doctor Moreau's "I. IN THE DINGEY …" before
they were read): every answer and timeline would say chapter 1. A file of a folder of chapters
is named by its number (07.txt) and is one chapter by design."""


def unheaded(doc: ParsedDocument) -> bool:
    """Whether `doc` is a long prose file read as one chapter (UNHEADED_CHARS)."""
    return (doc.kind == "prose" and len(doc.chapters) == 1
            and number_in_name(Path(doc.path).stem) is None
            and sum(len(p.text) for scene in doc.chapters[0].scenes
                    for p in scene.paragraphs) >= UNHEADED_CHARS)


def _natural_key(path: Path) -> list[object]:
    return [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", str(path))]


def _parse(todo: list[Todo], glossary: Path | None,
           progress: Progress) -> list[tuple[ParsedDocument, Todo]]:
    parsed = []
    for i, item in enumerate(todo):
        progress("read", i, len(todo))
        if item.path == glossary:
            doc = lore_document(str(item.path), "glossary", "utf-8", read_glossary(item.path))
        else:
            # a file that names no chapter is numbered by its place among the world's
            # documents, not in this run: files added later follow the others, and a changed
            # file keeps its number
            doc = read_document(item.path, fallback_chapter=item.order + 1)
        parsed.append((doc, item))
    progress("read", len(todo), len(todo))
    return parsed


def _write_documents(catalog: Catalog, world: str,
                     parsed: list[tuple[ParsedDocument, Todo]], settings: Settings) -> None:
    for doc, item in parsed:
        # Chunk ids are keyed by the document id, not its path: a document that moved away
        # keeps its chunks' ids, and a new file at its old path must not collide with them.
        chunks = chunk_document(doc, world, settings.chunking, key=item.doc_id)
        row = {"id": item.doc_id, "world": world, "path": str(item.path),
               "kind": doc.kind, "encoding": doc.encoding, "sha256": item.sha256,
               "doc_order": item.order}
        catalog.replace_document(row, chunks, doc.glossary)


PIPELINE_VERSION = 79
"""Raise it when entity extraction or indexing changes, so existing worlds are brought up to
date by the next `lore ingest` (their chunks and cached embeddings are kept)."""


LORE_VERSION = 1
"""Raise it when glossary and lorebook entries are cut into lore passages differently: every
document is chunked again by the next ingest (unchanged passages keep their ids and vectors)."""
SPAN_VERSION = 1
"""Raise it when passages are given their source lines differently (1: a passage cut from a
long wrapped paragraph cites its own lines): every document is chunked again, as above."""
READING_VERSION = 1
"""Raise it when the readers (stores/readers) find a file's text or chapters differently (1:
chapters headed by their number alone, "XIV. DOCTOR MOREAU EXPLAINS."): every document is read
and chunked again by the next ingest, as above, so a book an older reader took for one chapter
gets its chapters without being ingested anew."""


def is_current(settings: Settings, row: Mapping[str, Any] | None) -> bool:
    """Whether a world's catalog row says it is ready and built the way `settings` and this
    version of the pipeline would build it (an older world is brought up to date by ingest)."""
    return (row is not None and row["state"] == "ready"
            and json.loads(row["signature"] or "{}") == _signature(settings))


def _signature(settings: Settings) -> dict[str, object]:
    """What a world was built with: chunking (changes re-chunk everything), the embedder
    (changes re-embed), entity settings and the pipeline version (changes redo entities and
    indexes)."""
    chunking = settings.chunking.model_dump()
    if not chunking["overlap"]:  # worlds built before the setting existed stay current
        del chunking["overlap"]
    chunking["lore"] = LORE_VERSION
    chunking["spans"] = SPAN_VERSION
    chunking["reading"] = READING_VERSION
    return {"chunking": chunking,
            "embedder": settings.embedder.model_dump(exclude={"batch_size", "device",
                                                               "fast_index"}),
            "entities": settings.entities.model_dump(), "pipeline": PIPELINE_VERSION}
