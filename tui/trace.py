"""The tool trace in a reader's words: one line per answer ("searched 3 ways · 12 passages ·
0.6 s"), and each step, for whoever expands it, without the internal query strings.

No Textual here: the chat pane (tui/widgets/chat.py) shows these lines.
"""

from __future__ import annotations

import re
from typing import Any

from agent.schemas import WORDS_ONLY

FOUND = re.compile(r"→ (\d+) ([a-z]+)")
"""The count at the end of a tool's own summary (agent.tools.toolset.record_call)."""
SEARCHES = {"vector_search", "keyword_search", "graph_search", "track_entity", "recall_session"}
"""The tools that look something up (read_passage reads what a search found)."""


def _fields(call: Any) -> tuple[str, dict[str, Any], str]:
    if isinstance(call, dict):
        return call.get("tool", ""), call.get("args", {}) or {}, call.get("summary", "")
    return call.tool, call.args or {}, call.summary


def _found(summary: str) -> tuple[int, str] | None:
    match = FOUND.search(summary)
    return (int(match[1]), match[2]) if match else None


def _chapters(args: dict[str, Any]) -> str:
    span = args.get("chapter_range")
    if not isinstance(span, dict):
        return ""
    first, last = span.get("start"), span.get("end")
    if first and last:
        return f" in ch. {first}–{last}"
    if first or last:
        return f" from ch. {first}" if first else f" up to ch. {last}"
    return ""


def step_line(call: Any) -> str:
    """One step as a reader would say it: what was looked at, never the raw query."""
    tool, args, summary = _fields(call)
    found = _found(summary)
    count = f" → {found[0]} {found[1]}" if found else ""
    entity = args.get("entity") or ""
    if summary.startswith("unknown name"):
        return f"no one in the story is called {summary.removeprefix('unknown name ')}"
    if tool == "vector_search":
        about = f" about {entity}" if entity else ""
        # while a world has only its fast index, the search was by words (a newcomer saw "by
        # meaning" beside the status bar's "searching with the fast index (BM25 alone)")
        how = "by words" if WORDS_ONLY in summary else "by meaning"
        return f"searched the story {how}{about}{_chapters(args)}{count}"
    if tool == "keyword_search":
        return f"looked for the question's names and words{_chapters(args)}{count}"
    if tool == "graph_search":
        other = args.get("other")
        kind = f" ({str(args['relation']).replace('_', ' ')})" if args.get("relation") else ""
        whom = f"between {entity} and {other}" if other else f"of {entity}"
        return f"checked the relations{kind} {whom}{count}"
    if tool == "track_entity":
        return f"followed {entity} through the story{_chapters(args)}{count}"
    if tool == "read_passage":
        where = summary.removeprefix("reading ") if summary.startswith("reading ") else ""
        return f"read around a passage ({where})" if where else "read around a passage"
    if tool == "recall_session":
        return f"recalled earlier turns of this conversation{count}"
    return summary or tool


def trace_line(calls: list[Any], seconds: float | None = None) -> str:
    """The whole run in one line: `searched 3 ways · 7 steps · 0.6 s` (the steps' own counts
    overlap, so they are not summed into a number of passages)."""
    tools = [_fields(c)[0] for c in calls]
    ways = len({t for t in tools if t in SEARCHES})
    parts = [f"searched {ways} way{'s' if ways != 1 else ''}" if ways else "no search"]
    if len(calls) > 1:
        parts.append(f"{len(calls)} steps")
    if seconds is not None:
        parts.append(f"{seconds:.1f} s")
    return " · ".join(parts)
