"""`lore eval locomo`: does `recall_session` find what was said in long conversations?

LoCoMo (snap-research, CC BY-NC 4.0: read from ../shared, never copied here) has 10 long
two-person conversations, each over up to 35 dated sessions, with questions whose `evidence`
names the dialogue turns (`D<session>:<turn>`) that answer them.

Each LoCoMo conversation becomes session history in a throw-away session database: one
Lorekeeper session per LoCoMo session (titled with its date), whose memory is one summary per
`window` dialogue turns. A summary's text is the turns as `Speaker: text` (what gets embedded and
ranked); its plot carries the date, the dia_ids and the raw turns, and its `cited_chunks` are the
dia_ids. Each question then goes through `SessionRecall.recall(question, deep=True)` with
`other_sessions=True` — what the agent's `recall_session` tool runs when the user asks about
earlier sessions — and a retrieved memory covers a dia_id when its plot carries it.

Scores: evidence recall@k (gold dia_ids covered by the top-k memories) per category: 1 multi-hop,
2 temporal, 3 open-domain, 4 single-hop, 5 adversarial. Category 5 questions ask about something
the conversation never says (often the other speaker's experience); recall cannot refuse, so
they are also scored as abstention: the system abstains when the best memory's similarity is
below `abstain_below`. The report gives the abstention rate on category 5 (wanted) and on 1–4
(wrongly withheld), and the AUROC of the best similarity as a cat-5 detector (0.5 = no signal).

Evidence ids are messy: some hold several ids ('D8:6; D9:17', 'D9:1 D4:4'), some are unusable
('D', 'D:11:26'), some name no turn of the conversation, and a few questions have none. Ids are
split on ';', ',' and spaces; unusable and unknown ids are skipped and counted; questions left
with no usable id are not scored for recall and are counted.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from agent.evals.locomo_data import (  # noqa: F401  (re-exported for callers and tests)
    DIA_ID,
    LocomoSession,
    Sample,
    Utterance,
    load_locomo,
    parse_evidence,
)
from agent.readers.settings import AgentSettings

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
DEFAULT_WINDOW = 2
"""Dialogue turns per stored memory (one exchange: a line and its reply)."""
DEFAULT_ABSTAIN_BELOW: float | None = None
"""No abstention by default: the best memory's similarity does not tell the questions the
conversation never answers (category 5) from the others — AUROC 0.52 with USE over all ten
conversations, and on conv-26 0.42 with USE and 0.46 with e5-small (issue 23). A threshold
(`--abstain-below`) is still scored when given; the AUROC is always reported."""

Progress = Callable[[str], Callable[[int, int], None]]


class CachedEmbedder:
    """An embedder that remembers every vector, so each text is embedded once (and in batches).

    `prime` embeds many texts in one batched call; `embed` then answers from memory. With a
    `path`, the vectors persist between runs (derived data, rebuilt when missing).
    """

    def __init__(self, inner: Any, path: Path | None = None) -> None:
        self.inner = inner
        self.name = inner.name
        self.path = path
        self.vectors: dict[str, np.ndarray] = {}
        self.embedded = 0
        """Texts the inner embedder actually embedded."""
        if path is not None and path.is_file():
            with np.load(path) as saved:
                self.vectors = dict(zip(saved["keys"].tolist(), saved["vectors"], strict=True))

    @property
    def dim(self) -> int:
        return self.inner.dim

    @staticmethod
    def _key(text: str) -> str:
        return hashlib.sha1(text.encode("utf-8")).hexdigest()

    def prime(self, texts: Sequence[str],
              progress: Callable[[int, int], None] | None = None, batch: int = 256) -> None:
        """Embed the texts not seen yet, in batches."""
        missing = list(dict.fromkeys(t for t in texts if self._key(t) not in self.vectors))
        for at in range(0, len(missing), batch):
            if progress:
                progress(at, len(missing))
            part = missing[at:at + batch]
            for text, vector in zip(part, self.inner.embed(part), strict=True):
                self.vectors[self._key(text)] = np.asarray(vector, dtype=np.float32)
            self.embedded += len(part)
        if progress:
            progress(len(missing), len(missing))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """(n, dim) vectors, from memory where possible."""
        texts = list(texts)
        self.prime(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.vstack([self.vectors[self._key(t)] for t in texts])

    def prime_queries(self, texts: Sequence[str]) -> None:
        """Embed the questions not seen yet as queries (e5 marks questions apart), batched
        where the embedder can."""
        missing = list(dict.fromkeys(t for t in texts if self._query_key(t) not in self.vectors))
        if not missing:
            return
        many = getattr(self.inner, "embed_queries", None)
        vectors = many(missing) if many else [self.inner.embed_query(t) for t in missing]
        for text, vector in zip(missing, vectors, strict=True):
            self.vectors[self._query_key(text)] = np.asarray(vector, dtype=np.float32)
        self.embedded += len(missing)

    def embed_query(self, text: str) -> np.ndarray:
        """A question's vector, from memory where possible."""
        self.prime_queries([text])
        return self.vectors[self._query_key(text)]

    @classmethod
    def _query_key(cls, text: str) -> str:
        return "query:" + cls._key(text)

    def save(self) -> None:
        """Write the vectors to `path` (if any)."""
        if self.path is None or not self.vectors:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        keys = list(self.vectors)
        from stores.atomic import replacing

        with replacing(self.path, "wb") as out:  # np.savez would append .npz to a str path
            np.savez(out, keys=np.array(keys), vectors=np.vstack([self.vectors[k] for k in keys]))


