"""One question at a time through the configured reader, as `lore eval retrieval` asks them."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from agent.conversation.core import AskResult, ask, build_agent
from agent.readers.registry import ReaderContext, make_reader
from agent.readers.settings import AgentSettings
from agent.tools.deps import LoreDeps
from agent.world.open_world import OpenWorld


class AgentRunner:
    """Runs single questions through the configured reader, each outside any session."""

    def __init__(self, settings: AgentSettings, world: str) -> None:
        self.open_world = OpenWorld.open(settings, world)
        self.retriever = self.open_world.retriever
        try:
            reader = make_reader(ReaderContext(settings.model, self.retriever, self.open_world))
            self.agent = build_agent(reader, settings.model)
            self.time_limit_s = settings.model.answer_timeout_s
            self.horizon = settings.retrieval.spoiler_horizon
            """The configured spoiler horizon: the questions are asked outside any session."""
        except BaseException:
            self.open_world.close()
            raise
        self.loop = asyncio.new_event_loop()

    def ask(self, question: str, on_text: Callable[[Any], Any] | None = None) -> AskResult:
        """The whole result of one question: answer, evidence, tool calls, requests, tokens;
        `on_text` sees the answer's text as it streams."""
        deps = LoreDeps(retriever=self.retriever, horizon=self.horizon, on_text=on_text)
        return self.loop.run_until_complete(ask(self.agent, deps, question,
                                                time_limit_s=self.time_limit_s))

    def run(self, question: str) -> tuple[list[int], str]:
        """The chapters of the answer's evidence, best first (the reader's own ranking, else
        the cited passages first), and why the run stopped."""
        result = self.ask(question)
        return [p.chapter for p in result.evidence], result.answer.stop_reason

    def close(self) -> None:
        self.loop.close()
        self.open_world.close()
