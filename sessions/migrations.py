"""Numbered schema migrations for the session database.

Each migration is a small function `mNNN_name(db)`, registered in order by `@migration` and
applied once; the `_migrations` table records which ran. Never edit a released migration:
add a new one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sqlite_utils import Database

from sessions.records import now

Migration = Callable[[Database], None]
MIGRATIONS: list[Migration] = []


def migration(fn: Migration) -> Migration:
    """Register `fn` as the next migration."""
    MIGRATIONS.append(fn)
    return fn


def _create(db: Database, *statements: str) -> None:
    for sql in statements:
        db.execute(sql)


@migration
def m001_initial(db: Database) -> None:
    """Sessions and their turns."""
    _create(
        db,
        """CREATE TABLE sessions (
            id TEXT PRIMARY KEY,
            world TEXT NOT NULL,
            title TEXT NOT NULL DEFAULT '',
            created TEXT NOT NULL,
            updated TEXT NOT NULL,
            spoiler_horizon INTEGER,
            tracked_entity TEXT
        )""",
        "CREATE INDEX idx_sessions_world_updated ON sessions (world, updated)",
        "CREATE INDEX idx_sessions_updated ON sessions (updated)",
        """CREATE TABLE turns (
            id TEXT PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            n INTEGER NOT NULL,
            question TEXT NOT NULL,
            resolved_question TEXT NOT NULL DEFAULT '',
            answer TEXT NOT NULL DEFAULT '',
            status TEXT NOT NULL DEFAULT 'pending'
                CHECK (status IN ('pending', 'answered', 'failed', 'cancelled')),
            error TEXT NOT NULL DEFAULT '',
            messages_json TEXT NOT NULL DEFAULT '',
            citations_json TEXT NOT NULL DEFAULT '[]',
            tool_calls_json TEXT NOT NULL DEFAULT '[]',
            created TEXT NOT NULL,
            answered TEXT,
            UNIQUE (session_id, n)
        )""",
    )


@migration
def m002_entity_stack(db: Database) -> None:
    """The entity stack after each answered turn."""
    _create(
        db,
        """CREATE TABLE stack_entries (
            session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            turn_n INTEGER NOT NULL,
            position INTEGER NOT NULL,
            entity TEXT NOT NULL,
            referred_as TEXT NOT NULL DEFAULT '',
            PRIMARY KEY (session_id, turn_n, position)
        )""",
    )


@migration
def m003_memory(db: Database) -> None:
    """The two memory layers: summaries and their plots, one id pair linking both ways."""
    # The summary <-> plot links are plain columns with unique indexes: a circular foreign
    # key would need deferred constraints for no gain (both rows are written together).
    _create(
        db,
        """CREATE TABLE summaries (
            id TEXT PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            from_turn INTEGER NOT NULL,
            to_turn INTEGER NOT NULL,
            text TEXT NOT NULL,
            plot_id TEXT NOT NULL UNIQUE,
            created TEXT NOT NULL
        )""",
        "CREATE INDEX idx_summaries_session ON summaries (session_id, to_turn)",
        """CREATE TABLE plots (
            id TEXT PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            summary_id TEXT NOT NULL UNIQUE,
            detail TEXT NOT NULL,
            cited_chunks_json TEXT NOT NULL DEFAULT '[]',
            created TEXT NOT NULL
        )""",
        "CREATE INDEX idx_plots_session ON plots (session_id)",
    )


@migration
def m004_tracked(db: Database) -> None:
    """Entities the user tracked in a session, with when tracking started."""
    _create(
        db,
        """CREATE TABLE tracked (
            session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            entity TEXT NOT NULL,
            since TEXT NOT NULL,
            PRIMARY KEY (session_id, entity)
        )""",
    )


@migration
def m005_turn_entities(db: Database) -> None:
    """The entities each answer is about (Answer.entities), for resolving the next follow-up."""
    db.execute("ALTER TABLE turns ADD COLUMN entities_json TEXT NOT NULL DEFAULT '[]'")


@migration
def m006_summary_vectors(db: Database) -> None:
    """Embeddings of the summaries for semantic recall, cached per embedding model.

    Derived data: dropping the table only costs re-embedding the summaries.
    """
    _create(
        db,
        """CREATE TABLE summary_vectors (
            summary_id TEXT NOT NULL REFERENCES summaries (id) ON DELETE CASCADE,
            model TEXT NOT NULL,
            dim INTEGER NOT NULL,
            vector BLOB NOT NULL,
            PRIMARY KEY (summary_id, model)
        )""",
    )


@migration
def m007_turn_owner(db: Database) -> None:
    """The process that began each turn (`host:pid:start`), so a turn left pending by a killed
    process can be told from one another process is still answering."""
    db.execute("ALTER TABLE turns ADD COLUMN owner TEXT NOT NULL DEFAULT ''")


@migration
def m008_stack_guess(db: Database) -> None:
    """Which stack entries are the reader's likely answer, not stated (shown as a guess)."""
    db.execute("ALTER TABLE stack_entries ADD COLUMN guess INTEGER NOT NULL DEFAULT 0")


@migration
def m009_session_activity(db: Database) -> None:
    """The order in which sessions were last active, as a counter: `updated` is the clock's,
    and a clock set back (two days, or before 1970) made `lore ask` continue an older session
    instead of the newest. Existing sessions are numbered in their `updated` order."""
    db.execute("ALTER TABLE sessions ADD COLUMN activity INTEGER NOT NULL DEFAULT 0")
    db.execute("UPDATE sessions SET activity = (SELECT COUNT(*) FROM sessions s WHERE "
               "s.updated < sessions.updated OR (s.updated = sessions.updated "
               "AND s.id <= sessions.id))")
    db.execute("CREATE INDEX idx_sessions_activity ON sessions (world, activity)")


def applied(db: Database) -> set[str]:
    """Names of the migrations already applied to `db`."""
    if not db["_migrations"].exists():
        return set()
    return {row["name"] for row in db.query("SELECT name FROM _migrations")}


def migrate(db: Database, migrations: Sequence[Migration] | None = None) -> list[str]:
    """Apply the migrations `db` has not seen yet, in order; return the names applied.

    Each migration and its record commit together under a write lock (BEGIN IMMEDIATE), and
    the check is repeated inside it, so two processes opening a new database at once do not
    both apply the same migration.
    """
    steps = MIGRATIONS if migrations is None else migrations
    done = applied(db)
    if all(step.__name__ in done for step in steps):
        return []  # the common case: no write lock taken
    db.execute(
        "CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied TEXT NOT NULL)"
    )
    ran: list[str] = []
    for step in steps:
        name = step.__name__
        if name in done:
            continue
        db.conn.execute("BEGIN IMMEDIATE")
        try:
            if db.execute("SELECT 1 FROM _migrations WHERE name = ?", [name]).fetchone() is None:
                step(db)
                db.execute("INSERT INTO _migrations (name, applied) VALUES (?, ?)", [name, now()])
                ran.append(name)
            db.conn.execute("COMMIT")
        except BaseException:
            if db.conn.in_transaction:
                db.conn.execute("ROLLBACK")
            raise
    return ran