# -- the conversation as session memory ------------------------------------------------------------

def store_sample(store: Any, sample: Sample, embedder: CachedEmbedder, window: int) -> Any:
    """Write the conversation as sessions with one summary per `window` turns; its first session.

    Every session of the sample belongs to the world `locomo-<sample_id>`, so recall across the
    world's sessions is recall across the whole conversation and nothing else.
    """
    world = f"locomo-{sample.sample_id}"
    texts: dict[str, str] = {}
    first = None
    for part in sample.sessions:
        session = store.create_session(world, title=f"{sample.sample_id} session {part.number}"
                                                    f" · {part.date}")
        first = first or session
        for at in range(0, len(part.turns), window):
            span = part.turns[at:at + window]
            text = "\n".join(f"{u.speaker}: {u.text}" for u in span)
            plot = "\n".join([f"{part.date} (session {part.number})",
                              *(f"{u.dia_id} {u.speaker}: {u.text}" for u in span)])
            summary, _ = store.add_summary(session.id, at + 1, at + len(span), text, plot,
                                           [u.dia_id for u in span])
            texts[summary.id] = text
    if texts:
        vectors = embedder.embed(list(texts.values()))
        store.put_summary_vectors(embedder.name, int(vectors.shape[1]),
                                  {sid: v.tobytes() for sid, v in zip(texts, vectors, strict=True)})
    return first


def memory_texts(sample: Sample, window: int) -> list[str]:
    """The summary texts `store_sample` will embed (to embed them in one batch first)."""
    return ["\n".join(f"{u.speaker}: {u.text}" for u in part.turns[at:at + window])
            for part in sample.sessions for at in range(0, len(part.turns), window)]


# -- scoring ----------------------------------------------------------------------------------------

@dataclass
class Tally:
    """What the questions of all samples added up to."""

    recall: dict[int, list[float]] = field(default_factory=dict)
    top: dict[int, list[float]] = field(default_factory=dict)
    """Best-memory similarity per question, by category."""
    multi_id_entries: int = 0
    malformed: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    without_evidence: dict[int, int] = field(default_factory=dict)
    recall_ms: list[float] = field(default_factory=list)

    def add_question(self, sample: Sample, qa: dict, memories: list[Any], ms: float) -> None:
        category = int(qa.get("category", 0))
        raw = list(qa.get("evidence") or [])
        self.multi_id_entries += sum(1 for e in raw if len(DIA_ID.findall(str(e))) > 1)
        ids, bad = parse_evidence(raw)
        self.malformed += bad
        known = sample.dia_ids
        self.unknown += [i for i in ids if i not in known]
        gold = [i for i in ids if i in known]
        self.top.setdefault(category, []).append(memories[0].score if memories else 0.0)
        self.recall_ms.append(ms)
        if not gold:
            self.without_evidence[category] = self.without_evidence.get(category, 0) + 1
            return
        covered = {i for m in memories for i in m.cited_chunks}
        self.recall.setdefault(category, []).append(len(covered & set(gold)) / len(gold))


