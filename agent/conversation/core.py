"""The Lorekeeper agent: instructions, the six tools, a typed Answer, checked citations.

`build_agent(reader, settings)` makes the agent once for a reader (agent.readers.registry: the librarian, Gemini,
an OpenAI-compatible server, each with the capabilities it brings); `ask(agent, deps, question,
history)` runs one turn with the user's own words as the prompt and returns what the session store
keeps, the reader's ranking of its evidence included. The deps are the turn's inputs; what the
run found comes back in its messages (the tools' `Found`, agent.tools.findings) and its typed `Answer`
(the question the reader answered, and its own ranking when it makes one). Two capabilities
carry the run's limits:

- `ToolRounds` allows at most `model.max_tool_rounds` rounds of tool calls. On the last request the
  tools are hidden, so the model must answer; a model that still will not (or whose answers keep
  failing the citation check) gets an answer built from the passages it saw, with
  `stop_reason="max_rounds"`, in place of the request that would have gone over. The run ends
  normally, so the conversation's message history stays well formed.
- `Backoff` (agent.readers.chat_models) retries failed model requests.
- `ask` ends an answer that takes longer than its `time_limit_s` (the caller passes
  `model.answer_timeout_s`) with the best evidence read so far (`stop_reason="time_limit"`),
  wherever the run was: never a hang.

A reader declares what it reads and writes best (agent.readers.registry.Reader): its own prompt (a small
local model: the lean one of agent.readers.small_context) and whether it answers in plain text, which
agent.readers.text_answer reads, expanding its passage ids into citations. The core asks nothing else
of it and never names one; the OpenAI-compatible reader (agent.readers.chat_models) brings what else a small
model needs as capabilities (compact tools and results, a first round made for it, a JSON
action fallback).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

import pydantic_ai
from pydantic_ai import (
    Agent,
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelResponse,
    ModelRetry,
    RunContext,
    SkipModelRequest,
    TextOutput,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UsageLimitExceeded,
    UsageLimits,
)
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.exceptions import ModelAPIError, ToolRetryError, UnexpectedModelBehavior
from pydantic_ai.models import Model, ModelRequestContext
from pydantic_ai.settings import ModelSettings as RequestSettings
from pydantic_ai.tools import ToolDefinition

from agent.answer.citations import check_citations
from agent.answer.streaming import answer_stream
from agent.answer.support import marked, unsupported
from agent.readers.chat_models import Backoff, unavailable
from agent.readers.registry import Prompt, Reader
from agent.readers.settings import ModelSettings
from agent.readers.text_answer import evidence_of, read_text_answer
from agent.schemas import Answer, Passage
from agent.tools.deps import LoreDeps
from agent.tools.findings import Findings, Found, ToolCall, ToolRetry, without_findings
from agent.tools.toolset import TOOL_NAMES, TOOLS
from agent.world.blocking import run_blocking
from agent.world.lexicon import Resolution
from agent.world.retrieval import UnknownEntity

OUTPUT_RETRIES = 2
"""How often the model may resubmit an answer whose citations failed the check."""
REQUEST_BACKSTOP = 30
"""UsageLimits request_limit: never reached while ToolRounds works (at most 10 + 1 + 2)."""

INSTRUCTIONS = """\
You are Lorekeeper, an assistant for questions about the lore of one story world: its people,
places, events and relations. The world's text is reachable only through your tools.

- Search before answering. vector_search is the default; keyword_search finds exact names, titles
  and quotes; graph_search finds how entities are related (give `other` for two entities);
  track_entity lists an entity's appearances in story order; read_passage shows the text around a
  hit; recall_session recalls earlier parts of this conversation.
- Answer only from passages the tools returned. Cite each claim: a citation is the chunk_id of the
  passage and a quote copied exactly, character for character, from that passage's text (a phrase
  or a sentence, not a paraphrase). Refer to citations in the answer text as [1], [2] … in order.
- When the passages do not answer the question, say that it is not in the text, set stop_reason to
  "not_in_text" and cite nothing. Never answer from general knowledge.
- You have at most {rounds} rounds of tool calls; then answer with what you found.
- Answer in the language of the question, concisely. List the canonical names of the entities the
  answer is about in `entities`.
- The messages before this question are the conversation so far. A follow-up may say he, she,
  there or leave out whom it is about: read it with the conversation, and write the question you
  answered out in full in `resolved_question` (他最后死在哪里？ → 诸葛亮最后死在哪里？).
