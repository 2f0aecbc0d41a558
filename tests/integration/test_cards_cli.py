"""Cards and lore entries from the command line, as a user runs it: `lore ask "who is X"`,
`lore card`, a SillyTavern lorebook beside a story, and the spoiler horizon."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.integration.lore import lore

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow


@pytest.mark.parametrize(("question", "right"), [
    ("Who is Shen Yan?", "顾怀山之徒"),
    ("沈砚是谁？", "首座弟子"),
    ("Who is Eleanor Vance?", "cartographer"),
    ("韩峥是谁？", "结义兄弟"),
])
def test_who_is_x_names_who_in_the_first_line_with_a_citation(demo_home: Path, question: str,
                                                              right: str) -> None:
    done = lore("ask", question, "--world", "demo", "--new", "--json", home=demo_home)
    assert done.code == 0, done.err
    answer = json.loads(done.out)
    lead = answer["answer"].split("\n", 1)[0]
    assert right in lead and "[1]" in lead
    assert answer["citations"][0]["source"].endswith("glossary.toml")
    assert answer["citations"][0]["chapter"] is None  # an entry names no chapter


@pytest.mark.parametrize(("question", "alias", "whose", "card"), [
    ("Who is the Marquis?", "the Marquis", "Pei Zhao", "泓州侯"),  # article and all
    ("伯岩是谁？", "伯岩", "顾怀山", "雁回楼楼主"),
])
def test_who_is_x_by_another_name_says_whose_name_it_is_then_the_card(
        demo_home: Path, question: str, alias: str, whose: str, card: str) -> None:
    done = lore("ask", question, "--world", "demo", "--new", "--json", home=demo_home)
    assert done.code == 0, done.err
    lines = json.loads(done.out)["answer"].splitlines()
    assert lines[0].startswith(f"“{alias}”") and whose in lines[0], lines[0]
    assert card in lines[1] and "[" in lines[1], lines[1]


def test_an_english_question_names_him_once_before_his_chinese_entry(demo_home: Path) -> None:
    """His English name leads; the entry's own label (沈砚：) is not said a second time."""
    done = lore("ask", "Who is Shen Yan?", "--world", "demo", "--new", "--json", home=demo_home)
    assert done.code == 0, done.err
    lead = json.loads(done.out)["answer"].split("\n", 1)[0]
    assert lead.startswith("Shen Yan (沈砚") and "沈砚：" not in lead, lead
    assert "字青崖" in lead


@pytest.mark.parametrize(("question", "right"), [
    ("苏绾是从哪里拿回归雁图的？", "侯府藏书楼"),
    ("What did Eleanor do with the map?", "burns the map at Hanting Ferry"),
    ("顾怀山是怎么死的？", "被韩峥用蚀心散毒死"),
    ("Who killed Han Zheng?", "Su Wan"),  # 苏绾's entry: 一剑刺死韩峥 (not 被韩峥毒死)
    ("谁杀了韩峥？", "苏绾"),
    ("Who poisoned Gu Huaishan?", "Han Zheng"),  # the poison's entry: 韩峥用它毒死顾怀山
    # 韩峥's entry also says 在听雨阁用蚀心散毒死师父: a death and a place, but his master's
    ("韩峥最后死在哪里？", "落星崖"),
    ("顾青禾后来做了什么？", "顾青禾：韩峥死后"),  # another name opens the sentence: a colon
    # a newcomer's trial read 「白沙江五年前沈砚在江上一战杀了十七名水寇；」: another name after
    # the time phrase that opens the clause, and a clause ends with 。 when it stands alone
    ("白沙江上发生过什么？", "白沙江：五年前沈砚在江上一战杀了十七名水寇。[1]"),
    ("苏绾是从哪里拿回归雁图的？", "苏绾在泓州城接过断鸿剑"),  # a place after 在 is no subject
    # who did it: the one person whose own entry holds the whole question (a newcomer's trial:
    # the first line was the sword's entry, which names nobody who gave it)
    ("谁把断鸿剑传给了苏绾？", "沈砚被韩峥诬为"),
    # how: his own entry says only where (死于落星崖); 苏绾's says how (一剑刺死韩峥)
    ("韩峥是怎么死的？", "一剑刺死韩峥"),
])
def test_a_question_about_one_entity_is_answered_from_its_entry(demo_home: Path, question: str,
                                                               right: str) -> None:
    """The entry's sentence that holds the whole question leads, stated with its subject; for
    "who killed X", the one person whose entry says they killed X."""
    done = lore("ask", question, "--world", "demo", "--new", "--json", home=demo_home)
    assert done.code == 0, done.err
    answer = json.loads(done.out)
    lead = answer["answer"].split("\n", 1)[0]
    assert right in lead and lead.endswith("[1]"), lead
    assert not lead.startswith(("见", "In ", "I could not")), lead  # stated, not quoted
    assert answer["citations"][0]["source"].endswith("glossary.toml")


