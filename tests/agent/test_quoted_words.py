"""A question that quotes words: the sentence that holds them leads the answer (a tiny world of
original text, ingested once)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from agent.conversation.core import ask, build_agent
from agent.librarian.reader import reader_of
from agent.readers.settings import AgentSettings
from agent.tools.deps import LoreDeps
from agent.world.retrieval import Retriever
from stores.world import WorldStores

CHAPTERS = {
    "01.txt": "Chapter 1\n\nHenry Marsh said the best recipe for happiness he ever heard of was "
              "a large income, a large income and no other recipe for happiness; he had heard "
              "of a large income as the best recipe for happiness all his life.\n",
    "02.txt": "Chapter 2\n\nMary Vane laughed at him. \"A large income is the best recipe for "
              "happiness I ever heard of,\" said Mary Vane, and walked away.\n",
}


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Retriever]:
    from stores.ingest import ingest

    root: Path = tmp_path_factory.mktemp("quoted")
    corpus = root / "corpus"
    corpus.mkdir()
    for name, text in CHAPTERS.items():
        (corpus / name).write_text(text, encoding="utf-8")
    settings = AgentSettings(data_dir=root / "home")
    ingest(settings, "quoted", [corpus])
    stores = WorldStores(settings, "quoted")
    yield Retriever(stores, settings.retrieval)
    stores.close()


@pytest.mark.parametrize("question", [
    "Who says 'A large income is the best recipe for happiness I ever heard of'?",
    'Who said "a large income is the best recipe for happiness"?',
])
async def test_the_sentence_that_holds_the_quoted_words_leads(world: Retriever,
                                                              question: str) -> None:
    # Mansfield Park (a newcomer's trial): the quoted words came second, after a sentence that
    # shares more of their words with the question
    from agent.librarian.model import Librarian

    agent = build_agent(reader_of(Librarian(world)))
    result = await ask(agent, LoreDeps(retriever=world), question)
    assert "best recipe for happiness" in result.answer.citations[0].quote, result.answer.text
    assert result.answer.citations[0].chapter == 2
