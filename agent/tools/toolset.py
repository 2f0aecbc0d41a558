"""The agent's six tools: typed arguments in, pydantic models out, every call returned.

Each tool reaches the world only through `ctx.deps` (a `LoreDeps`, the turn's inputs) and
returns what it found: its result for the model, and a `Found` (agent.tools.findings) beside it for the
run — the call as the user sees it and the passages it returned. Names go through alias
resolution first (玄德 → 刘备); a name the world does not know becomes a `ToolRetry` that tells
the model what to try instead, so a wrong guess costs one round rather than the whole run.

Store calls block for ~10–30 ms (an embedding, a Qdrant/BM25/graph query) and the first one of a
world loads the embedder and the catalog (seconds). They run through `agent.world.blocking`, in a
worker thread and one at a time per world, because the embedded stores are not meant to be
queried from two threads at once; the tools run one after another (`sequential`), so what they
found stands in the run's messages in the order it was found.
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal, TypeVar

from pydantic import Field
from pydantic_ai import ModelRetry, RunContext, Tool, ToolReturn

from agent.schemas import WORDS_ONLY, ChapterRange, Memory, Passage, Relation, TimelineEvent
from agent.tools.deps import LoreDeps
from agent.tools.findings import Found, ToolCall, ToolRetry
from agent.world.blocking import run_blocking
from agent.world.retrieval import Retriever, UnknownEntity
from stores.errors import LoreError

T = TypeVar("T")

MAX_TIMELINE_EVENTS = 40
"""track_entity returns at most this many events (the first, the last and an even spread)."""

RelationType = Literal["co_occurs", "kin", "sworn_sibling", "lord_of", "serves", "ally", "enemy",
                       "member_of", "spouse", "mentor", "rival", "parent_of", "child_of", "owns",
                       "located_in", "grandparent_of", "sibling",
                       "engaged"]
"""The relation types of stores.models.RELATION_TYPES, spelled out so the model sees the enum."""

async def _call(ctx: RunContext[LoreDeps], fn: Callable[..., T], *args: Any) -> T:
    return await run_blocking(ctx.deps.retriever, fn, *args)


async def found(ctx: RunContext[LoreDeps], tool: str, args: dict[str, Any], summary: str,
                passages: Sequence[Passage] = (), recalled: Sequence[str] = ()) -> Found:
    """What the call found, for --json, the evaluation and the run's checks; the terminal
    app's step list is shown the call as it happens (`deps.on_step`)."""
    call = ToolCall(tool=tool, args={k: _plain(v) for k, v in args.items() if v is not None},
                    summary=summary)
    if ctx.deps.on_step is not None:
        shown = ctx.deps.on_step(call)
        if inspect.isawaitable(shown):
            await shown
    return Found(call, tuple(passages), tuple(recalled))


def _plain(value: Any) -> Any:
    return value.model_dump(exclude_none=True) if hasattr(value, "model_dump") else value


async def _resolve(ctx: RunContext[LoreDeps], tool: str, args: dict[str, Any],
                   name: str) -> str:
    """Canonical name, or a ModelRetry naming the closest known names."""
    retriever = ctx.deps.retriever
    try:
        return await _call(ctx, retriever.resolve, name)
    except UnknownEntity:
        close = _closest(retriever, name)
        failed = await found(ctx, tool, args, f"unknown name {name!r}")
        hint = f" Did you mean: {', '.join(close)}?" if close else ""
        raise ToolRetry(f"No entity or alias named {name!r} in this world.{hint} "
                        "Try another name, or find the words with keyword_search.",
                        failed) from None


def _closest(retriever: Retriever, name: str, n: int = 5) -> list[str]:
    """Known names that look like `name` (canonical names shown with the alias that matched)."""
    names: dict[str, str] = {}
    for canonical, aliases in retriever.entities.items():
        for alias in (canonical, *aliases):
            names.setdefault(alias, canonical)
    close = difflib.get_close_matches(name, list(names), n=n, cutoff=0.4)
    close += [a for a in names if name and (name in a or a in name) and a not in close]
    return [a if names[a] == a else f"{a} ({names[a]})" for a in close[:n]]


def _titles(passages: Sequence[Passage]) -> str:
    chapters = sorted({p.chapter for p in passages})
    return "chapters " + ", ".join(map(str, chapters[:8])) + ("…" if len(chapters) > 8 else "")


