"""What a chapter tells, read under a spoiler horizon and past the story's end (texts written for
the tests; the command line is tested in tests/integration/test_chapter_questions.py)."""

from __future__ import annotations

from agent.librarian.chapters import Chapters, chapter_account, chapter_asked
from stores.models import Chunk


def chunk(n: int, text: str) -> Chunk:
    return Chunk(id=f"c{n}", world="w", document=f"{n:02}.txt", chapter=n, chapter_title="",
                 scene=0, chunk_order=n, text=text, line_start=1, line_end=1)


STORY = Chapters([chunk(1, "Corwin Ashe kept the mill on the Wend river for forty years."),
                  chunk(2, "The flood broke the wheel, and Tamsin Reed rowed to the mill.")],
                 {})


def _spans(text: str) -> list[tuple[int, int, str]]:
    return [(text.find(n), text.find(n) + len(n), n) for n in ("Corwin Ashe", "Tamsin Reed")
            if n in text]


def _account(question: str, chapter: int, horizon: int = 0) -> str:
    asked = chapter_asked(question)
    assert asked is not None
    return chapter_account(asked, chapter, STORY, False, _spans,
                           {"Corwin Ashe": "person", "Tamsin Reed": "person"}, str, horizon).text


def test_a_chapter_past_the_horizon_is_not_told_and_one_past_the_end_is_not_there() -> None:
    assert _account("What happens in chapter 2?", 2, horizon=1) == (
        "Chapter 2 lies past your spoiler horizon (chapter 1): nothing of it is shown.")
    assert "Tamsin" not in _account("Who appears in chapter 2?", 2, horizon=1)
    assert _account("What happens in chapter 1?", 1, horizon=1).startswith(
        "Chapter 1. Most present: Corwin Ashe. It opens: “Corwin Ashe kept the mill")
    assert _account("Summarize chapter 5.", 5) == (
        "The story has no chapter 5 (its chapters: 1–2).")


def test_only_a_question_of_the_chapter_alone_is_asked_of_it() -> None:
    assert chapter_asked("What happens to Tamsin in chapter 2?") is None  # a search answers
    assert chapter_asked("Who dies in chapter 2?") is None
    assert chapter_asked("第二回讲了什么？") == "events"
    assert chapter_asked("谁在第二回出场？") == "people"


def test_where_someone_first_appears_under_a_horizon_before_it() -> None:
    from agent.librarian.chapters import appearance_account
    from stores.cards import Appearance, Card

    read: list[str] = []

    def card(name: str) -> Card:
        read.append(name)
        return Card(name, "person", [], [], [Appearance(2, 1, "c2")], {})

    chunks = {c.id: c for c in STORY.story}
    assert appearance_account("Who is Tamsin Reed?", "Tamsin Reed", card, chunks,
                              ["Tamsin Reed"], {}, False, str) is None
    assert read == []  # a question of anything else reads no card from the catalog
    asked = "In which chapter does Tamsin Reed first appear?"
    seen = appearance_account(asked, "Tamsin Reed", card, chunks, ["Tamsin Reed"], {}, False,
                              str)
    assert seen is not None and seen.text == (
        "Tamsin Reed first appears in chapter 2: “The flood broke the wheel, and Tamsin Reed "
        "rowed to the mill.” [1]")
    hidden = appearance_account(asked, "Tamsin Reed", card, chunks, ["Tamsin Reed"], {}, False,
                                str, horizon=1)
    assert hidden is not None and hidden.text == "Up to chapter 1, Tamsin Reed does not appear."


def test_each_of_the_most_present_is_cited_where_the_chapter_names_them() -> None:
    # a newcomer's "What happens in chapter 5?" was marked unsupported: it named Mrs. Allen, the
    # third most present, and no quoted passage did
    people = ("Corwin Ashe", "Tamsin Reed", "Wren Hollis")
    texts = ["Rain came over the hills at dawn and the river rose.",
             "Corwin Ashe sat by the fire.", "Corwin Ashe mended the net by the fire.",
             "Tamsin Reed sang of copper lanterns.", "Tamsin Reed slept on the quay.",
             "Wren Hollis laughed at the herons.", "Wren Hollis rowed to the amber mill."]
    story = Chapters([Chunk(id=f"p{i}", world="w", document="03.txt", chapter=3,
                            chapter_title="", scene=0, chunk_order=i, text=t, line_start=i,
                            line_end=i) for i, t in enumerate(texts)], {})

    def spans(text: str) -> list[tuple[int, int, str]]:
        return [(text.find(n), text.find(n) + len(n), n) for n in people if n in text]

    answer = chapter_account("events", 3, story, False, spans,
                             dict.fromkeys(people, "person"), str)
    present = answer.text.split(" It opens:")[0]
    assert present.startswith("Chapter 3. Most present: Corwin Ashe") and "[1]" in present, \
        answer.text
    for name in people:  # every name the answer gives stands in a passage it cites
        assert any(name in c.quote for c in answer.citations), (name, answer.text)


def test_where_someone_first_appears_is_quoted_from_the_clause_that_names_them() -> None:
    # "Frederick first appears in chapter 14: “You talked of expected horrors in London--…”":
    # the long sentence named Captain Frederick Tilney past where its quote was cut
    from agent.librarian.chapters import appearance_account
    from stores.cards import Appearance, Card

    long = ("The mill wheel turned all that winter, slow and loud, " * 6
            + "and then, at the spring fair, Tamsin Reed came down the hill road with her nets.")
    chunks = {"c9": chunk(9, long)}
    seen = appearance_account("Which chapter does Tamsin Reed first appear in?", "Tamsin Reed",
                              lambda name: Card(name, "person", [], [], [Appearance(9, 1, "c9")],
                                                {}), chunks, ["Tamsin Reed"], {}, False, str)
    assert seen is not None and "Tamsin Reed came down the hill road" in seen.citations[0].quote
