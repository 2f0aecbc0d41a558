""""How did X die?" in a story no entry speaks of: the answer opens with the chapter that tells
the death and its sentence, not with the sentences where X kills others (a newcomer's trial on
三国演义: 0 of 14 how-and-who-killed questions answered). A short original story."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.integration.lore import ingested, lore

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow

CHAPTERS = {
    "01.txt": """第一回 渡口

张猛是寨中的头领。张猛一刀砍死了来犯的贼首，众人都说张猛杀人如麻。

张猛又杀了两个官兵，官兵死于乱箭之下。
""",
    "02.txt": """第二回 寨中

张猛在寨中养伤。张猛说道：“杀人偿命，死也无怨。”张猛死战不退，守住了寨门。
""",
    "03.txt": """第三回 落雁坡

张猛中了埋伏，被围在落雁坡上。张猛身中数箭，张猛就这样死在了落雁坡，年仅四十岁。

寨中人把他葬在坡上。
""",
}


@pytest.fixture(scope="module")
def fort_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingested(tmp_path_factory.mktemp("fort-home"), "fort", CHAPTERS)


def test_how_someone_died_opens_with_the_chapter_that_tells_the_death(fort_home: Path) -> None:
    for question in ("张猛是怎么死的？", "张猛死在哪里？"):
        result = lore("ask", question, "--world", "fort", "--new", "--json", home=fort_home)
        assert result.code == 0, result.err
        answer = json.loads(result.out)
        first = answer["answer"].splitlines()[0]
        assert first.startswith("张猛死于第3回"), answer["answer"]
        assert "死在了落雁坡" in first, first
