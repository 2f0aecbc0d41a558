"""The stores are not meant for two threads at once: blocking calls run one at a time per world.

The agent's tools, the librarian, the conversation and the terminal app all reach a world's
stores from async code; each blocking call goes to a worker thread through the world's own
limiter of one, so the event loop never blocks and the stores never see two threads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import anyio

from agent.world.retrieval import Retriever

T = TypeVar("T")

async def run_blocking(retriever: Retriever, fn: Callable[..., T], *args: Any) -> T:
    """Run a blocking store call in a worker thread, one at a time per world (through the
    world's own limiter, `Retriever.limiter`)."""
    return await anyio.to_thread.run_sync(lambda: fn(*args), limiter=retriever.limiter)
