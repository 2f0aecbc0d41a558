"""The entity stack, the timeline, exports, the spoiler horizon and the command palette."""

from __future__ import annotations

import csv
import io
import json

import pytest
from textual.widgets import OptionList

from agent.conversation.exports import export_timeline
from tests.tui.conftest import SIZE, ask, settle
from tui.exports import exports_dir
from tui.screens.dialogs import ExportMenu, PromptDialog
from tui.screens.main import MainScreen
from tui.screens.passage import PassageScreen
from tui.widgets.stack import GUESS, EntityStack, entry_label


async def _track(pilot, entity: str) -> None:
    stack = pilot.app.main.stack
    await pilot.press("f3")
    stack.highlighted = stack.entities.index(entity)
    await pilot.press("enter")
    await settle(pilot)


@pytest.mark.slow
async def test_tracking_an_entity_fills_the_timeline_and_enter_opens_a_passage(app):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await ask(pilot, "沈砚的结义兄弟是谁？")
        assert "沈砚" in app.main.stack.entities
        await _track(pilot, "沈砚")
        timeline = app.main.timeline
        expected = app.conversation.retriever.track("沈砚")
        assert timeline.entity == "沈砚"
        assert [e.chunk_id for e in timeline.events] == [e.chunk_id for e in expected]
        assert [e.event_order for e in timeline.events] == sorted(e.event_order
                                                                  for e in expected)
        assert app.conversation.session.tracked_entity == "沈砚"
        assert "沈砚 (" in str(timeline.border_title)
        await pilot.press("f4", "down", "enter")
        await settle(pilot)
        assert isinstance(app.screen, PassageScreen)
        assert app.screen.passage.chunk_id == expected[1].chunk_id
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)


async def test_after_an_answer_the_stack_shows_its_newest_entities(app):
    # a newcomer's trial: the highlight had stayed on an older entity, so after a few answers
    # the pane was scrolled down past the newest ones, the ones the next he / she means
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        await ask(pilot, "沈砚的结义兄弟是谁？")
        stack = app.main.stack
        stack.highlighted = len(stack.entities) - 1
        await ask(pilot, "苏绾是从哪里拿回归雁图的？")
        assert stack.highlighted == 0 and stack.scroll_offset.y == 0
        await pilot.press("f3", "down")  # moving in the pane itself keeps its place
        moved = stack.highlighted_entity
        stack.show(app.conversation.stack(), {}, None)
        assert stack.highlighted_entity == moved


@pytest.mark.slow
async def test_the_dialogue_scripts_lines_show_in_the_chapter_its_heading_names(app):
    # the demo's script heads itself `# 第二回 …`: its lake scene (after the banquet of
    # chapter 2) is not labelled ch. 1 from its file name, scene-01.txt
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await ask(pilot, "苏绾是谁的弟子？")
        await _track(pilot, "苏绾")
        timeline = app.main.timeline
        lines = [(i, e) for i, e in enumerate(timeline.events) if "scene-01" in e.source]
        assert lines and {e.chapter for _, e in lines} == {2}
        lake = next(i for i, e in lines if "七杯" in app.conversation.retriever.chunks[
            e.chunk_id].text)
        assert str(timeline.get_option_at_index(lake).prompt).startswith("ch. 2 ")
        titles = app.conversation.retriever.chapter_titles
        assert titles[1].startswith("沈青崖柳溪授蒙童") and titles[2].startswith("寒汀渡舟中话旧盟")


def labels(stack: EntityStack) -> dict[str, str]:
    """Each entity's line in the stack pane, as plain text."""
    return {entity: str(stack.get_option_at_index(i).prompt)
            for i, entity in enumerate(stack.entities)}


def test_a_guess_is_labelled_after_its_name_and_in_italic_dim() -> None:
    label = entry_label("苏绾", "她", ["阿绾"], tracked=False, guess=True)
    assert label.plain.splitlines()[0] == f"  苏绾  {GUESS}  as 她"
    assert any(span.style == "italic dim" and label.plain[span.start:span.end].strip() == GUESS
               for span in label.spans)
    assert GUESS not in entry_label("苏绾", "她", [], tracked=False).plain


