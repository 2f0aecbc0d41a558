"""The agent's section of the settings: [model], the reader and how its requests are made.

The stores' settings (stores.config.Settings) know nothing of models; `AgentSettings` adds the
[model] section, checked against the registered readers (the `lorekeeper.readers` entry points,
stores.plugins) so that a provider is any registered reader's name and a misspelt one is a
ConfigError naming the setting, the file and the readers there are. tui.settings adds the app's
own section on top.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import Field, field_validator

from stores import plugins
from stores.config import Section, Settings, load_settings

PLAIN_SEARCHES = ("off", "search")
"""`model.search_first` values the core serves itself: none, or the plain search for the
question (made through the agent's own vector_search); the others are registered searches."""


class ModelSettings(Section):
    """The chat model behind the agent."""

    provider: str = "offline"
    """A registered reader (agent.readers.registry): `offline`, the built-in extractive model; `google`: Gemini (needs GEMINI_API_KEY or GOOGLE_API_KEY); `openai`: any
    OpenAI-compatible endpoint at base_url."""
    name: str = ""
    """Model name, e.g. gemini-2.5-flash or qwen2.5:7b."""
    base_url: str = ""
    """Base URL of an OpenAI-compatible server (Ollama: http://127.0.0.1:11434/v1)."""
    api_key_env: str = ""
    """Name of the environment variable with the API key; empty uses the provider's usual one."""
    timeout_s: float = Field(60.0, gt=0)
    """One try at a model request is cut after this many seconds."""
    total_timeout_s: float = Field(90.0, gt=0)
    """A model request gives up after this long in all, tries and waits between them included."""
    retries: int = Field(3, ge=0, le=10)
    max_tool_rounds: int = Field(5, ge=1, le=10)
    history_tokens: int = Field(6000, ge=0)
    """The earlier turns sent back to the model as messages fit in this many tokens (estimated
    from characters); the session's summaries stand in for the turns left out."""
    prompt: Literal["full", "lean"] = "full"
    """For the OpenAI-compatible reader, which declares the prompt it reads with: `lean`, for
    small local models: short instructions, one-line tool schemas with only the
    arguments a tool needs, and tool results trimmed around the hit with short passage ids
    (P1, P2 …), no passage sent twice and each round within `round_tokens`."""
    output: Literal["tool", "text"] = "tool"
    """For the OpenAI-compatible reader, which declares how it answers: `tool`: the answer as
    one JSON tool call with quotes (models that write JSON well);
    `text`: a short plain answer citing passage ids ([P3]) that Lorekeeper expands into quotes,
    chapters and lines (small models, which run out of tokens writing JSON)."""
    tools: list[Literal["vector_search", "keyword_search", "graph_search", "track_entity",
                        "read_passage", "recall_session"]] = Field(default_factory=list)
    """The tools offered to the model; empty offers all six (fewer tools, a shorter prompt)."""
    max_tokens: int = Field(0, ge=0)
    """At most this many tokens per model response; 0 leaves it to the server."""
    max_answer_chars: int = Field(20000, ge=0)
    """An answer longer than this many characters is cut (and says so) before it is shown or
    stored; 0 keeps any length."""
    temperature: float | None = Field(None, ge=0.0, le=2.0)
    """Sampling temperature sent to the model (0: the same answer every time, as an
    evaluation wants); unset leaves it to the server."""
    round_tokens: int = Field(1500, ge=100)
    """With `prompt = "lean"`: what one round of tool calls returns fits in this many tokens."""
    search_first: str = "off"
    """The first round's tool call is made for the model, which saves a small model a round
    (it may still search again): `search`, a search for the question as typed; or a search
    registered in the `lorekeeper.first_searches` entry points, such as `librarian`: the
    rule-based librarian's whole search (names, chapter titles, relations, both hops of a
    multi-hop question, follow-ups resolved), its best passages handed over as that search's
    result; `off`, the model makes its own calls. true / false mean `search` / `off`."""
    answer_timeout_s: float = Field(300.0, ge=0)
    """An answer ends after this many seconds in all (tool rounds included) with the best
    evidence found so far, marked as such; 0: no limit."""

    @field_validator("search_first", mode="before")
    @classmethod
    def _search_first_flag(cls, value: Any) -> Any:
        if isinstance(value, bool) or str(value).lower() in ("true", "false"):
            return "search" if str(value).lower() == "true" else "off"
        return value

    @field_validator("search_first")
    @classmethod
    def _a_search(cls, name: str) -> str:
        known = [*PLAIN_SEARCHES, *plugins.names(plugins.FIRST_SEARCHES)]
        if name not in known:
            raise ValueError(f"no first search is registered as {name!r}; the ones there are "
                             f"{', '.join(known)}")
        return name

    @field_validator("provider")
    @classmethod
    def _registered(cls, name: str) -> str:
        readers = plugins.names(plugins.READERS)
        if name not in readers:
            raise ValueError(f"no reader is registered as {name!r}; the registered ones are "
                             f"{', '.join(readers)}")
        return name


class AgentSettings(Settings):
    """The stores' settings and the agent's [model] section."""

    model: ModelSettings = ModelSettings()

    @property
    def secret_variables(self) -> tuple[str, ...]:
        return (self.model.api_key_env, *super().secret_variables)


def load_agent_settings(config: Path | None = None, data_dir: Path | None = None,
                        **overrides: Any) -> AgentSettings:
    """`stores.config.load_settings` with the agent's sections (for callers below the app)."""
    return load_settings(config, data_dir, settings_class=AgentSettings, **overrides)
