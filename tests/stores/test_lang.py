"""The vocabulary package: one Han test, one sentence splitter, the languages by code."""

from __future__ import annotations

import pytest

from stores import lang
from stores.lang import (
    asks,
    clip,
    clip_at,
    has_han,
    in_quotes,
    language,
    language_for,
    script_of,
    shown,
)
from stores.lang.text import sentences


def test_one_script_detector_for_every_han_block() -> None:
    assert script_of("刘备是谁？") == "zh" and script_of("Who is Dantès?") == "en"
    assert has_han("㐀") and has_han("𠀀") and has_han("豈")  # extension A, B, compatibility
    assert not has_han("ひらがな") and not has_han("한국어")


def test_sentences_keep_a_titles_full_stop_inside_the_sentence() -> None:
    text = "M. Noirtier came in. 玄德大喜。\nMr. Darcy bowed!"
    assert [text[a:b].strip() for a, b, _ in sentences(text)] == [
        "M. Noirtier came in.", "玄德大喜。", "Mr. Darcy bowed!"]


def test_a_question_in_speech_that_the_telling_goes_on_after_ends_no_sentence() -> None:
    text = "“Is that so?” asked he of Edmond. “Yes!” Mercédès wept. 玄德问曰：“何故？”孔明不答。"
    assert [text[a:b].strip() for a, b, _ in sentences(text)] == [
        "“Is that so?” asked he of Edmond.", "“Yes!”", "Mercédès wept.", "玄德问曰：“何故？”",
        "孔明不答。"]
    # a cry with a comma after it: the telling goes on (The Metamorphosis; the answer's quote
    # opened “, shouted the middle gentleman to Gregor's father…”)
    text = '"Mr. Samsa!", shouted the middle gentleman, pointing. He left.'
    for rule in ("story", "quote"):
        assert [s.text.strip() for s in sentences(text, rule)] == [
            '"Mr. Samsa!", shouted the middle gentleman, pointing.', "He left."], rule


def test_a_quote_is_in_quotation_marks_once() -> None:
    assert in_quotes("Dantès bowed.") == "“Dantès bowed.”"
    assert in_quotes("“They denounced Edmond as a Bonapartist agent.”") == \
        "“They denounced Edmond as a Bonapartist agent.”"
    cut = clip("“Well, then,” resumed Danglars, “that if after a voyage such as Dantès has "
               "just made, he should be arrested.”", 90)  # cut inside the second speech
    assert in_quotes(cut) == ("“Well, then,” resumed Danglars, “that if after a voyage such as "
                              "Dantès has just made…”")
    assert in_quotes("孔明笑曰：“此计大妙。”") == "“孔明笑曰：‘此计大妙。’”"  # not its own quote
    assert in_quotes("He said, “Wait and hope.”") == "“He said, ‘Wait and hope.’”"
    # straight quotes: the speech the sentence opens is the quote's own
    assert in_quotes('"In your language, the Lone Swan.') == "“In your language, the Lone Swan.”"
    # its marks taken in turns, not wrapped again (“"My debts are old," he replied.”)
    assert in_quotes('"My debts are old," he replied, "but few."') == (
        "“My debts are old,” he replied, “but few.”")


def test_a_sentence_that_ends_inside_a_speech_closes_it() -> None:
    # the sentence ends at 。 and the speech goes on: the quote closes what it opened
    assert shown("又道：“泓州侯裴昭要这幅图，不是为了祖师的剑。") == "又道：“泓州侯裴昭要这幅图，不是为了祖师的剑。”"
    assert shown("韩峥却道：“大哥，我也不愿信") == "韩峥却道：“大哥，我也不愿信…”"
    assert shown("沈砚道：“你记住，『剑在人在』。”") == "沈砚道：“你记住，『剑在人在』。”"
    assert in_quotes("He said, “Well, I never.") == "“He said, ‘Well, I never.’”"
    # a clause that ends at a semicolon is the start of a longer sentence
    assert shown("顾怀山在沈砚二十岁时所赐之剑，沈砚挂剑五年；") == "顾怀山在沈砚二十岁时所赐之剑，沈砚挂剑五年…"


def test_question_words_join_every_language() -> None:
    assert asks("who").search("刘备三顾茅庐请的是谁？") and asks("who").search("Whom did she marry?")
    assert asks("where").search("他最后死在哪里？") and not asks("where").search("Who is he?")
    assert asks("which_chapter").search("In which chapter does he die?")


def test_languages_are_found_by_code_and_by_text() -> None:
    assert language("zh").code == "zh" and language_for("Who?").code == "en"
    assert "死" in language("zh").death_words and "died" in language("en").death_words
    with pytest.raises(KeyError, match="known: zh, en"):
        language("fr")
    assert lang.LANGUAGES == ("zh", "en")


def test_the_frequent_surnames_are_surnames() -> None:
    from stores.lang.zh import COMMON_SURNAMES, SINGLE_SURNAMES

    assert COMMON_SURNAMES <= SINGLE_SURNAMES


def test_a_relatives_word_is_gendered_when_the_gender_is_known() -> None:
    english, chinese = language("en"), language("zh")
    assert english.relative_word("parent_of", "source", "m") == "father"
    assert english.relative_word("parent_of", "target", "f") == "daughter"
    assert english.relative_word("parent_of", "source", "") == "parent"
    assert english.relative_word("spouse", "source", "f") == "wife"  # either end of a spouse
    assert chinese.relative_word("mentor", "target", "") == "徒弟"
    assert english.relative_word("co_occurs", "source", "m") == ""
    assert english.relative_sentence.format(who="Noirtier", whose="Villefort", word="father") \
        == "Noirtier is Villefort's father"


def test_a_long_sentence_is_quoted_from_the_clause_that_holds_the_name() -> None:
    # Emma's card for Harriet Smith quoted "Harriet Smith, the latest couple engaged of the
    # three, were the first to be married": the clause opened at a plain-text dash (--), before
    # "Robert Martin and"
    sentence = ("It was a happy summer for all of them and the happiest of all the summers that "
                "the old village had seen.--Robert Martin and Harriet Smith, the latest couple "
                "engaged of the three, were the first to be married.")
    quoted = clip_at(sentence, sentence.index("Harriet"), 160)
    assert quoted.startswith("Robert Martin and Harriet Smith"), quoted