@pytest.mark.slow
async def test_the_answer_the_reader_did_not_state_shows_as_a_guess_until_he_means_it(app):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        first = await ask(pilot, "谁在柳溪镇教蒙童？")
        assert first.status == "answered"
        stored = app.conversation.turns()[-1]
        # a quote, the nearest found: the reader names no one
        assert stored.answer.splitlines()[0].startswith("最接近的一句见"), stored.answer
        assert [e.entity for e in app.conversation.stack() if e.guess] == ["沈砚"]
        shown = labels(app.main.stack)
        assert GUESS in shown["沈砚"], shown
        assert not any(GUESS in line for name, line in shown.items() if name != "沈砚"), shown
        await ask(pilot, "他的师父是谁？")
        assert "沈砚" in app.conversation.turns()[-1].resolved_question  # 他 meant the guess
        assert not any(GUESS in line for line in labels(app.main.stack).values())


@pytest.mark.slow
async def test_export_the_timeline_and_the_session_from_the_keyboard(app, settings):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, ExportMenu)
        await pilot.press("escape")  # nothing tracked yet: the timeline entries are disabled
        await ask(pilot, "苏绾是谁的弟子？")
        await _track(pilot, "苏绾")
        await pilot.press("ctrl+s")
        await pilot.press("enter")  # the first entry: the timeline as Markdown
        await settle(pilot)
        folder = exports_dir(settings)
        md = folder / "demo-timeline-苏绾.md"
        assert md.read_text(encoding="utf-8") == export_timeline(
            app.conversation.retriever, "苏绾", "md")
        assert any(str(md) in note for _, note in app.notes)
        await pilot.press("ctrl+s")
        # every picture format F1 promises is in the menu (a newcomer looked for the map's PNG)
        offered = {str(option.prompt) for option in app.screen.query_one(OptionList).options}
        assert {"Relations map of 苏绾 as PNG", "Relations map of 苏绾 as Graphviz DOT",
                "Presence chart of 苏绾 as CSV", "Presence chart of 苏绾 as JSON"} <= offered
        await pilot.press("down", "down", "enter")  # CSV
        await settle(pilot)
        rows = list(csv.DictReader(io.StringIO(
            (folder / "demo-timeline-苏绾.csv").read_text(encoding="utf-8"))))
        assert len(rows) == len(app.main.timeline.events) > 0
        await pilot.press("ctrl+s", "down", "down", "down", "down", "enter")  # session as JSON
        await settle(pilot)
        session = json.loads((folder / f"demo-session-{app.conversation.session.id}.json")
                             .read_text(encoding="utf-8"))
        assert "苏绾是谁的弟子？" in json.dumps(session, ensure_ascii=False)
        await ask(pilot, "沈砚是谁？")  # answered from his glossary entry, cited first
        await pilot.press("ctrl+s", "down", "down", "down", "enter")  # session as Markdown
        await settle(pilot)
        text = (folder / f"demo-session-{app.conversation.session.id}.md").read_text(
            encoding="utf-8")
        # the glossary entry it cites is 设定, as on screen, not its sort key 第1000000回
        assert "[1] 设定, glossary.toml" in text and "1000000" not in text
        # each line of an answer stays a line in Markdown (a newcomer's export ran its lead and
        # quotes into one paragraph)
        answer = app.conversation.turns()[-1].answer
        assert "\n" in answer and answer.replace("\n", "  \n") in text


@pytest.mark.slow
async def test_the_spoiler_horizon_is_set_from_the_keyboard(app):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await ask(pilot, "沈砚的结义兄弟是谁？")
        await _track(pilot, "沈砚")
        assert max(e.chapter for e in app.main.timeline.events) > 2
        await pilot.press("ctrl+b")
        assert isinstance(app.screen, PromptDialog)
        await pilot.press("2", "enter")
        await settle(pilot)
        assert app.main.status.horizon == 2
        assert "horizon ch. 2" in str(app.main.status.render())
        assert app.conversation.session.spoiler_horizon == 2
        assert {e.chapter for e in app.main.timeline.events} <= {1, 2}
        # 韩峥 dies in chapter 6: nothing past chapter 2 is cited (the text so far does not
        # tell his death, so the answer may cite nothing at all)
        view = await ask(pilot, "韩峥最后死在哪里？")
        cited = view.citations.citations if view.citations else []
        assert view.status == "answered" and all(c["chapter"] <= 2 for c in cited)


