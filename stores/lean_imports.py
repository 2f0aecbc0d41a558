"""Imports that would otherwise drag in what Lorekeeper never uses."""

from __future__ import annotations

import sys


def import_sqlite_utils_without_pandas() -> None:
    """Import sqlite-utils (the catalog's and the sessions' database layer) without pandas.

    sqlite-utils imports pandas whenever it is installed (here it comes with `datasets`), only
    to map pandas timestamps to a column type; nothing in Lorekeeper writes one. That import
    (pandas and pyarrow) was 0.4–0.9 s of every `lore` start on a busy machine, before the app
    could paint (bench/tui.py). Call it first thing, before any thread starts: while it runs,
    `import pandas` fails; afterwards pandas imports as usual.
    """
    if "sqlite_utils" in sys.modules or "pandas" in sys.modules:
        return
    sys.modules["pandas"] = None  # type: ignore[assignment]  # makes `import pandas` fail
    try:
        import sqlite_utils  # noqa: F401
    finally:
        del sys.modules["pandas"]
