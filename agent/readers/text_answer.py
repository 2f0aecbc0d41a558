"""The answer a small model writes as plain text (`model.output = "text"`), and the answer made
for it when it writes none.

- **An answer it can finish** (`read_text_answer`): a short plain answer that cites the passage
  ids it used ([P3]); the code expands every id into a citation with a quote (the passage's
  sentence that best supports the answer) and its chapter and lines.
- **The best evidence** (`evidence_of`): when a limit ends the turn first, an extractive answer
  made of the sentences of the passages read that best match the question, marked as evidence
  and not as the model's answer.

The passage ids are agent.readers.small_context's: positions among the passages the run's tools
returned (`Findings.passages`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from pydantic_ai import ModelRetry, RunContext

from agent.readers.json_actions import json_objects, tool_calls_in
from agent.readers.small_context import CJK, by_short_id, overlap, short_id, terms
from agent.schemas import Answer, Citation, Passage
from agent.tools.deps import LoreDeps
from agent.tools.findings import Findings
from agent.tools.toolset import TOOL_NAMES
from agent.world.blocking import run_blocking
from stores import lang
from stores.lang.text import sentences
from stores.models import chapter_label

MARKER = re.compile(r"[\[［【(（]\s*((?:P?\d{1,3}\s*[,，、;；]?\s*)+)[\]］】)）]")
REFUSAL = lang.says_not_in_text()
QUOTE_CHARS = 120
"""An expanded quote is at most this long."""


async def read_text_answer(ctx: RunContext[LoreDeps], text: str) -> Answer:
    """The model's plain-text answer as an `Answer`: its passage ids expanded into citations."""
    found = Findings.of(ctx.messages, ctx.run_id)
    return await run_blocking(ctx.deps.retriever, text_answer, text, ctx.deps, found.passages,
                              len(found.calls))


def text_answer(text: str, deps: LoreDeps, seen: Mapping[str, Passage], calls: int = 0) -> Answer:
    """`text` as an `Answer`; `seen` are the passages the run's tools returned, in order (their
    places are the passage ids), `calls` how many tool calls the run made."""
    text = re.sub(r"<think>.*?</think>", "", text, flags=re.S).strip()
    if text[:1] in "{[`<":
        if tool_calls_in(text, TOOL_NAMES):  # a tool call when no tool was left to call
            return evidence_of(deps.question, list(seen.values()), "max_rounds", calls)
        for value in json_objects(text):
            if not isinstance(value, dict):
                continue
            if isinstance(value.get("text"), str) and "citations" in value:
                answer = Answer.model_validate(value)  # an Answer written out (or the fallback's)
                return (answer if all(c.quote for c in answer.citations)
                        else expand(answer, deps, seen))
            if isinstance(value.get("answer"), str):  # {"answer": "…"}: read its text
                text = value["answer"]
                break
    zh = bool(CJK.search(deps.question or text))
    refs = [ref for group in MARKER.findall(text) for ref in re.findall(r"\d{1,3}", group)]
    if REFUSAL.search(text) or not text:
        return Answer(text="文本中没有提到。" if zh else "It is not in the text.",
                      resolved_question=deps.question, stop_reason="not_in_text")
    cited = [p for ref in dict.fromkeys(refs) if (p := by_short_id(seen, ref)) is not None]
    numbers = {short_id(seen, p.chunk_id): n for n, p in enumerate(cited, start=1)}

    def renumber(match: re.Match[str]) -> str:
        kept = [numbers.get(f"P{r}") for r in re.findall(r"\d{1,3}", match.group(1))]
        return "".join(f"[{n}]" for n in dict.fromkeys(kept) if n)

    body = MARKER.sub(renumber, text).strip()
    if not seen:
        raise ModelRetry("You have read no passage yet: search the text with a tool first.")
    read = list(seen.values())
    if not cited:  # no id given: the passage that says most of what the answer says
        best = supporting(read, body)
        if best is not None:
            cited, body = [best], body + " [1]"
    entities = mentioned(deps, body)
    cited = supported(cited, read, set(entities) - set(mentioned(deps, deps.question)))
    answer = Answer(text=body, resolved_question=deps.question, stop_reason="answered",
                    citations=[Citation(chunk_id=p.chunk_id, quote="") for p in cited],
                    entities=entities)
    return expand(answer, deps, seen)


