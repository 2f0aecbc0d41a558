""""Who is X?" when no sentence says who X is in so many words: the answer opens with the
sentence where the story first names X — a story introduces its people there (陈士成看过县考的
榜, in 呐喊's 白光) — then the passages that bear on X. It led with whichever later sentence the
search ranked first. A short original story: the ferry at 柳渡."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.integration.lore import ingested, lore

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow

CHAPTERS = {
    "01.txt": """第一回 柳渡

柳渡口的渡船，三十年来都由石老根一个人撑。每天天不亮，石老根便解了缆绳，把头一船客人送过河去。

渡口边有一家小茶棚，卖茶的是一个寡妇，客人等船的时候，都在茶棚里歇脚。
""",
    "02.txt": """第二回 大水

这年夏天，河上发了大水。石老根望着浑黄的河水，一夜没有合眼。

天亮以后，石老根还是撑船过河。石老根说，水再大，河那边的人也要回家。茶棚里的客人都劝石老根不要去，石老根只是摇头。
""",
    "03.txt": """第三回 石老根

石老根把最后一船客人送到对岸，回来的时候，船在河心打了一个转。石老根咬着牙，把篙子插进水里，石老根到底把船撑回了柳渡口。

茶棚的寡妇端出一碗热茶，石老根喝了，石老根笑了一笑。
""",
}


@pytest.fixture(scope="module")
def ferry_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingested(tmp_path_factory.mktemp("ferry-home"), "ferry", CHAPTERS)


def test_who_is_someone_no_sentence_defines_opens_with_where_the_story_names_him(
        ferry_home: Path) -> None:
    result = lore("ask", "石老根是谁？", "--world", "ferry", "--new", "--json", home=ferry_home)
    assert result.code == 0, result.err
    answer = json.loads(result.out)
    lines = answer["answer"].splitlines()
    # the sentence that introduces him, cited first; then at most two that bear on him
    assert lines[0].startswith("首次出现见第1回"), lines[0]  # where he comes in, said so
    assert "柳渡口的渡船，三十年来都由石老根一个人撑" in lines[0], lines[0]
    assert answer["citations"][0]["chapter"] == 1
    assert all(line.startswith("另见") for line in lines[1:3] if line.strip()), lines
    assert len([line for line in lines if line.startswith(("首次出现见", "另见"))]) <= 3, lines
