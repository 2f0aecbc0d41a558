"""Refusing a session database written by a newer Lorekeeper, before anything touches it.

A newer version leaves marks this one cannot honour: a migration it does not know, a turn
status it cannot show, a NOT NULL column its inserts would leave empty. Reading such a file
would crash on the first row and writing would lose the question, so the store stops at open
with a message that names the file and what to do.
"""

from __future__ import annotations

from pathlib import Path
from typing import get_args

from sqlite_utils import Database

from sessions.migrations import MIGRATIONS, applied, migrate
from sessions.records import TurnStatus
from stores.errors import StoreError


def newer_marks(db: Database) -> list[str]:
    """What in `db` only a newer version of Lorekeeper could have written (empty: none)."""
    marks = [f"migration {name}" for name in sorted(applied(db) - {m.__name__ for m in MIGRATIONS})]
    if "turns" in db.table_names():
        known = set(get_args(TurnStatus))
        statuses = {row[0] for row in db.execute("SELECT DISTINCT status FROM turns")}
        marks += [f"turn status {s!r}" for s in sorted(statuses - known, key=str)]
    ours = Database(memory=True)
    migrate(ours)
    for table in ours.table_names():
        if table not in db.table_names():
            continue
        mine = {c.name for c in ours[table].columns}
        marks += [f"required column {table}.{col['name']}" for col in
                  db.execute_returning_dicts(f"PRAGMA table_info([{table}])")
                  if col["name"] not in mine and col["notnull"] and col["dflt_value"] is None]
    ours.close()
    return marks


def refuse_newer(db: Database, path: Path) -> None:
    """StoreError when `db` was written by a newer version (nothing is written before)."""
    marks = newer_marks(db)
    if marks:
        raise StoreError(
            f"the session database was written by a newer version of Lorekeeper "
            f"({', '.join(marks[:3])}); this version leaves it untouched", where=path,
            hint=f"run the newer Lorekeeper, or move the file aside to start a new, empty one "
                 f"(mv {path} {path}.newer; the worlds are not affected)")
