"""`lore eval cards`: does "who is X" say who X is, and does a card keep the spoiler horizon?

A cards file (bench/questions/cards_*.jsonl) holds one record per person: `entity`, the `names`
a reader may use, the `question` ("诸葛亮是谁？", "Who is Mr. Darcy?") and `accept`, short terms
(offices, kin, roles) any one of which in the answer's first sentence shows it says who the
person is. The question goes through the configured reader like any question; the answer is
right when its first line holds an accepted term (an English one as a whole word: `holds_term`)
and cites a passage.

The horizon check reads every card of the world as of the book's middle chapter and counts the
citations that point past it (there must be none).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from agent.conversation.core import AskResult
from agent.views.card_text import Voice, card_answer
from agent.world.retrieval import Retriever
from stores.errors import InputError, at_line
from stores.lang import has_han

FIELDS = ("id", "entity", "question", "accept")


@dataclass(slots=True)
class CardGrade:
    """One record's outcome."""

    id: str
    entity: str
    question: str
    lead: str
    """The answer's first line."""
    right: bool
    cited: bool
    known: bool
    """Whether the world knows the entity by one of the record's names."""


@dataclass(slots=True)
class CardReport:
    """A cards file's figures, and the horizon check."""

    records: int = 0
    right: int = 0
    known: int = 0
    horizon: int = 0
    cards_checked: int = 0
    late_citations: int = 0
    """Citations of a card read as of `horizon` that point at a later chapter."""
    grades: list[CardGrade] = field(default_factory=list)


def load_cards(path: Path) -> list[dict[str, Any]]:
    """The records of a cards file, each with the fields `lore eval cards` needs."""
    records = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"not valid JSON: {exc.msg}", where=at_line(path, n),
                             hint="one JSON object per line") from None
        missing = [f for f in FIELDS if f not in record]
        if missing:
            raise InputError(f"missing {', '.join(missing)}", where=at_line(path, n),
                             hint=f"each record needs {', '.join(FIELDS)}")
        records.append(record)
    return records


def grade_cards(records: list[dict[str, Any]], retriever: Retriever,
                ask: Callable[[str], AskResult]) -> list[CardGrade]:
    grades = []
    for record in records:
        known = any(retriever.matcher.resolve(n) for n in [record["entity"],
                                                           *record.get("names", [])])
        answer = ask(record["question"]).answer
        lead = answer.text.strip().split("\n", 1)[0]
        grades.append(CardGrade(
            id=record["id"], entity=record["entity"], question=record["question"], lead=lead,
            right=any(holds_term(lead, a) for a in record["accept"]) and bool(answer.citations),
            cited=bool(answer.citations), known=known))
    return grades


def holds_term(text: str, term: str) -> bool:
    """The accepted term stands in the text, case aside: in Latin script as a whole word or
    phrase, a plural ending allowed (son, sons; not the "son" of "person"); in Han script
    anywhere (丞相 in 蜀汉丞相)."""
    if has_han(term):
        return term in text
    return re.search(rf"(?<![^\W_]){re.escape(term)}(?:s|es)?(?![^\W_])", text, re.I) is not None


def late_citations(retriever: Retriever, horizon: int) -> tuple[int, int]:
    """(cards read, citations past `horizon`) over every card of the world, read as of it."""
    world = retriever.stores.world
    voice_zh = Voice(True, retriever.entities, retriever.lexicon.gender)
    checked = late = 0
    for entity in retriever.entities:
        card = retriever.stores.catalog.card(world, entity)
        if card is None:
            continue
        answer = card_answer(card, retriever.chunks, voice_zh, horizon)
        checked += 1
        late += sum(1 for c in answer.citations if c.chapter > horizon)
    return checked, late


def middle_chapter(retriever: Retriever) -> int:
    """The story's middle chapter (lore entries are not chapters)."""
    chapters = sorted(retriever.chapter_titles)
    return chapters[len(chapters) // 2] if chapters else 0


def summarise(grades: list[CardGrade], checked: int, late: int, horizon: int) -> CardReport:
    return CardReport(records=len(grades), right=sum(g.right for g in grades),
                      known=sum(g.known for g in grades), horizon=horizon,
                      cards_checked=checked, late_citations=late, grades=grades)


def render(report: CardReport) -> str:
    share = report.right / report.records if report.records else 0.0
    lines = [f"who is X: {report.right} of {report.records} right ({share:.0%}); "
             f"{report.known} of {report.records} people known to the world",
             f"horizon at ch. {report.horizon}: {report.cards_checked} cards read, "
             f"{report.late_citations} citations past it"]
    for g in report.grades:
        if not g.right:
            lead = g.lead if len(g.lead) <= 100 else g.lead[:99] + "…"
            lines.append(f"  ✗ {g.question}  → {lead}")
    return "\n".join(lines)


def to_json(report: CardReport) -> str:
    return json.dumps(asdict(report), ensure_ascii=False)
