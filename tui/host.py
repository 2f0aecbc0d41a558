"""What the app's mixins (its workers and actions) may use of LoreApp.

LoreApp is split over four modules to keep each small: `workers` (slow work off the event
loop), `outcomes` (what the screen shows when a worker ends, errors included), `actions` (keys
and palette commands) and `app` (composition, opening, answering). The
mixins call the app's own methods and state; `AppHost` names those for the type checker. At run
time it is a plain `object`, so the app's class hierarchy is just the mixins and Textual's App.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import threading

    from textual.app import App

    from agent.conversation import Conversation
    from agent.world import OpenWorld
    from sessions.store import SessionStore
    from tui.screens.main import MainScreen
    from tui.settings import AppSettings
    from tui.state import WorldInfo

    class AppHost(App[None]):
        """LoreApp as its mixins see it."""

        settings: AppSettings
        conversation: Conversation | None
        info: WorldInfo | None
        answering: bool
        opening: bool
        open_lock: threading.Lock

        @property
        def main(self) -> MainScreen: ...

        def session_store(self) -> SessionStore: ...

        def report_error(self, error: BaseException) -> None: ...

        def world_for(self, world: str) -> OpenWorld: ...

        @property
        def talking(self) -> Conversation: ...

        async def cancel_answer(self, wait: bool = False) -> bool: ...

        def _open(self, world: str | None, session_id: str | None = None,
                  new: bool = False) -> None: ...

        def start_demo_ingest(self) -> None: ...
else:
    AppHost = object
