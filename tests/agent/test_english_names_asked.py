"""Who an English question names, through the real agent loop on a small English world of our
own (a family novel's conventions: a daughter known by her first name alone, a son's friends
calling him by the family's name)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pydantic_ai import models

from agent.conversation.core import ask, build_agent
from agent.librarian.model import Librarian
from agent.librarian.reader import reader_of
from agent.readers.settings import AgentSettings
from agent.tools.deps import LoreDeps
from agent.world.retrieval import Retriever
from stores.world import WorldStores

CHAPTERS = [
    "Catherine Morland lived at Fullerton with her parents. James Morland, her eldest brother,"
    " was at Oxford. " + "Sarah, her next sister, was fourteen. Sarah liked to read aloud to the"
    " little ones. " * 3 + "\n\nOne morning Sarah walked to the village with Catherine, and Sarah"
    " bought ribbons. Catherine laughed at Sarah.",
    "James Morland came home from Oxford with his friend John Thorpe. " + ("\"Morland is a fine"
    " fellow,\" said Thorpe. \"Morland drives too slowly,\" said Thorpe again. Thorpe thought"
    " Morland a good friend. ") * 3 + "\n\nJames Morland smiled at his sisters. James Morland was"
    " to be a clergyman like his father.",
    "The family sat down to dinner. Sarah asked Catherine about Bath. Catherine told Sarah of"
    " the balls. " + "\"Morland will come back soon,\" said Thorpe, and Morland did come back. " * 2,
]


@pytest.fixture(autouse=True)
def no_network() -> Iterator[None]:
    with models.override_allow_model_requests(False):
        yield


@pytest.fixture(scope="module")
def family(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Retriever]:
    from stores.ingest import ingest

    root = tmp_path_factory.mktemp("english-family")
    corpus = root / "corpus"
    corpus.mkdir()
    for number, text in enumerate(CHAPTERS, start=1):
        (corpus / f"{number:02d}.txt").write_text(f"Chapter {number}\n\n{text}\n", encoding="utf-8")
    settings = AgentSettings(data_dir=root / "home")
    ingest(settings, "family", [corpus])
    stores = WorldStores(settings, "family")
    yield Retriever(stores, settings.retrieval)
    stores.close()


async def test_a_first_name_and_the_familys_name_ask_about_her_not_the_brother(
        family: Retriever) -> None:
    # Northanger Abbey: "Who is Sarah Morland?" showed the card of bare "Morland", the name
    # James's friends call him by ("Morland" the longer of the two names written), or, where
    # "Morland" is James's alias, said the text does not say (two names, neither alone)
    assert "Sarah" in family.entities and family.matcher.resolve("Morland"), family.entities
    result = await ask(build_agent(reader_of(Librarian(family))), LoreDeps(retriever=family),
                       "Who is Sarah Morland?")
    assert not result.answer.text.startswith("Morland"), result.answer.text
    assert result.answer.citations and all(
        "Sarah" in family.chunks[c.chunk_id].entities for c in result.answer.citations)