def _span(chapter_range: ChapterRange | None) -> str:
    if chapter_range is None or (chapter_range.start is None and chapter_range.end is None):
        return ""
    return f" in ch. {chapter_range.start or 1}–{chapter_range.end or '…'}"


async def vector_search(ctx: RunContext[LoreDeps], query: str,
                        top_k: Annotated[int, Field(ge=1, le=20)] = 5,
                        chapter_range: ChapterRange | None = None,
                        entity: str | None = None) -> ToolReturn[list[Passage]]:
    """Search the world's text by meaning and by words (dense vectors + BM25, fused by RRF).

    The default search: use it for what happens, why, how, and who did what. Names in the query
    also find passages that use the same entity's other names.

    Args:
        query: What to look for, in the language of the story (a question or key words).
        top_k: How many passages to return, 1 to 20.
        chapter_range: Only search these chapters (inclusive).
        entity: Only passages that mention this entity (any of its names or aliases). With the
            entity's name as the query this is the entity lookup: its lore entry (the world's
            glossary or lorebook) and the sentences that introduce it come first.
    """
    args = {"query": query, "top_k": top_k, "chapter_range": chapter_range, "entity": entity}
    canonical = await _resolve(ctx, "vector_search", args, entity) if entity else None
    passages = await _call(ctx, ctx.deps.retriever.hybrid, query, top_k, chapter_range, canonical,
                           ctx.deps.horizon)
    about = f" about {canonical}" if canonical else ""
    # the fast index: no vectors yet, so the search was by words alone (tui/trace.py says so)
    words_only = "" if ctx.deps.retriever.stores.has_vectors else f" {WORDS_ONLY}"
    return ToolReturn(passages, metadata=await found(
        ctx, "vector_search", args, f"searching {query!r}{about}{_span(chapter_range)}"
        f"{words_only} → {len(passages)} passages ({_titles(passages)})", passages))


async def keyword_search(ctx: RunContext[LoreDeps], query: str,
                         top_k: Annotated[int, Field(ge=1, le=20)] = 5,
                         chapter_range: ChapterRange | None = None) -> ToolReturn[list[Passage]]:
    """Find passages containing exact words: names, titles, places, a remembered phrase or quote.

    Args:
        query: The exact words to look for.
        top_k: How many passages to return, 1 to 20.
        chapter_range: Only search these chapters (inclusive).
    """
    args = {"query": query, "top_k": top_k, "chapter_range": chapter_range}
    passages = await _call(ctx, ctx.deps.retriever.keyword, query, top_k, chapter_range,
                           ctx.deps.horizon)
    return ToolReturn(passages, metadata=await found(
        ctx, "keyword_search", args, f"words {query!r}{_span(chapter_range)}"
        f" → {len(passages)} passages ({_titles(passages)})", passages))


async def graph_search(ctx: RunContext[LoreDeps], entity: str,
                       relation: RelationType | None = None,
                       depth: Annotated[int, Field(ge=1, le=3)] = 1,
                       other: str | None = None) -> ToolReturn[list[Relation]]:
    """Relations around an entity in the entity graph, each with the passages that show it.

    Use it for who is related to whom and how (kin, sworn siblings, lords and servants, allies,
    enemies …). Give `other` to get only what links two entities.

    Args:
        entity: The entity's name or one of its aliases.
        relation: Only relations of this type.
        depth: How many steps away to follow relations, 1 to 3.
        other: A second entity: return the relations between the two of them.
    """
    args = {"entity": entity, "relation": relation, "depth": depth, "other": other}
    name = await _resolve(ctx, "graph_search", args, entity)
    retriever = ctx.deps.retriever
    if other:
        second = await _resolve(ctx, "graph_search", args, other)
        related = await _call(ctx, retriever.between, name, second, ctx.deps.horizon)
        related = [r for r in related if relation is None or r.type == relation]
        summary = f"graph: {name} ⇄ {second}"
    else:
        try:
            related = await _call(ctx, retriever.graph, name, relation, depth, 20,
                                  ctx.deps.horizon)
        except LoreError as exc:
            raise ModelRetry(f"{exc.message}. {exc.hint}") from None
        summary = f"graph: {name}" + (f" —{relation}→" if relation else "") + (
            f" depth {depth}" if depth > 1 else "")
    evidence = [p for rel in related for p in rel.evidence]
    return ToolReturn(related, metadata=await found(
        ctx, "graph_search", args, f"{summary} → {len(related)} relations", evidence))


