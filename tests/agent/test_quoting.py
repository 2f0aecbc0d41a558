"""How an answer quotes a long sentence: from where the question's words stand."""

from __future__ import annotations

from agent.librarian.quoting import focused

# Mansfield Park, ch. 26: the amber cross stands past the first 240 characters
CROSS = ("To her the cares were sometimes almost beyond the happiness; for young and "
         "inexperienced, with small means of choice and no confidence in her own taste, the \"how "
         "she should be dressed\" was a point of painful solicitude; and the almost solitary "
         "ornament in her possession, a very pretty amber cross which William had brought her "
         "from Sicily, was the greatest distress of all, for she had nothing but a bit of ribbon "
         "to fasten it to.")


def test_a_long_sentence_is_quoted_from_the_clause_that_holds_the_questions_words() -> None:
    quote = focused(CROSS, ["gave", "amber", "cross"], 240)
    assert "amber cross which William had brought her from Sicily" in quote, quote
    # from its opening, up to the clause that holds them: what the sentence is about stays
    assert quote.startswith("To her the cares") and len(quote) <= 480 and quote in CROSS
    # never longer than twice the limit, clause or none
    endless = "To her the cares " + "and worries " * 20 + "of the amber cross " + "x" * 600
    assert len(focused(endless, ["amber", "cross"], 240)) <= 480
    # farther in than twice the limit, from the clause before them
    far = "They talked, " + "and walked on, " * 40 + "and then William gave her the amber cross."
    quote = focused(far, ["amber", "cross"], 240)
    assert quote.endswith("amber cross.") and len(quote) <= 240 and quote in far, quote
    # words it does not hold, or none, quote it from its start, as before
    assert focused(CROSS, ["necklace"], 240) == focused(CROSS, [], 240)
    assert focused(CROSS, [], 240).startswith("To her the cares")
    # a short sentence is quoted whole
    assert focused("William gave her the cross.", ["cross"], 240) == "William gave her the cross."
    # Chinese words, written whole
    long_zh = "话说" + "那日天气甚好，众将" * 20 + "曹操以赤兔马赠关羽。"
    assert "赤兔马" in focused(long_zh, ["赤兔马"], 60)


# Persuasion, ch. 1: the question's last word stands near the limit, and the answer after it
MARRIED = ("Precisely such had the paragraph originally stood from the printer's hands; but Sir "
           "Walter had improved it by adding, for the information of himself and his family, "
           "these words, after the date of Mary's birth-- \"Married, December 16, 1810, Charles, "
           "son and heir of Charles Musgrove, Esq. of Uppercross, in the county of Somerset,\" and "
           "by inserting most accurately the day of the month on which he had lost his wife.")


def test_a_long_sentence_is_quoted_on_past_the_questions_words() -> None:
    # "Who did Mary Elliot marry?" was cut at "Married, December 16, 1810…", before Charles
    quote = focused(MARRIED, ["Mary", "Elliot", "marry"], 240)
    assert "Charles, son and heir" in quote and quote.startswith("Precisely"), quote
    assert len(quote) <= 480 and quote in MARRIED


def test_a_chinese_line_of_words_alone_is_quoted_with_who_says_them() -> None:
    from agent.librarian.quoting import with_speaker

    # 呐喊 (a newcomer's trial): “我和你困觉”是谁说的？ quoted the words to their closing mark
    text = "伊吓了一跳。“我和你困觉，我和你困觉！”阿Ｑ忽然抢上去，对伊跪下了。一刹时中很寂然。"
    assert with_speaker(text, "“我和你困觉，我和你困觉！”") == (
        "“我和你困觉，我和你困觉！”阿Ｑ忽然抢上去，对伊跪下了。")
    # a new line, or more words said, is no telling of who said them
    assert with_speaker("“走罢！”\n他便走了。", "“走罢！”") == "“走罢！”"
    assert with_speaker("“走罢！”“不走。”", "“走罢！”") == "“走罢！”"
    # English keeps its speech tags in its sentences already
    assert with_speaker("“Go,” he said.", "“Go,”") == "“Go,”"
