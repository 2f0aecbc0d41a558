"""User-facing errors: each names the file, line or setting at fault and what to do."""

from __future__ import annotations

from pathlib import Path


class LoreError(Exception):
    """An error the user can act on. The CLI prints it without a traceback and exits non-zero.

    `where` is the file (and line) or setting at fault; `hint` says what to do about it.
    """

    exit_code = 2

    def __init__(self, message: str, *, where: str | Path | None = None, hint: str = "") -> None:
        self.message = message
        self.where = str(where) if where is not None else ""
        self.hint = hint
        super().__init__(self.render())

    def render(self) -> str:
        head = f"{self.where}: {self.message}" if self.where else self.message
        return f"{head}\n  → {self.hint}" if self.hint else head


class InputError(LoreError):
    """A corpus, glossary or question file that cannot be read as what it claims to be."""


class ConfigError(LoreError):
    """A bad setting in config.toml, the environment or the command line."""


class StoreError(LoreError):
    """A store that cannot be opened or written (locked, unwritable, unreachable)."""

    exit_code = 3


class StoreHeld(StoreError):
    """An embedded store another process holds (Qdrant's folder lock): readers can read the
    same data another way; writers wait until that process is done."""


def at_line(path: str | Path, line: int | None = None) -> str:
    """Render `path:line` the way editors and compilers do."""
    return f"{path}:{line}" if line else str(path)
