"""SessionStore on a real SQLite file: sessions, turns, the entity stack, memory, errors."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from pydantic import BaseModel

from sessions import NotFoundError, SessionStore, StackEntry
from stores.errors import StoreError


class Citation(BaseModel):
    chunk_id: str
    chapter: int


@pytest.fixture
def path(lore_home: Path) -> Path:
    return lore_home / "sessions.db"


@pytest.fixture
def store(path: Path) -> SessionStore:
    with SessionStore(path) as store:
        yield store


def answer(store: SessionStore, session_id: str, question: str, stack: list[str], n_msg: str = ""):
    turn = store.begin_turn(session_id, question)
    return store.finish_turn(
        turn.id, resolved_question=question.replace("他", "刘备"), answer=f"A: {question}",
        messages_json=f'[{{"q": "{n_msg or question}"}}]'.encode(),
        citations=[Citation(chunk_id="c1", chapter=3)], tool_calls=[{"tool": "graph_search"}],
        stack=[StackEntry(entity=e, referred_as=e[:1]) for e in stack],
    )


def test_sessions_create_list_rename_delete(store: SessionStore) -> None:
    a = store.create_session("sanguo", "桃园")
    b = store.create_session("sanguo")
    c = store.create_session("monte_cristo", "Dantès")
    assert store.get_session(a.id) == a
    assert store.get_session("nope") is None
    answer(store, a.id, "刘备是谁？", ["刘备"])  # a becomes the most recently active
    listed = store.list_sessions("sanguo")
    assert [s.id for s in listed] == [a.id, b.id]
    assert [s.turn_count for s in listed] == [1, 0]
    assert {s.id for s in store.list_sessions()} == {a.id, b.id, c.id}
    assert store.last_session("sanguo").id == a.id
    assert store.last_session("monte_cristo").id == c.id
    assert store.last_session("pride") is None

    store.rename_session(b.id, "赤壁")
    assert store.get_session(b.id).title == "赤壁"
    store.delete_session(b.id)
    assert store.get_session(b.id) is None
    assert [s.id for s in store.list_sessions("sanguo")] == [a.id]
    with pytest.raises(NotFoundError, match="no session"):
        store.rename_session(b.id, "x")
    with pytest.raises(NotFoundError):
        store.delete_session(b.id)


def test_ids_sort_by_creation(store: SessionStore) -> None:
    ids = [store.create_session("w").id for _ in range(5)]
    assert ids == sorted(ids) and len(set(ids)) == 5 and all(len(i) == 26 for i in ids)


def test_delete_cascades_to_every_table(store: SessionStore) -> None:
    keep, gone = store.create_session("w"), store.create_session("w")
    for s in (keep, gone):
        answer(store, s.id, "q", ["刘备", "曹操"])
        store.add_summary(s.id, 1, 1, "sum", "plot", ["c1"])
        store.set_tracked(s.id, "刘备")
    store.delete_session(gone.id)
    for table in ("turns", "stack_entries", "summaries", "plots", "tracked"):
        ids = {r["session_id"] for r in store.db[table].rows}
        assert ids == {keep.id}, table


def test_question_is_saved_before_the_answer(store: SessionStore, path: Path) -> None:
    s = store.create_session("sanguo")
    turn = store.begin_turn(s.id, "他后来怎么了？")
    assert (turn.n, turn.status, turn.answered) == (1, "pending", None)
    # Another connection (a restarted app) sees the question with no answer yet.
    with SessionStore(path) as other:
        pending = other.pending_turns(s.id)
        assert [(t.id, t.question, t.answer) for t in pending] == [(turn.id, "他后来怎么了？", "")]
        assert other.get_session(s.id).turn_count == 1
        assert other.last_session("sanguo").updated >= turn.created


def test_finish_turn_records_everything(store: SessionStore) -> None:
    s = store.create_session("sanguo")
    t = answer(store, s.id, "他是谁？", ["刘备", "关羽"])
    assert t.status == "answered" and t.answered is not None
    assert t.resolved_question == "刘备是谁？" and t.answer == "A: 他是谁？"
    assert t.messages_json == '[{"q": "他是谁？"}]'
    assert t.citations == [{"chunk_id": "c1", "chapter": 3}]
    assert t.tool_calls == [{"tool": "graph_search"}]
    assert store.turns(s.id) == [t]
    assert store.get_session(s.id).updated == t.answered
    with pytest.raises(ValueError, match="already answered"):
        store.finish_turn(t.id, resolved_question="", answer="", messages_json="")
    with pytest.raises(NotFoundError):
        store.begin_turn("missing", "q")
    with pytest.raises(NotFoundError):
        store.fail_turn("missing", "x")


def test_fail_and_cancel_turns(store: SessionStore) -> None:
    s = store.create_session("w")
    failed = store.begin_turn(s.id, "q1")
    store.fail_turn(failed.id, "model timed out")
    cancelled = store.begin_turn(s.id, "q2")
    store.fail_turn(cancelled.id, "user pressed escape", status="cancelled")
    with pytest.raises(ValueError):
        store.fail_turn(cancelled.id, "x", status="answered")
    got = {t.n: (t.status, t.error) for t in store.turns(s.id)}
    assert got == {1: ("failed", "model timed out"), 2: ("cancelled", "user pressed escape")}
    assert store.pending_turns(s.id) == [] and store.message_history(s.id) == []
    # A failed turn can be re-asked and finished later.
    done = store.finish_turn(failed.id, resolved_question="q1", answer="a1", messages_json="[1]",
                             stack=[StackEntry(entity="曹操")])
    assert (done.status, done.error) == ("answered", "")
    with pytest.raises(ValueError):
        store.fail_turn(done.id, "too late")


def test_stack_and_history_restored_after_reopening(path: Path) -> None:
    with SessionStore(path) as store:
        s = store.create_session("sanguo")
        answer(store, s.id, "刘备是谁？", ["刘备"])
        answer(store, s.id, "他的兄弟呢？", ["关羽", "张飞", "刘备"])
        third = store.begin_turn(s.id, "他死在哪？")  # never answered: the app "crashes"
    with SessionStore(path) as store:
        stack = store.stack(s.id)
        assert [(e.entity, e.referred_as, e.position, e.turn_n) for e in stack] == [
            ("关羽", "关", 0, 2), ("张飞", "张", 1, 2), ("刘备", "刘", 2, 2)]
        assert store.message_history(s.id) == ['[{"q": "刘备是谁？"}]', '[{"q": "他的兄弟呢？"}]']
        assert [t.id for t in store.pending_turns(s.id)] == [third.id]
        store.fail_turn(third.id, "abandoned", status="cancelled")
        assert [e.entity for e in store.stack(s.id)] == ["关羽", "张飞", "刘备"]
        answer(store, s.id, "曹操呢？", [])
        assert store.stack(s.id) == []  # the last answered turn's stack is empty
        assert [t.n for t in store.turns(s.id)] == [1, 2, 3, 4]


def test_a_guess_on_the_stack_is_still_a_guess_after_reopening(path: Path) -> None:
    with SessionStore(path) as store:
        s = store.create_session("sanguo")
        turn = store.begin_turn(s.id, "谁斩了华雄？")
        store.finish_turn(turn.id, resolved_question="谁斩了华雄？", answer="原文……", messages_json="[]",
                          stack=[StackEntry(entity="关羽", guess=True), StackEntry(entity="华雄")])
    with SessionStore(path) as store:
        stack = store.stack(s.id)
    assert [(e.entity, e.guess, e.position) for e in stack] == [("关羽", True, 0), ("华雄", False, 1)]
    assert all(type(e.guess) is bool for e in stack)  # not SQLite's 0 / 1


def test_summaries_and_plots_link_both_ways(store: SessionStore, path: Path) -> None:
    s = store.create_session("sanguo")
    s1, p1 = store.add_summary(s.id, 1, 4, "桃园结义", "刘关张于桃园结为兄弟……", ["c1", "c2"])
    s2, p2 = store.add_summary(s.id, 5, 8, "三顾茅庐", "刘备三顾草庐请诸葛亮……", ["c9"])
    assert (s1.plot_id, p1.summary_id) == (p1.id, s1.id)
    with SessionStore(path) as other:
        assert other.summaries(s.id) == [s1, s2]
        assert other.plot(s1.id) == p1 and other.plot(s2.id) == p2
        assert other.summary_for_plot(p2.id) == s2
        assert other.plot(p1.id) is None and other.summary_for_plot(s1.id) is None
        assert other.plot(s2.id).cited_chunks == ["c9"]
    with pytest.raises(ValueError):
        store.add_summary(s.id, 5, 4, "x", "y")
    with pytest.raises(NotFoundError):
        store.add_summary("missing", 1, 1, "x", "y")


def test_horizon_and_tracking(store: SessionStore) -> None:
    s = store.create_session("sanguo")
    store.set_horizon(s.id, 30)
    store.set_tracked(s.id, "刘备")
    store.set_tracked(s.id, "曹操")
    got = store.get_session(s.id)
    assert (got.spoiler_horizon, got.tracked_entity) == (30, "曹操")
    assert store.tracked_entities(s.id) == ["曹操", "刘备"]
    store.set_tracked(s.id, None)
    store.set_horizon(s.id, None)
    got = store.get_session(s.id)
    assert (got.spoiler_horizon, got.tracked_entity) == (None, None)
    with pytest.raises(ValueError):
        store.set_horizon(s.id, -1)
    with pytest.raises(NotFoundError):
        store.set_tracked("missing", "刘备")


def test_threads_share_one_store(store: SessionStore) -> None:
    s = store.create_session("w")
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(20):
                answer(store, s.id, "q", ["刘备"])
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert [t.n for t in store.turns(s.id)] == list(range(1, 81))


# ------------------------------------------------------------------ errors


def test_wal_and_pragmas(store: SessionStore) -> None:
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    assert store.db.execute("PRAGMA busy_timeout").fetchone()[0] == 10_000


def test_not_a_database_is_a_store_error(path: Path) -> None:
    path.write_bytes(b"this is a text file, not SQLite\n" * 200)
    with pytest.raises(StoreError, match="not a SQLite database") as info:
        SessionStore(path)
    assert str(path) in str(info.value) and "move the file aside" in str(info.value)


def test_corrupt_database_is_a_store_error(path: Path) -> None:
    with SessionStore(path) as store:
        s = store.create_session("w")
        for _ in range(30):
            answer(store, s.id, "q" * 500, ["刘备"])
    data = bytearray(path.read_bytes())
    data[4096:] = b"\xff" * (len(data) - 4096)  # every page after the first is garbage
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="corrupt") as info:
        store = SessionStore(path)
        store.turns(s.id)
    assert str(path) in str(info.value)


def test_unwritable_folder_is_a_store_error(lore_home: Path) -> None:
    blocker = lore_home / "not-a-folder"
    blocker.write_text("a file where the data dir should be")
    with pytest.raises(StoreError, match="cannot create the folder") as info:
        SessionStore(blocker / "sessions.db")
    assert "--data-dir" in str(info.value)


@pytest.mark.skipif(not hasattr(__import__("os"), "geteuid") or __import__("os").geteuid() == 0,
                    reason="root can write anywhere")
def test_read_only_folder_is_a_store_error(lore_home: Path) -> None:
    folder = lore_home / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(StoreError, match=str(folder)):
            SessionStore(folder / "sessions.db")
    finally:
        folder.chmod(0o700)


def test_write_lock_held_too_long_is_a_clear_store_error(path: Path) -> None:
    with SessionStore(path) as store:
        s = store.create_session("w")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process is in the middle of a long write
    try:
        with SessionStore(path, timeout_s=0.2) as store:
            assert store.get_session(s.id) is not None  # WAL: reading still works
            with pytest.raises(StoreError, match="locked by another process") as info:
                store.begin_turn(s.id, "q")
            assert str(path) in str(info.value) and "retry" in str(info.value)
            assert not store.db.conn.in_transaction
    finally:
        holder.execute("ROLLBACK")
        holder.close()
