"""The agent core with scripted FunctionModels over a real tiny world (real stores, no network)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any, get_args

import pytest
from pydantic_ai import (
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
    models,
)
from pydantic_ai.exceptions import ModelHTTPError
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agent.answer.citations import match_quote
from agent.conversation.core import ask, build_agent
from agent.readers.chat_models import ModelUnavailable
from agent.readers.settings import ModelSettings
from agent.schemas import Answer, Citation, Memory
from agent.tools.deps import LoreDeps
from agent.tools.toolset import RelationType, spread
from sessions.records import StackEntry
from stores.models import RELATION_TYPES
from tests.agent.conftest import chunk_with

Step = Callable[[list[ModelMessage], AgentInfo], ModelResponse]


@pytest.fixture(autouse=True)
def no_network() -> Iterator[None]:
    with models.override_allow_model_requests(False):
        yield


class Script:
    """A FunctionModel that plays `steps` in order and remembers what it was offered."""

    def __init__(self, *steps: Step) -> None:
        self.steps = list(steps)
        self.offered: list[list[str]] = []
        self.seen: list[list[ModelMessage]] = []
        self.instructions: list[str] = []

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.offered.append([t.name for t in info.function_tools])
        self.seen.append(list(messages))
        self.instructions.append(info.instructions or "")
        step = self.steps.pop(0) if len(self.steps) > 1 else self.steps[0]
        return step(messages, info)

    def model(self) -> FunctionModel:
        return FunctionModel(self, model_name="script")


def call(tool: str, **args: Any) -> Step:
    return lambda messages, info: ModelResponse(parts=[ToolCallPart(tool, args)])


def answer(text: str, *citations: tuple[str, str], stop: str = "answered",
           entities: tuple[str, ...] = (), resolved: str = "") -> Step:
    """An output-tool call; citations are (chunk_id or callable → chunk_id, quote)."""
    def step(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        out = Answer(text=text, stop_reason=stop, entities=list(entities),  # type: ignore[arg-type]
                     resolved_question=resolved,
                     citations=[Citation(chunk_id=c, quote=q) for c, q in citations])
        return ModelResponse(parts=[ToolCallPart(info.output_tools[0].name,
                                                 out.model_dump(mode="json"))])
    return step


def last_parts(messages: list[ModelMessage]) -> list[Any]:
    last = messages[-1]
    assert isinstance(last, ModelRequest)
    return list(last.parts)


def retry_text(messages: list[ModelMessage]) -> str:
    """What the model was told to fix (pydantic-ai 2.68: a ToolReturnPart with outcome 'retried')."""
    parts = [p for p in last_parts(messages)
             if isinstance(p, ToolReturnPart) and p.outcome == "retried"]
    assert parts, "the model was not asked to retry"
    return "\n".join(p.model_response_str() for p in parts)


def returned(messages: list[ModelMessage]) -> list[Any]:
    return [p.content for p in last_parts(messages)
            if isinstance(p, ToolReturnPart) and p.outcome == "success"]


async def test_tools_are_recorded_and_passages_remembered(deps: LoreDeps) -> None:
    steps: list[Any] = []
    deps = replace(deps, on_step=steps.append)
    cid = chunk_with(deps.retriever, "白芷谢过林子川")
    script = Script(call("vector_search", query="白芷送了林澈什么", top_k=3),
                    call("keyword_search", query="伤药", top_k=2),
                    call("read_passage", chunk_id=cid, before=0, after=1),
                    answer("白芷送他一包伤药 [1]", (cid, "送他一包伤药"), entities=("白姑娘", "子川")))
    result = await ask(build_agent(script.model()), deps, "白芷送了林澈什么？")

    assert [c.tool for c in result.tool_calls] == ["vector_search", "keyword_search", "read_passage"]
    assert result.tool_calls[0].args == {"query": "白芷送了林澈什么", "top_k": 3}
    assert "searching '白芷送了林澈什么'" in result.tool_calls[0].summary
    assert "passages" in result.tool_calls[1].summary
    assert steps == result.tool_calls  # on_step saw every call as it happened
    read = {p.chunk_id for p in result.evidence}  # what the tools returned, cited first
    assert cid in read and len(read) >= 2 and result.evidence[0].chunk_id == cid
    cited = result.answer.citations[0]
    chunk = deps.retriever.chunks[cid]
    assert (cited.chapter, cited.lines) == (2, (chunk.line_start, chunk.line_end))
    assert cited.source == chunk.document
    assert result.answer.entities == ["白芷", "林澈"]  # aliases made canonical
    history = ModelMessagesTypeAdapter.validate_json(result.messages_json)
    assert isinstance(history[0], ModelRequest) and result.requests == 4


async def test_wrong_quote_is_sent_back_and_the_fixed_answer_accepted(deps: LoreDeps) -> None:
    cid = chunk_with(deps.retriever, "断水剑在激战中折成两段")
    script = Script(call("vector_search", query="断水剑怎么断的"),
                    answer("剑被砍断了 [1]", (cid, "断水剑被赵黑虎一刀砍断")),
                    answer("剑在激战中折断 [1]", (cid, "断水剑在激战中折成两段")))
    result = await ask(build_agent(script.model()), deps, "断水剑是怎么断的？")

    told = retry_text(script.seen[2])
    assert "citation [1]" in told and "copy the words exactly" in told
    assert result.answer.citations[0].quote == "断水剑在激战中折成两段"
    assert result.answer.citations[0].chapter == 3


async def test_a_citation_of_an_unknown_passage_is_rejected(deps: LoreDeps) -> None:
    good = chunk_with(deps.retriever, "白石翁下山买酒")
    script = Script(call("keyword_search", query="白石翁"),
                    answer("…", ("chunk-that-does-not-exist", "白石翁")),
                    answer("白石翁下山买酒 [1]", (good, "白石翁下山买酒")))
    result = await ask(build_agent(script.model()), deps, "谁收林澈为徒？")
    assert "'chunk-that-does-not-exist'" in retry_text(script.seen[2])
    assert result.answer.citations[0].chunk_id == good


async def test_unknown_entity_is_a_retry_and_aliases_resolve(deps: LoreDeps) -> None:
    script = Script(call("track_entity", entity="林大侠"),
                    call("track_entity", entity="子川"),
                    answer("未见于文本", stop="not_in_text"))
    result = await ask(build_agent(script.model()), deps, "子川的经历？")

    told = retry_text(script.seen[1])
    assert "No entity or alias named '林大侠'" in told
    assert "林澈" in told  # a close name is suggested
    events = returned(script.seen[2])[0]
    assert [e.chapter for e in events] == sorted(e.chapter for e in events)
    assert {e.chapter for e in events} == {1, 2, 3}
    assert result.tool_calls[0].summary == "unknown name '林大侠'"
    assert result.tool_calls[1].summary.startswith("timeline of 林澈")
    assert result.answer.stop_reason == "not_in_text"


async def test_bad_arguments_are_sent_back_to_the_model(deps: LoreDeps) -> None:
    script = Script(call("graph_search", entity="林澈", depth=7),
                    call("graph_search", entity="子川", other="白姑娘"),
                    answer("盟友", stop="not_in_text"))
    result = await ask(build_agent(script.model()), deps, "林澈和白芷是什么关系？")
    assert "depth" in retry_text(script.seen[1])
    relations = returned(script.seen[2])[0]
    assert any({r.source, r.target} == {"林澈", "白芷"} for r in relations)
    assert result.tool_calls[-1].summary.startswith("graph: 林澈 ⇄ 白芷")


async def test_tools_are_withdrawn_after_the_last_round(deps: LoreDeps) -> None:
    cid = chunk_with(deps.retriever, "黑水寨主赵黑虎")

    def polite(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if info.function_tools:
            return ModelResponse(parts=[ToolCallPart("vector_search", {"query": "赵黑虎"})])
        return answer("赵黑虎设下埋伏 [1]", (cid, "在山道上设下埋伏"))(messages, info)

    script = Script(polite)
    agent = build_agent(script.model(), ModelSettings(max_tool_rounds=3))
    result = await ask(agent, deps, "赵黑虎做了什么？")
    assert len(result.tool_calls) == 3
    assert script.offered[3] == [] and all(script.offered[:3])
    assert result.answer.stop_reason == "answered"


async def test_a_model_that_never_stops_gets_an_answer_from_the_passages(deps: LoreDeps) -> None:
    script = Script(call("vector_search", query="断水剑"))
    result = await ask(build_agent(script.model(), ModelSettings(max_tool_rounds=2)), deps,
                       "断水剑在哪里？")
    assert result.answer.stop_reason == "max_rounds"
    assert result.answer.text.startswith("检索了2轮") and "[1] 第" in result.answer.text
    assert len([c for c in result.tool_calls if c.tool == "vector_search"]) == 2
    read = {p.chunk_id for p in result.evidence}
    assert result.answer.citations and all(c.chunk_id in read for c in result.answer.citations)
    for c in result.answer.citations:  # quotes of the fallback pass the same check
        assert match_quote(c.quote, deps.retriever.chunks[c.chunk_id].text) is not None
    # the run ended normally, so its messages are a valid history for the next question
    history = ModelMessagesTypeAdapter.validate_json(result.messages_json)
    follow = Script(answer("不知道", stop="not_in_text"))
    again = await ask(build_agent(follow.model()), LoreDeps(retriever=deps.retriever),
                      "那把剑后来呢？", history)
    assert again.answer.stop_reason == "not_in_text"
    prompts = [p.content for m in follow.seen[0] if isinstance(m, ModelRequest)
               for p in m.parts if isinstance(p, UserPromptPart)]
    assert prompts == ["断水剑在哪里？", "那把剑后来呢？"]


async def test_the_typed_words_are_asked_and_the_model_says_how_it_read_them(
        deps: LoreDeps) -> None:
    deps = replace(deps, stack=[StackEntry(entity="林澈", referred_as="子川"),
                                StackEntry(entity="白芷")])
    script = Script(answer("未见", stop="not_in_text", resolved="林澈后来怎么了？"))
    result = await ask(build_agent(script.model()), deps, "他后来怎么了？")
    assert (result.question, result.resolved_question) == ("他后来怎么了？", "林澈后来怎么了？")
    request = script.seen[0][-1]
    assert isinstance(request, ModelRequest)
    assert [p.content for p in request.parts if isinstance(p, UserPromptPart)] == ["他后来怎么了？"]
    assert "most recent first: 林澈, 白芷." in script.instructions[0]
    assert "resolved_question" in script.instructions[0]
    silent = Script(answer("未见", stop="not_in_text"))  # a model that does not say: as typed
    result = await ask(build_agent(silent.model()), deps, "他后来怎么了？")
    assert result.resolved_question == "他后来怎么了？"


class Notes:
    """A conversation memory with one summary (the SessionMemory protocol)."""

    def recall(self, query: str, deep: bool = False, limit: int = 5, *,
               other_sessions: bool = False) -> list[Memory]:
        return [Memory(summary_id="s1", turns=(1, 2), text="谈到了断水剑",
                       plot="断水剑折断" if deep else "")]

    def stack(self) -> list[str]:
        return ["林澈", "白芷"]


async def test_recall_session_uses_the_memory_when_there_is_one(deps: LoreDeps) -> None:
    script = Script(call("recall_session", query="断水剑", deep=True), answer("…", stop="not_in_text"))
    await ask(build_agent(script.model()), deps, "我们说过什么？")
    assert returned(script.seen[1]) == [[]]

    deps2 = LoreDeps(retriever=deps.retriever, memory=Notes(),
                     stack=[StackEntry(entity="林澈"), StackEntry(entity="白芷")])
    script = Script(call("recall_session", query="断水剑", deep=True), answer("…", stop="not_in_text"))
    result = await ask(build_agent(script.model()), deps2, "我们说过什么？")
    memories = returned(script.seen[1])[0]
    assert memories[0].plot == "断水剑折断"
    assert "1 memories" in result.tool_calls[0].summary
    assert "林澈, 白芷" in script.instructions[0]


async def test_model_errors_are_retried_then_reported(deps: LoreDeps) -> None:
    failures = [503, 503]

    def flaky(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if failures:
            raise ModelHTTPError(failures.pop(0), "script", body={"message": "busy"})
        return answer("…", stop="not_in_text")(messages, info)

    settings = ModelSettings(retries=2)
    result = await ask(build_agent(FunctionModel(flaky), settings, backoff_s=0.001), deps, "？")
    assert result.answer.stop_reason == "not_in_text" and failures == []

    failures.extend([503] * 3)
    with pytest.raises(ModelUnavailable) as raised:
        await ask(build_agent(FunctionModel(flaky), settings, backoff_s=0.001),
                  LoreDeps(retriever=deps.retriever), "？")
    assert "after 3 attempts" in str(raised.value) and "HTTP 503: busy" in str(raised.value)


def test_quotes_match_despite_whitespace_width_and_elision() -> None:
    text = "白芷谢过林子川，送他一包伤药，\n说：江湖路远。“Keep it,” she said."
    assert match_quote("送他一包伤药", text) == "送他一包伤药"
    assert match_quote("林子川, 送他", text) is not None  # full-width comma written half-width
    assert match_quote("白芷谢过…江湖路远", text) is not None
    assert match_quote('"keep it," she said', text) is not None
    assert match_quote("送他一包金子", text) is None
    assert match_quote("白芷谢过林子川，送他一包伤药，说：你快走吧不要回来", text) == \
        "白芷谢过林子川，送他一包伤药，\n说："
    assert match_quote("说：江湖路远，你要保重身体啊千万小心", text) is None  # too little of it


def test_timeline_spread_and_relation_types() -> None:
    assert spread(list(range(100)), 40)[0] == 0 and spread(list(range(100)), 40)[-1] == 99
    assert len(spread(list(range(100)), 40)) == 40 and spread([1, 2, 3], 40) == [1, 2, 3]
    picked = spread(list(range(1000)), 40)
    assert max(b - a for a, b in zip(picked, picked[1:], strict=False)) <= 26
    assert set(get_args(RelationType)) == set(RELATION_TYPES)


async def test_a_name_or_number_no_cited_passage_holds_is_shown_unsupported(deps: LoreDeps) -> None:
    cid = chunk_with(deps.retriever, "白芷谢过林子川")
    # 赵黑虎 and 五 are nowhere in the cited chapter-2 passage: an invention
    script = Script(call("vector_search", query="谁送了林澈伤药"),
                    answer("赵黑虎送了他五包伤药 [1]", (cid, "送他一包伤药")))
    result = await ask(build_agent(script.model()), deps, "谁送了林澈伤药？")

    assert result.unsupported == ["赵黑虎", "5"]
    first, *rest = result.answer.text.splitlines()
    assert first.startswith("（无依据") and "赵黑虎" in first
    assert rest[0] == "赵黑虎送了他五包伤药 [1]"  # the model's words are kept, not hidden
    assert "送他一包伤药" in rest[-1]  # and what the text cited does say


async def test_an_answer_that_takes_an_untold_premise_for_a_fact_is_shown_unsupported(
        deps: LoreDeps) -> None:
    cid = chunk_with(deps.retriever, "白石翁从古匣中取出")
    # 张三丰 and Oxford are nowhere in the world's text: the answer takes the question's
    # premise for a fact
    script = Script(call("vector_search", query="张三丰 林澈"),
                    answer("张三丰教了林澈断水剑法 [1]", (cid, "白石翁从古匣中取出一柄旧剑")))
    result = await ask(build_agent(script.model()), deps, "张三丰教了林澈什么剑法？")
    assert result.unsupported == ["张三丰"]
    assert result.answer.text.startswith("（无依据：所引原文中没有张三丰。）")

    script = Script(call("vector_search", query="林澈 Oxford"),
                    answer("林澈 studied swordplay at Oxford [1]", (cid, "白石翁从古匣中取出一柄旧剑")))
    result = await ask(build_agent(script.model()), deps, "What did 林澈 study at Oxford?")
    assert result.unsupported == ["Oxford"]

    # a word of the question that the text does use is no premise of the answer's own
    script = Script(call("vector_search", query="白石翁 断水剑"),
                    answer("白石翁把断水剑传给了林澈 [1]", (cid, "白石翁从古匣中取出一柄旧剑")))
    result = await ask(build_agent(script.model()), deps, "白石翁把断水剑传给了谁？")
    assert result.unsupported == []


async def test_what_the_cited_passage_holds_is_supported_by_any_name_of_it(deps: LoreDeps) -> None:
    cid = chunk_with(deps.retriever, "白芷谢过林子川")
    # 白姑娘 is 白芷's alias, 林澈 the passage names as 林子川; "第2回" is where, not a claim
    script = Script(call("vector_search", query="谁送了林澈伤药"),
                    answer("第2回里白姑娘送了他一包伤药 [1]", (cid, "送他一包伤药")))
    result = await ask(build_agent(script.model()), deps, "谁送了林澈伤药？")

    assert result.unsupported == []
    assert result.answer.text == "第2回里白姑娘送了他一包伤药 [1]"


async def test_chapter_numbers_say_where_and_are_no_claim(deps: LoreDeps) -> None:
    cid = chunk_with(deps.retriever, "白芷谢过林子川")
    script = Script(call("vector_search", query="白芷"),
                    answer("白芷出现在第2、3回，见 chapters 2 and 3 [1]", (cid, "送他一包伤药")))
    result = await ask(build_agent(script.model()), deps, "白芷出现在哪几回？")

    assert result.unsupported == []
