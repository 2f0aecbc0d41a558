"""One open world: the handle through which the app, the command line and the evaluations open
a world, keep what belongs to it while it is open, and close it.

An `OpenWorld` owns the world's stores and the retriever over them (which keeps the world's
passages, names and lexicon in memory, and the limiter that lets one blocking store call run at
a time), and what the readers keep of the world between turns and sessions (the librarian's
names, term statistics and story text: `shared`). Closing it releases them all. What belongs to
one turn — the spoiler horizon, the stack — is not here: it travels with the turn (agent.tools.deps).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

from agent.world.retrieval import Retriever
from stores.config import Settings
from stores.world import WorldStores

T = TypeVar("T")


class OpenWorld:
    """A world opened for reading: its stores, its retriever and the readers' shared state."""

    def __init__(self, retriever: Retriever) -> None:
        self.retriever = retriever
        self.stores = retriever.stores
        self.name = retriever.stores.world
        self._shared: dict[str, Any] = {}
        self._lock = threading.Lock()

    @classmethod
    def open(cls, settings: Settings, name: str) -> OpenWorld:
        """The world `name` of these settings. A world that was never ingested is a clear error,
        and the stores opened for it are closed again; otherwise the caller closes it (`close`,
        or a `with` block)."""
        stores = WorldStores(settings, name)
        try:
            stores.require()
        except BaseException:
            stores.close()
            raise
        return cls(Retriever(stores, settings.retrieval))

    def shared(self, key: str, make: Callable[[], T]) -> T:
        """What a reader keeps of this world while it is open (made by `make` on first use):
        every conversation of the world reads with the same one."""
        with self._lock:
            if key not in self._shared:
                self._shared[key] = make()
            return self._shared[key]

    def close(self) -> None:
        """Release the stores (and drop what the readers kept of the world)."""
        with self._lock:
            self._shared.clear()
        self.stores.close()

    def __enter__(self) -> OpenWorld:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
