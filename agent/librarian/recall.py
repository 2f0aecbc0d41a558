"""Questions about the conversation itself, answered from its memory: 我们之前聊过韩峥吗？,
Did we talk about Su Wan?, 我们刚才聊了什么？

The librarian recalls the session's summaries (the `recall_session` tool: every answered turn,
one line each, `Q → first sentence of the answer (chapters)`) and answers with the lines that
name what the question names — alias-aware, so 定远 finds the turns about 韩峥 — or, when it
names nothing, with the latest lines. Nothing is searched in the story: the answer is what was
said here, and it says so when nothing was.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from agent.librarian.analysis import QueryPlan
from agent.schemas import Answer, Memory
from stores.lang.asking import SESSION, SESSION_START

SHOWN = 3
"""Lines shown for "what did we talk about": the latest turns (the first, when asked how it
began)."""


def session_answer(plan: QueryPlan, memories: Sequence[Memory],
                   names_in: Callable[[str], list[str]], say: Callable[[str], str] = str) -> Answer:
    """What this conversation said about the question's names (or lately, when it names
    none), from the recalled memories."""
    # what was said of the story: earlier questions about the talk itself only repeat names
    lines = [(turns, line) for turns, line in _said(memories)
             if not SESSION.search(line.split(" → ", 1)[0])]
    wanted = list(plan.entities)
    if wanted:
        shown = [(turns, line) for turns, line in lines
                 if any(name in names_in(line) for name in wanted)]
    elif SESSION_START.search(plan.question):
        shown = lines[:SHOWN]
    else:
        shown = lines[-SHOWN:]
    names = "、".join(map(say, wanted)) if plan.chinese else ", ".join(map(say, wanted))
    if not shown:
        text = ((f"这次对话里还没有聊过{names}。" if names else "这次对话里还没有聊过什么。")
                if plan.chinese else
                (f"We have not talked about {names} in this conversation yet." if names
                 else "Nothing has been asked in this conversation yet."))
        return Answer(text=text, entities=wanted)
    start = not names and SESSION_START.search(plan.question)
    if plan.chinese:
        lead = f"聊过{names}：" if names else ("一开始聊的是：" if start else "最近聊的是：")
    else:
        lead = (f"Yes, we talked about {names}:" if names else
                "We started with:" if start else "Lately we talked about:")
    body = [(f"第{turns}轮：{line}" if plan.chinese else f"Turn {turns}: {line}")
            for turns, line in shown]
    return Answer(text="\n".join([lead, *body]), entities=wanted)


def _said(memories: Sequence[Memory]) -> list[tuple[str, str]]:
    """Every remembered line with the turns it was said in, oldest first: a summary of one turn
    is that turn; a longer one spreads over its span."""
    lines = []
    for memory in sorted(memories, key=lambda m: m.turns):
        first, last = memory.turns
        said = [line for line in memory.text.splitlines() if line.strip()]
        for i, line in enumerate(said):
            n = first + i if len(said) == last - first + 1 else None
            lines.append((str(n) if n is not None else f"{first}–{last}", line.strip()))
    return lines
