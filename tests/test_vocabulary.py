"""No word list or language pattern outside the vocabulary (stores/lang).

Chinese and English words live in stores/lang: zh.py and en.py, one table per concept, and the
librarian's grammar of questions (asking.py) and of follow-ups (referring.py), so that adding a
kin word or a title is an edit there. Anywhere else, the librarian included, this test fails,
naming file and line, on
- a set, list, tuple or dict literal with 3 or more words (Chinese, or alphabetic English) as
  its elements or values;
- a string of 3 or more words split into a list (`"a b c".split()`);
- a regular expression with Han characters in it, or an alternation of 3 or more English words
  (`\\b(?:father|mother|son)\\b`), whether passed to `re` or kept in a string that looks like
  a pattern.
UI text is fine: a message, a label or an example question in a string or an f-string.
Program vocabulary is not language: dict keys, `Literal[...]` values, `__all__`, and strings
with digits, underscores or dots (field names, file formats, module paths).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("agent", "stores", "sessions", "tui")
VOCABULARY = ("stores/lang/",)

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_HAN_ESCAPE = re.compile(r"\\u(?:3[4-9a-f]|4[0-9a-f]|[5-9][0-9a-f])[0-9a-f]{2}", re.I)
_ENGLISH_WORD = re.compile(r"[A-Za-zÀ-ÿ][a-zà-ÿ'’\-]+\.?")
_ALTERNATION = re.compile(r"(?:[A-Za-z]{2,}\??\|){2,}[A-Za-z]{2,}")
_REGEX_SYNTAX = re.compile(r"\\[bswdSWDu]|\(\?[:=!<P]|[^\s|]\|[^\s|]")
_RE_FUNCTIONS = {"compile", "search", "match", "fullmatch", "findall", "finditer", "sub", "subn",
                 "split"}
_PROGRAM_NAMES = {"__all__"}
# Collections of the program's own names (entity and relation types, table and column names,
# file formats, widget ids, package names), by module and the name they are assigned to (or,
# unnamed, their first element). They are not words of a story's language.
PROGRAM_NAMES: dict[str, set[str]] = {
    "agent/answer/cap.py": {"_MODEL_WRITTEN"},
    "agent/evals/cards.py": {"FIELDS"},
    "agent/evals/dialogues.py": {"JSON_TURN_KEYS"},
    "agent/evals/entities.py": {"PAIR_FIELDS", "PERSON_FIELDS"},
    "agent/evals/locomo.py": {"CATEGORIES"},
    "agent/evals/retrieval.py": {"QUESTION_TYPES"},
    "agent/readers/small_context.py": {"QUERY_ARGUMENTS"},
    "agent/readers/json_actions.py": {"ARGUMENT_KEYS"},
    "agent/librarian/candidates.py": {"_PEOPLE"},
    "agent/librarian/extract.py": {"FEATURES", "ASKING", "person"},
    "agent/librarian/ranking.py": {"FEATURES"},
    "agent/librarian/relations.py": {"_KIN_STEP", "TWO_STEP_KIN", "PATH_ANSWERS"},
    "agent/views/pictures.py": {"MAP_FORMATS", "SHAPES"},
    "agent/views/presence.py": {"CHART_FORMATS"},
    "agent/views/relmap.py": {"SYMMETRIC"},
    "agent/conversation/exports.py": {"CSV_COLUMNS", "md"},
    "sessions/store.py": {"stack_entries"},
    "stores/catalog.py": {"entities"},
    "stores/graph/neo4j_store.py": {"entities"},
    "stores/models.py": {"RELATION_TYPES", "BOND_TYPES", "ANSWERING_TYPES", "NOT_PEOPLE"},
    "stores/readers/lorebook.py": {"_HINT_FIELDS"},
    "stores/world.py": {"vectors"},
    "tui/commands/packages.py": {"MATTER"},
    "tui/commands/world.py": {"keys"},
    "tui/exports.py": {"TIMELINE_FORMATS"},
    "tui/onboarding.py": {"TRUSTED", "TOLD_BY"},
    "tui/widgets/chat.py": {"resolved"},
}


def _is_word(value: object) -> bool:
    """A word of a language: Han characters, or one or two alphabetic English words."""
    if not isinstance(value, str) or not value.strip():
        return False
    return bool(_HAN.search(value)) or _ENGLISH_WORD.fullmatch(value) is not None


def _is_language_pattern(text: str) -> bool:
    return bool(_HAN.search(text) or _HAN_ESCAPE.search(text) or _ALTERNATION.search(text))


class _Finder(ast.NodeVisitor):
    def __init__(self, program_names: set[str]) -> None:
        self.found: list[tuple[int, str]] = []
        self._skip: set[int] = set()
        self._program_names = program_names
        self._assigned = ""

    def _flag(self, node: ast.AST, why: str) -> None:
        self.found.append((getattr(node, "lineno", 0), why))

    def visit_Assign(self, node: ast.Assign) -> None:
        names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        if any(name in _PROGRAM_NAMES for name in names):
            return
        self._assigned = names[0] if names else ""
        self.generic_visit(node)
        self._assigned = ""

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._assigned = node.target.id if isinstance(node.target, ast.Name) else ""
        if self._assigned not in _PROGRAM_NAMES:
            self.generic_visit(node)
        self._assigned = ""

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if isinstance(node.value, ast.Name) and node.value.id == "Literal":
            return  # Literal["md", "json", "csv"]: a type, not words
        self.generic_visit(node)

    def _collection(self, node: ast.AST, elements: list[ast.expr | None]) -> None:
        words = sum(1 for e in elements if isinstance(e, ast.Constant) and _is_word(e.value))
        first = next((e.value for e in elements if isinstance(e, ast.Constant)), None)
        if words >= 3 and not {self._assigned, first} & self._program_names:
            self._flag(node, f"a collection of {words} words")
        self.generic_visit(node)

    def visit_Set(self, node: ast.Set) -> None:
        self._collection(node, list(node.elts))

    def visit_List(self, node: ast.List) -> None:
        self._collection(node, list(node.elts))

    def visit_Tuple(self, node: ast.Tuple) -> None:
        self._collection(node, list(node.elts))

    def visit_Dict(self, node: ast.Dict) -> None:
        # Keys are the program's own names (JSON fields, table columns); values may be words.
        self._collection(node, list(node.values))

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if (isinstance(func, ast.Attribute) and func.attr == "split" and not node.args
                and isinstance(func.value, ast.Constant) and isinstance(func.value.value, str)
                and sum(map(_is_word, func.value.value.split())) >= 3):
            self._flag(node, "a string of words split into a list")
        if (isinstance(func, ast.Attribute) and func.attr in _RE_FUNCTIONS
                and isinstance(func.value, ast.Name) and func.value.id == "re" and node.args):
            text = "".join(n.value for n in ast.walk(node.args[0])
                           if isinstance(n, ast.Constant) and isinstance(n.value, str))
            if _is_language_pattern(text):
                self._flag(node, "a regular expression with words of a language")
                self._skip.update(id(n) for n in ast.walk(node.args[0]))
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if (id(node) not in self._skip and isinstance(node.value, str)
                and _REGEX_SYNTAX.search(node.value) and _is_language_pattern(node.value)):
            self._flag(node, "a pattern string with words of a language")


def language_rules(source: str, program_names: set[str] = frozenset()) -> list[tuple[int, str]]:
    """(line, what) for every word list or language pattern in a module's source;
    `program_names` are the collections of the module's own names to let pass."""
    finder = _Finder(set(program_names))
    tree = ast.parse(source)
    for node in ast.walk(tree):  # docstrings are prose, not rules
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            finder._skip.add(id(node.value))
    finder.visit(tree)
    return sorted(set(finder.found))