def auroc(positives: Sequence[float], negatives: Sequence[float]) -> float:
    """P(a positive scores above a negative), ties counting half (Mann–Whitney)."""
    if not positives or not negatives:
        return 0.0
    neg = np.sort(np.asarray(negatives, dtype=np.float64))
    pos = np.asarray(positives, dtype=np.float64)
    below = np.searchsorted(neg, pos, side="left")
    ties = np.searchsorted(neg, pos, side="right") - below
    return float((below + 0.5 * ties).sum() / (len(pos) * len(neg)))


def summarise(tally: Tally, abstain_below: float | None) -> dict:
    """Recall per category, the answerable total (1–4) and category 5 as abstention."""
    def mean(values: Sequence[float]) -> dict:
        n = len(values)
        return {"recall": round(sum(values) / n, 3) if n else 0.0,
                "hit": round(sum(v > 0 for v in values) / n, 3) if n else 0.0, "n": n}

    categories = {str(c): {"name": name, **mean(tally.recall.get(c, []))}
                  for c, name in CATEGORIES.items()}
    answerable = [v for c in (1, 2, 3, 4) for v in tally.recall.get(c, [])]
    adversarial = tally.top.get(5, [])
    others = [v for c in (1, 2, 3, 4) for v in tally.top.get(c, [])]

    def rate(values: Sequence[float]) -> float:
        if abstain_below is None or not values:  # no abstention: nothing is withheld
            return 0.0
        return round(sum(v < abstain_below for v in values) / len(values), 3)

    ordered = sorted(tally.recall_ms)
    return {
        "categories": categories,
        "answerable": mean(answerable),
        "abstention": {"abstain_below": abstain_below, "n": len(adversarial),
                       "abstained": rate(adversarial), "withheld_answerable": rate(others),
                       # lower similarity should mean adversarial: score the negated similarity
                       "auroc": round(auroc([-v for v in adversarial], [-v for v in others]), 3),
                       "mean_top_adversarial": _avg(adversarial),
                       "mean_top_answerable": _avg(others)},
        "skipped": {"multi_id_entries": tally.multi_id_entries,
                    "malformed_ids": len(tally.malformed),
                    "malformed_examples": sorted(set(tally.malformed))[:10],
                    "unknown_ids": len(tally.unknown),
                    "unknown_examples": sorted(set(tally.unknown))[:10],
                    "questions_without_evidence": sum(tally.without_evidence.values()),
                    "without_evidence_by_category": {str(c): n for c, n in
                                                     sorted(tally.without_evidence.items())}},
        "recall_ms": {"p50": round(ordered[len(ordered) // 2], 1) if ordered else 0.0,
                      "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 1) if ordered
                      else 0.0},
    }


def _avg(values: Sequence[float]) -> float:
    return round(float(np.mean(values)), 3) if values else 0.0


# -- the run ------------------------------------------------------------------------------------------

def evaluate_locomo(settings: AgentSettings, data: Path, *, k: int = 10, limit_samples: int | None = None,
                    window: int = DEFAULT_WINDOW,
                    abstain_below: float | None = DEFAULT_ABSTAIN_BELOW,
                    progress: Progress | None = None) -> dict:
    """Store each conversation as session memory, ask its questions through SessionRecall."""
    from agent.memory.summaries import SessionRecall
    from sessions.store import SessionStore
    from stores.embedders import make_embedder

    started = time.perf_counter()
    samples = load_locomo(data, limit_samples)
    embedder = make_embedder(settings.embedder)
    cached = CachedEmbedder(embedder, settings.data_dir / "cache" / f"locomo-{embedder.name}.npz")
    texts = [t for s in samples for t in memory_texts(s, window)]
    began = time.perf_counter()
    cached.prime(texts, progress("embedding") if progress else None)
    cached.prime_queries([str(qa.get("question", "")) for s in samples for qa in s.qa])
    cached.save()
    embed_s = time.perf_counter() - began
    tally, memories, sessions, store_s = Tally(), 0, 0, 0.0
    questions = sum(len(s.qa) for s in samples)
    tick = progress("questions") if progress else (lambda done, total: None)
    with tempfile.TemporaryDirectory(prefix="lore-eval-locomo-") as folder:
        store = SessionStore(Path(folder) / "sessions.db")
        try:
            for sample in samples:
                began = time.perf_counter()
                first = store_sample(store, sample, cached, window)
                store_s += time.perf_counter() - began
                sessions += len(sample.sessions)
                memories += len(memory_texts(sample, window))
                if first is None:
                    continue
                recall = SessionRecall(store, first, cached, lambda: [], other_sessions=True,
                                       include_recent=False)
                for qa in sample.qa:
                    tick(len(tally.recall_ms), questions)
                    began = time.perf_counter()
                    found = recall.recall(str(qa.get("question", "")), deep=True, limit=k)
                    tally.add_question(sample, qa, found, (time.perf_counter() - began) * 1000)
            tick(len(tally.recall_ms), questions)
        finally:
            store.close()
    return {"k": k, "window": window, "embedder": embedder.name, "samples": len(samples),
            "sessions": sessions, "memories": memories, "questions": questions,
            **summarise(tally, abstain_below),
            "seconds": {"embedding": round(embed_s, 1), "storing": round(store_s, 1),
                        "total": round(time.perf_counter() - started, 1)},
            "embedded": cached.embedded}


def to_json(report: dict) -> str:
    """The report as `lore eval locomo --json` prints it."""
    return json.dumps(report, ensure_ascii=False)


def render(report: dict) -> str:
    """The report for the terminal."""
    k = report["k"]
    lines = [f"LoCoMo: {report['samples']} conversations, {report['sessions']} sessions, "
             f"{report['memories']} memories of {report['window']} turns, "
             f"{report['questions']} questions ({report['embedder']})",
             f"evidence recall@{k} / hit@{k} per category:"]
    for number, row in report["categories"].items():
        lines.append(f"  {number} {row['name']:<12} {row['recall']:.3f} / {row['hit']:.3f}"
                     f"  (n={row['n']})")
    total = report["answerable"]
    lines.append(f"  1–4 {'answerable':<10} {total['recall']:.3f} / {total['hit']:.3f}"
                 f"  (n={total['n']})")
    a = report["abstention"]
    signal = (f"AUROC {a['auroc']:.3f} (mean best similarity {a['mean_top_adversarial']} vs "
              f"{a['mean_top_answerable']})")
    if a["abstain_below"] is None:
        lines.append(f"category 5 ({a['n']} questions the conversation never answers): no "
                     f"abstention; the best similarity as a detector: {signal}")
    else:
        lines.append(f"category 5 as abstention (best similarity < {a['abstain_below']}): "
                     f"{a['abstained']:.1%} of {a['n']} abstained; "
                     f"{a['withheld_answerable']:.1%} of categories 1–4 wrongly withheld; "
                     f"{signal}")
    s = report["skipped"]
    lines.append(f"evidence ids: {s['multi_id_entries']} entries split into several ids, "
                 f"{s['malformed_ids']} unusable skipped {s['malformed_examples']}, "
                 f"{s['unknown_ids']} naming no turn skipped {s['unknown_examples']}, "
                 f"{s['questions_without_evidence']} questions without usable evidence "
                 f"(not scored for recall)")
    t = report["seconds"]
    lines.append(f"time: {t['total']} s in all (embedding {t['embedding']} s for "
                 f"{report['embedded']} new texts, storing {t['storing']} s); recall per question "
                 f"p50 {report['recall_ms']['p50']} ms, p95 {report['recall_ms']['p95']} ms")
    return "\n".join(lines)