def test_an_entry_that_does_not_tell_it_answers_nothing(demo_home: Path) -> None:
    """祖师凌雁秋's entry names him but not his death: no sentence of it is stated."""
    done = lore("ask", "祖师凌雁秋是怎么死的？", "--world", "demo", "--new", "--json",
                home=demo_home)
    assert done.code == 0, done.err
    lead = json.loads(done.out)["answer"].split("\n", 1)[0]
    assert "开宗立派" not in lead, lead


def test_lore_card_prints_the_card_and_keeps_the_horizon(demo_home: Path) -> None:
    whole = lore("card", "Han Zheng", "--world", "demo", home=demo_home)
    assert whole.code == 0, whole.err
    assert "顾怀山之徒" in whole.out and "glossary.toml:" in whole.out
    early = lore("card", "韩峥", "--world", "demo", "--horizon", "2", "--json", home=demo_home)
    assert early.code == 0, early.err
    card = json.loads(early.out)
    assert card["horizon"] == 2 and card["citations"]
    assert all(c["chapter"] <= 2 for c in card["citations"])  # the glossary tells his death
    assert all(f["chapter"] <= 2 for f in card["card"]["facts"])
    assert "落星崖" not in card["text"]
    only = lore("card", "韩峥", home=demo_home)  # one world: no --world needed, and it says so
    assert only.code == 0 and "顾怀山之徒" in only.out
    assert "world: demo (the only world" in only.err
    unknown = lore("card", "Zhang Sanfeng", "--world", "demo", home=demo_home)
    assert unknown.code != 0 and "Zhang Sanfeng" in unknown.err
    assert "did you mean" not in unknown.err  # nothing is spelled like it
    # a name misspelled: the names spelled like it are offered, and the one offered works
    misspelled = lore("card", "Shen Yen", "--world", "demo", home=demo_home)
    assert misspelled.code != 0 and "did you mean 'Shen Yan'?" in misspelled.err
    assert lore("card", "Shen Yan", "--world", "demo", home=demo_home).code == 0
    # a horizon past the last chapter hid the lore and none of the story; it is refused, and
    # the advice works
    past = lore("card", "韩峥", "--world", "demo", "--horizon", "99", home=demo_home)
    assert past.code == 2 and not past.out, past.out
    assert "--horizon: chapter 99 is past the story's last chapter (10)" in past.err
    assert "give a chapter from 1 to 10, or 0 for no horizon" in past.err
    assert lore("card", "韩峥", "--world", "demo", "--horizon", "10", home=demo_home).code == 0
    assert lore("map", "韩峥", "--world", "demo", "--horizon", "99", "--format", "text",
                home=demo_home).code == 2


