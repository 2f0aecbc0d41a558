"""The app and the command line in step (issue 39, item 2): a turn asked with `lore ask` on the
session the app has open shows in the app's chat, and its entity stack follows, without a
restart — so the next follow-up in the app is read against what the user can see."""

from __future__ import annotations

import pytest

from tests.tui.conftest import SIZE, ask, settle
from tests.tui.test_two_processes import lore

# the app under Pilot, `lore ask` in another process: slow (pyproject.toml)
pytestmark = pytest.mark.slow


async def test_a_turn_asked_by_lore_ask_shows_in_the_open_app(app, settings):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await ask(pilot, "Who is Su Wan?")
        assert app.main.stack.entities[0] == "苏绾"
        session = app.conversation.session.id
        code, out, err = await lore(settings, "ask", "韩峥最后死在哪里？", "--session", session)
        assert code == 0, err
        for _ in range(200):  # the app notices by itself; no key is pressed
            await pilot.pause(0.1)
            questions = [t.question for t in app.main.chat.turns]
            # the status line counts the turns last, once the chat has drawn them and their
            # answers: the turn shows before its answer is written, and a loaded machine let
            # this loop look in between (make test: 'pending' == 'answered')
            if "2 turns" in app.main.status.session:
                break
        assert questions == ["Who is Su Wan?", "韩峥最后死在哪里？"]
        assert app.main.chat.turns[-1].status == "answered"
        assert app.main.stack.entities[0] == "韩峥"
        assert "2 turns" in app.main.status.session
        await settle(pilot)  # the timeline follows it too, as after a turn asked here
        assert app.main.timeline.entity == "韩峥"
        turn = await ask(pilot, "他是谁的徒弟？")  # his: 韩峥, whom the chat now shows last
        assert "韩峥" in str(turn.query_one(".resolved").render())
        assert [t.question for t in app.main.chat.turns][-1] == "他是谁的徒弟？"
        assert "3 turns" in app.main.status.session


async def test_a_session_asked_on_the_command_line_opens_with_its_timeline(settings):
    # `lore ask` tracks no one; the app opened on such a session said "No entity tracked yet"
    # beside a stack led by the one asked about (a newcomer's trial on 三国演义)
    from tests.tui.conftest import make_app

    code, _, err = await lore(settings, "ask", "Who is Su Wan?", "--world", "demo", "--new")
    assert code == 0, err
    app = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.main.stack.entities[0] == "苏绾"
        assert app.main.timeline.entity == "苏绾" and app.main.timeline.events
