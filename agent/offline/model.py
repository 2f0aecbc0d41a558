"""The built-in offline model: a pydantic-ai FunctionModel that reads the question, calls the
same tools through the same loop as a real model, grades what comes back and answers with
sentences copied from the passages.

Round 1 makes the calls `strategy.first_steps` picks for the question (plus chapter titles and
the entity's fading chapter where they help); round 2 follows a described subject (那位军师 →
诸葛亮) when the question is multi-hop; then it answers. Deterministic and fast.
"""

from __future__ import annotations

import itertools
import re
from functools import cached_property
from typing import Any

from pydantic_ai import ModelMessage, ModelRequest, ModelResponse, ToolCallPart, ToolReturnPart
from pydantic_ai.messages import UserPromptPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agent.analysis import QueryPlan, analyse
from agent.offline.compose import compose, not_in_text, question_terms
from agent.offline.strategy import (
    Results,
    Step,
    bridge_entities,
    fade_steps,
    first_steps,
    fuse,
    second_steps,
    title_steps,
)
from agent.retrieval import Retriever
from agent.schemas import Passage, Relation, TimelineEvent
from stores.keyword.segment import fold_latin, tokens

_HAN = re.compile(r"[\u4e00-\u9fff]")


class Librarian:
    """The offline model's reasoning for one world (it needs the world's names and titles)."""

    def __init__(self, retriever: Retriever) -> None:
        self.retriever = retriever
        self.steps: dict[str, Step] = {}
        self._ids = itertools.count(1)
        self.last_evidence: list[Passage] = []
        """The ranked passages the last answer was built from (for `lore eval retrieval`)."""
        self.last_plan: QueryPlan | None = None

    def model(self) -> FunctionModel:
        return FunctionModel(self.respond, model_name="lorekeeper-offline")

    # -- the loop ---------------------------------------------------------------------------
    def respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        question, turn = _current_turn(messages)
        plan = analyse(question, self.retriever.spans)
        self.last_plan = plan
        rounds = sum(1 for m in turn if isinstance(m, ModelResponse))
        results = self._results(turn)
        ranked = self._rank(plan, results)
        if info.function_tools and rounds == 0:
            return self._call(self._first_round(plan))
        if info.function_tools and rounds == 1:
            more = self._second_round(plan, ranked)
            if more:
                return self._call(more)
        self.last_evidence = ranked
        answer = self._answer(plan, ranked, results.relations)
        return ModelResponse(parts=[ToolCallPart(info.output_tools[0].name,
                                                 answer.model_dump(mode="json"))])

    def _first_round(self, plan: QueryPlan) -> list[Step]:
        steps = first_steps(plan)
        strict = not (plan.asks_chapter or plan.kind == "temporal")
        steps += title_steps(plan, self.retriever.chapter_titles, tokens, 4 if strict else 0)
        if plan.death_subject:
            steps += fade_steps(plan.death_subject, self._chapters_of(plan.death_subject),
                                plan.chinese)
        return steps

    def _second_round(self, plan: QueryPlan, ranked: list[Passage]) -> list[Step]:
        steps = second_steps(plan, ranked)
        if plan.about_death and plan.multi_hop:
            for name in bridge_entities(plan, ranked):
                steps += fade_steps(name, self._chapters_of(name), plan.chinese)
        return steps

    def _call(self, steps: list[Step]) -> ModelResponse:
        parts = []
        for step in steps:
            call_id = f"lk{next(self._ids)}"
            self.steps[call_id] = step
            parts.append(ToolCallPart(step.tool, step.args, tool_call_id=call_id))
        return ModelResponse(parts=parts)

    # -- reading the tool results ------------------------------------------------------------
    def _results(self, turn: list[ModelMessage]) -> Results:
        results = Results()
        for message in turn:
            if not isinstance(message, ModelRequest):
                continue
            for part in message.parts:
                if not isinstance(part, ToolReturnPart) or getattr(part, "outcome", "") == "retried":
                    continue
                step = self.steps.pop(part.tool_call_id, None) or Step(part.tool_name, {})
                _collect(results, step, part.content)
        return results

    def _rank(self, plan: QueryPlan, results: Results) -> list[Passage]:
        pool: dict[str, Passage] = {p.chunk_id: p for _, ps in results.lists for p in ps}
        for relation in results.relations:
            pool.update({p.chunk_id: p for p in relation.evidence})
        return fuse(plan, results, pool, self.retriever.settings.rrf_k)

    def _answer(self, plan: QueryPlan, ranked: list[Passage], relations: list[Relation]):
        if not ranked:
            return not_in_text(plan)
        terms = question_terms(plan.question, tokens)
        return compose(plan, ranked, relations, terms, self._in_world, self.retriever.mentioned)

    # -- the world's text, for "is this even in the story?" -----------------------------------
    @cached_property
    def _world_text(self) -> tuple[str, str]:
        text = "\n".join(c.text for c in self.retriever.story)
        return text, fold_latin(text)

    def _in_world(self, term: str) -> bool:
        raw, folded = self._world_text
        return term in raw if _HAN.search(term) else fold_latin(term) in folded

    def _chapters_of(self, entity: str) -> list[int]:
        return [c.chapter for c in self.retriever.story if entity in c.entities]


def _current_turn(messages: list[ModelMessage]) -> tuple[str, list[ModelMessage]]:
    """The question of this run (its last user prompt) and the messages since."""
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if isinstance(message, ModelRequest):
            prompts = [p for p in message.parts if isinstance(p, UserPromptPart)]
            if prompts:
                content = prompts[-1].content
                return (content if isinstance(content, str) else str(content)), messages[index:]
    return "", messages


def _collect(results: Results, step: Step, content: Any) -> None:
    items = content if isinstance(content, list) else [content]
    if step.tool in ("vector_search", "keyword_search", "read_passage"):
        results.lists.append((step, [_as(Passage, x) for x in items if x]))
    elif step.tool == "graph_search":
        results.relations += [_as(Relation, x) for x in items if x]
    elif step.tool == "track_entity":
        results.timeline = [_as(TimelineEvent, x) for x in items if x]


def _as(model: type, value: Any) -> Any:
    return value if isinstance(value, model) else model.model_validate(value)


def offline_model(retriever: Retriever) -> FunctionModel:
    """The built-in extractive model for the world behind `retriever`."""
    return Librarian(retriever).model()
