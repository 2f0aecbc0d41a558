"""Conversation memory: extractive summaries every few turns, and recall by meaning.

Two layers, as the session store keeps them: a summary (one line per turn: the question, the
first sentence of its answer, the chapters it cited) and behind it the plot (the turns' full
questions and answers and the cited passage ids). `SessionRecall` is the `SessionMemory` the
agent's `recall_session` tool calls: it embeds the summaries with the world's embedder, keeps
the vectors in the session database (table `summary_vectors`, one row per summary and model),
and ranks them by cosine and by BM25 over their words, each standardised over the memories and
summed (a name or a date said once is found by its words). Turns since the last summary are
recalled too, as a summary made on the fly.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np

from agent.answer.citations import first_sentence
from agent.schemas import Memory
from sessions.records import Session, Turn
from sessions.store import SessionStore
from stores.keyword.bm25 import TextScores
from stores.lang import has_han
from stores.models import LORE_CHAPTER, chapter_label
from stores.protocols import Embedder

_MARKERS = re.compile(r"\s*\[\d+\]")
KEYWORD_WEIGHT = 1.0
"""The words' standardised BM25 score counts as much as the standardised cosine. `lore eval
locomo` (e5), answerable evidence recall@10 on LoCoMo's conversations 1–5 / 6–10: cosine alone
0.694 / 0.622; reciprocal-rank fusion with the words weighted 3 (the best weight and k on 1–5)
0.760 / 0.733; this sum 0.764 / 0.744 (words weighted 0.5: 0.776 / 0.742, 0.75: 0.763 / 0.740).
Ranks throw away how far apart two memories stand; a summary holding the question's rare word
stands far out in BM25. Equal weights, not 0.5: with USE, "Did we talk about lace?" must find the
one turn that said lace (tests/sessions/test_memory.py), which a weight of 0.5 loses to a turn
that merely sounds like a question about talk."""
LIVE_PREFIX = "live:"
"""summary_id of the on-the-fly memory of the turns not summarised yet."""


def turn_line(turn: Turn) -> str:
    """One line of a summary: 'Q → first sentence of the answer (chapter refs)'."""
    question = turn.resolved_question or turn.question
    answer = first_sentence(_MARKERS.sub("", turn.answer), width=160) if turn.answer else "—"
    cited = {int(c["chapter"]) for c in turn.citations if isinstance(c, dict) and c.get("chapter")}
    chapters = sorted(cited - {LORE_CHAPTER})
    chinese = has_han(question)
    if chinese:
        refs = [chapter_label(c, chinese) for c in chapters]
    else:  # ch. 2, 9
        refs = [f"ch. {', '.join(map(str, chapters))}"] if chapters else []
    if LORE_CHAPTER in cited:  # the world's own entry, which names no chapter
        refs.append(chapter_label(LORE_CHAPTER, chinese))
    if not refs:
        return f"{question} → {answer}"
    return f"{question} → {answer} ({('、' if chinese else '; ').join(refs)})"


def plot_detail(turns: Sequence[Turn]) -> str:
    """The plot behind a summary: every question and answer in full, with its citations."""
    blocks = []
    for turn in turns:
        lines = [f"Turn {turn.n}. Q: {turn.question}"]
        if turn.resolved_question and turn.resolved_question != turn.question:
            lines.append(f"   (read as: {turn.resolved_question})")
        lines.append(f"   A: {turn.answer}")
        for i, c in enumerate(turn.citations, start=1):
            if isinstance(c, dict):
                lines.append(f"   [{i}] ch. {c.get('chapter', '?')} {c.get('chunk_id', '')}: "
                             f"{c.get('quote', '')}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def cited_chunks(turns: Sequence[Turn]) -> list[str]:
    """The passage ids the turns cited, in order, once each."""
    ids = [c.get("chunk_id", "") for t in turns for c in t.citations if isinstance(c, dict)]
    return list(dict.fromkeys(i for i in ids if i))


def unsummarised(store: SessionStore, session_id: str) -> list[Turn]:
    """Answered turns after the last summary's span."""
    summaries = store.summaries(session_id)
    last = max((s.to_turn for s in summaries), default=0)
    return [t for t in store.turns(session_id) if t.n > last and t.status == "answered"]


def summarise_due(store: SessionStore, session_id: str, every: int,
                  embedder: Embedder | None = None) -> int:
    """Write a summary and its plot for each `every` answered turns awaiting one; how many.

    A backlog (summaries that failed before) is summarised `every` turns at a time, so each
    summary covers a span of the same size. With an embedder, the vectors are stored at once so
    that recall never waits for them.
    """
    turns = unsummarised(store, session_id)
    vectors: dict[str, str] = {}
    while len(turns) >= every:
        span, turns = turns[:every], turns[every:]
        text = "\n".join(turn_line(t) for t in span)
        summary, _ = store.add_summary(session_id, span[0].n, span[-1].n, text,
                                       plot_detail(span), cited_chunks(span))
        vectors[summary.id] = summary.text
    if vectors and embedder is not None:
        embedded = np.asarray(embedder.embed(list(vectors.values())), dtype=np.float32)
        store.put_summary_vectors(embedder.name, int(embedded.shape[1]),
                                  {sid: v.tobytes() for sid, v in zip(vectors, embedded,
                                                                      strict=True)})
    return len(vectors)


def standardised(scores: np.ndarray) -> np.ndarray:
    """Scores as standard deviations from their mean (all 0 when they are all equal)."""
    scores = np.asarray(scores, dtype=np.float64)
    spread = scores.std()
    return (scores - scores.mean()) / spread if spread > 1e-9 else np.zeros_like(scores)


class SessionRecall:
    """The conversation's memory as the agent's tools see it (agent.tools.deps.SessionMemory)."""

    def __init__(self, store: SessionStore, session: Session, embedder: Embedder,
                 stack: Callable[[], list[str]] | None = None, *,
                 other_sessions: bool = False, include_recent: bool = True,
                 tokens: Callable[[str], list[str]] | None = None) -> None:
        self.store = store
        self.session = session
        self.embedder = embedder
        self._stack = stack
        self.words = TextScores(tokens)
        """The summaries' words, ranked by BM25 and cut by `tokens`: the world's keyword
        index's, which keeps its names whole (a name jieba does not know would fall apart into
        single characters, which the ranking leaves out); the stock dictionary's without one."""
        self.other_sessions = other_sessions
        """Also search the other sessions of the same world, unless a recall says otherwise."""
        self.include_recent = include_recent
        """Also recall the turns not summarised yet."""

    def stack(self) -> list[str]:
        """Canonical names of the entities talked about, most recent first."""
        if self._stack is not None:
            return self._stack()
        return [e.entity for e in self.store.stack(self.session.id)]

    def recall(self, query: str, deep: bool = False, limit: int = 5, *,
               other_sessions: bool | None = None) -> list[Memory]:
        """The summaries that best match `query`, in meaning and in words; `deep` adds each
        one's plot; `other_sessions` (by default as this memory was made) searches the world's
        other sessions too. A memory's `score` is its cosine similarity to the query."""
        if self.other_sessions if other_sessions is None else other_sessions:
            summaries = self.store.world_summaries(self.session.world)
        else:
            summaries = self.store.summaries(self.session.id)
        memories = [Memory(summary_id=s.id, turns=(s.from_turn, s.to_turn), text=s.text)
                    for s in summaries]
        recent = unsummarised(self.store, self.session.id) if self.include_recent else []
        if recent:
            memories.append(Memory(summary_id=f"{LIVE_PREFIX}{self.session.id}",
                                   turns=(recent[0].n, recent[-1].n),
                                   text="\n".join(turn_line(t) for t in recent)))
        if not memories or not query.strip():
            return []
        vectors = self._vectors(memories)
        query_vec = np.asarray(self.embedder.embed_query(query), dtype=np.float32)
        similarity = vectors @ query_vec
        words = self.words(query, [m.text for m in memories])
        fused = standardised(similarity) + KEYWORD_WEIGHT * standardised(words)
        found = []
        for i in np.argsort(-fused, kind="stable")[:limit]:
            memory = memories[int(i)]
            memory.score = round(float(similarity[int(i)]), 4)
            if deep:
                self._deepen(memory, recent)
            found.append(memory)
        return found

    def _vectors(self, memories: list[Memory]) -> np.ndarray:
        """One row per memory: stored vectors where they exist, the rest embedded (and stored)."""
        model = self.embedder.name
        stored = self.store.summary_vectors(
            [m.summary_id for m in memories if not m.summary_id.startswith(LIVE_PREFIX)], model)
        missing = [m for m in memories if m.summary_id not in stored]
        fresh: dict[str, np.ndarray] = {}
        if missing:
            embedded = np.asarray(self.embedder.embed([m.text for m in missing]), dtype=np.float32)
            fresh = {m.summary_id: v for m, v in zip(missing, embedded, strict=True)}
            keep = {sid: v.tobytes() for sid, v in fresh.items() if not sid.startswith(LIVE_PREFIX)}
            if keep:
                self.store.put_summary_vectors(model, int(embedded.shape[1]), keep)
        rows = [fresh[m.summary_id] if m.summary_id in fresh
                else np.frombuffer(stored[m.summary_id], dtype=np.float32) for m in memories]
        matrix = np.vstack(rows)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return matrix / np.maximum(norms, 1e-12)

    def _deepen(self, memory: Memory, recent: list[Turn]) -> None:
        """Summary → plot: the detailed turns and the passages they cited."""
        if memory.summary_id.startswith(LIVE_PREFIX):
            memory.plot, memory.cited_chunks = plot_detail(recent), cited_chunks(recent)
            return
        plot = self.store.plot(memory.summary_id)
        if plot is not None:
            memory.plot, memory.cited_chunks = plot.detail, list(plot.cited_chunks)
