"""The model registry: every reader is found by name, the librarian like the others, and the
agent's core never reaches into one."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from pydantic_ai import ModelResponse, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agent import readers
from agent.core import ask, build_agent
from agent.deps import LoreDeps
from agent.models import make_model
from agent.readers import Reader, ReaderContext, make_reader, reader_names, register_reader
from agent.retrieval import Retriever
from agent.schemas import Answer
from sessions.records import StackEntry
from stores.config import ModelSettings
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
    from stores.config import load_settings

    config = tmp_path / "config.toml"
    config.write_text('[model]\nprovider = "parrot"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="unknown model provider 'parrot' in model.provider") \
            as caught:
        load_settings(config, tmp_path / "home")
    assert str(config) in caught.value.where and "model.provider" in caught.value.where
    assert all(name in (caught.value.hint or "") for name in ("offline", "google", "openai"))
    config.write_text('[model]\nprovider = "google"\n', encoding="utf-8")
    assert load_settings(config, tmp_path / "home").model.provider == "google"


async def test_a_registered_reader_gets_the_context_and_runs_like_any_other(
        mini_retriever: Retriever, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    monkeypatch.setattr(readers, "_FACTORIES", dict(readers._FACTORIES))
    given: list[ReaderContext] = []

    def echo(messages: list, info: AgentInfo) -> ModelResponse:
        answer = Answer(text="不知道", stop_reason="not_in_text", resolved_question="林澈是谁？")
        return ModelResponse(parts=[ToolCallPart(info.output_tools[0].name,
                                                 answer.model_dump(mode="json"))])

    def parrot(context: ReaderContext) -> Reader:
        given.append(context)
        return Reader(FunctionModel(echo, model_name="parrot"))

    register_reader("parrot", parrot)
    settings = ModelSettings().model_copy(update={"provider": "parrot"})
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


@pytest.mark.parametrize("module", ["agent/core.py", "agent/conversation.py", "agent/models.py",
                                   "agent/readers.py", "tui/commands/evals.py", "tui/workers.py"])
def test_the_core_and_its_callers_never_import_the_librarian(module: str) -> None:
    imported = _imports(ROOT / module)
    assert not {m for m in imported if m.startswith("agent.librarian")}
    assert "__self__" not in (ROOT / module).read_text(encoding="utf-8")
