"""A reader that small local models can drive (`model.prompt = "lean"`, `model.output = "text"`).

A 1.5B model on two CPU cores reads ~30 prompt tokens and writes ~2–3 tokens a second, so
every token of the prompt and of the answer costs time, and a long JSON answer it cannot finish
costs the whole turn. This module holds what makes the loop fit such a model:

- **A lean first prompt** (`LEAN_INSTRUCTIONS`, `SmallContext.prepare_tools`): short
  instructions, one-line tool descriptions, only the arguments a tool cannot do without, and
  only the tools `model.tools` names.
- **Tool results sized for a small context** (`SmallContext.after_tool_execute`): passages are
  sent as `{"id": "P3", "ch": 1, "text": …}` with the text trimmed around the sentence that best
  matches the call's query, a passage already shown in this run is not sent again, and what one
  round of tool calls returns fits in `model.round_tokens`.
- **A JSON action fallback** (`SmallContext.after_model_request`): a model that writes its tool
  call as text (`{"name": "vector_search", "arguments": {…}}`, in a ```json fence or in
  `<tool_call>` tags) instead of calling the tool natively gets that call run as if it had.
- **An answer it can finish** (`read_text_answer`): a short plain answer that cites the passage
  ids it used ([P3]); the code expands every id into a citation with a quote (the passage's
  sentence that best supports the answer) and its chapter and lines.
- **The best evidence** (`evidence_of`): when a limit ends the turn first, an extractive answer
  made of the sentences of the passages read that best match the question, marked as evidence
  and not as the model's answer.

Short ids are positions in `deps.seen` (the passages the tools returned in this run, in the
order they came), so the tools, the output function and the fallback all read them the same way.
"""

from __future__ import annotations

import copy
import json
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic_ai import (
    ModelResponse,
    ModelRetry,
    RunContext,
    SkipModelRequest,
    TextPart,
    ToolCallPart,
)
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.models import ModelRequestContext
from pydantic_ai.tools import ToolDefinition

from agent.blocking import run_blocking
from agent.deps import LoreDeps
from agent.history import estimate_tokens
from agent.json_actions import json_objects, tool_calls_in
from agent.schemas import Answer, Citation, Passage, Relation, TimelineEvent
from agent.tools import TOOL_NAMES
from stores import lang

LEAN_INSTRUCTIONS = """\
Answer questions about one story from its text, which only your tools can search.
1. Call a tool first; search with words from the question, in the story's language.
2. Then answer in one short sentence in the question's language: name the person, place or \
thing asked for and cite the ids of the passages you used, like: 刘备、关羽、张飞 [P1].
3. If the passages do not say, answer only: NOT IN TEXT
You have at most {rounds} rounds of tool calls."""

SHORT_DESCRIPTIONS = {
    "vector_search": "Search the story's text for passages about the query.",
    "keyword_search": "Find passages containing these exact words (names, places, phrases).",
    "graph_search": "How an entity is related to others (or to `other`).",
    "track_entity": "An entity's appearances in story order.",
    "read_passage": "Read a passage (by id, e.g. P3) with its neighbours.",
    "recall_session": "Recall what was said earlier in this conversation.",
}
"""One line per tool for the lean prompt (the full docstrings are ~5× longer)."""

KEPT_ARGUMENTS = {"graph_search": ("other",)}
"""Optional arguments the lean schemas keep (all required ones are always kept)."""

PASSAGE_CHARS_CJK = 160
"""A passage sent to a small model is trimmed to about this many CJK characters …"""
PASSAGE_CHARS_LATIN = 600
"""… or this many characters of alphabetic text, around its best sentence."""
QUOTE_CHARS = 120
"""An expanded quote is at most this long."""

REF = re.compile(r"\bP(\d{1,3})\b")
MARKER = re.compile(r"[\[［【(（]\s*((?:P?\d{1,3}\s*[,，、;；]?\s*)+)[\]］】)）]")
REFUSAL = lang.says_not_in_text()
QUERY_ARGUMENTS = ("query", "entity", "other")
"""The tool arguments whose words a passage is trimmed around."""
_CJK = lang.HAN
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]+|\d+")
_HAN_RUN = re.compile(f"[{lang.HAN_RANGES}]+")


# -- ids ----------------------------------------------------------------------------------------
def passages_seen(deps: LoreDeps) -> list[Passage]:
    return [p for p in deps.seen.values() if isinstance(p, Passage)]


