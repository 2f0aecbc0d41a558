"""A tiny world ingested once per test module: three short chapters and a glossary (original text)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agent.readers.settings import AgentSettings
from agent.tools.deps import LoreDeps
from agent.world.retrieval import Retriever
from stores.world import WorldStores

CHAPTERS = {
    "01.txt": """第一回 青岚山林澈拜师 断水剑初出古匣

青岚山下有一座小镇，名叫渡口镇。镇上有个少年，姓林，名澈，字子川，父母早亡，靠替人摆渡过活。

这一年春天，山上的老剑客白石翁下山买酒，见林澈在风浪里撑船不倒，便收他做了徒弟。

白石翁从古匣中取出一柄旧剑，名叫断水剑，对林子川说：此剑只斩恶人，不斩弱者。林澈跪地受剑。
""",
    "02.txt": """第二回 渡口镇夜遇盗匪 白芷姑娘赠药

过了三年，林澈学成下山。夜里路过渡口镇，遇见一伙盗匪正在抢劫药铺。

药铺主人的女儿白芷站在门前，手里握着一把药锄，不肯退让。林澈拔出断水剑，三招便把盗匪赶走。

白芷谢过林子川，送他一包伤药，说：江湖路远，你若受伤，就用这药。两人从此结为好友。
""",
    "03.txt": """第三回 黑水寨主设下埋伏 林澈断剑救友

黑水寨主赵黑虎记恨林澈坏了他的买卖，在山道上设下埋伏，又把白芷捉去做人质。

林澈一人闯寨，断水剑在激战中折成两段。他用半截断剑挑开绳索，救出白芷。

赵黑虎坠下山崖。林澈把两截断剑埋在青岚山顶，从此不再用剑。
""",
}

GLOSSARY = """
[[entity]]
name = "林澈"
aliases = ["子川", "林子川"]
type = "person"
description = "渡口镇摆渡少年，白石翁之徒，断水剑的主人。"
relations = [{type = "mentor", target = "白石翁"}, {type = "ally", target = "白芷"},
             {type = "enemy", target = "赵黑虎"}]

[[entity]]
name = "白石翁"
type = "person"
description = "青岚山上的老剑客。"

[[entity]]
name = "白芷"
aliases = ["白姑娘"]
type = "person"
description = "渡口镇药铺主人的女儿。"

[[entity]]
name = "赵黑虎"
aliases = ["黑水寨主"]
type = "person"
description = "黑水寨寨主。"

[[entity]]
name = "断水剑"
type = "item"
description = "白石翁传给林澈的剑。"
"""


@pytest.fixture(scope="module")
def mini_settings(tmp_path_factory: pytest.TempPathFactory) -> AgentSettings:
    """The tiny world, ingested into its own data folder (once per test module)."""
    from stores.ingest import ingest

    root = tmp_path_factory.mktemp("mini")
    corpus = root / "corpus"
    corpus.mkdir()
    for name, text in CHAPTERS.items():
        (corpus / name).write_text(text, encoding="utf-8")
    glossary = root / "glossary.toml"
    glossary.write_text(GLOSSARY, encoding="utf-8")
    settings = AgentSettings(data_dir=root / "home")
    ingest(settings, "mini", [corpus], glossary=glossary)
    return settings


@pytest.fixture(scope="module")
def mini_retriever(mini_settings: AgentSettings) -> Iterator[Retriever]:
    stores = WorldStores(mini_settings, "mini")
    yield Retriever(stores, mini_settings.retrieval)
    stores.close()


@pytest.fixture
def deps(mini_retriever: Retriever) -> LoreDeps:
    return LoreDeps(retriever=mini_retriever)


def chunk_with(retriever: Retriever, words: str) -> str:
    """The id of the passage containing `words` (fails the test when there is none)."""
    for chunk in retriever.story:
        if words in chunk.text:
            return chunk.id
    raise AssertionError(f"no passage contains {words!r}")
