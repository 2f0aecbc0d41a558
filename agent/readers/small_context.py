"""The small-model context: what lets a small local model drive the agent (`model.prompt = "lean"`,
`model.output = "text"`).

A 1.5B model on two CPU cores reads ~30 prompt tokens and writes ~2–3 tokens a second, so
every token of the prompt and of the answer costs time, and a long JSON answer it cannot finish
costs the whole turn. This module holds what makes the loop fit such a model, brought by the
reader that serves small models (the OpenAI-compatible one, agent.readers.chat_models.openai_reader) as the
`SmallContext` capability; other readers' agents never carry it:

- **A lean first prompt** (`LEAN_INSTRUCTIONS`, `SmallContext.prepare_tools`): short
  instructions, one-line tool descriptions, only the arguments a tool cannot do without, and
  only the tools `model.tools` names.
- **Tool results sized for a small context** (`SmallContext.after_tool_execute`): passages are
  sent as `{"id": "P3", "ch": 1, "text": …}` with the text trimmed around the sentence that best
  matches the call's query, a passage already shown in this run is not sent again, and what one
  round of tool calls returns fits in `model.round_tokens`.
- **A first round made for it** (`model.search_first`, `SmallContext.before_model_request`): a
  search for the question as typed, or the librarian's whole search (`first_search`, named in
  agent.readers.registry), whose best passages stand as that search's result, with the answers the
  librarian reads in them listed as `candidates` (`{"answer": "宝玉", "id": "P2"}`): a small
  model chooses among them better than it composes.
- **A JSON action fallback** (`SmallContext.after_model_request`): a model that writes its tool
  call as text (`{"name": "vector_search", "arguments": {…}}`, in a ```json fence or in
  `<tool_call>` tags) instead of calling the tool natively gets that call run as if it had.
- **An answer it can finish**, and the best evidence when it gives none: agent.readers.text_answer.

Short ids are positions among the passages the tools returned in this run, in the order they
came (`Findings.passages`: what the run's messages hold; during a round, this capability's own
table of what it has passed on), so the tools, the output function and the fallback all read
them the same way.
"""

from __future__ import annotations

import copy
import json
import re
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic_ai import (
    ModelResponse,
    RunContext,
    SkipModelRequest,
    TextPart,
    ToolCallPart,
    ToolReturn,
)
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.models import ModelRequestContext
from pydantic_ai.tools import ToolDefinition

from agent.memory.history import estimate_tokens
from agent.readers.json_actions import tool_calls_in
from agent.readers.registry import FirstSearch, Prompt
from agent.schemas import Passage, Relation, TimelineEvent
from agent.tools.deps import LoreDeps
from agent.tools.findings import Found
from agent.tools.toolset import TOOL_NAMES, found
from stores import lang
from stores.lang.text import sentences

LEAN_INSTRUCTIONS = """\
Answer questions about one story from its text, which only your tools can search.
1. Call a tool first; search with words from the question, in the story's language.
2. Then answer in one short sentence in the question's language: name the person, place or \
thing asked for and cite the ids of the passages you used, like: 刘备、关羽、张飞 [P1].
3. When a search lists candidates, the answer is most often one of them: choose the one its \
passage supports, or another answer the passages give.
4. Answer only NOT IN TEXT when no passage is about what was asked; if one is, give your \
best answer from it.
You have at most {rounds} rounds of tool calls."""
LEAN_PROMPT = Prompt(LEAN_INSTRUCTIONS, cards_budget=240, cards=1)
"""The prompt a small model reads: the lean instructions and the lead line (who it is) of the
first card of the names in the question."""

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

REF = re.compile(r"\bP(\d{1,3})\b")
FIRST_CALL = "first_"
"""The id prefix of the tool call `search_first` makes for the model."""
QUERY_ARGUMENTS = ("query", "entity", "other")
"""The tool arguments whose words a passage is trimmed around."""
CJK = lang.HAN
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]+|\d+")
_HAN_RUN = re.compile(f"[{lang.HAN_RANGES}]+")


# -- ids ----------------------------------------------------------------------------------------
def short_id(seen: Mapping[str, Passage], chunk_id: str) -> str:
    """P1, P2 … : the passage's place among those the tools returned in this run (`seen`)."""
    for n, key in enumerate(seen, start=1):
        if key == chunk_id:
            return f"P{n}"
    return chunk_id


def by_short_id(seen: Mapping[str, Passage], ref: str) -> Passage | None:
    """The passage a short id (P3, or 3) or a chunk id stands for, None when there is none."""
    passage = seen.get(ref)
    if passage is not None:
        return passage
    match = re.fullmatch(r"P?(\d{1,3})", ref.strip(), re.I)
    if match is None:
        return None
    keys = list(seen)
    n = int(match.group(1))
    return seen[keys[n - 1]] if 0 < n <= len(keys) else None


# -- words ----------------------------------------------------------------------------------------
def terms(text: str) -> set[str]:
    """Comparable pieces of `text`: Chinese character pairs (and single characters of a run of
    one) and English words or numbers, case-folded; no segmenter needed."""
    found = {w.casefold() for w in _WORD.findall(text) if len(w) > 2 or w.isdigit()}
    for run in _HAN_RUN.findall(text):
        found.update([run[i:i + 2] for i in range(len(run) - 1)] or [run])
    return found