def _modules() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py")
                  if not p.relative_to(ROOT).as_posix().startswith(VOCABULARY))


def test_no_word_list_or_language_pattern_outside_the_vocabulary() -> None:
    found = [f"{path.relative_to(ROOT)}:{line}: {why}" for path in _modules()
             for line, why in language_rules(path.read_text(encoding="utf-8"),
                                              PROGRAM_NAMES.get(path.relative_to(ROOT).as_posix(),
                                                                set()))]
    assert not found, ("words of a language outside stores/lang and agent/librarian — move "
                       "them to stores/lang/zh.py or en.py:\n" + "\n".join(found))


@pytest.mark.parametrize("snippet", [
    '_KIN = frozenset({"father", "mother", "son"})',
    '_KIN = ("父亲", "母亲", "儿子")',
    'TYPES = {"person": "人物", "place": "地点", "item": "物品"}',
    'STOP = "the a an of".split()',
    'WHO = re.compile(r"谁|何人")',
    'WHO = re.compile(r"\\bwho\\b|\\b(?:whom|whose|which)\\b", re.I)',
    'HAN = re.compile(r"[\\u4e00-\\u9fff]")',
    '_DEATH = r"\\b(?:died|killed|perished)\\b"',
])
def test_a_word_list_or_pattern_is_caught(snippet: str) -> None:
    assert language_rules(snippet), snippet


@pytest.mark.parametrize("snippet", [
    'print("第3回: 刘备是谁？")',
    'if text[:1] in ("V", "B", "P"): pass',
    'STAGES = {"read": "reading files", "embed": "embedding passages", "index": "building"}',
    'row = {"id": 1, "world": "demo", "name": "x"}',
    'Kind = Literal["person", "place", "thing"]',
    'chapter = f"第{n}回" if zh else f"ch. {n}"',
    'MARKERS = re.compile(r"\\s*\\[\\d+\\]")',
])
def test_ui_text_and_program_names_pass(snippet: str) -> None:
    assert not language_rules(snippet), snippet


def test_a_word_list_under_a_program_name_of_another_module_is_caught() -> None:
    assert language_rules('FORMATS = ("father", "mother", "son")', {"TIMELINE_FORMATS"})
    assert not language_rules('FORMATS = ("md", "json", "csv")', {"FORMATS"})


def test_the_vocabulary_imports_nothing_from_the_project() -> None:
    for path in (ROOT / "stores" / "lang").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert node.module.split(".")[0] not in PACKAGES \
                    or node.module.startswith("stores.lang"), f"{path.name}: {node.module}"
