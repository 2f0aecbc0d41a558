"""What the app keeps open between sessions: the data dir's session store and one OpenWorld
per world (every session of a world shares it: the embedded vector store serves one client
per folder). The workers open through it; the app closes it when it quits."""

from __future__ import annotations

import threading
from contextlib import suppress
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agent.readers.settings import AgentSettings
    from agent.world.open_world import OpenWorld
    from sessions.store import SessionStore


class OpenWorlds:
    """The session store (opened on first use, or the one given) and the open worlds."""

    def __init__(self, settings: AgentSettings, store: SessionStore | None = None) -> None:
        self.settings = settings
        self._store = store
        self._own_store = store is None
        self._worlds: dict[str, OpenWorld] = {}
        self.lock = threading.Lock()
        """Held by the opening worker: one open at a time touches the stores."""

    def session_store(self) -> SessionStore:
        """The data dir's session store, opened on first use (from a worker thread)."""
        if self._store is None:
            from sessions.store import SessionStore

            self._store = SessionStore(self.settings.sessions_path)
        return self._store

    def world(self, name: str) -> OpenWorld:
        """The world, opened once (called from the opening worker's thread)."""
        if name not in self._worlds:
            from agent.world.open_world import OpenWorld

            self._worlds[name] = OpenWorld.open(self.settings, name)
        return self._worlds[name]

    def close_others(self, keep: str | None) -> None:
        """Close every open world but `keep` (None: all of them)."""
        for name in [w for w in self._worlds if w != keep]:
            with suppress(Exception):
                self._worlds.pop(name).close()

    def close(self) -> None:
        """Close every world, and the session store if it was opened here."""
        self.close_others(keep=None)
        if self._own_store and self._store is not None:
            with suppress(Exception):
                self._store.close()
            self._store = None
