"""The text toolkit (stores/lang/text.py): one sentence splitter whose rules differ where their
callers were measured with the difference, and one English stemmer."""

from __future__ import annotations

import pytest

from stores.lang.text import fold_latin, in_someones_words, sentences, stem

TEXT = 'M. Noirtier came in. He said: "Go!" Then he left.\n玄德大喜。「好！」关羽曰；张飞笑…'


@pytest.mark.parametrize(("rule", "expected"), [
    # a title's full stop stays inside; a line break ends a sentence; one closing quote at most
    ("story", ["M. Noirtier came in.", ' He said: "Go!"', " Then he left.", "玄德大喜。",
               "「好！", "」关羽曰；张飞笑…"]),
    # line breaks read as spaces; ；-clauses and closing brackets; a full stop before a space,
    # not a title's (a card quoting "the wife of Mr." says nothing)
    ("quote", ["M. Noirtier came in.", 'He said: "Go!"', "Then he left.", "玄德大喜。",
               "「好！」", "关羽曰；", "张飞笑…"]),
    # chunking's: the spaces after a sentence stay with it, so the pieces glue back
    ("chunk", ["M. Noirtier came in. ", 'He said: "Go!" ', "Then he left.\n", "玄德大喜。",
               "「好！」", "关羽曰；", "张飞笑…"]),
    # the librarian's quotes: an English full stop never ends a sentence
    ("clause", ['M. Noirtier came in. He said: "Go!"', "Then he left.", "玄德大喜。", "「好！」",
                "关羽曰；", "张飞笑…"]),
    ("between", ['M. Noirtier came in. He said: "Go', '" Then he left.', "玄德大喜",
                 "。「好！」关羽曰；张飞笑…"]),
    ("head", ["M. Noirtier came in.", 'He said: "Go!', '" Then he left.', "玄德大喜。", "「好！",
              "」关羽曰；", "张飞笑…"]),
    ("mark", ["M.", " Noirtier came in.", ' He said: "Go!', '" Then he left.', "\n玄德大喜。",
              "「好！", "」关羽曰；张飞笑…"]),
])
def test_each_rule_cuts_as_its_callers_were_measured(rule, expected) -> None:
    assert [s.text for s in sentences(TEXT, rule)] == expected


@pytest.mark.parametrize("rule", ["story", "quote", "chunk", "clause", "between", "head", "mark"])
def test_a_sentence_says_where_it_stands(rule) -> None:
    flat = TEXT.replace("\n", " ")
    for s in sentences(TEXT, rule):
        shown = flat[s.start:s.end] if rule == "quote" else TEXT[s.start:s.end]
        assert s.text in (shown, shown.strip())


def test_the_mark_rule_gives_the_text_back() -> None:
    assert "".join(s.text for s in sentences(TEXT, "mark")) == TEXT


def test_one_stemmer_two_ways() -> None:
    assert stem("married") == "marri"  # Snowball: the keyword index and its queries
    assert stem("denouncing") == "denounc"
    assert stem("Dantès", prefix=True) == "dante"  # the librarian's prefix match folds too
    assert stem("smartphone", prefix=True) == "smartph"  # long words keep more: not smart
    assert fold_latin("Mercédès") == "mercedes"


def test_a_name_in_a_line_of_verse_not_in_the_words_that_bring_the_poem_in() -> None:
    from stores.lang.text import in_verse

    text = "后人因汉之亡，有追思武侯诗曰：“鱼鸟犹疑畏简书，风云长为护储胥。"
    assert in_verse(text, text.index("云长")) and not in_verse(text, text.index("武侯"))
    assert not in_verse("袭人乃宝玉的丫头，名叫花珍珠。", 0)
    assert not in_verse("曹仁字子孝，曹洪字子廉：二人弓马熟娴，武艺精通。", 0)  # prose
    # speech in clauses of five or seven, and prose, are no poem
    assert not in_verse("他道：“师父去哪里，我便去哪里。”", 5)
    assert not in_verse("苏绾拔出断鸿剑，挡在了师父身前。", 0)


def test_a_poem_written_a_couplet_a_line_is_verse_and_two_lines_of_prose_are_not() -> None:
    from stores.lang.text import in_verse_lines

    poem = "后人有诗叹曰：\n楼桑玄德本皇孙，义结关张愿扶主；\n南阳三顾情何深，卧龙一见分寰宇；\n说罢。"
    assert in_verse_lines(poem, poem.index("卧龙")) and in_verse_lines(poem, poem.index("玄德"))
    assert not in_verse_lines(poem, poem.index("后人")) and not in_verse_lines(poem, poem.index("说罢"))
    prose = "苏绾拔出断鸿剑，挡在了师父身前。\n沈砚看了她一眼，没有再说什么。"
    assert not in_verse_lines(prose, 0) and not in_verse_lines(prose, prose.index("沈砚"))


@pytest.mark.parametrize("rule", ["story", "quote"])
def test_a_spaced_ellipsis_is_one_mark(rule) -> None:
    # Heart of Darkness (a newcomer's trial): "Who is the Russian?" opened on "Russian ."
    text = ("He had to introduce himself . . . Russian . . . son of an arch-priest . . . and he "
            "laughed. Good Lord! . . . Here you all are.")
    assert [s.text.strip() for s in sentences(text, rule)] == [
        "He had to introduce himself . . .", "Russian . . . son of an arch-priest . . . and he "
        "laughed.", "Good Lord! . . .", "Here you all are."]


@pytest.mark.parametrize("rule", ["story", "quote"])
def test_a_question_a_dash_goes_on_from_ends_no_sentence(rule) -> None:
    # Heart of Darkness (a newcomer's trial): "Who is the brickmaker?" opened on "--the
    # brickmaker, will make a readable report for you.'", cut from what Marlow heard
    text = "That fellow--what's his name?--the brickmaker, will make a report. Who?--No one."
    assert [s.text.strip() for s in sentences(text, rule)] == [
        "That fellow--what's his name?--the brickmaker, will make a report.", "Who?",
        "--No one."]


def test_a_speech_of_several_paragraphs_closes_at_its_last() -> None:
    # Heart of Darkness (a newcomer's trial): Marlow's tale is in quotes from end to end, each
    # paragraph opening with one and only the last closing; "Marlow ceased" after it is the
    # telling, and Marlow's card said his last appearance was a part earlier
    passage = ('"It was dark, he said.\n"It would have been too dark altogether."\n'
               'Marlow ceased, and sat apart. "We have lost the ebb," said the Director.')
    assert in_someones_words(passage, passage.index("It would"))
    assert not in_someones_words(passage, passage.index("Marlow ceased"))
    assert in_someones_words(passage, passage.index("We have"))
    assert not in_someones_words(passage, passage.index("said the Director"))


@pytest.mark.parametrize("rule", ["story", "quote"])
def test_a_clergymans_an_officers_or_a_shouted_title_ends_no_sentence(rule) -> None:
    # Dubliners (a newcomer's trial) quoted "James Flynn (formerly of S. Catherine's Church…"
    # cut from "The Rev. James Flynn", and a timeline row read "MRS." alone; Emma's "The
    # marriage of Lieut. Fairfax" was cut too
    text = "The Rev. James Flynn died. MRS. MOONEY was a butcher's daughter. Lieut. Fairfax came."
    assert [s.text.strip() for s in sentences(text, rule)] == [
        "The Rev. James Flynn died.", "MRS. MOONEY was a butcher's daughter.",
        "Lieut. Fairfax came."]
