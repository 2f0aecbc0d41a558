"""The whole configuration as the app reads it: every package's sections, and the app's own.

stores.config holds the stores' sections (embedder, chunking, entities, vector, graph,
retrieval, sessions), agent.readers.settings adds [model], and this module adds [keymap], the terminal
app's key remapping. `load_settings` here is what `lore` calls: config.toml's every section has
an owner, and a section nobody owns is an unknown setting.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agent.readers.settings import AgentSettings
from stores.config import load_settings as load_any_settings


class AppSettings(AgentSettings):
    """All of Lorekeeper's settings. See config.toml for the documented defaults."""

    keymap: dict[str, str] = {}
    """Key remapping for the terminal app: binding id = "keys"."""


def load_settings(config: Path | None = None, data_dir: Path | None = None,
                  **overrides: Any) -> AppSettings:
    """The app's settings: defaults < config file < LORE_* env < LORE_HOME < arguments."""
    return load_any_settings(config, data_dir, settings_class=AppSettings, **overrides)
