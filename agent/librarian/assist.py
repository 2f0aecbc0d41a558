"""The librarian's search lent to another reader (`model.search_first = "librarian"`).

A small model reads well what it is given and searches poorly: it searches for the question as
typed, once, and misses what the librarian's rules find (the passages about the person a name
or an alias stands for, the chapter a title names, the evidence of a relation, both hops of
"the general who … : where did he die?", the person "他" is in a follow-up). So its first round
is the librarian's whole search for the question, run as the librarian runs it (through the same
tools, on its own copy of the turn), and the model is handed the librarian's best passages, best
first, as that round's result, with the answers the librarian's picker reads in them (the
person, place or number a who / where / how-many question asks for), each with the passage that
puts it forward, led by the sentences most likely to answer (agent/librarian/ranking.py). The
model then chooses among them, answers in its own words, or searches again.

The search runs the librarian in a plain pydantic-ai agent of its own, with the same tools: it
needs none of the answering agent's limits or checks (agent.conversation.core), and so this package never
imports the core that runs it.
"""

from __future__ import annotations

from pydantic_ai import Agent

from agent.librarian.analysis import analyse
from agent.librarian.reader import librarian_of, reader_of
from agent.readers.registry import FirstRound, FirstSearch, ReaderContext
from agent.schemas import Answer
from agent.tools.deps import LoreDeps
from agent.tools.toolset import TOOLS
from agent.world.blocking import run_blocking

HANDED = 5
"""How many of the librarian's best passages the model is handed (its round budget may show
fewer)."""
OFFERED = 4
"""How many of the librarian's candidates for the answer the model is offered."""
SENTENCES = 3
"""How many of the passages' best sentences lead the model's first result."""


def librarian_search(context: ReaderContext) -> FirstSearch:
    """The librarian's search of the context's world (the world's one librarian: it keeps the
    world's names and text at hand between turns)."""
    reader = reader_of(librarian_of(context))
    agent: Agent[LoreDeps, Answer] = Agent(reader.model, output_type=Answer, deps_type=LoreDeps,
                                           name="lorekeeper-librarian-search", tools=TOOLS,
                                           capabilities=reader.capabilities)

    librarian = librarian_of(context)

    async def search(deps: LoreDeps) -> FirstRound:
        """The passages the librarian ranks best for `deps.question`, best first, and the
        candidates for the answer it reads in them (agent/librarian/extract.py) that stand in
        those passages."""
        own = LoreDeps(deps.retriever, deps.memory, question=deps.question, stack=deps.stack,
                       turns=deps.turns)
        answer = (await agent.run(deps.question, deps=own)).output
        handed = list(answer.evidence or [])[:HANDED]
        asked = answer.resolved_question or deps.question

        def read() -> FirstRound:
            plan = analyse(asked, librarian.retriever.spans)
            ids = {p.chunk_id for p in handed}
            picked = librarian.candidates(plan, handed)
            ranked = librarian.sentences(plan, handed, picked)
            return FirstRound(handed, [(c.name, c.best_chunk) for c in picked
                                       if c.best_chunk in ids][:OFFERED],
                              [(s.text, s.passage.chunk_id) for s in ranked
                               if not s.title][:SENTENCES])

        return await run_blocking(deps.retriever, read)

    return search