def supported(cited: list[Passage], seen: Sequence[Passage], named: set[str]) -> list[Passage]:
    """The cited passages, or the passage read that names more of the entities the answer
    names (and the question does not) than any cited one: a small model often cites the
    first id it saw rather than the passage that says what it answered."""
    if not named:
        return cited

    def covers(p: Passage) -> int:
        return len(named & set(p.entities))

    best = max(seen, key=lambda p: (covers(p), -seen.index(p)), default=None)
    if best is None or covers(best) <= max(map(covers, cited), default=0):
        return cited
    return [best]


def expand(answer: Answer, deps: LoreDeps, seen: Mapping[str, Passage]) -> Answer:
    """Each citation with the quote from its passage that best supports the answer, and where
    it stands (chapter, source, lines)."""
    wanted = terms(answer.text)
    citations = []
    for citation in answer.citations:
        passage = by_short_id(seen, citation.chunk_id) or _chunk(deps, citation.chunk_id)
        if passage is None:
            continue
        quote = citation.quote or best_sentence(passage.text, wanted)
        citations.append(Citation(chunk_id=passage.chunk_id, chapter=passage.chapter,
                                  source=passage.source, lines=passage.lines, quote=quote))
    return answer.model_copy(update={"citations": citations})


def _chunk(deps: LoreDeps, chunk_id: str) -> Passage | None:
    chunk = deps.retriever.chunks.get(chunk_id)
    return deps.retriever.passage(chunk) if chunk is not None else None


def best_sentence(text: str, wanted: set[str]) -> str:
    """The sentence of `text` sharing most with `wanted` (the first on a tie), cut to length."""
    pieces = [s.text.strip() for s in sentences(text) if s.text.strip()]
    best = max(pieces, key=lambda s: (overlap(wanted, s), -pieces.index(s)))
    return best[:QUOTE_CHARS]


def supporting(passages: Sequence[Passage], text: str) -> Passage | None:
    """The passage that shares most with `text` (None when none shares anything)."""
    wanted = terms(text)
    scored = [(overlap(wanted, p.text), -n, p) for n, p in enumerate(passages)]
    best = max(scored, key=lambda s: s[:2], default=None)
    return best[2] if best is not None and best[0] > 0 else None


def mentioned(deps: LoreDeps, text: str) -> list[str]:
    """Canonical names of the entities `text` names, in order."""
    try:
        return list(dict.fromkeys(name for _, _, name in deps.retriever.spans(text)))
    except Exception:  # noqa: BLE001  names are a nicety; the answer stands without them
        return []


def evidence_of(question: str, read: Sequence[Passage], stop_reason: str, rounds: int = 0,
                limit: int = 3) -> Answer:
    """The best cited answer when the model gave none: the sentences of the passages `read`
    (in the order the tools returned them) that best match the question, one per passage, best
    first, marked as evidence."""
    zh = bool(CJK.search(question))
    if stop_reason == "max_rounds":
        lead = (f"检索了{rounds}轮，模型仍没有给出回答。" if zh else
                f"I used my {rounds} rounds of searching without settling on an answer.")
    elif stop_reason == "time_limit":
        lead = "回答超过了时限，模型没有给出回答。" if zh else \
            "The model gave no answer within the time limit."
    else:
        lead = "模型没有给出回答。" if zh else "The model gave no answer."
    wanted = terms(question)
    ranked = []
    for n, passage in enumerate(read):
        sentence = best_sentence(passage.text, wanted)
        ranked.append((overlap(wanted, sentence), -n, passage, sentence))
    ranked.sort(key=lambda r: r[:2], reverse=True)
    best = [r for r in ranked if r[0] > 0][:limit] or ranked[:1]
    if not best:
        nothing = "没有检索到相关段落。" if zh else " No passage was found for this question."
        return Answer(text=lead + nothing, resolved_question=question, stop_reason=stop_reason)
    citations = [Citation(chunk_id=p.chunk_id, chapter=p.chapter, source=p.source,
                          lines=p.lines, quote=s) for _, _, p, s in best]
    lines = [f"[{n}] " + chapter_label(c.chapter, zh) + ("：" if zh else ": ") + c.quote
             for n, c in enumerate(citations, start=1)]
    marked = "以下是找到的最相关原文（证据，不是回答）：" if zh else \
        " The most relevant passages found (evidence, not an answer):"
    return Answer(text=lead + marked + "\n" + "\n".join(lines), citations=citations,
                  resolved_question=question, stop_reason=stop_reason,
                  entities=list(dict.fromkeys(e for _, _, p, _ in best for e in p.entities[:2])))
