"""What an answer states of its own, apart from the quotes it cites (agent/answer/support.py): the
offline reader's lore lead and `lore eval answers` both read an answer with it."""

from __future__ import annotations

import pytest

from agent.answer.support import residue, stated_text
from agent.schemas import Answer, Citation
from stores.lang import in_quotes, shown


def _answer(line: str, quote: str) -> Answer:
    return Answer(text=line, citations=[Citation(chunk_id="c1", chapter=1, source="001.txt",
                                                 lines=(1, 2), quote=quote)],
                  stop_reason="answered")


@pytest.mark.parametrize("quote", [
    "顾怀山在沈砚二十岁时所赐之剑，沈砚挂剑五年；",  # shown as …五年…
    "顾怀山咳了几声，又道：“泓州侯裴昭要这幅图，不是为了祖师的剑。",  # shown closed: …剑。”
    "沈砚道：“你记住。”",
])
def test_a_line_that_only_cites_its_quote_states_nothing(quote: str) -> None:
    line = f"另见第2回「寒汀渡舟中话旧盟 听雨阁病榻托归图」：{shown(quote)}[1]"
    assert not residue(stated_text(_answer(line, quote))), line


def test_a_line_that_says_more_than_its_quote_states_it() -> None:
    quote = "沈砚道：“你记住。”"
    line = f"韩峥是沈砚的结义兄弟，死在落星崖。见第2回：{shown(quote)}[1]"
    assert residue(stated_text(_answer(line, quote)))


def test_an_english_line_that_only_cites_its_quote_states_nothing() -> None:
    quote = '"In your language, the Lone Swan.'  # straight quotes, shown in curly ones
    line = f"In chapter 8 (The Marquis's Silver): {in_quotes(quote)} [1]"
    assert not residue(stated_text(_answer(line, quote))), line


def test_the_readers_own_framing_words_claim_no_number() -> None:
    # 上一个回答… (the one in it read as 1) was flagged as a number no citation holds, and a pipe
    # printed the answer twice (a newcomer's trial on 三国演义)
    from agent.answer.support import unsupported
    from stores.models import Chunk

    quote = "参军蒋琬自成都至，见武士欲斩马谡，大惊，高叫：“留人！”"
    line = f"上一个回答没有找到确切的答案；它最接近的一句在第96回「孔明挥泪斩马谡」。「{quote}」[1]"
    cited = [Chunk(id="c1", world="w", document="096.txt", chapter=96, chapter_title="",
                   scene=0, chunk_order=1, text=quote, line_start=7, line_end=7)]
    none: list = []
    assert unsupported(_answer(line, quote), cited, "谁斩了马谡——是第几回？", lambda t: none,
                       lambda n: [n], lambda n: True) == []
