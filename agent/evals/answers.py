"""`lore eval answers`: is the answer a user reads right, and what did it cost?

Retrieval figures say whether the right chapters were found; this says whether the reader then
named the answer. Per question:

- **named** — the answer states what the gold answer's first clause names. What must be named
  is read from the world, not from word lists: the entities that clause mentions (alias-aware:
  孔明 counts for 诸葛亮; a bracket's gloss aside), leaving out the ones the question itself names
  by the same words; with no entity, its numbers (第三回 = 第3回); else at least half of its
  words that the question does not already use. Only what the answer *states* counts: quotes from the passages, text in
  quotation marks and in brackets (chapter titles) are taken out first, so a name inside a cited
  quote is not mistaken for an answer.
- **refused** — the reader said the text does not tell (stop_reason `not_in_text`): right on
  unanswerable questions, wrong on answerable ones.
- **citations verified** — every cited quote stands in the passage it cites.
- rounds, model requests, prompt and completion tokens, time to the first answer text, total time.
"""

from __future__ import annotations

import re
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field

from agent.answer.support import (
    BRACKETED,
    answer_lines,
    residue,
    stated_text,
    with_arabic,
)
from agent.conversation.core import AskResult
from agent.evals.retrieval import Question, percentiles
from agent.world.retrieval import Retriever
from stores.lang import HAN_RANGES
from stores.lang.en import STOPWORDS as EN_STOPWORDS
from stores.lang.text import first_clause, first_quotation, quoted_words

_ARABIC = re.compile(r"(?<!\d)\d+(?!\d)")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]{2,}")
_HAN_RUN = re.compile(f"[{HAN_RANGES}]{{2,}}")
_SPACE = re.compile(r"\s+")
_PUNCT = re.compile(r"[\W_]+")


@dataclass
class Key:
    """What a right answer must state: every group named (any form of it), or, for words, at
    least half of them."""

    groups: list[set[str]] = field(default_factory=list)
    words: set[str] = field(default_factory=set)
    kind: str = "entity"
    """entity, number, quote or words."""
    quote: str = ""
    """For a gold answer that quotes the text: the quoted words, which the answer must give."""


def gold_key(question: Question, retriever: Retriever) -> Key:
    """What the answer to `question` must state (see the module docstring)."""
    clause = first_clause(question.answer)
    asked = question.question
    quoted = first_quotation(question.answer)
    if quoted and quoted.start() <= len(clause):
        return Key(quote=quoted_words(quoted), kind="quote")
    groups: dict[str, set[str]] = {}
    # a bracket glosses the answer (华雄（董卓的大将）): the names in it need not be stated
    named = BRACKETED.sub("", clause).strip() or clause
    for start, end, name in retriever.spans(named):
        if named[start:end] in asked and name not in groups:
            continue  # the question's own subject, in the question's own words
        forms = {name, *retriever.entities.get(name, [])}
        groups[name] = {f for f in forms if f and f not in asked}
    groups = {n: forms for n, forms in groups.items() if forms}
    if groups:
        return Key(groups=list(groups.values()))
    numbers = set(_ARABIC.findall(with_arabic(BRACKETED.sub("", clause)))) - set(
        _ARABIC.findall(with_arabic(asked)))
    if numbers:
        return Key(groups=[{n} for n in sorted(numbers)], kind="number")
    words = _words(BRACKETED.sub("", clause)) - _words(asked)
    return Key(words=words or _words(BRACKETED.sub("", clause), function_words=True)
               - _words(asked, function_words=True), kind="words")


def _words(text: str, function_words: bool = False) -> set[str]:
    """English words of three letters or more, function words left out unless asked for (she,
    his, the: any answer has them), and Chinese character pairs (no segmenter needed to compare
    a gold clause with an answer)."""
    pairs = {run[i:i + 2] for run in _HAN_RUN.findall(text) for i in range(len(run) - 1)}
    return {w.casefold() for w in _WORD.findall(text)
            if function_words or w.casefold() not in EN_STOPWORDS} | pairs


def stated(result: AskResult) -> str:
    """The answer's own words: no evidence lines, cited quotes, quoted or bracketed text."""
    return stated_text(result.answer)


def answer_text(result: AskResult) -> str:
    return answer_lines(result.answer)


def names(result: AskResult, key: Key) -> bool:
    """Whether the answer states what `key` asks for."""
    if key.kind == "quote":  # the quoted words may stand in quotation marks: keep those
        return _PUNCT.sub("", key.quote.casefold()) in _PUNCT.sub(
            "", answer_text(result).casefold())
    return states(stated(result), key)