"""


def conversation(prompt: Prompt) -> Callable[[RunContext[LoreDeps]], Awaitable[str]]:
    """The instructions' part the tools cannot show, within the prompt's card budget."""

    async def lines(ctx: RunContext[LoreDeps]) -> str:
        """Who was talked about (the stack, read once per turn by the caller, not from the
        session store on every request), the horizon, and the cards of the names in the
        question."""
        return conversation_lines(ctx.deps, prompt.cards_budget, prompt.cards)

    return lines


def conversation_lines(deps: LoreDeps, budget: int, limit: int = 2) -> str:
    lines = []
    stack = [e.entity for e in deps.stack[:8]]
    if stack:
        lines.append("Entities talked about so far, most recent first: " + ", ".join(stack) + ".")
    horizon = deps.horizon
    if horizon:
        lines.append(f"The reader has reached chapter {horizon}: reveal nothing after it.")
    cards = named_cards(deps.retriever, deps.question, budget, limit, horizon)
    if cards:
        lines.append("What the world says of the names in the question (cite a passage by the "
                     "chunk_id in brackets):\n" + cards)
    return "\n".join(lines)


CARDS_BUDGET = 1200
"""Characters of entity cards the instructions may hold (about 300–600 tokens)."""
FULL_PROMPT = Prompt(INSTRUCTIONS, CARDS_BUDGET)
"""The prompt of a reader that declares none."""


def named_cards(retriever: Any, question: str, budget: int, limit: int, horizon: int = 0) -> str:
    """The cards of the first entities the question names, as of the horizon, within `budget`
    characters (a card is cut at a line's end): a real model starts from what the world says
    of them."""
    from agent.views.card_text import Voice, card_text
    from stores.lang import has_han

    voice = Voice(has_han(question), retriever.entities, retriever.lexicon.gender)
    texts = []
    for name in retriever.mentioned(question)[:limit]:
        card = retriever.card(name)
        if card is not None:
            texts.append(card_text(card, retriever.chunks, voice, horizon))
    kept: list[str] = []
    for line in "\n".join(texts).split("\n"):
        if sum(len(k) + 1 for k in kept) + len(line) > budget:
            break
        kept.append(line)
    return "\n".join(kept)


def rounds_used(ctx: RunContext[Any]) -> int:
    """Responses of this run that called one of the lore tools."""
    return sum(1 for m in ctx.messages
               if isinstance(m, ModelResponse) and m.run_id == ctx.run_id
               and any(isinstance(p, ToolCallPart) and p.tool_name in TOOL_NAMES for p in m.parts))


@dataclass
class ToolRounds(AbstractCapability[LoreDeps]):
    """At most `max_rounds` rounds of tool calls, then an answer (the model's, or one from the passages)."""

    max_rounds: int = 5
    spare: int = OUTPUT_RETRIES
    """Requests allowed after the last round, for resubmitting a rejected answer."""

    async def prepare_tools(self, ctx: RunContext[LoreDeps],
                            tool_defs: list[ToolDefinition]) -> list[ToolDefinition]:
        return [] if rounds_used(ctx) >= self.max_rounds else tool_defs

    async def before_model_request(self, ctx: RunContext[LoreDeps],
                                   request_context: ModelRequestContext) -> ModelRequestContext:
        over = rounds_used(ctx) > self.max_rounds  # it called a tool it was no longer offered
        spent = ctx.usage.requests >= self.max_rounds + 1 + self.spare
        if over or spent:
            read = Findings.of(ctx.messages, ctx.run_id).passages
            answer = evidence_of(ctx.deps.question, list(read.values()), "max_rounds",
                                 self.max_rounds)
            raise SkipModelRequest(ModelResponse(parts=[answer_part(request_context, answer)],
                                                 model_name="lorekeeper-max-rounds"))
        return request_context

    async def wrap_tool_execute(self, ctx: RunContext[LoreDeps], *, call: ToolCallPart,
                                tool_def: ToolDefinition, args: dict[str, Any],
                                handler: Any) -> Any:
        """A call the model must redo keeps what it found on its retried part, as every other
        call keeps it on its return (agent.tools.findings)."""
        try:
            return await handler(args)
        except ToolRetryError as exc:
            if isinstance(exc.__cause__, ToolRetry) and isinstance(exc.tool_retry, ToolReturnPart):
                exc.tool_retry.metadata = exc.__cause__.found
            raise


@dataclass
class RunLog(AbstractCapability[LoreDeps]):
    """What one run has found so far, for `ask` when a limit ends the run before its result:
    the run's messages (where each finished round's tool calls left what they found) and the
    calls of the round under way, as they finished. Made by `ask` for each run."""

    messages: list[ModelMessage] = field(default_factory=list)
    run_id: str | None = None
    running: list[Found] = field(default_factory=list)

    async def before_model_request(self, ctx: RunContext[LoreDeps],
                                   request_context: ModelRequestContext) -> ModelRequestContext:
        self.messages, self.run_id = ctx.messages, ctx.run_id  # the run's own list, kept up to date
        return request_context

    async def after_tool_execute(self, ctx: RunContext[LoreDeps], *, call: ToolCallPart,
                                 tool_def: ToolDefinition, args: dict[str, Any],
                                 result: Any) -> Any:
        found = getattr(result, "metadata", None)
        if isinstance(found, Found):
            self.running.append(found)
        return result

    def findings(self) -> Findings:
        """Everything found so far, in the order it was found."""
        done = Findings.of(self.messages, self.run_id).found
        kept = {id(f) for f in done}
        return Findings(done + tuple(f for f in self.running if id(f) not in kept))


def answer_part(request_context: ModelRequestContext, answer: Answer) -> ToolCallPart | TextPart:
    """`answer` as the model would have sent it: through the output tool, or as text (JSON,
    which agent.readers.text_answer reads back as it is) when the answer is plain text."""
    tools = request_context.model_request_parameters.output_tools
    if tools:
        return ToolCallPart(tools[0].name, answer.model_dump(mode="json"))
    return TextPart(answer.model_dump_json())


class AnswerTimeUp(Exception):  # noqa: N818  (not an error: the limit the user set)
    """The answer's time limit ran out; `ask` answers with the best evidence instead."""


async def _within(seconds: float, run: Any) -> Any:
    """Await `run` (a coroutine), at most `seconds` (0: no limit); AnswerTimeUp after that.

    The run goes on in a task of its own, cancelled and left to unwind when time is up: a
    request in flight (a slow server, a stream) may take its time closing; the user should not
    wait for it.
    """
    if not seconds:
        return await run
    task = asyncio.ensure_future(run)
    try:
        done, _ = await asyncio.wait({task}, timeout=seconds)
    except asyncio.CancelledError:
        task.cancel()
        raise
    if task in done:
        return task.result()
    task.cancel()
    task.add_done_callback(_retrieved)
    raise AnswerTimeUp(seconds)


def _retrieved(task: asyncio.Future[Any]) -> None:
    """Read a cancelled run's outcome, so that asyncio does not warn it was never read."""
    if not task.cancelled():
        task.exception()


async def validate_answer(ctx: RunContext[LoreDeps], answer: Answer) -> Answer:
    """Citations must quote passages of this world; fills in their chapter, source and lines."""
    retriever = ctx.deps.retriever
    seen = Findings.of(ctx.messages, ctx.run_id).passages
    checked, problems = await run_blocking(retriever, check_citations, answer, retriever, seen)
    if problems:
        raise ModelRetry("Some citations are wrong; fix them and answer again: "
                         + "; ".join(problems) + ".")
    names = await run_blocking(retriever, _canonical, retriever, checked.entities)
    return checked.model_copy(update={"entities": names})


def _canonical(retriever: Any, names: list[str]) -> list[str]:
    found: list[str] = []
    for name in names:
        try:
            found.append(retriever.resolve(name))
        except UnknownEntity:
            continue  # a name the world does not know is not worth a retry
    return list(dict.fromkeys(found))


def request_settings(settings: ModelSettings) -> RequestSettings | None:
    """What every model request carries from the settings: the token cap and the sampling
    temperature, where they are set."""
    sent: RequestSettings = {}
    if settings.max_tokens:
        sent["max_tokens"] = settings.max_tokens
    if settings.temperature is not None:
        sent["temperature"] = settings.temperature
    return sent or None


# pydantic-ai prints a banner advertising its observability service on a program's first run in
# a terminal, above the answer `lore ask` prints: Lorekeeper owns its output
pydantic_ai.BANNER_ENABLED = False


def build_agent(reader: Reader | Model, settings: ModelSettings | None = None, *,
                backoff_s: float = 1.0) -> Agent[LoreDeps, Answer]:
    """The agent for `reader` (or a bare model), limited and retried as `settings` (the [model]
    section) says."""
    settings = settings or ModelSettings()
    if not isinstance(reader, Reader):
        reader = Reader(reader)
    prompt = reader.prompt or FULL_PROMPT
    output: Any = TextOutput(read_text_answer) if reader.text_output else Answer
    agent = Agent(
        reader.model,
        output_type=output,
        deps_type=LoreDeps,
        name="lorekeeper",
        instructions=[prompt.instructions.format(rounds=settings.max_tool_rounds),
                      conversation(prompt)],
        tools=TOOLS,
        model_settings=request_settings(settings),
        # A bad tool call or an unknown name is sent back to the model to fix, this often.
        retries={"tools": max(settings.retries, 2), "output": OUTPUT_RETRIES},
        capabilities=[*reader.capabilities,
                      ToolRounds(settings.max_tool_rounds),
                      Backoff(settings.retries, base_s=backoff_s,
                              total_s=settings.total_timeout_s)],
    )
    agent.output_validator(validate_answer)
    return agent


@dataclass
class AskResult:
    """One answered turn, as the session store and `lore ask --json` keep it."""

    answer: Answer
    question: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    messages_json: bytes = b"[]"
    """The run's new messages (ModelMessagesTypeAdapter JSON), the next turn's history."""
    requests: int = 0
    """Model requests made (tool rounds plus answers)."""
    evidence: list[Passage] = field(default_factory=list)
    """The passages the answer was built from, best first (what `lore eval` scores)."""
    read: list[Passage] = field(default_factory=list)
    """Every passage the run's tools returned, in the order they came (what the reader read)."""
    input_tokens: int = 0
    """Prompt tokens over the run's requests, as the model reported them (0 for the librarian)."""
    output_tokens: int = 0
    """Completion tokens over the run's requests."""
    unsupported: list[str] = field(default_factory=list)
    """Names and numbers the answer stated that none of its cited passages holds (the answer
    is then shown as unsupported: agent/answer/support.py)."""

    @property
    def resolved_question(self) -> str:
        """The question the reader answered, as its answer says, else as typed."""
        said = self.answer.resolved_question
        return said if said.strip() else self.question

    def explicit(self) -> Resolution:
        """The question answered and what its references were taken to mean, as the stack
        reads them: what the answer states (a language model reads the follow-up with the
        conversation; the librarian makes it explicit by its rules before it answers)."""
        return Resolution(self.question, self.resolved_question,
                          [(r.words, r.names) for r in self.answer.referents])


async def ask(agent: Agent[LoreDeps, Answer], deps: LoreDeps, question: str,
              message_history: list[ModelMessage] | None = None, *,
              time_limit_s: float = 0.0) -> AskResult:
    """Answer one question, the user's own words the prompt; ModelUnavailable when the model
    cannot (the caller keeps the question). With `deps.on_text` the answer streams to it.
    After `time_limit_s` seconds in all (`model.answer_timeout_s`; 0: no limit) the answer is
    the best evidence read so far."""
    if deps.question != question:
        deps = replace(deps, question=question)
    handler = answer_stream(deps.on_text) if deps.on_text is not None else None
    log = RunLog()
    try:
        result = await _within(time_limit_s, agent.run(
            question, deps=deps, message_history=message_history,
            usage_limits=UsageLimits(request_limit=REQUEST_BACKSTOP),
            event_stream_handler=handler, capabilities=[log]))
    except UsageLimitExceeded:
        found = log.findings()
        read = list(found.passages.values())
        answer = evidence_of(question, read, "max_rounds", REQUEST_BACKSTOP)
        return AskResult(answer, question, found.calls, evidence=read, read=read)
    except AnswerTimeUp:
        found = log.findings()
        read = list(found.passages.values())
        answer = evidence_of(question, read, "time_limit")
        return AskResult(answer, question, found.calls, evidence=ranked_evidence(found, answer),
                         read=read)
    except (ModelAPIError, UnexpectedModelBehavior) as exc:
        raise unavailable(exc, agent.model) from exc
    answer = result.output
    found = Findings.of(result.all_messages(), result.run_id)
    missing = await run_blocking(deps.retriever, _unsupported, answer, deps, found)
    if missing:
        answer = marked(answer, missing)
    return AskResult(answer=answer, question=question, tool_calls=found.calls,
                     messages_json=ModelMessagesTypeAdapter.dump_json(
                         without_findings(result.new_messages())),
                     requests=result.usage.requests,
                     evidence=ranked_evidence(found, result.output),
                     read=list(found.passages.values()), input_tokens=result.usage.input_tokens,
                     output_tokens=result.usage.output_tokens, unsupported=missing)


def _unsupported(answer: Answer, deps: LoreDeps, found: Findings) -> list[str]:
    retriever = deps.retriever
    cited = [chunk for c in answer.citations if (chunk := retriever.chunks.get(c.chunk_id))]
    ids = {chunk.id for chunk in cited}
    bound = {name for relations in retriever.typed_relations.values() for r in relations
             if ids.intersection(r.evidence) for name in (r.source, r.target)}
    return unsupported(answer, cited, deps.question, retriever.spans,
                       lambda name: [name, *retriever.entities.get(name, [])], retriever.uses,
                       found.recalled, bound)


def ranked_evidence(found: Findings, answer: Answer) -> list[Passage]:
    """The reader's own ranking when it made one (`answer.evidence`); else the cited passages
    in citation order, then the rest in the order the tools returned them (tool scores — BM25
    ~2, RRF ~0.03 — do not compare across tools, so they cannot rank)."""
    if answer.evidence is not None:
        return list(answer.evidence)
    seen = list(found.passages.values())
    cited = [c.chunk_id for c in answer.citations]
    by_id = {p.chunk_id: p for p in seen}
    first = [by_id[c] for c in dict.fromkeys(cited) if c in by_id]
    return first + [p for p in seen if p.chunk_id not in set(cited)]
