"""`lore eval dialogues`: are follow-ups resolved to the right entity, and is their evidence found?

Each dialogue (DESIGN.md: `{"id", "turns": [{"q", "resolved", "answer", "gold_chapters",
"entity"?}]}`) runs as one new session through `agent.conversation.session.Conversation`, exactly as a
user's turns do, but in a session database under a temporary folder, so the user's session list
never sees the evaluation.

Per turn:
- `entity_ok`: the system's resolved question names the entity the explicit form names: the
  turn's `entity` when given, else the first canonical name that the explicit form (`resolved`)
  adds to the question as typed (the referent of its pronoun or dropped subject). A turn with
  nothing to resolve (`resolved` == `q`, as every first turn) must keep all the names it has; its
  `entity`, then the topic of the answer, is not asked for. Names are found with the world's
  alias matcher, so 孔明 and 诸葛亮 count as the same person.
- `recall`: the share of `gold_chapters` among the chapters of the turn's top-k evidence: the
  passages the answer cites, in citation order, then the rest of `TurnResult.evidence`. The
  evidence alone is ordered by each tool's own score (BM25, fused RRF, 0 for graph and timeline
  passages), which do not compare across tools; that ranking is shown too (`raw`).

`resolution_accuracy` is the share of follow-up turns (turns after the first) with `entity_ok`.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from agent.readers.settings import AgentSettings

if TYPE_CHECKING:
    from agent.conversation.session import TurnResult


class DialogueTurn(BaseModel):
    """One turn of a dialogue: the question as typed and its explicit form."""

    model_config = ConfigDict(extra="ignore")

    q: str = Field(min_length=1)
    """The question as a user types it (with pronouns, dropped subjects)."""
    resolved: str = Field(min_length=1)
    """The same question made explicit."""
    answer: str = ""
    gold_chapters: list[int] = []
    """Chapters where the answer is stated."""
    entity: str | None = None
    """The canonical entity the follow-up refers to (optional)."""


class Dialogue(BaseModel):
    """One line of a dialogues file."""

    model_config = ConfigDict(extra="ignore")

    id: str
    turns: list[DialogueTurn] = Field(min_length=1)


def load_dialogues(path: Path) -> list[Dialogue]:
    """Dialogues from a JSONL file; InputError naming the line of a bad record."""
    from agent.evals.retrieval import load_records

    return load_records(path, Dialogue, "dialogue",
                        'each line needs {"id", "turns": [{"q", "resolved", "gold_chapters"}]}')


@dataclass
class TurnScore:
    """How one turn of one dialogue went."""

    id: str
    turn: int
    """The turn's number in its dialogue, from 1."""
    q: str
    resolved_question: str
    """What the system made of the question."""
    entity_ok: bool
    recall: float | None
    """recall@k of the gold chapters; None when the turn has none."""
    raw_recall: float | None = None
    """The same over `TurnResult.evidence` as the tools scored it (no citations first)."""
    expected: list[str] = field(default_factory=list)
    found: list[str] = field(default_factory=list)
    ms: float = 0.0


def expected_entities(turn: DialogueTurn, names_in: Callable[[str], list[str]],
                      resolve: Callable[[str], str]) -> list[str]:
    """The canonical entities a correct resolution of `turn` must name."""
    if turn.resolved.strip() == turn.q.strip():  # nothing to resolve: keep the names typed
        return names_in(turn.resolved)
    if turn.entity:
        return [resolve(turn.entity)]
    typed = set(names_in(turn.q))
    added = [n for n in names_in(turn.resolved) if n not in typed]
    return added[:1] or names_in(turn.resolved)


def chapter_recall(chapters: Sequence[int], gold: Sequence[int]) -> float | None:
    """Share of the gold chapters among `chapters` (None without gold)."""
    if not gold:
        return None
    return round(len(set(chapters) & set(gold)) / len(set(gold)), 3)


def ranked_chapters(result: TurnResult) -> list[int]:
    """Chapters of the turn's evidence, best first, as the agent ranked it (agent.conversation.core
    ranked_evidence: the reader's own ranking, as the librarian makes, else the cited passages
    first)."""
    return [p.chapter for p in result.evidence]


def score_turn(dialogue_id: str, number: int, turn: DialogueTurn, resolved_question: str,
               evidence_chapters: Sequence[int], names_in: Callable[[str], list[str]],
               resolve: Callable[[str], str], k: int, ms: float = 0.0,
               raw_chapters: Sequence[int] | None = None) -> TurnScore:
    """Score one answered turn (pure: the caller ran it and ranked its evidence)."""
    expected = expected_entities(turn, names_in, resolve)
    found = names_in(resolved_question)
    # A name the world does not know (resolve kept it as written) counts when written out.
    ok = all(name in found or name in resolved_question for name in expected)
    return TurnScore(id=dialogue_id, turn=number, q=turn.q, resolved_question=resolved_question,
                     entity_ok=ok,
                     recall=chapter_recall(list(evidence_chapters)[:k], turn.gold_chapters),
                     raw_recall=(None if raw_chapters is None else
                                 chapter_recall(list(raw_chapters)[:k], turn.gold_chapters)),
                     expected=expected, found=found, ms=round(ms, 1))