def short_id(deps: LoreDeps, chunk_id: str) -> str:
    """P1, P2 … : the passage's place among those the tools returned in this run."""
    for n, key in enumerate(deps.seen, start=1):
        if key == chunk_id:
            return f"P{n}"
    return chunk_id


def by_short_id(deps: LoreDeps, ref: str) -> Passage | None:
    """The passage a short id (P3, or 3) or a chunk id stands for, None when there is none."""
    found = deps.seen.get(ref)
    if isinstance(found, Passage):
        return found
    match = re.fullmatch(r"P?(\d{1,3})", ref.strip(), re.I)
    if match is None:
        return None
    keys = list(deps.seen)
    n = int(match.group(1))
    value = deps.seen[keys[n - 1]] if 0 < n <= len(keys) else None
    return value if isinstance(value, Passage) else None


# -- words ----------------------------------------------------------------------------------------
def terms(text: str) -> set[str]:
    """Comparable pieces of `text`: Chinese character pairs (and single characters of a run of
    one) and English words or numbers, case-folded; no segmenter needed."""
    found = {w.casefold() for w in _WORD.findall(text) if len(w) > 2 or w.isdigit()}
    for run in _HAN_RUN.findall(text):
        found.update([run[i:i + 2] for i in range(len(run) - 1)] or [run])
    return found


def sentences(text: str) -> list[tuple[int, str]]:
    """(offset, sentence) pieces of `text`, punctuation kept (the vocabulary's one splitter)."""
    return [(start, text[start:end]) for start, end in lang.sentences(text)] or [(0, text)]


def overlap(words: set[str], text: str) -> int:
    return len(words & terms(text))


def trim(text: str, query: str, limit: int) -> str:
    """`text` cut to about `limit` characters around the sentence that best matches `query`."""
    flat = text.strip()
    if len(flat) <= limit:
        return flat
    wanted = terms(query)
    pieces = sentences(flat)
    best = max(range(len(pieces)), key=lambda i: (overlap(wanted, pieces[i][1]), -i))
    lo = hi = best
    size = len(pieces[best][1])
    while True:  # widen by whole sentences, after first, while they fit
        grew = False
        for side in (hi + 1, lo - 1):
            if 0 <= side < len(pieces) and size + len(pieces[side][1]) <= limit:
                size += len(pieces[side][1])
                lo, hi = min(lo, side), max(hi, side)
                grew = True
        if not grew:
            break
    start, end = pieces[lo][0], pieces[hi][0] + len(pieces[hi][1])
    shown = flat[start:end].strip()[:limit]
    return ("…" if start > 0 else "") + shown + ("…" if end < len(flat) else "")


def passage_limit(text: str) -> int:
    return PASSAGE_CHARS_CJK if _CJK.search(text) else PASSAGE_CHARS_LATIN


