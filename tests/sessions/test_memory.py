"""Session memory: extractive summaries with their plots, and recall by meaning (real embedder)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from agent.memory.summaries import LIVE_PREFIX, SessionRecall, summarise_due, turn_line
from sessions import SessionStore
from sessions.records import Turn
from stores.embedders.use import UseEmbedder
from stores.models import LORE_CHAPTER


class Counting:
    """The real embedder, counting the texts it is asked to embed."""

    def __init__(self, inner: UseEmbedder) -> None:
        self.inner, self.name, self.texts = inner, inner.name, 0

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.texts += len(texts)
        return self.inner.embed(texts)

    def embed_query(self, text: str) -> np.ndarray:
        self.texts += 1
        return self.inner.embed_query(text)


@pytest.fixture(scope="module")
def use() -> UseEmbedder:
    embedder = UseEmbedder()
    embedder.load()
    return embedder


@pytest.fixture
def embedder(use: UseEmbedder) -> Counting:
    return Counting(use)


@pytest.fixture
def store(lore_home: Path) -> Iterator[SessionStore]:
    with SessionStore(lore_home / "sessions.db") as store:
        yield store


def answer(store: SessionStore, session_id: str, question: str, text: str, chapter: int,
           chunk: str) -> Turn:
    turn = store.begin_turn(session_id, question)
    return store.finish_turn(turn.id, resolved_question=question, answer=text, messages_json="[]",
                             citations=[{"chunk_id": chunk, "chapter": chapter, "quote": text[:8]}])


OATH = [("刘备、关羽、张飞在哪里结义？", "三人在桃园中焚香结义，誓同生死。[1]", 1, "c-oath"),
        ("结义时他们发了什么誓？", "不求同年同月同日生，但愿同年同月同日死。[1]", 1, "c-vow")]
FIRE = [("赤壁之战中是谁献计火攻？", "黄盖献苦肉计，诈降后以火船焚烧曹军战船。[1]", 49, "c-fire"),
        ("曹操的战船为什么连在一起？", "庞统献连环计，曹军用铁索把战船连在一起。[1]", 47, "c-chain")]


def test_a_turn_line_is_question_answer_and_chapters(store: SessionStore) -> None:
    session = store.create_session("sanguo")
    turn = answer(store, session.id, *OATH[0])
    assert turn_line(turn) == "刘备、关羽、张飞在哪里结义？ → 三人在桃园中焚香结义，誓同生死。 (第1回)"
    english = answer(store, session.id, "Who found the map?", "Tom Hale found it. [1] Later…",
                     7, "c-map")
    assert turn_line(english) == "Who found the map? → Tom Hale found it. (ch. 7)"
    lore = store.begin_turn(session.id, "Who is Su Wan?")  # cites the glossary and two chapters
    lore = store.finish_turn(lore.id, resolved_question="Who is Su Wan?", answer="Shen Yan's pupil.",
                             messages_json="[]", citations=[
                                 {"chunk_id": "g", "chapter": LORE_CHAPTER, "quote": "x"},
                                 {"chunk_id": "a", "chapter": 9, "quote": "y"},
                                 {"chunk_id": "b", "chapter": 2, "quote": "z"}])
    assert turn_line(lore) == "Who is Su Wan? → Shen Yan's pupil. (ch. 2, 9; lore)"
    # the answer's own "ch." ends no sentence: an export read "Who is Frederick Tilney? →
    # Nothing up to ch." (a newcomer's trial)
    hidden = answer(store, session.id, "Who is Tamsin?", "Nothing up to ch. 10 says who Tamsin "
                    "is. The rest is past it.", 3, "c-t")
    assert turn_line(hidden) == "Who is Tamsin? → Nothing up to ch. 10 says who Tamsin is. (ch. 3)"


def test_summaries_come_every_n_answered_turns(store: SessionStore, embedder: Counting) -> None:
    session = store.create_session("sanguo")
    answer(store, session.id, *OATH[0])
    store.begin_turn(session.id, "一个没有答案的问题")  # pending turns are not summarised
    assert not summarise_due(store, session.id, 2, embedder)
    answer(store, session.id, *OATH[1])
    assert summarise_due(store, session.id, 2, embedder) == 1
    assert summarise_due(store, session.id, 2, embedder) == 0  # nothing new since
    (summary,) = store.summaries(session.id)
    assert (summary.from_turn, summary.to_turn) == (1, 3)
    assert summary.text.splitlines() == [turn_line(t) for t in store.turns(session.id)
                                         if t.status == "answered"]
    plot = store.plot(summary.id)
    assert plot is not None and plot.cited_chunks == ["c-oath", "c-vow"]
    assert "誓同生死" in plot.detail and "同年同月同日死" in plot.detail
    stored = store.summary_vectors([summary.id], embedder.name)
    assert len(np.frombuffer(stored[summary.id], dtype=np.float32)) == embedder.dim


def test_recall_ranks_by_meaning_and_goes_deep(store: SessionStore, embedder: Counting) -> None:
    session = store.create_session("sanguo")
    for turn in OATH + FIRE:
        answer(store, session.id, *turn)
        summarise_due(store, session.id, 2, embedder)
    memory = SessionRecall(store, session, embedder)
    shallow = memory.recall("火烧曹操的战船")
    assert [m.turns for m in shallow] == [(3, 4), (1, 2)]
    assert shallow[0].score > shallow[1].score and shallow[0].plot == ""
    assert "桃园" in memory.recall("桃园结义", limit=1)[0].text
    deep = memory.recall("火烧曹操的战船", deep=True, limit=1)
    assert "铁索" in deep[0].plot and deep[0].cited_chunks == ["c-fire", "c-chain"]
    assert memory.stack() == []


def test_vectors_are_stored_not_recomputed(store: SessionStore, embedder: Counting) -> None:
    session = store.create_session("sanguo")
    for turn in OATH + FIRE:
        answer(store, session.id, *turn)
    # summaries written without an embedder (e.g. by another tool) are embedded on first recall
    assert summarise_due(store, session.id, 2) == 2  # a backlog: two spans of two turns
    memory = SessionRecall(store, session, embedder)
    memory.recall("结义")
    assert embedder.texts == 3  # two summaries and the query
    memory.recall("火攻")
    assert embedder.texts == 4  # only the query


def test_recall_stays_in_the_session_unless_asked(store: SessionStore, embedder: Counting) -> None:
    first, second = store.create_session("sanguo"), store.create_session("sanguo")
    elsewhere = store.create_session("monte_cristo")
    for session, turns in ((first, OATH), (second, FIRE), (elsewhere, OATH)):
        for turn in turns:
            answer(store, session.id, *turn)
        summarise_due(store, session.id, 2, embedder)
    memory = SessionRecall(store, second, embedder)
    assert [m.turns for m in memory.recall("桃园结义")] == [(1, 2)]  # only its own
    memory.other_sessions = True
    found = memory.recall("桃园结义")
    assert len(found) == 2 and "桃园" in found[0].text  # this world's two sessions only
    ids = {s.id for s in store.summaries(elsewhere.id)}
    assert not ids & {m.summary_id for m in found}


def test_turns_since_the_last_summary_are_recalled_too(store: SessionStore,
                                                       embedder: Counting) -> None:
    session = store.create_session("sanguo")
    answer(store, session.id, *FIRE[0])
    memory = SessionRecall(store, session, embedder)
    (live,) = memory.recall("苦肉计", deep=True)
    assert live.summary_id.startswith(LIVE_PREFIX) and live.turns == (1, 1)
    assert "黄盖" in live.text and live.cited_chunks == ["c-fire"]
    assert store.summary_vectors([live.summary_id], embedder.name) == {}  # never stored
    memory.include_recent = False
    assert memory.recall("苦肉计") == []


def test_a_word_said_once_is_recalled_by_its_words(store: SessionStore,
                                                     embedder: Counting) -> None:
    """Recall fuses the summaries' words with their meaning: a thing said in one turn of many
    (tobacco, lace) is found by its word, where the meaning alone ranks a turn that sounds like
    the question higher (hiding the treasure)."""
    session = store.create_session("monte_cristo")
    turns = [("Who met Dantès at the harbour?", "His father and Mercédès met him. [1]", 5, "c-1"),
             ("What did Dantès bring from the voyage?", "A letter for Paris. [1]", 4, "c-2"),
             ("Who did Dantès meet in the prison?", "Abbé Faria, digging a tunnel. [1]", 17,
              "c-3"),
             ("Who sailed with Dantès to Monte Cristo?", "Jacopo and the smugglers. [1]", 23,
              "c-4"),
             ("What did the smugglers carry?", "Bales of tobacco and lace. [1]", 22, "c-5"),
             ("Where did Dantès hide the treasure?", "In the grotto. [1]", 24, "c-6")]
    for turn in turns:
        answer(store, session.id, *turn)
    summarise_due(store, session.id, 1, embedder)
    memory = SessionRecall(store, session, embedder)
    for question in ("Where was the tobacco hidden?", "Did we talk about lace?"):
        (first,) = memory.recall(question, limit=1)
        assert "tobacco and lace" in first.text, question