async def track_entity(ctx: RunContext[LoreDeps], entity: str,
                       chapter_range: ChapterRange | None = None) -> ToolReturn[list[TimelineEvent]]:
    """The entity's appearances in story order, one event per passage, for timelines and "what next".

    Long timelines are thinned to at most 40 events: the first and the last appearance and an
    even spread in between. Narrow `chapter_range` to see every appearance in a stretch.

    Args:
        entity: The entity's name or one of its aliases.
        chapter_range: Only appearances in these chapters (inclusive).
    """
    args = {"entity": entity, "chapter_range": chapter_range}
    name = await _resolve(ctx, "track_entity", args, entity)
    events = await _call(ctx, ctx.deps.retriever.track, name, chapter_range, ctx.deps.horizon)
    shown = spread(events, MAX_TIMELINE_EVENTS)
    thinned = f" (showing {len(shown)})" if len(shown) < len(events) else ""
    return ToolReturn(shown, metadata=await found(
        ctx, "track_entity", args,
        f"timeline of {name}{_span(chapter_range)} → {len(events)} appearances{thinned}"))


def spread(items: Sequence[T], limit: int) -> list[T]:
    """At most `limit` items: the first, the last and an even spread in between, in order."""
    if len(items) <= limit:
        return list(items)
    if limit <= 1:
        return list(items[:limit])
    step = (len(items) - 1) / (limit - 1)
    return [items[round(i * step)] for i in range(limit)]


async def read_passage(ctx: RunContext[LoreDeps], chunk_id: str,
                       before: Annotated[int, Field(ge=0, le=3)] = 1,
                       after: Annotated[int, Field(ge=0, le=3)] = 1) -> ToolReturn[Passage]:
    """Read a passage with its neighbours, to see what comes before and after a search hit.

    Args:
        chunk_id: The chunk_id of a passage returned by another tool.
        before: How many passages before it to include, 0 to 3.
        after: How many passages after it to include, 0 to 3.
    """
    args = {"chunk_id": chunk_id, "before": before, "after": after}
    try:
        passage = await _call(ctx, ctx.deps.retriever.read, chunk_id, before, after,
                              ctx.deps.horizon)
    except LoreError as exc:
        failed = await found(ctx, "read_passage", args, f"no passage {chunk_id!r}")
        raise ToolRetry(f"{exc.message}; {exc.hint}.", failed) from None
    return ToolReturn(passage, metadata=await found(
        ctx, "read_passage", args,
        f"reading ch. {passage.chapter} lines {passage.lines[0]}–{passage.lines[1]}", [passage]))


async def recall_session(ctx: RunContext[LoreDeps], query: str,
                         deep: bool = False) -> ToolReturn[list[Memory]]:
    """Recall what was said earlier in this conversation (its summaries), for "as we said before".

    Args:
        query: What to recall.
        deep: Also return the detailed plot behind each summary.
    """
    args = {"query": query, "deep": deep}
    memory, deps = ctx.deps.memory, ctx.deps
    memories = (await _call(ctx, lambda: memory.recall(query, deep,
                                                       other_sessions=deps.other_sessions))
                if memory is not None else [])
    recalled: list[str] = []
    for m in memories:  # what the memory said, and of which turns
        recalled += [text for text in (m.text, m.plot) if text]
        recalled.append("turns " + " ".join(map(str, range(m.turns[0], m.turns[1] + 1))))
    return ToolReturn(memories, metadata=await found(
        ctx, "recall_session", args,
        f"recalling {query!r}{' (deep)' if deep else ''} → {len(memories)} memories",
        recalled=recalled))


FUNCTIONS = (vector_search, keyword_search, graph_search, track_entity, read_passage,
             recall_session)
TOOLS = tuple(Tool(f, sequential=True) for f in FUNCTIONS)
"""The tools as every agent offers them, one call at a time (see the module's docstring)."""
TOOL_NAMES = frozenset(f.__name__ for f in FUNCTIONS)