def summarise(scores: Sequence[TurnScore], k: int) -> dict:
    """The report: resolution accuracy, recall overall and on follow-ups, and every turn."""
    followups = [s for s in scores if s.turn > 1]

    def recall(items: Sequence[TurnScore], key: str = "recall") -> dict:
        values = [getattr(s, key) for s in items if getattr(s, key) is not None]
        return {"recall": round(sum(values) / len(values), 3) if values else 0.0,
                "n": len(values)}

    accuracy = (sum(s.entity_ok for s in followups) / len(followups)) if followups else 0.0
    return {"k": k, "resolution_accuracy": round(accuracy, 3), "overall": recall(scores),
            "followup": recall(followups), "raw": recall(scores, "raw_recall"),
            "turns": [asdict(s) for s in scores]}


JSON_TURN_KEYS = ("id", "turn", "q", "resolved_question", "entity_ok", "recall")


def to_json(report: dict) -> str:
    """The report as `lore eval dialogues --json` prints it."""
    out = {"resolution_accuracy": report["resolution_accuracy"], "overall": report["overall"],
           "followup": report["followup"],
           "turns": [{key: t[key] for key in JSON_TURN_KEYS} for t in report["turns"]]}
    return json.dumps(out, ensure_ascii=False)


def render(report: dict) -> str:
    """The report for the terminal: one line per turn, then the totals."""
    lines = []
    for t in report["turns"]:
        mark = "ok  " if t["entity_ok"] else "MISS"
        recall = "  —  " if t["recall"] is None else f"{t['recall']:.2f}"
        want = "" if t["entity_ok"] else f"   (wanted {', '.join(t['expected']) or '—'})"
        lines.append(f"{t['id']:>10} {t['turn']}  {mark} r@{report['k']} {recall}  "
                     f"{t['q']} → {t['resolved_question']}{want}")
    followup, overall = report["followup"], report["overall"]
    lines.append(f"resolution accuracy (follow-ups): {report['resolution_accuracy']:.2f}")
    lines.append(f"recall@{report['k']}: overall {overall['recall']:.2f} (n={overall['n']}), "
                 f"follow-ups {followup['recall']:.2f} (n={followup['n']}); "
                 f"tool scores alone {report['raw']['recall']:.2f}")
    ms = sorted(t["ms"] for t in report["turns"])
    if ms:
        lines.append(f"per turn: p50 {ms[len(ms) // 2]:.0f} ms, max {ms[-1]:.0f} ms")
    return "\n".join(lines)


def evaluate_dialogues(settings: AgentSettings, world: str, dialogues: Sequence[Dialogue], k: int = 5,
                       progress: Callable[[int, int], None] | None = None) -> dict:
    """Run every dialogue as a new session of `world` (in a throw-away session database)."""
    import asyncio

    from agent.world.open_world import OpenWorld
    from sessions.store import SessionStore

    with OpenWorld.open(settings, world) as opened, \
            tempfile.TemporaryDirectory(prefix="lore-eval-dialogues-") as folder:
        store = SessionStore(Path(folder) / "sessions.db")
        try:
            scores = asyncio.run(_run_all(settings, world, dialogues, k, store, opened,
                                          progress))
        finally:
            store.close()
    return summarise(scores, k)


def _canonical(retriever, name: str) -> str:
    """The world's canonical name for `name`, or `name` itself when the world does not know it."""
    from agent.world.retrieval import UnknownEntity

    try:
        return retriever.resolve(name)
    except UnknownEntity:
        return name


async def _run_all(settings: AgentSettings, world: str, dialogues: Sequence[Dialogue], k: int,
                   store, opened, progress) -> list[TurnScore]:
    from agent.conversation.session import Conversation

    scores: list[TurnScore] = []
    agent = None
    total, done = sum(len(d.turns) for d in dialogues), 0
    for dialogue in dialogues:
        conv = Conversation.open(settings, world, new=True, store=store, open_world=opened,
                                 agent=agent)
        agent = conv.agent  # built once, shared by every dialogue
        lexicon = conv.lexicon
        for number, turn in enumerate(dialogue.turns, start=1):
            if progress:
                progress(done, total)
            started = time.perf_counter()
            result = await conv.ask(turn.q)
            ms = (time.perf_counter() - started) * 1000
            scores.append(score_turn(dialogue.id, number, turn, result.resolved_question,
                                     ranked_chapters(result), lexicon.names_in,
                                     lambda name: _canonical(opened.retriever, name), k, ms,
                                     [p.chapter for p in result.evidence]))
            done += 1
        conv.close()  # owns neither store nor retriever: releases nothing shared
    if progress:
        progress(done, total)
    return scores