def states(text: str, key: Key, *, every: bool = True) -> bool:
    """Whether `text` says what `key` asks for (with `every` False: one of its entities is
    enough, as for one candidate of a two-person answer)."""
    if key.kind == "quote":
        return _PUNCT.sub("", key.quote.casefold()) in _PUNCT.sub("", text.casefold())
    if key.kind == "number":
        found = set(_ARABIC.findall(with_arabic(text)))
        return all(group <= found for group in key.groups)
    folded = text.casefold()
    if key.kind == "words":
        return bool(key.words) and sum(w in folded for w in key.words) * 2 >= len(key.words)
    named = (any(form.casefold() in folded for form in group) for group in key.groups)
    return all(named) if every else any(named)


def holds(text: str, key: Key, evidence: str = "") -> bool:
    """A text holds the answer: what the gold answer states (`states`), or the question's
    evidence quote, punctuation aside (the issue-38 shares: context, first line, answer)."""
    if evidence and _PUNCT.sub("", evidence.casefold()) in _PUNCT.sub("", text.casefold()):
        return True
    return states(text, key)


def shares(result: AskResult, key: Key, evidence: str) -> tuple[bool, bool, bool]:
    """Whether the evidence the reader was given, the answer's first line, and the whole answer
    (its quotes included) hold the answer."""
    context = "\n".join(p.text for p in result.evidence)
    text = result.answer.text.strip()
    first = text.split("\n", 1)[0]
    quotes = "\n".join(c.quote for c in result.answer.citations)
    return holds(context, key, evidence), holds(first, key, evidence), holds(
        f"{text}\n{quotes}", key, evidence)


def citations_verified(result: AskResult, retriever: Retriever) -> bool:
    """Every citation's quote stands, whitespace aside, in the passage it points at."""
    for citation in result.answer.citations:
        chunk = retriever.chunks.get(citation.chunk_id)
        quote = _SPACE.sub("", citation.quote)
        if chunk is None or not quote or quote not in _SPACE.sub("", chunk.text):
            return False
    return True


@dataclass
class Grade:
    """One question's answer, graded."""

    id: str
    type: str
    answerable: bool
    named: bool
    refused: bool
    stated: bool
    """The answer states something of its own: it ended `answered` (not as evidence, at a limit
    or refused) and says more than its evidence lines."""
    unsupported: bool
    """It stated a name or number that none of its cited passages holds (agent/answer/support.py)."""
    cited: int
    citations_ok: bool
    requests: int
    tool_calls: int
    input_tokens: int
    output_tokens: int
    first_text_s: float | None
    total_s: float
    key_kind: str
    answer: str
    context_holds: bool = False
    """The evidence the reader was given holds the answer (its words, or the evidence quote)."""
    first_line_holds: bool = False
    answer_holds: bool = False
    """The whole answer, its quotes included, holds it."""


Asker = Callable[[str], tuple[AskResult, float | None, float]]
"""A question → its result, seconds to the first answer text (None: never streamed), seconds."""


def grade_all(questions: Sequence[Question], retriever: Retriever, asker: Asker,
              progress: Callable[[int, int], None] | None = None) -> list[Grade]:
    """Ask every question and grade its answer."""
    grades = []
    for done, q in enumerate(questions):
        if progress:
            progress(done, len(questions))
        result, first_s, total_s = asker(q.question)
        answerable = bool(q.gold_chapters)
        key = gold_key(q, retriever)
        context, first, whole = shares(result, key, q.evidence) if answerable else (
            False, False, False)
        grades.append(Grade(
            id=q.id, type=q.type, answerable=answerable,
            named=answerable and names(result, key),
            refused=result.answer.stop_reason == "not_in_text",
            stated=result.answer.stop_reason == "answered" and bool(residue(stated(result))),
            unsupported=bool(result.unsupported),
            cited=len(result.answer.citations),
            citations_ok=citations_verified(result, retriever),
            requests=result.requests, tool_calls=len(result.tool_calls),
            input_tokens=result.input_tokens, output_tokens=result.output_tokens,
            first_text_s=first_s, total_s=total_s, key_kind=key.kind,
            answer=result.answer.text.splitlines()[0][:120] if result.answer.text else "",
            context_holds=context, first_line_holds=first, answer_holds=whole))
    if progress:
        progress(len(questions), len(questions))
    return grades


def timed(ask: Callable[[str, Callable[[object], None]], AskResult]) -> Asker:
    """An Asker over `ask(question, on_text)`, timing the first text it streams and the total."""
    def asker(question: str) -> tuple[AskResult, float | None, float]:
        started = time.perf_counter()
        first: list[float] = []

        def on_text(_: object) -> None:
            if not first:
                first.append(time.perf_counter() - started)

        result = ask(question, on_text)
        return result, (first[0] if first else None), time.perf_counter() - started
    return asker