def overlap(words: set[str], text: str) -> int:
    return len(words & terms(text))


def trim(text: str, query: str, limit: int) -> str:
    """`text` cut to about `limit` characters around the sentence that best matches `query`."""
    flat = text.strip()
    if len(flat) <= limit:
        return flat
    wanted = terms(query)
    pieces = [(s.start, s.text) for s in sentences(flat)] or [(0, flat)]
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
    return PASSAGE_CHARS_CJK if CJK.search(text) else PASSAGE_CHARS_LATIN


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
    search_first: str = "off"
    """`model.search_first`: unless "off", the first round's call is made for the model, a
    search for the question as typed …"""
    first_search: FirstSearch | None = None
    """… whose passages, when this is set, come from this search instead (the librarian's)."""
    _shown: set[str] = field(default_factory=set)
    _spent: dict[int, int] = field(default_factory=dict)
    _seen: dict[str, Passage] = field(default_factory=dict)
    """The run's passages as they came, the ids' order (the messages hold a round's only
    once it is over)."""

    async def for_run(self, ctx: RunContext[LoreDeps]) -> SmallContext:
        return replace(self, _shown=set(), _spent={}, _seen={})

    def _took(self, found: Found) -> None:
        for passage in found.passages:
            self._seen[passage.chunk_id] = passage

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
        if self.search_first == "off" or first is None or any(
                isinstance(m, ModelResponse) and m.run_id == ctx.run_id for m in ctx.messages):
            return request_context
        raise SkipModelRequest(ModelResponse(
            parts=[ToolCallPart(first, {"query": ctx.deps.question},
                                tool_call_id=f"{FIRST_CALL}{uuid.uuid4().hex[:12]}")],
            model_name="lorekeeper-search-first"))

    async def wrap_tool_execute(self, ctx: RunContext[LoreDeps], *, call: ToolCallPart,
                                tool_def: ToolDefinition, args: dict[str, Any],
                                handler: Any) -> Any:
        """The first round's search made by `first_search`: its passages stand as that call's
        result, trimmed and budgeted like any other."""
        if self.first_search is None or not call.tool_call_id.startswith(FIRST_CALL):
            return await handler(args)
        deps = ctx.deps
        first = await self.first_search(deps)
        passages = first.passages
        chapters = ", ".join(str(c) for c in dict.fromkeys(p.chapter for p in passages))
        made = await found(ctx, call.tool_name, args, f"the {self.search_first} search for "
                           f"{deps.question!r} → {len(passages)} passages (chapters {chapters})",
                           passages)
        shown = await self.after_tool_execute(ctx, call=call, tool_def=tool_def, args=args,
                                              result=ToolReturn(passages, metadata=made))
        reply = shown.return_value
        if first.sentences:  # what reads first: the sentences most likely to answer
            reply = {"best_sentences": [{"text": text, "id": short_id(self._seen, chunk)}
                                        for text, chunk in first.sentences], **reply}
        if self.lean and first.candidates:  # the answers the search read in them: choose
            reply["candidates"] = [{"answer": name, "id": short_id(self._seen, chunk)}
                                   for name, chunk in first.candidates]
        return ToolReturn(reply, metadata=made)

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
            passage = by_short_id(self._seen, ref)
            if passage is not None:
                return {**args, "chunk_id": passage.chunk_id}
        return args

    async def after_tool_execute(self, ctx: RunContext[LoreDeps], *, call: ToolCallPart,
                                 tool_def: ToolDefinition, args: dict[str, Any],
                                 result: Any) -> Any:
        """A lore tool's result as a small model reads it (its `Found` kept beside it)."""
        if not isinstance(result, ToolReturn) or not isinstance(result.metadata, Found):
            return result
        self._took(result.metadata)
        if not self.lean or call.tool_name not in TOOL_NAMES:
            return result
        value = result.return_value
        query = " ".join(str(args.get(k) or "") for k in QUERY_ARGUMENTS)
        budget = self.round_tokens - self._spent.get(ctx.run_step, 0)
        shown: list[dict[str, Any]] = []
        again: list[str] = []
        left = 0
        for item in value if isinstance(value, list) else [value]:
            row = self._row(item, query, again)
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
        return ToolReturn(reply, metadata=result.metadata)

    def _row(self, item: Any, query: str, again: list[str]) -> dict[str, Any] | None:
        if isinstance(item, Passage):
            return self._passage(item, query, again)
        if isinstance(item, Relation):
            evidence = [r for p in item.evidence[:2]
                        if (r := self._passage(p, query, again)) is not None]
            return {"source": item.source, "target": item.target, "type": item.type,
                    "chapters": item.chapters[:5], "passages": evidence}
        if isinstance(item, TimelineEvent):
            return {"ch": item.chapter, "gist": item.gist}
        if hasattr(item, "model_dump"):
            return item.model_dump(mode="json", exclude_defaults=True)
        return {"value": item}

    def _passage(self, passage: Passage, query: str, again: list[str]) -> dict[str, Any] | None:
        ref = short_id(self._seen, passage.chunk_id)
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
