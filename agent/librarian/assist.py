"""The librarian's search lent to another reader (`model.search_first = "librarian"`).

A small model reads well what it is given and searches poorly: it searches for the question as
typed, once, and misses what the librarian's rules find (the passages about the person a name
or an alias stands for, the chapter a title names, the evidence of a relation, both hops of
"the general who … : where did he die?", the person "他" is in a follow-up). So its first round
is the librarian's whole search for the question, run as the librarian runs it (through the same
tools, on its own copy of the turn), and the model is handed the librarian's best passages, best
first, as that round's result. The model then reads them and answers in its own words, or
searches again.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from pydantic_ai import Agent

from agent.core import ask, build_agent
from agent.deps import LoreDeps
from agent.librarian.model import Librarian
from agent.librarian.reader import reader_of
from agent.retrieval import Retriever
from agent.schemas import Answer, Passage
from agent.settings import ModelSettings

HANDED = 5
"""How many of the librarian's best passages the model is handed (its round budget may show
fewer)."""

_LIBRARIANS: WeakKeyDictionary[Retriever, Agent[LoreDeps, Answer]] = WeakKeyDictionary()
"""One librarian per open world: it keeps the world's names and text at hand between turns."""


async def librarian_search(deps: LoreDeps) -> list[Passage]:
    """The passages the librarian ranks best for `deps.question`, best first."""
    agent = _LIBRARIANS.get(deps.retriever)
    if agent is None:
        agent = _LIBRARIANS[deps.retriever] = build_agent(
            reader_of(Librarian(deps.retriever)), ModelSettings())
    own = LoreDeps(deps.retriever, deps.memory, stack=deps.stack, turns=deps.turns)
    result = await ask(agent, own, deps.question)
    return result.evidence[:HANDED]
