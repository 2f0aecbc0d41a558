"""Which catalog document each file given to `lore ingest` is: identity by content, not by path.

A document is the same document when its text is the same (the sha256 of its bytes), wherever it
lies: a moved or copied folder updates the stored paths and indexes nothing again; two files with
the same text in one run are kept once; a changed file replaces its old version in place.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stores.errors import InputError

GLOSSARY_KINDS = {"glossary", "lorebook"}
GLOSSARY_SUFFIXES = {".toml", ".json"}


@dataclass
class Todo:
    """A file to read and chunk, and the catalog document it becomes."""

    path: Path
    sha256: str
    order: int
    doc_id: str


@dataclass
class Plan:
    """What one ingest does to the world's documents before anything is read."""

    todo: list[Todo] = field(default_factory=list)
    unchanged: int = 0
    moved: list[tuple[str, str, str]] = field(default_factory=list)
    """(document id, old path, new path): same text found at another path."""
    duplicates: list[tuple[str, str]] = field(default_factory=list)
    """(skipped path, kept path): two files of this run with the same text."""
    dropped: list[tuple[str, str, str]] = field(default_factory=list)
    """(document id, path, why): catalog documents whose text another document now holds."""


def sha256(path: Path) -> str:
    """The hex sha256 of a file's bytes, read a block at a time; InputError naming the file
    when it cannot be read or is no text to ingest (decided from its first bytes and size)."""
    from stores.readers.encoding import sniff

    sniff(path)
    try:
        with path.open("rb") as f:
            return hashlib.file_digest(f, "sha256").hexdigest()
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror}", where=path,
                         hint="check its permissions") from None


def plan_documents(world: str, known: Sequence[dict[str, Any]], files: Sequence[Path],
                   glossary: Path | None, rechunk_all: bool) -> Plan:
    """Match the run's files to the catalog's documents: by text first, then by path.

    The same bytes read as a glossary and as prose are different documents (a `.txt` glossary
    once ingested as prose by mistake is re-read as a glossary), so identity is (sha256, role).
    """
    plan = Plan()
    shas = {path: sha256(path) for path in files}

    def file_key(path: Path) -> tuple[str, bool]:
        return shas[path], path == glossary or path.suffix.lower() in GLOSSARY_SUFFIXES

    def row_key(row: dict[str, Any]) -> tuple[str, bool]:
        return row["sha256"], row["kind"] in GLOSSARY_KINDS

    known_by_key: dict[tuple[str, bool], list[dict[str, Any]]] = {}
    for row in sorted(known, key=lambda r: r["doc_order"]):
        known_by_key.setdefault(row_key(row), []).append(row)
    known_by_path = {row["path"]: row for row in known}

    kept = _without_duplicates(files, file_key, known_by_key, plan)
    claimed: dict[str, str] = {}  # document id → the path that now holds it
    pending = []
    for path in kept:  # by text: unchanged, moved, or (new chunking settings) re-read in place
        rows = [r for r in known_by_key.get(file_key(path), []) if r["id"] not in claimed]
        if not rows:
            pending.append(path)
            continue
        row = next((r for r in rows if r["path"] == str(path)), rows[0])
        claimed[row["id"]] = str(path)
        if rechunk_all:
            plan.todo.append(Todo(path, shas[path], row["doc_order"], row["id"]))
        elif row["path"] != str(path):
            plan.moved.append((row["id"], row["path"], str(path)))
        else:
            plan.unchanged += 1
    next_order = max((row["doc_order"] for row in known), default=-1) + 1
    taken = {row["id"] for row in known}
    for path in pending:  # by path: a changed file; else a new document after the others
        old = known_by_path.get(str(path))
        if old is not None and old["id"] not in claimed:
            claimed[old["id"]] = str(path)
            plan.todo.append(Todo(path, shas[path], old["doc_order"], old["id"]))
            continue
        doc_id = new_doc_id(world, path, shas[path], taken)
        taken.add(doc_id)
        plan.todo.append(Todo(path, shas[path], next_order, doc_id))
        next_order += 1
    _drop_superseded(known, claimed, row_key, plan)
    return plan


def _without_duplicates(files: Sequence[Path], file_key, known_by_key, plan: Plan) -> list[Path]:
    """The run's files with each text once: the copy the catalog already knows is the one kept,
    else the first given; every other copy is reported in `plan.duplicates`."""
    groups: dict[tuple[str, bool], list[Path]] = {}
    for path in files:
        groups.setdefault(file_key(path), []).append(path)
    keep: set[Path] = set()
    for key, paths in groups.items():
        known_paths = {row["path"] for row in known_by_key.get(key, [])}
        chosen = next((p for p in paths if str(p) in known_paths), paths[0])
        keep.add(chosen)
        plan.duplicates += [(str(p), str(chosen)) for p in paths if p != chosen]
    return [path for path in files if path in keep]


def _drop_superseded(known: Sequence[dict[str, Any]], claimed: dict[str, str], row_key,
                     plan: Plan) -> None:
    """Catalog documents left unclaimed whose text another document now holds (a world built
    before identity by content) or whose path now holds another document's text."""
    kept_keys = {row_key(row) for row in known if row["id"] in claimed}
    now_at = set(claimed.values()) | {str(t.path) for t in plan.todo}
    for row in sorted(known, key=lambda r: r["doc_order"]):
        if row["id"] in claimed:
            continue
        if row_key(row) in kept_keys:
            plan.dropped.append((row["id"], row["path"], "same text as another document"))
        elif row["path"] in now_at:
            plan.dropped.append((row["id"], row["path"], "its file now holds other text"))


def new_doc_id(world: str, path: Path, sha: str, taken: set[str]) -> str:
    """A document id not yet used in the world: from the path, as before, unless a document
    that moved away from this path still carries that id."""
    doc_id = hashlib.sha1(f"{world}\x00{path}".encode()).hexdigest()[:16]
    salt = 0
    while doc_id in taken:
        salt += 1
        doc_id = hashlib.sha1(f"{world}\x00{path}\x00{sha}\x00{salt}".encode()).hexdigest()[:16]
    return doc_id
