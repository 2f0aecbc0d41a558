"""What one run, one turn and one open world each own: the librarian keeps nothing of a run,
the spoiler horizon is the turn's, and an open world keeps what readers share of it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from agent.conversation.core import ask, build_agent
from agent.librarian.model import Librarian
from agent.librarian.reader import librarian_of, reader_of
from agent.readers.registry import ReaderContext
from agent.readers.settings import AgentSettings, ModelSettings
from agent.tools.deps import LoreDeps
from agent.world.open_world import OpenWorld
from agent.world.retrieval import Retriever
from stores.errors import LoreError
from tests.agent.conftest import mini_retriever, mini_settings  # noqa: F401  (fixtures)

QUESTIONS = ("谁收林澈为徒？", "断水剑是怎么断的？")


def _seen(result) -> tuple[str, list[str], list[str]]:
    return (result.answer.text, [p.chunk_id for p in result.evidence],
            [c.tool for c in result.tool_calls])


async def test_two_runs_of_one_librarian_at_once_answer_as_each_alone(
        mini_retriever: Retriever) -> None:  # noqa: F811
    agent = build_agent(reader_of(Librarian(mini_retriever)))
    alone = [_seen(await ask(agent, LoreDeps(retriever=mini_retriever), q)) for q in QUESTIONS]
    together = await asyncio.gather(*(ask(agent, LoreDeps(retriever=mini_retriever), q)
                                      for q in QUESTIONS))
    assert [_seen(r) for r in together] == alone


async def test_the_horizon_is_the_turns_not_the_worlds(mini_retriever: Retriever) -> None:  # noqa: F811
    agent = build_agent(reader_of(Librarian(mini_retriever)))
    early = await ask(agent, LoreDeps(retriever=mini_retriever, horizon=1), "子川后来怎么了？")
    whole = await ask(agent, LoreDeps(retriever=mini_retriever), "子川后来怎么了？")
    assert all(p.chapter <= 1 for p in early.evidence)
    assert any(p.chapter > 1 for p in whole.evidence)
    assert not hasattr(mini_retriever, "horizon")


def test_an_open_world_shares_one_librarian_among_its_readers(
        mini_retriever: Retriever, mini_settings: AgentSettings) -> None:  # noqa: F811
    world = OpenWorld(mini_retriever)
    context = ReaderContext(ModelSettings(), mini_retriever, world)
    assert librarian_of(context) is librarian_of(context)
    assert librarian_of(ReaderContext(ModelSettings(), mini_retriever)) is not librarian_of(context)


def test_a_world_never_ingested_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(LoreError, match="nowhere"):
        OpenWorld.open(AgentSettings(data_dir=tmp_path), "nowhere")
