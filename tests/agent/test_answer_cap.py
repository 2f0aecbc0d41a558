"""model.max_answer_chars on the run's messages: what the model wrote is cut, the messages stay
readable as the next turn's history."""

from __future__ import annotations

import json

from pydantic_ai.messages import (
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    RetryFeedbackPart,
    RetryInfo,
    TextPart,
    ToolCallPart,
    UserPromptPart,
)

from agent.answer.cap import cap_messages


def test_what_the_model_wrote_is_cut_and_the_history_still_reads() -> None:
    long = "沈砚 " * 1000
    messages = [ModelRequest(parts=[UserPromptPart(long)]),  # the user's words are not cut
                ModelResponse(parts=[TextPart(long),
                                     ToolCallPart("final_result", json.dumps({"text": long}))]),
                ModelRequest(parts=[RetryFeedbackPart(long, retry=RetryInfo("model_retry"))])]
    capped = cap_messages(ModelMessagesTypeAdapter.dump_json(messages), 100)
    assert isinstance(capped, bytes) and len(capped.decode()) < 2 * len(long)
    question, reply, retry = ModelMessagesTypeAdapter.validate_json(capped)
    assert question.parts[0].content == long
    text, call = reply.parts
    assert text.content.startswith(long[:100]) and "model.max_answer_chars" in text.content
    assert len(call.args_as_dict()["text"]) < 200  # still JSON arguments
    assert "model.max_answer_chars" in retry.parts[0].content


def test_short_messages_and_no_limit_are_left_as_they_are() -> None:
    raw = ModelMessagesTypeAdapter.dump_json([ModelResponse(parts=[TextPart("短")])])
    assert cap_messages(raw, 100) is raw and cap_messages(raw * 2, 0) == raw * 2
