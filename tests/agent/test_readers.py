"""The model registry: every reader is an entry point found by name, the librarian like the
others, and the agent's core never reaches into one."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import pytest
from pydantic_ai import ModelResponse, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agent.conversation.core import ask, build_agent
from agent.readers.chat_models import make_model
from agent.readers.registry import Reader, ReaderContext, make_reader, reader_names
from agent.readers.settings import ModelSettings
from agent.schemas import Answer
from agent.tools.deps import LoreDeps
from agent.world.retrieval import Retriever
from sessions.records import StackEntry
from stores import plugins
from stores.errors import ConfigError
from tests.agent.conftest import mini_retriever, mini_settings  # noqa: F401  (fixtures)

ROOT = Path(__file__).resolve().parents[2]


def test_the_built_in_readers_are_registered_by_name(mini_retriever: Retriever) -> None:  # noqa: F811
    assert {"offline", "google", "openai"} <= set(reader_names())
    librarian = make_reader(ReaderContext(ModelSettings(), mini_retriever))
    assert librarian.model.model_name == "lorekeeper-offline" and librarian.capabilities
    with pytest.raises(ConfigError, match="reads one world") as caught:
        make_model(ModelSettings())  # no world given: the librarian says what it needs
    assert caught.value.where == "model.provider"
    unknown = ModelSettings().model_copy(update={"provider": "parrot"})
    with pytest.raises(ConfigError, match="unknown model provider 'parrot'") as caught:
        make_reader(ReaderContext(unknown))
    assert "offline" in (caught.value.hint or "")


def test_settings_load_only_with_a_provider_the_registry_knows(tmp_path: Path) -> None:
    from agent.readers.settings import load_agent_settings

    config = tmp_path / "config.toml"
    config.write_text('[model]\nname = "x"\nprovider = "parrot"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="no reader is registered as 'parrot'") as caught:
        load_agent_settings(config, tmp_path / "home")
    assert caught.value.where == f"{config}:3 [model.provider]"
    assert all(name in str(caught.value) for name in ("offline", "google", "openai"))
    config.write_text('[model]\nprovider = "google"\n', encoding="utf-8")
    assert load_agent_settings(config, tmp_path / "home").model.provider == "google"


def test_each_package_owns_its_settings_section(tmp_path: Path) -> None:
    from agent.readers.settings import AgentSettings, load_agent_settings
    from stores.config import Settings
    from tui.settings import AppSettings, load_settings

    assert "model" not in Settings.model_fields and "keymap" not in Settings.model_fields
    assert "model" in AgentSettings.model_fields and "keymap" not in AgentSettings.model_fields
    assert "keymap" in AppSettings.model_fields
    config = tmp_path / "config.toml"
    config.write_text('[keymap]\nquit = "ctrl+q"\n', encoding="utf-8")
    assert load_settings(config, tmp_path / "home").keymap == {"quit": "ctrl+q"}
    with pytest.raises(ConfigError, match="unknown setting 'keymap'"):
        load_agent_settings(config, tmp_path / "home")  # below the app, [keymap] is no one's


def test_the_built_in_plugins_are_entry_points_of_the_package() -> None:
    """Lorekeeper names its own readers, searches and backends in its metadata, as a
    third-party package would: the core holds no table of them."""
    assert plugins.names(plugins.READERS) == ["google", "offline", "openai"]
    assert plugins.names(plugins.FIRST_SEARCHES) == ["librarian"]
    assert plugins.names(plugins.EMBEDDERS) == ["e5", "flagembedding", "sentence-transformers",
                                                "use"]
    assert plugins.names(plugins.GRAPHS) == ["ladybug", "neo4j"]
    assert plugins.names(plugins.RERANKERS) == ["cross-encoder", "flag"]
    assert plugins.load(plugins.READERS, "parrot") is None


async def test_a_registered_reader_gets_the_context_and_runs_like_any_other(
        mini_retriever: Retriever, plug: Callable[[str, str, object], None]) -> None:  # noqa: F811
    given: list[ReaderContext] = []

    def echo(messages: list, info: AgentInfo) -> ModelResponse:
        answer = Answer(text="不知道", stop_reason="not_in_text", resolved_question="林澈是谁？")
        return ModelResponse(parts=[ToolCallPart(info.output_tools[0].name,
                                                 answer.model_dump(mode="json"))])

    def parrot(context: ReaderContext) -> Reader:
        given.append(context)
        return Reader(FunctionModel(echo, model_name="parrot"))

    plug(plugins.READERS, "parrot", parrot)
    settings = ModelSettings(provider="parrot")  # the settings know it now
    reader = make_reader(ReaderContext(settings, mini_retriever))
    assert given == [ReaderContext(settings, mini_retriever)]
    deps = LoreDeps(retriever=mini_retriever, stack=[StackEntry(entity="林澈")])
    result = await ask(build_agent(reader, settings), deps, "他是谁？")
    assert result.resolved_question == "林澈是谁？" and result.evidence == []


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


@pytest.mark.parametrize("module", ["agent/conversation/core.py", "agent/conversation/session.py", "agent/readers/chat_models.py",
                                   "agent/readers/registry.py", "tui/commands/evals.py", "tui/workers.py"])
def test_the_core_and_its_callers_never_import_the_librarian(module: str) -> None:
    imported = _imports(ROOT / module)
    assert not {m for m in imported if m.startswith("agent.librarian")}
    assert "__self__" not in (ROOT / module).read_text(encoding="utf-8")