async def test_a_horizon_past_the_last_chapter_is_refused_and_says_why(app):
    # a newcomer's trial: chapter 99 of a ten-chapter story was taken, and hid the lore entries
    # (every answer "as of ch. 99") without hiding any of the story
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+b", "9", "9", "enter")
        await settle(pilot)
        assert app.main.status.horizon in (None, 0)
        assert not app.conversation.session.spoiler_horizon
        said = [n.message for n in app._notifications]
        assert any("past the story's last chapter (10)" in m for m in said), said


async def test_a_horizon_typed_wrong_is_refused_and_the_old_one_stays(app):
    # a newcomer's trial: typing "abc" over the horizon (ch. 4) cleared it, and the whole story
    # was searched, with only "Spoiler horizon cleared" to say so
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+b", "4", "enter")
        await settle(pilot)
        assert app.main.status.horizon == 4
        await pilot.press("ctrl+b", "ctrl+a", "a", "b", "c", "enter")
        await settle(pilot)
        assert app.main.status.horizon == 4 and app.conversation.session.spoiler_horizon == 4
        said = [n.message for n in app._notifications]
        assert any("is not a chapter" in m and "stays chapter 4" in m for m in said), said


async def test_under_the_horizon_the_stack_shows_no_name_the_story_gives_later(app):
    # a newcomer's trial: at ch. 20 the stack and the card gave Edmond Dantès "Monte Cristo",
    # the book's secret; 韩峥 is 韩楼主 from ch. 3 and 韩定远 from ch. 6
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+b", "2", "enter")
        await settle(pilot)
        await ask(pilot, "韩峥是谁？")
        stack = app.main.stack
        label = str(stack.get_option_at_index(stack.entities.index("韩峥")).prompt)
        assert "韩师叔" in label and "定远" in label, label
        assert "韩楼主" not in label and "韩定远" not in label, label


@pytest.mark.slow
async def test_the_command_palette_runs_actions(app, settings):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await ask(pilot, "顾青禾是谁？")
        await pilot.press("ctrl+p", *"session as markdown")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await settle(pilot)
        path = exports_dir(settings) / f"demo-session-{app.conversation.session.id}.md"
        assert "顾青禾是谁？" in path.read_text(encoding="utf-8")


@pytest.mark.slow
async def test_the_timeline_follows_the_conversation_and_keeps_an_entity_tracked_by_hand(app):
    # a newcomer's trial: the timeline stayed empty (or on an old entity) while the
    # conversation moved from one person to another
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await ask(pilot, "沈砚是谁？")
        await settle(pilot)
        timeline = app.main.timeline
        assert app.main.stack.conversation_entity == "沈砚" == timeline.entity
        assert timeline.events and app.conversation.session.tracked_entity == "沈砚"
        await ask(pilot, "苏绾是谁？")
        await settle(pilot)
        assert timeline.entity == "苏绾" and timeline.events
        await _track(pilot, "沈砚")  # by hand: it stays while the conversation stays on 苏绾
        await ask(pilot, "她是谁的弟子？")
        await settle(pilot)
        assert app.main.stack.conversation_entity == "苏绾"
        assert timeline.entity == "沈砚" == app.conversation.session.tracked_entity
        assert not any("No appearances" in note for _, note in app.notes)


async def test_ask_about_puts_the_name_in_the_box_for_the_question_to_follow(app):
    # a newcomer's trial: after `a` on 韩峥 in the entity stack the name stood selected, so the
    # first key typed replaced it and "后来怎么样了？" was asked of someone else
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await ask(pilot, "沈砚的结义兄弟是谁？")
        stack = app.main.stack
        await pilot.press("f3")
        stack.highlighted = stack.entities.index("韩峥")
        await pilot.press("a")
        await pilot.pause()
        await pilot.press(*"后来怎么样了")
        assert app.main.question.value == "韩峥 后来怎么样了"
