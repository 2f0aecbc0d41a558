"""Conversation over the tiny real world (tests/agent/conftest.py) with scripted models.

The question is saved before the model runs, a failing or cancelled model leaves it in the
session, follow-ups are resolved from the saved stack, and a reopened conversation resumes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic_ai import ModelMessage, ModelRequest, ModelResponse, ToolCallPart, ToolReturnPart
from pydantic_ai import models as ai_models
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agent.conversation.core import build_agent
from agent.conversation.session import Conversation, find_session
from agent.readers.settings import AgentSettings, ModelSettings
from agent.schemas import Answer, Citation, Memory, Passage, Referent
from agent.world.open_world import OpenWorld
from agent.world.retrieval import Retriever
from sessions import SessionStore
from stores.config import SessionSettings
from stores.errors import LoreError
from tests.agent.conftest import mini_retriever, mini_settings  # noqa: F401  (fixtures)


@pytest.fixture(autouse=True)
def no_network() -> Iterator[None]:
    with ai_models.override_allow_model_requests(False):
        yield


@pytest.fixture
def store(lore_home: Path) -> Iterator[SessionStore]:
    with SessionStore(lore_home / "sessions.db") as store:
        yield store


def prompt(messages: list[ModelMessage]) -> str:
    """The user prompt of the current run (the question as typed)."""
    for message in reversed(messages):
        for part in getattr(message, "parts", []):
            if getattr(part, "part_kind", "") == "user-prompt":
                return str(part.content)
    return ""


class Librarian:
    """Searches once for the prompt, then answers with the top passage and the given entities,
    saying it read the question as `reads` says (the resolved question, {words: names}) and
    ending as `stops` says (answered when not given)."""

    def __init__(self, *entities: list[str],
                 reads: list[tuple[str, dict[str, list[str]]]] | None = None,
                 stops: list[str] | None = None) -> None:
        self.entities = list(entities)
        self.reads = list(reads or [])
        self.stops = list(stops or [])
        self.instructions: list[str] = []
        self.seen: list[list[ModelMessage]] = []
        self.prompts: list[str] = []
        self.history_sizes: list[int] = []
        self.searches_seen: list[int] = []

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        last = messages[-1]
        found = [p for p in last.parts if isinstance(p, ToolReturnPart)
                 and p.tool_name == "vector_search"] if isinstance(last, ModelRequest) else []
        if not found:
            self.seen.append(list(messages))
            self.instructions.append(info.instructions or "")
            self.prompts.append(prompt(messages))
            self.history_sizes.append(len(messages))
            self.searches_seen.append(sum(
                1 for m in messages for part in m.parts
                if isinstance(part, ToolReturnPart) and part.tool_name == "vector_search"))
            return ModelResponse(parts=[ToolCallPart("vector_search",
                                                     {"query": prompt(messages), "top_k": 3})])
        top = Passage.model_validate(found[0].content[0])
        quote = top.text.split("。")[0]
        resolved, referents = self.reads.pop(0) if self.reads else ("", {})
        answer = Answer(text=f"{quote}。[1]", citations=[Citation(chunk_id=top.chunk_id, quote=quote)],
                        entities=self.entities.pop(0) if self.entities else [],
                        resolved_question=resolved,
                        referents=[Referent(words=w, names=n) for w, n in referents.items()],
                        stop_reason=self.stops.pop(0) if self.stops else "answered")
        return ModelResponse(parts=[ToolCallPart(info.output_tools[0].name,
                                                 answer.model_dump(mode="json"))])


def open_conversation(settings: AgentSettings, store: SessionStore, retriever: Retriever,
                      model: object, **kw: object) -> Conversation:
    agent = build_agent(FunctionModel(model), ModelSettings(retries=0), backoff_s=0.01)  # type: ignore[arg-type]
    return Conversation.open(settings, "mini", store=store, open_world=OpenWorld(retriever),
                             agent=agent, **kw)


async def test_follow_ups_go_as_typed_and_every_turn_is_saved(
        mini_settings: AgentSettings, mini_retriever: Retriever, store: SessionStore) -> None:  # noqa: F811
    librarian = Librarian(["白石翁", "林澈"], ["断水剑", "白石翁"], ["断水剑"], reads=[
        ("", {}), ("白石翁送给子川什么？", {"他": ["白石翁"]}),
        ("断水剑后来怎么样了？", {"这把剑": ["断水剑"]})])
    steps: list[str] = []
    conv = open_conversation(mini_settings, store, mini_retriever, librarian, new=True)
    first = await conv.ask("谁收林澈做了徒弟？", on_step=lambda call: steps.append(call.tool))
    second = await conv.ask("他送给子川什么？")
    third = await conv.ask("这把剑后来怎么样了？")
    assert first.resolved_question == "谁收林澈做了徒弟？"  # the model said nothing: as typed
    assert second.resolved_question == "白石翁送给子川什么？"  # as the model read it
    assert third.resolved_question == "断水剑后来怎么样了？"
    assert librarian.prompts == ["谁收林澈做了徒弟？", "他送给子川什么？", "这把剑后来怎么样了？"]
    assert "most recent first: 林澈, 白石翁" in librarian.instructions[1]
    assert librarian.history_sizes[0] < librarian.history_sizes[1] < librarian.history_sizes[2]
    assert librarian.searches_seen == [0, 1, 1]  # only the last turn's passages are resent
    assert steps == ["vector_search"] and first.tool_calls[0].tool == "vector_search"
    assert [(e.entity, e.referred_as) for e in second.stack[:2]] == [("白石翁", "他"), ("林澈", "子川")]
    assert third.stack[0].entity == "断水剑" and third.stack[0].referred_as == "这把剑"
    assert third.evidence and [p.score for p in third.evidence] == sorted(
        (p.score for p in third.evidence), reverse=True)
    turns = conv.turns()
    assert [(t.n, t.status, t.question) for t in turns] == [
        (1, "answered", "谁收林澈做了徒弟？"), (2, "answered", "他送给子川什么？"),
        (3, "answered", "这把剑后来怎么样了？")]
    assert turns[1].resolved_question == "白石翁送给子川什么？"
    assert turns[1].entities == ["断水剑", "白石翁"] and turns[1].citations[0]["chapter"] >= 1
    assert third.turn_n == 3 and third.session_id == conv.session.id


async def test_an_unstated_answer_is_saved_on_the_stack_as_a_guess_until_she_means_it(
        mini_settings: AgentSettings, mini_retriever: Retriever, store: SessionStore) -> None:  # noqa: F811
    librarian = Librarian(["白石翁", "林澈"], ["白芷", "林澈"], ["白芷"],
                          stops=["answered", "evidence", "answered"],
                          reads=[("", {}), ("", {}), ("白芷手里握着什么？", {"她": ["白芷"]})])
    conv = open_conversation(mini_settings, store, mini_retriever, librarian, new=True)
    stated = await conv.ask("谁收林澈做了徒弟？")
    assert not any(e.guess for e in stated.stack)  # a stated answer is no guess
    unstated = await conv.ask("谁送了林澈一包伤药？")
    assert [(e.entity, e.guess) for e in unstated.stack[:3]] == [
        ("林澈", False), ("白芷", True), ("白石翁", False)]
    assert [(e.entity, e.guess) for e in conv.stack()] == [  # as saved
        (e.entity, e.guess) for e in unstated.stack]
    named = await conv.ask("她手里握着什么？")
    assert (named.stack[0].entity, named.stack[0].guess) == ("白芷", False)
    assert not any(e.guess for e in conv.stack())


async def test_someone_the_world_relates_otherwise_is_no_guess_at_the_relation_asked(
        mini_settings: AgentSettings, mini_retriever: Retriever, store: SessionStore) -> None:  # noqa: F811
    # 白石翁 is 林澈's master (the glossary): no guess at whom 林澈 married, though the
    # evidence names him first (a newcomer's trial: Walter Elliot, Anne's father, was the
    # likely answer to "Who did Anne Elliot marry?")
    librarian = Librarian(["白石翁", "白芷", "林澈"], stops=["evidence"])
    conv = open_conversation(mini_settings, store, mini_retriever, librarian, new=True)
    unstated = await conv.ask("林澈娶了谁？")
    assert [e.entity for e in unstated.stack if e.guess] == ["白芷"], unstated.stack


async def test_a_failing_model_keeps_the_question(
        mini_settings: AgentSettings, mini_retriever: Retriever, store: SessionStore) -> None:  # noqa: F811
    seen: list[tuple[str, str]] = []

    def broken(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        turn = store.turns(conv.session.id)[-1]
        seen.append((turn.question, turn.status))  # saved before the model ran
        raise RuntimeError("the model fell over")

    conv = open_conversation(mini_settings, store, mini_retriever, broken, new=True)
    with pytest.raises(RuntimeError):
        await conv.ask("断水剑是谁的？")
    assert seen == [("断水剑是谁的？", "pending")]
    turn = conv.turns()[-1]
    assert (turn.question, turn.status) == ("断水剑是谁的？", "failed")
    assert "fell over" in turn.error


async def test_a_model_error_is_a_lore_error_and_the_turn_fails(
        mini_settings: AgentSettings, mini_retriever: Retriever, store: SessionStore) -> None:  # noqa: F811
    from pydantic_ai.exceptions import ModelHTTPError

    def unavailable(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        raise ModelHTTPError(503, "script", {"error": {"message": "overloaded"}})

    conv = open_conversation(mini_settings, store, mini_retriever, unavailable, new=True)
    with pytest.raises(LoreError, match="overloaded"):
        await conv.ask("白芷是谁？")
    assert [t.status for t in conv.turns()] == ["failed"]


async def test_a_cancelled_turn_is_marked_cancelled(
        mini_settings: AgentSettings, mini_retriever: Retriever, store: SessionStore) -> None:  # noqa: F811
    started = asyncio.Event()

    async def slow(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        started.set()
        await asyncio.sleep(30)
        raise AssertionError("not reached")

    conv = open_conversation(mini_settings, store, mini_retriever, slow, new=True)
    task = asyncio.create_task(conv.ask("赵黑虎是谁？"))
    await asyncio.wait_for(started.wait(), 10)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert [(t.question, t.status) for t in conv.turns()] == [("赵黑虎是谁？", "cancelled")]


async def test_reopening_resumes_the_session_and_its_stack(
        mini_settings: AgentSettings, mini_retriever: Retriever, lore_home: Path) -> None:  # noqa: F811
    path = lore_home / "sessions.db"
    with SessionStore(path) as store:
        conv = open_conversation(mini_settings, store, mini_retriever,
                                 Librarian(["白芷", "林澈"]), new=True)
        await conv.ask("谁送了林澈一包伤药？")
        session_id = conv.session.id
    with SessionStore(path) as store:  # a new process would see the same
        reader = Librarian(["白芷"], reads=[("白芷手里握着什么？", {"她": ["白芷"]})])
        conv = open_conversation(mini_settings, store, mini_retriever, reader)
        assert conv.session.id == session_id
        assert [e.entity for e in conv.stack()][:2] == ["林澈", "白芷"]
        result = await conv.ask("她手里握着什么？")
        assert "most recent first: 林澈, 白芷" in reader.instructions[0]  # the resumed stack
        assert "谁送了林澈一包伤药？" in str(reader.seen[0])  # and the resumed turns
        assert result.resolved_question == "白芷手里握着什么？"
        assert (result.stack[0].entity, result.stack[0].referred_as) == ("白芷", "她")
        other = open_conversation(mini_settings, store, mini_retriever, Librarian(), new=True)
        assert other.session.id != session_id and other.stack() == []
        assert find_session(store, session_id[:12]).id == session_id
        with pytest.raises(LoreError, match="starts 2 session ids") as caught:
            find_session(store, "0")  # both ids start with it: ambiguous, not missing
        assert "give more of the id" in str(caught.value.hint)
        foreign = store.create_session("elsewhere")
        with pytest.raises(LoreError, match="about world 'elsewhere', not 'mini'"):
            Conversation.open(mini_settings, "mini", store=store, open_world=OpenWorld(mini_retriever),
                              session_id=foreign.id)


def test_the_session_opened_last_is_the_one_used_last(
        mini_settings: AgentSettings, mini_retriever: Retriever, store: SessionStore) -> None:  # noqa: F811
    # a TUI trial: a new empty session of one world, then another world's older session opened
    # (Ctrl+G) and quit; the app came back to the empty one, the newest by activity
    old = store.create_session("mini")
    store.create_session("elsewhere")
    assert store.list_sessions()[0].world == "elsewhere"
    reopened = open_conversation(mini_settings, store, mini_retriever, Librarian())
    assert reopened.session.id == old.id
    assert store.list_sessions()[0].id == old.id  # where the app starts next time
    assert store.get_session(old.id).updated == old.updated  # nothing was changed in it


async def test_summaries_are_written_and_recalled(
        mini_settings: AgentSettings, mini_retriever: Retriever, store: SessionStore) -> None:  # noqa: F811
    settings = mini_settings.model_copy(update={"sessions": SessionSettings(summary_every=2)})
    conv = open_conversation(settings, store, mini_retriever,
                             Librarian(["白石翁"], ["白芷"], ["赵黑虎"]), new=True)
    await conv.ask("谁收林澈做了徒弟？")
    assert store.summaries(conv.session.id) == []
    await conv.ask("谁送了林澈伤药？")
    await conv.ask("谁设下了埋伏？")
    (summary,) = store.summaries(conv.session.id)
    assert (summary.from_turn, summary.to_turn) == (1, 2)
    assert summary.text.splitlines()[0].startswith("谁收林澈做了徒弟？ → ")
    assert "第" in summary.text and "回" in summary.text
    assert store.summary_vectors([summary.id], mini_retriever.stores.embedder.name)
    plot = store.plot(summary.id)
    assert plot is not None and "谁送了林澈伤药？" in plot.detail and plot.cited_chunks
    memories = conv.memory.recall("林澈的师父", deep=False)
    assert memories[0].summary_id == summary.id and memories[0].plot == ""
    deep = conv.memory.recall("林澈的师父", deep=True)
    assert deep[0].plot == plot.detail and deep[0].cited_chunks == plot.cited_chunks
    assert any(m.text.startswith("谁设下了埋伏？") for m in memories)  # the unsummarised turn


async def test_horizon_and_tracking_are_saved_on_the_session(
        mini_settings: AgentSettings, mini_retriever: Retriever, store: SessionStore) -> None:  # noqa: F811
    conv = open_conversation(mini_settings, store, mini_retriever, Librarian(), new=True)
    try:
        conv.set_horizon(2)
        assert conv.horizon == 2 and not hasattr(mini_retriever, "horizon")  # not the world's
        events = conv.track("子川")
        assert events and max(e.chapter for e in events) == 2
        session = store.get_session(conv.session.id)
        assert session is not None and session.spoiler_horizon == 2
        assert session.tracked_entity == "林澈"
    finally:
        conv.set_horizon(None)
    assert conv.horizon == mini_settings.retrieval.spoiler_horizon


async def test_a_horizon_past_the_story_is_refused_and_the_session_keeps_its_own(
        mini_settings: AgentSettings, mini_retriever: Retriever, store: SessionStore) -> None:  # noqa: F811
    # past the last chapter it hides the lore and none of the story: the TUI's Ctrl+B and any
    # other caller go through this one check
    conv = open_conversation(mini_settings, store, mini_retriever, Librarian(), new=True)
    last = max(mini_retriever.chapter_titles)
    conv.set_horizon(2)
    with pytest.raises(LoreError, match=f"past the story's last chapter \\({last}\\)") as refused:
        conv.set_horizon(last + 1)
    assert refused.value.where == "the spoiler horizon" and f"1 to {last}" in refused.value.hint
    assert conv.horizon == 2
    session = store.get_session(conv.session.id)
    assert session is not None and session.spoiler_horizon == 2
    conv.set_horizon(last)
    assert conv.horizon == last


async def test_the_recall_tool_reaches_this_sessions_memory(
        mini_settings: AgentSettings, mini_retriever: Retriever, store: SessionStore) -> None:  # noqa: F811
    settings = mini_settings.model_copy(update={"sessions": SessionSettings(summary_every=1)})
    conv = open_conversation(settings, store, mini_retriever, Librarian(["白芷"]), new=True)
    await conv.ask("谁送了林澈伤药？")
    recalled: list[list[Memory]] = []

    def recaller(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        returns = [p for p in messages[-1].parts if isinstance(p, ToolReturnPart)
                   and p.tool_name == "recall_session"]
        if not returns:
            return ModelResponse(parts=[ToolCallPart("recall_session",
                                                     {"query": "伤药", "deep": True})])
        recalled.append(returns[0].content)
        answer = Answer(text="我们刚才聊过白芷送药。", stop_reason="not_in_text")
        return ModelResponse(parts=[ToolCallPart(info.output_tools[0].name,
                                                 answer.model_dump(mode="json"))])

    conv._agent = build_agent(FunctionModel(recaller), ModelSettings(retries=0))
    result = await conv.ask("我们刚才聊了什么？")
    assert result.tool_calls[0].tool == "recall_session"
    (memories,) = recalled
    first = Memory.model_validate(memories[0])
    assert first.text.startswith("谁送了林澈伤药？ → ")
    assert "Q: 谁送了林澈伤药？" in first.plot and "A: " in first.plot and first.cited_chunks


async def test_memory_cuts_the_worlds_names_whole_in_a_process_that_did_not_ingest(
        mini_settings: AgentSettings, mini_retriever: Retriever,  # noqa: F811
        store: SessionStore) -> None:
    """The app opens a world another process ingested: the stock dictionary has never heard of
    赵黑虎 and cuts it into 赵 / 黑 / 虎, single characters the memory's word ranking leaves
    out. The memory cuts with the world's keyword index, which keeps its names whole, so the
    one turn that named him is found by his name (cut apart, "what became of 赵黑虎" found the
    turn about what became of the sword)."""
    from agent.memory.summaries import summarise_due
    from stores.keyword.segment import stock_tokens

    settings = mini_settings.model_copy(update={"sessions": SessionSettings(summary_every=1)})
    conv = open_conversation(settings, store, mini_retriever, Librarian(), new=True)
    said = [("谁收林澈做了徒弟？", "白石翁收他做了徒弟，传他断水剑。"),
            ("白芷送了什么？", "白芷送来一瓶伤药。"),
            ("山道上出了什么事？", "赵黑虎设下埋伏，把白芷捉去做人质。"),
            ("断水剑后来怎么样了？", "断水剑在激战中折成两段，埋在青岚山顶。")]
    for question, text in said:
        turn = store.begin_turn(conv.session.id, question)
        store.finish_turn(turn.id, resolved_question=question, answer=text, messages_json="[]",
                          citations=[])
    summarise_due(store, conv.session.id, 1, mini_retriever.stores.embedder)
    assert "黑虎" not in stock_tokens("赵黑虎")
    for query in ("赵黑虎后来怎么样了？", "我们聊过赵黑虎吗？"):  # by meaning: the sword's fate
        (first,) = conv.memory.recall(query, limit=1)
        assert "赵黑虎" in first.text, query