def summarise(grades: Sequence[Grade]) -> dict:
    """Figures per question type and over all answerable / unanswerable questions."""
    by_type: dict[str, list[Grade]] = defaultdict(list)
    for g in grades:
        by_type[g.type].append(g)
    answerable = [g for g in grades if g.answerable]
    unanswerable = [g for g in grades if not g.answerable]
    stated_ones = [g for g in answerable if g.stated]
    return {
        "n": len(grades),
        "answerable": _rates(answerable),
        "unanswerable": {"n": len(unanswerable),
                         "refused": _share(unanswerable, lambda g: g.refused),
                         "refused_or_unsupported": _share(
                             unanswerable, lambda g: g.refused or g.unsupported)},
        "stated": len(stated_ones),
        "stated_right": _share(stated_ones, lambda g: g.named),
        "holds": {"context": _share(answerable, lambda g: g.context_holds),
                  "first_line": _share(answerable, lambda g: g.first_line_holds),
                  "answer": _share(answerable, lambda g: g.answer_holds)},
        "stated_unsupported": _share([g for g in grades if g.stated], lambda g: g.unsupported),
        "refused_answerable": [g.id for g in answerable if g.refused],
        "by_type": {kind: _rates(gs) for kind, gs in sorted(by_type.items())},
        "citations_verified": _share(grades, lambda g: g.citations_ok),
        "requests": _spread([g.requests for g in grades]),
        "tool_calls": _spread([g.tool_calls for g in grades]),
        "input_tokens": _spread([g.input_tokens for g in grades]),
        "output_tokens": _spread([g.output_tokens for g in grades]),
        "first_text_s": _spread([g.first_text_s for g in grades if g.first_text_s is not None]),
        "total_s": _spread([g.total_s for g in grades]),
        "questions": [asdict(g) for g in grades],
    }


def _rates(grades: Sequence[Grade]) -> dict:
    if grades and not grades[0].answerable:
        return {"n": len(grades), "named": None, "refused": _share(grades, lambda g: g.refused)}
    return {"n": len(grades), "named": _share(grades, lambda g: g.named),
            "refused": _share(grades, lambda g: g.refused)}


def _share(grades: Sequence[Grade], test: Callable[[Grade], bool]) -> float | None:
    return round(sum(map(test, grades)) / len(grades), 3) if grades else None


def _spread(values: Sequence[float]) -> dict:
    if not values:
        return {"p50": None, "p95": None, "max": None}
    return {**percentiles(values, digits=2), "max": round(max(values), 2)}


def render(report: dict, reader: str) -> str:
    """The report as lines for the terminal."""
    def pct(value: float | None) -> str:
        return "—" if value is None else f"{value:.0%}"

    lines = [f"answers of {reader}: named right / said 'not in the text', per question type"]
    for kind, row in report["by_type"].items():
        lines.append(f"  {kind:<13} {pct(row['named']):>5} / {pct(row['refused']):>5}  "
                     f"(n={row['n']})")
    a, u = report["answerable"], report["unanswerable"]
    lines.append(f"  {'answerable':<13} {pct(a['named']):>5} / {pct(a['refused']):>5}  "
                 f"(n={a['n']})")
    lines.append(f"  {'unanswerable':<13} {'':>5}   {pct(u['refused']):>5}  (n={u['n']}; "
                 f"refused or shown unsupported: {pct(u.get('refused_or_unsupported'))})")
    lines.append(f"stated answers right: {pct(report['stated_right'])} of {report['stated']} "
                 f"that state one; stating what no cited passage holds: "
                 f"{pct(report.get('stated_unsupported'))}; citations verified: "
                 f"{pct(report['citations_verified'])}")
    held = report["holds"]
    lines.append(f"holds the answer, of {a['n']} answerable: context {pct(held['context'])}, "
                 f"first line {pct(held['first_line'])}, answer {pct(held['answer'])}")
    refused = report["refused_answerable"]
    if refused:
        lines.append(f"answerable questions refused: {len(refused)} ({', '.join(refused[:8])}"
                     f"{'…' if len(refused) > 8 else ''})")
    for name, unit in (("requests", ""), ("tool_calls", ""), ("input_tokens", ""),
                       ("output_tokens", ""), ("first_text_s", " s"), ("total_s", " s")):
        s = report[name]
        lines.append(f"{name.replace('_', ' ')}: p50 {s['p50']}{unit}, p95 {s['p95']}{unit}, "
                     f"max {s['max']}{unit}")
    return "\n".join(lines)
