"""An answer quotes, after its first sentence, only sentences that bear on the question: each
holds one of the question's words besides its names (the demo world, from the command line)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.integration.lore import lore

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow


@pytest.mark.parametrize(("question", "words"), [
    # the newcomer's trial saw also “Shen Yan was quiet for a moment.”: his name and nothing else
    ("Where does Shen Yan teach?", ("teach",)),
    ("What did Eleanor find in the Sunken Sword Grotto?", ("find", "found")),
    ("沈砚的左臂是怎么伤的？", ("左臂", "臂")),
])
def test_every_see_also_holds_a_word_of_the_question(demo_home: Path, question: str,
                                                     words: tuple[str, ...]) -> None:
    done = lore("ask", question, "--world", "demo", "--new", "--json", home=demo_home)
    assert done.code == 0, done.err
    answer = json.loads(done.out)
    assert answer["citations"], answer["answer"]
    for citation in answer["citations"][1:]:
        quote = citation["quote"].lower()
        assert any(word in quote for word in words), (citation["quote"], answer["answer"])
