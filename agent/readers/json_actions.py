"""Tool calls a model writes as JSON text instead of calling the tool (small local models do):
found in <tool_call> tags, in ``` fences, or as the text itself, in the shapes models write."""

from __future__ import annotations

import json
import re
from typing import Any

ARGUMENT_KEYS = ("arguments", "parameters", "args", "input")
"""Where a tool call written as JSON text keeps its arguments, in the shapes models write."""
_TOOL_TAG = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.S)
_FENCE = re.compile(r"```(?:json|tool_call|javascript)?\s*(.*?)```", re.S)


def json_objects(text: str) -> list[Any]:
    """JSON values written in `text`: in <tool_call> tags, in ``` fences, or the text itself, or
    the first {…} in it."""
    candidates = [m.group(1) for m in _TOOL_TAG.finditer(text)]
    candidates += [m.group(1) for m in _FENCE.finditer(text)]
    if not candidates:  # the text itself, else its first {…}
        start = text.find("{")
        candidates = [text.strip()]
        if start > 0:
            candidates.append(text[start:text.rfind("}") + 1])
    found = []
    for candidate in candidates:
        try:
            found.append(json.loads(candidate.strip()))
        except ValueError:
            continue
        if len(candidates) == 2:  # the whole text was JSON: its {…} is not another value
            break
    return found


def tool_calls_in(text: str, names: set[str] | frozenset[str]) -> list[tuple[str, dict[str, Any]]]:
    """(tool, arguments) of every call to one of `names` that `text` writes out as JSON:
    {"name": …, "arguments": {…}} (or "parameters" / "args"), {"function": {…}}, {"tool": …}."""
    calls = []
    for value in json_objects(text):
        for item in value if isinstance(value, list) else [value]:
            if not isinstance(item, dict):
                continue
            if isinstance(item.get("function"), dict):
                item = item["function"]
            name = item.get("name") or item.get("tool") or item.get("tool_name")
            args: Any = next((item[k] for k in ARGUMENT_KEYS if k in item), {})
            if isinstance(args, str):
                try:
                    args = json.loads(args)
                except ValueError:
                    continue
            if isinstance(name, str) and name in names and isinstance(args, dict):
                calls.append((name, args))
    return calls
