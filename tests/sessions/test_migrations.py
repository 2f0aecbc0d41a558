"""The numbered migrations, on an in-memory database."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

import pytest
from sqlite_utils import Database

from sessions import SessionStore, StackEntry
from sessions.migrations import MIGRATIONS, applied, migrate

EXPECTED_COLUMNS = {
    "sessions": ["id", "world", "title", "created", "updated", "spoiler_horizon", "tracked_entity",
                 "activity"],
    "turns": ["id", "session_id", "n", "question", "resolved_question", "answer", "status",
              "error", "messages_json", "citations_json", "tool_calls_json", "created", "answered",
              "entities_json", "owner"],
    "stack_entries": ["session_id", "turn_n", "position", "entity", "referred_as", "guess"],
    "summaries": ["id", "session_id", "from_turn", "to_turn", "text", "plot_id", "created"],
    "plots": ["id", "session_id", "summary_id", "detail", "cited_chunks_json", "created"],
    "tracked": ["session_id", "entity", "since"],
    "summary_vectors": ["summary_id", "model", "dim", "vector"],
    "_migrations": ["name", "applied"],
}


@pytest.fixture
def db() -> Database:
    return Database(memory=True)


def test_migrate_creates_the_tables_and_columns(db: Database) -> None:
    ran = migrate(db)
    assert ran == [m.__name__ for m in MIGRATIONS]
    assert ran[0] == "m001_initial"
    assert set(db.table_names()) == set(EXPECTED_COLUMNS)
    for table, columns in EXPECTED_COLUMNS.items():
        assert [c.name for c in db[table].columns] == columns, table
    assert applied(db) == set(ran)


def test_migrate_creates_the_indexes_queries_need(db: Database) -> None:
    migrate(db)
    sessions_idx = {tuple(i.columns) for i in db["sessions"].indexes}
    assert ("world", "updated") in sessions_idx
    assert ("session_id", "n") in {tuple(i.columns) for i in db["turns"].indexes}
    assert ("session_id", "to_turn") in {tuple(i.columns) for i in db["summaries"].indexes}
    plan = " ".join(
        str(row) for row in db.execute(
            "EXPLAIN QUERY PLAN SELECT * FROM turns WHERE session_id = 'x' ORDER BY n"
        ).fetchall()
    )
    assert "USING INDEX" in plan


def test_migrate_twice_is_a_no_op(db: Database) -> None:
    migrate(db)
    schema = db.execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall()
    assert migrate(db) == []
    assert db.execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall() == schema
    assert db["_migrations"].count == len(MIGRATIONS)


def test_a_migration_added_later_applies_once(db: Database) -> None:
    migrate(db)
    db.execute("INSERT INTO sessions (id, world, created, updated) VALUES ('s1', 'w', 't', 't')")
    calls = []

    def m999_colour(db: Database) -> None:
        calls.append(1)
        db["sessions"].add_column("colour", str)

    assert migrate(db, [*MIGRATIONS, m999_colour]) == ["m999_colour"]
    assert migrate(db, [*MIGRATIONS, m999_colour]) == []
    assert calls == [1]
    assert "colour" in db["sessions"].columns_dict
    assert db["sessions"].count == 1  # existing rows survive


def test_a_failing_migration_leaves_nothing_behind(db: Database) -> None:
    migrate(db)

    def m999_broken(db: Database) -> None:
        db.execute("CREATE TABLE half_done (x)")
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        migrate(db, [*MIGRATIONS, m999_broken])
    assert "half_done" not in db.table_names()
    assert "m999_broken" not in applied(db)
    assert not db.conn.in_transaction


def test_turn_status_is_constrained(db: Database) -> None:
    import sqlite3

    migrate(db)
    db.execute("INSERT INTO sessions (id, world, created, updated) VALUES ('s1', 'w', 't', 't')")
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("INSERT INTO turns (id, session_id, n, question, status, created) "
                   "VALUES ('t1', 's1', 1, 'q', 'lost', 't')")


def test_an_old_database_gains_the_new_columns_and_keeps_its_turns(db: Database) -> None:
    names = [m.__name__ for m in MIGRATIONS]
    old = MIGRATIONS[: names.index("m004_tracked") + 1]
    migrate(db, old)
    db.execute("INSERT INTO sessions (id, world, created, updated) VALUES ('s1', 'w', 't', 't')")
    db.execute("INSERT INTO turns (id, session_id, n, question, created) "
               "VALUES ('t1', 's1', 1, 'q', 't')")
    assert migrate(db) == ["m005_turn_entities", "m006_summary_vectors", "m007_turn_owner",
                           "m008_stack_guess", "m009_session_activity"]
    row = db.execute("SELECT question, entities_json FROM turns").fetchone()
    assert row == ("q", "[]")
    assert [c.name for c in db["summary_vectors"].columns] == ["summary_id", "model", "dim", "vector"]


def test_an_old_stack_gains_the_guess_column_and_no_entry_becomes_a_guess(
        lore_home: Path) -> None:
    path = lore_home / "sessions.db"
    names = [m.__name__ for m in MIGRATIONS]
    with closing(Database(path)) as old:
        migrate(old, MIGRATIONS[: names.index("m007_turn_owner") + 1])
        old.execute("INSERT INTO sessions (id, world, created, updated) VALUES ('s1', 'w', 't', 't')")
        old.execute("INSERT INTO turns (id, session_id, n, question, status, created) "
                    "VALUES ('t1', 's1', 1, '谁斩了华雄？', 'answered', 't')")
        old.execute("INSERT INTO stack_entries (session_id, turn_n, position, entity, referred_as) "
                    "VALUES ('s1', 1, 0, '关羽', '云长')")
        old.conn.commit()
    with SessionStore(path) as store:  # opening migrates
        assert "m008_stack_guess" in applied(store.db)
        assert store.stack("s1") == [StackEntry(entity="关羽", referred_as="云长", session_id="s1",
                                                turn_n=1)]


def test_old_sessions_are_ordered_by_their_last_activity(db: Database) -> None:
    """m009 numbers the existing sessions in the order they were last active."""
    names = [m.__name__ for m in MIGRATIONS]
    migrate(db, MIGRATIONS[: names.index("m008_stack_guess") + 1])
    for sid, updated in (("a", "2024-05-02"), ("b", "2024-05-01"), ("c", "2024-05-03")):
        db.execute("INSERT INTO sessions (id, world, created, updated) VALUES (?, 'w', 't', ?)",
                   [sid, updated])
    assert migrate(db) == ["m009_session_activity"]
    order = [r[0] for r in db.execute("SELECT id FROM sessions ORDER BY activity DESC")]
    assert order == ["c", "a", "b"]
