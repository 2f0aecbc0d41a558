"""Settings that name nothing, and settings that cannot be read, explained.

pydantic-settings reads only the `LORE_*` variables whose names it knows, so a typo
(`LORE_MODEL__PROVDER=google`, `LORE_MODELL__NAME=…`) would silently leave the default in
place. Every variable that looks like a setting is checked here against the settings' fields,
and every error names the variable or file, the key, and the closest real keys.
"""

from __future__ import annotations

import difflib
import os
import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from stores.errors import ConfigError

PREFIX = "LORE_"
SEPARATOR = "__"
NOT_SETTINGS = frozenset({"LORE_HOME", "LORE_CONFIG", "LORE_SHARED_DATA"})
"""Variables read directly (not settings fields); LORE_TEST_* belong to the test suite."""


def _section(settings_cls: type[BaseModel], path: tuple[str, ...]) -> type[BaseModel] | None:
    """The model class at `path` below the settings (None: not a section, e.g. keymap)."""
    model: Any = settings_cls
    for part in path:
        field = model.model_fields.get(part)
        model = field.annotation if field is not None else None
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            return None
    return model


def did_you_mean(settings_cls: type[BaseModel], loc: tuple[str, ...]) -> str:
    """'did you mean provider? ' when the first unknown part of `loc` is close to a real key
    (a section's key, or a section: LORE_MODELL__NAME → model)."""
    for depth in range(len(loc)):
        section = _section(settings_cls, loc[:depth])
        names = list(section.model_fields) if section is not None else []
        if loc[depth] not in names:
            break
    else:
        return ""
    close = difflib.get_close_matches(loc[depth].lower(), names, n=3, cutoff=0.6)
    return f"did you mean {' or '.join(close)}? " if close else ""


def setting_variable(loc: tuple[str, ...]) -> str:
    """The `LORE_*` variable that set the setting at `loc` (or its whole section), or ''."""
    wanted = {(PREFIX + SEPARATOR.join(loc[:n])).upper() for n in range(1, len(loc) + 1)}
    # Longest first: LORE_MODEL__NAME is a better answer than a LORE_MODEL JSON object.
    found = sorted((name for name in os.environ if name.upper() in wanted), key=len, reverse=True)
    return found[0] if found else ""


def check_variables(settings_cls: type[BaseModel]) -> None:
    """A ConfigError for the first `LORE_*` variable that looks like a setting but names none."""
    for name in sorted(os.environ):
        upper = name.upper()
        if not upper.startswith(PREFIX) or upper in NOT_SETTINGS or upper.startswith("LORE_TEST_"):
            continue
        loc = tuple(upper[len(PREFIX):].lower().split(SEPARATOR))
        if _names_a_setting(settings_cls, loc):
            continue
        if len(loc) == 1 and not did_you_mean(settings_cls, loc):
            continue  # LORE_SOMETHING unrelated to the settings: not ours to judge
        setting = ".".join(loc)
        raise ConfigError(
            f"unknown setting {setting!r}", where=f"environment variable {name}",
            hint=f"{did_you_mean(settings_cls, loc)}rename or unset {name} "
                 f"(config.toml lists every setting; LORE_<SECTION>{SEPARATOR}<KEY> sets one)")


def _names_a_setting(settings_cls: type[BaseModel], loc: tuple[str, ...]) -> bool:
    if loc[0] not in settings_cls.model_fields:
        return False
    if len(loc) == 1:
        return True
    section = _section(settings_cls, loc[:1])
    if section is None:  # a free-form table such as [keymap]: any key is fine
        return True
    return len(loc) == 2 and loc[1] in section.model_fields


def toml_line(path: Any, loc: tuple[str, ...]) -> int | None:
    """The line of `path` that sets `loc` (`key = …` under `[section]`), for file:line errors."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError, TypeError):
        return None
    table = ""
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if header := re.fullmatch(r"\[\s*([\w.-]+)\s*\]", text):
            table = header[1]
            continue
        key = re.match(r"([\w-]+)\s*=", text)
        if key and (*((table,) if table else ()), key[1]) == loc:
            return number
    return None


_FIELD = re.compile(r'field "(?P<field>[^"]+)"')


def variable_error(exc: Exception) -> ConfigError:
    """A ConfigError for a `LORE_<SECTION>` variable whose value is not a JSON object."""
    match = _FIELD.search(str(exc))
    field = match["field"] if match else ""
    variable = setting_variable((field,)) if field else ""
    if not variable:
        return ConfigError(f"cannot read a setting: {exc}", where="LORE_* environment variables",
                           hint="check the LORE_* variables (`env | grep LORE_`)")
    section = field.upper()
    return ConfigError(
        f"{variable} is not a JSON object; a whole [{field}] section set from the environment "
        "must be one", where=f"environment variable {variable}",
        hint=f"set single keys with {PREFIX}{section}{SEPARATOR}<KEY>=value, or give JSON such as "
             f"{variable}='{{\"backend\": \"use\"}}', or unset {variable}")
