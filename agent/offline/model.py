"""Placeholder offline model: one vector_search, then an answer citing the top passage.

The lead replaces its internals (query analysis, grading, extractive composition); the seam is
`offline_model() -> FunctionModel`. The function sees only the messages and `AgentInfo`: the
question is the last user prompt, tool results are the ToolReturnParts, and when
`info.function_tools` is empty the tool rounds are spent and it must answer.
"""

from __future__ import annotations

from pydantic_ai import ModelMessage, ModelRequest, ModelResponse, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agent.citations import first_sentence
from agent.schemas import Answer, Citation, Passage


def offline_model() -> FunctionModel:
    """The built-in extractive model."""
    return FunctionModel(_respond, model_name="lorekeeper-offline")


def _respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    last = messages[-1]
    returns = [p for p in last.parts if isinstance(p, ToolReturnPart)] \
        if isinstance(last, ModelRequest) else []
    found = [r for r in returns if r.tool_name == "vector_search" and r.outcome == "success"]
    if not found and info.function_tools:
        question = next((p.content for p in reversed(last.parts)
                         if getattr(p, "part_kind", "") == "user-prompt"), "")
        return ModelResponse(parts=[ToolCallPart("vector_search", {"query": str(question)})])
    passages = [Passage.model_validate(p) for p in (found[0].content if found else [])]
    if passages:
        top = passages[0]
        quote = first_sentence(top.text)
        answer = Answer(text=f"{quote} [1]", citations=[Citation(chunk_id=top.chunk_id, quote=quote)],
                        entities=top.entities[:3])
    else:
        answer = Answer(text="Not in the text.", stop_reason="not_in_text")
    output = info.output_tools[0].name
    return ModelResponse(parts=[ToolCallPart(output, answer.model_dump(mode="json"))])