# -- the capability -------------------------------------------------------------------------------
@dataclass
class SmallContext(AbstractCapability[LoreDeps]):
    """The lean prompt, compact and budgeted tool results, and the JSON action fallback."""

    tools: Sequence[str] = ()
    """The lore tools offered (empty: all)."""
    lean: bool = True
    """Compact tool schemas and results (False: only the tool filter and the JSON fallback)."""
    round_tokens: int = 1500
    """What one round of tool calls returns fits in this many tokens (estimated)."""
    search_first: bool = False
    """Make the first round's call for the model: a search for the question as typed."""
    _shown: set[str] = field(default_factory=set)
    _spent: dict[int, int] = field(default_factory=dict)

    async def for_run(self, ctx: RunContext[LoreDeps]) -> SmallContext:
        return replace(self, _shown=set(), _spent={})

    async def prepare_tools(self, ctx: RunContext[LoreDeps],
                            tool_defs: list[ToolDefinition]) -> list[ToolDefinition]:
        offered = [t for t in tool_defs if not self.tools or t.name in self.tools
                   or t.name not in TOOL_NAMES]
        return [compact(t) for t in offered] if self.lean else offered

    async def before_model_request(self, ctx: RunContext[LoreDeps],
                                   request_context: ModelRequestContext) -> ModelRequestContext:
        """With `search_first`, the run's first request is answered by code: a search for the
        question, which a small model would spend a round (and ~20 s) writing out."""
        offered = [t.name for t in request_context.model_request_parameters.function_tools]
        first = next((t for t in ("vector_search", "keyword_search") if t in offered), None)
        if not self.search_first or first is None or any(
                isinstance(m, ModelResponse) and m.run_id == ctx.run_id for m in ctx.messages):
            return request_context
        raise SkipModelRequest(ModelResponse(
            parts=[ToolCallPart(first, {"query": ctx.deps.question},
                                tool_call_id=f"first_{uuid.uuid4().hex[:12]}")],
            model_name="lorekeeper-search-first"))

    async def after_model_request(self, ctx: RunContext[LoreDeps], *,
                                  request_context: ModelRequestContext,
                                  response: ModelResponse) -> ModelResponse:
        """A tool call written as text becomes the tool call it means (native calls first)."""
        if any(isinstance(p, ToolCallPart) for p in response.parts):
            return response
        text = "".join(p.content for p in response.parts if isinstance(p, TextPart))
        offered = {t.name for t in request_context.model_request_parameters.function_tools}
        calls = tool_calls_in(text, offered) if text and offered else []
        if not calls:
            return response
        parts = [ToolCallPart(name, args, tool_call_id=f"json_{uuid.uuid4().hex[:12]}")
                 for name, args in calls]
        return replace(response, parts=parts)

    async def before_tool_execute(self, ctx: RunContext[LoreDeps], *, call: ToolCallPart,
                                  tool_def: ToolDefinition, args: dict[str, Any]) -> dict[str, Any]:
        """A short id (P3) where a chunk id is wanted means that passage's chunk id."""
        ref = args.get("chunk_id")
        if isinstance(ref, str):
            passage = by_short_id(ctx.deps, ref)
            if passage is not None:
                return {**args, "chunk_id": passage.chunk_id}
        return args

    async def after_tool_execute(self, ctx: RunContext[LoreDeps], *, call: ToolCallPart,
                                 tool_def: ToolDefinition, args: dict[str, Any],
                                 result: Any) -> Any:
        if not self.lean or call.tool_name not in TOOL_NAMES:
            return result
        query = " ".join(str(args.get(k) or "") for k in QUERY_ARGUMENTS)
        budget = self.round_tokens - self._spent.get(ctx.run_step, 0)
        shown: list[dict[str, Any]] = []
        again: list[str] = []
        left = 0
        for item in result if isinstance(result, list) else [result]:
            row = self._row(ctx.deps, item, query, again)
            if row is None:
                continue
            cost = estimate_tokens(json.dumps(row, ensure_ascii=False))
            if shown and cost > budget:
                left += 1
                continue
            budget -= cost
            shown.append(row)
        self._spent[ctx.run_step] = self.round_tokens - budget
        reply: dict[str, Any] = {"results": shown}
        if again:
            reply["shown_before"] = again
        if left:
            reply["not_shown"] = f"{left} more (over this round's budget)"
        return reply

    def _row(self, deps: LoreDeps, item: Any, query: str, again: list[str]) -> dict[str, Any] | None:
        if isinstance(item, Passage):
            return self._passage(deps, item, query, again)
        if isinstance(item, Relation):
            evidence = [r for p in item.evidence[:2]
                        if (r := self._passage(deps, p, query, again)) is not None]
            return {"source": item.source, "target": item.target, "type": item.type,
                    "chapters": item.chapters[:5], "passages": evidence}
        if isinstance(item, TimelineEvent):
            return {"ch": item.chapter, "gist": item.gist}
        if hasattr(item, "model_dump"):
            return item.model_dump(mode="json", exclude_defaults=True)
        return {"value": item}

    def _passage(self, deps: LoreDeps, passage: Passage, query: str,
                 again: list[str]) -> dict[str, Any] | None:
        ref = short_id(deps, passage.chunk_id)
        if passage.chunk_id in self._shown:
            again.append(ref)
            return None
        self._shown.add(passage.chunk_id)
        return {"id": ref, "ch": passage.chapter,
                "text": trim(passage.text, query, passage_limit(passage.text))}


def compact(tool: ToolDefinition) -> ToolDefinition:
    """The tool with a one-line description and only the arguments it needs, undescribed."""
    schema = copy.deepcopy(tool.parameters_json_schema)
    required = list(schema.get("required", []))
    keep = set(required) | set(KEPT_ARGUMENTS.get(tool.name, ()))
    props = {name: {k: v for k, v in spec.items() if k not in ("description", "title")}
             for name, spec in schema.get("properties", {}).items() if name in keep}
    lean: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        lean["required"] = required
    return replace(tool, description=SHORT_DESCRIPTIONS.get(tool.name, tool.description),
                   parameters_json_schema=lean)