LOREBOOK = {"entries": {
    "0": {"uid": 0, "key": ["Eldoria", "forest", "wood"], "keysecondary": [], "comment": "Eldoria",
          "content": "{{user}} rides into Eldoria, an ancient realm of forests ruled by the "
                     "Moon Court.", "constant": False, "selective": True, "disable": False},
    "1": {"uid": 1, "key": ["Shadowfang", "beast"], "keysecondary": [], "comment": "Shadowfangs",
          "content": "Shadowfangs are wolves made of dusk that hunt travellers on moonless "
                     "nights; they fear fire.", "constant": False, "selective": True},
}}
STORY = """Chapter 1. The Road

Mira walked through the forest until the light failed. In the wood an owl called twice.
She lit a fire and waited for morning, and nothing came out of the trees.
"""


def test_a_lorebook_is_lore_its_keys_are_triggers_not_names(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (tmp_path / "story").mkdir()
    (tmp_path / "story" / "chapter-01.md").write_text(STORY, encoding="utf-8")
    book = tmp_path / "Eldoria.json"
    book.write_text(json.dumps(LOREBOOK, indent=2), encoding="utf-8")
    done = lore("ingest", tmp_path / "story", "--world", "eld", "--glossary", book, home=home)
    assert done.code == 0, done.err
    entities = json.loads(lore("entities", "--world", "eld", "--json", home=home).out)
    eldoria = next(e for e in entities if e["name"] == "Eldoria")
    assert eldoria["aliases"] == []
    card = json.loads(lore("card", "Eldoria", "--world", "eld", "--json", home=home).out)
    assert card["card"]["appearances"] == []  # the story's forest and wood are not Eldoria
    asked = lore("ask", "What are Shadowfangs?", "--world", "eld", "--new", "--json", home=home)
    assert asked.code == 0, asked.err
    answer = json.loads(asked.out)
    assert "wolves made of dusk" in answer["answer"].split("\n", 1)[0]
    cited = answer["citations"][0]
    assert cited["source"].endswith("Eldoria.json")
    line = book.read_text(encoding="utf-8").split("\n")[cited["lines"][0] - 1]
    assert '"content"' in line and "wolves" in line  # cited by the entry's own line
    card = lore("card", "Eldoria", "--world", "eld", home=home)
    assert "the user rides into Eldoria" in card.out  # the macro written out, not {{user}}


@pytest.mark.parametrize("question", ["In which chapter does Gu Huaishan die?", "顾怀山死在第几回？"])
def test_a_which_chapter_question_cites_the_story_before_any_entry(demo_home: Path,
                                                                   question: str) -> None:
    """An entry tells no chapter: the answer opens on a chapter of the story."""
    done = lore("ask", question, "--world", "demo", "--new", "--json", home=demo_home)
    assert done.code == 0, done.err
    answer = json.loads(done.out)
    assert not answer["citations"][0]["source"].endswith("glossary.toml"), answer["answer"]
    assert answer["citations"][0]["chapter"] > 0


@pytest.mark.parametrize(("name", "line"), [("Qu Ming", "Appears only in ch. 8 [2]."),
                                            ("曲明", "只出现于第8回[2]。")])
def test_someone_of_one_chapter_appears_only_there(demo_home: Path, name: str, line: str) -> None:
    """Not "First appears in ch. 8, last in ch. 8; most present in chapters 8." (newcomer)."""
    done = lore("card", name, "--world", "demo", home=demo_home)
    assert done.code == 0, done.err
    assert line in done.out.splitlines(), done.out


def test_a_relation_cites_the_sentence_that_states_it(demo_home: Path) -> None:
    """苏绾's relation to 沈砚 stands in 沈砚's entry: its quote is the sentence naming her
    (苏绾之师…), not the entry's first sentence holding his name (字青崖。; newcomer's trial)."""
    done = lore("card", "苏绾", "--world", "demo", "--json", home=demo_home)
    assert done.code == 0, done.err
    card = json.loads(done.out)
    relation = next(line for line in card["text"].splitlines() if line.startswith("关系："))
    n = int(relation.split("[", 1)[1].split("]", 1)[0])
    quote = card["citations"][n - 1]["quote"]
    assert "苏绾" in quote, quote
