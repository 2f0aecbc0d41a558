"""The timeline export's words: counts said as a person reads them."""

from __future__ import annotations

from agent.conversation.exports import _timeline_md
from agent.schemas import TimelineEvent


def test_one_chapter_is_said_as_one() -> None:
    # 呐喊 (a newcomer's trial): "73 appearances in 1 chapters"
    events = [TimelineEvent(chapter=12, event_order=n, chunk_id=f"c{n}", gist="阿Ｑ来了。",
                            source="12.txt", lines=(n, n)) for n in range(1, 3)]
    md = _timeline_md("阿Ｑ", [], events, "nahan")
    assert "2 appearances in 1 chapter, in story order." in md
    assert "1 appearance in 1 chapter," in _timeline_md("阿Ｑ", [], events[:1], "nahan")


def test_a_gist_is_cut_between_words() -> None:
    # a newcomer's timeline export (Persuasion): "…and two arro…"
    from agent.world.gist import gist

    text = ("Lady Russell had only a temperate wish for the marriage, and two arrows of "
            "advice she had shot at Sir Walter went wide of their mark entirely.")
    cut = gist(text, ["Lady Russell"])
    assert cut.endswith("…") and len(cut) <= 80
    assert cut[:-1] in text and not text[len(cut) - 1].isalpha(), cut


def test_a_gist_closes_the_speech_it_cuts() -> None:
    # 三国演义's timeline (a newcomer's export): 其人曰：“吾姓关名羽，…人也。 left open
    from agent.world.gist import gist

    text = "其人曰：“吾姓关名羽，字长生，后改云长，河东解良人也。今闻此处招军破贼，特来应募。”"
    assert gist(text, ["关羽", "云长"]) == "其人曰：“吾姓关名羽，字长生，后改云长，河东解良人也。”"


def test_a_session_export_says_how_the_user_called_someone_as_such(tmp_path) -> None:
    # "Talked about: Frederick (his), Eleanor Tilney (she)" read as names (a newcomer's export)
    from agent.conversation.exports import export_session
    from sessions.records import StackEntry
    from sessions.store import SessionStore

    with SessionStore(tmp_path / "sessions.db") as store:
        session = store.create_session("northanger")
        turn = store.begin_turn(session.id, "Who is his brother?")
        store.finish_turn(turn.id, resolved_question="Who is Frederick's brother?", messages_json="[]",
                          answer="Henry Tilney.", stack=[StackEntry(entity="Frederick",
                                                                    referred_as="his")])
        markdown = export_session(store, session.id, "md")
    assert "Talked about (most recent first): Frederick (as “his”)" in markdown