# -- the answer -----------------------------------------------------------------------------------
async def read_text_answer(ctx: RunContext[LoreDeps], text: str) -> Answer:
    """The model's plain-text answer as an `Answer`: its passage ids expanded into citations."""
    deps = ctx.deps
    return await run_blocking(deps.retriever, text_answer, text, deps)


def text_answer(text: str, deps: LoreDeps) -> Answer:
    text = re.sub(r"<think>.*?</think>", "", text, flags=re.S).strip()
    if text[:1] in "{[`<":
        if tool_calls_in(text, TOOL_NAMES):  # a tool call when no tool was left to call
            return evidence_of(deps, "max_rounds", len(deps.calls))
        for value in json_objects(text):
            if not isinstance(value, dict):
                continue
            if isinstance(value.get("text"), str) and "citations" in value:
                answer = Answer.model_validate(value)  # an Answer written out (or the fallback's)
                return answer if all(c.quote for c in answer.citations) else expand(answer, deps)
            if isinstance(value.get("answer"), str):  # {"answer": "…"}: read its text
                text = value["answer"]
                break
    zh = bool(_CJK.search(deps.question or text))
    refs = [ref for group in MARKER.findall(text) for ref in re.findall(r"\d{1,3}", group)]
    if REFUSAL.search(text) or not text:
        return Answer(text="文本中没有提到。" if zh else "It is not in the text.",
                      resolved_question=deps.question, stop_reason="not_in_text")
    cited = [p for ref in dict.fromkeys(refs) if (p := by_short_id(deps, ref)) is not None]
    numbers = {short_id(deps, p.chunk_id): n for n, p in enumerate(cited, start=1)}

    def renumber(match: re.Match[str]) -> str:
        kept = [numbers.get(f"P{r}") for r in re.findall(r"\d{1,3}", match.group(1))]
        return "".join(f"[{n}]" for n in dict.fromkeys(kept) if n)

    body = MARKER.sub(renumber, text).strip()
    if not deps.seen:
        raise ModelRetry("You have read no passage yet: search the text with a tool first.")
    if not cited:  # no id given: the passage that says most of what the answer says
        best = supporting(passages_seen(deps), body)
        if best is not None:
            cited, body = [best], body + " [1]"
    entities = mentioned(deps, body)
    cited = supported(cited, passages_seen(deps), set(entities) - set(mentioned(deps, deps.question)))
    answer = Answer(text=body, resolved_question=deps.question, stop_reason="answered",
                    citations=[Citation(chunk_id=p.chunk_id, quote="") for p in cited],
                    entities=entities)
    return expand(answer, deps)


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


def expand(answer: Answer, deps: LoreDeps) -> Answer:
    """Each citation with the quote from its passage that best supports the answer, and where
    it stands (chapter, source, lines)."""
    wanted = terms(answer.text)
    citations = []
    for citation in answer.citations:
        passage = by_short_id(deps, citation.chunk_id) or _chunk(deps, citation.chunk_id)
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
    pieces = [s.strip() for _, s in sentences(text) if s.strip()]
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


def evidence_of(deps: LoreDeps, stop_reason: str, rounds: int = 0, limit: int = 3) -> Answer:
    """The best cited answer when the model gave none: the sentences of the passages read that
    best match the question, one per passage, best first, marked as evidence."""
    question = deps.question
    zh = bool(_CJK.search(question))
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
    for n, passage in enumerate(passages_seen(deps)):
        sentence = best_sentence(passage.text, wanted)
        ranked.append((overlap(wanted, sentence), -n, passage, sentence))
    ranked.sort(key=lambda r: r[:2], reverse=True)
    best = [r for r in ranked if r[0] > 0][:limit] or ranked[:1]
    if not best:
        nothing = "没有检索到相关段落。" if zh else " No passage was found for this question."
        return Answer(text=lead + nothing, resolved_question=question, stop_reason=stop_reason)
    citations = [Citation(chunk_id=p.chunk_id, chapter=p.chapter, source=p.source,
                          lines=p.lines, quote=s) for _, _, p, s in best]
    lines = [f"[{n}] " + (f"第{c.chapter}回：" if zh else f"ch. {c.chapter}: ") + c.quote
             for n, c in enumerate(citations, start=1)]
    marked = "以下是找到的最相关原文（证据，不是回答）：" if zh else \
        " The most relevant passages found (evidence, not an answer):"
    return Answer(text=lead + marked + "\n" + "\n".join(lines), citations=citations,
                  resolved_question=question, stop_reason=stop_reason,
                  entities=list(dict.fromkeys(e for _, _, p, _ in best for e in p.entities[:2])))
