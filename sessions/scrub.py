"""Keep secrets out of the session database.

Everything the store writes (questions, answers, pydantic-ai message JSON, tool calls, errors)
goes through `scrub` first: a provider's error message or a tool argument can echo an API key,
and the database outlives the environment the key came from.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import re

from stores.config import SECRET_VARIABLES

REDACTED = "[REDACTED]"

# Environment variables whose values are secrets, by the end of their name.
_SECRET_ENV_SUFFIXES = ("_API_KEY", "_TOKEN", "_PASSWORD", "_SECRET", "_SECRET_KEY")
# Shorter values would be redacted all over ordinary text ("1", "yes", "admin").
_MIN_SECRET_LEN = 6
# A declared variable is a key by definition, so a shorter value still goes; below this it could
# not be a real key and would only mangle ordinary words.
_MIN_DECLARED_LEN = 4

# Character classes stop at quotes and backslashes, so scrubbing JSON keeps it valid JSON.
# A secret starts where no ASCII letter or digit precedes it, not at a word boundary: in
# "钥匙sk-…" or "地址http://…" a Han character is a word character, so \b would not match.
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"AIza[0-9A-Za-z_\-]{30,}"), REDACTED),  # Google API keys
    (re.compile(r"(?<![A-Za-z0-9_])sk-[A-Za-z0-9_\-]{16,}"), REDACTED),  # OpenAI / Anthropic style keys
    (re.compile(r"(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{20,}"), REDACTED),  # GitHub tokens
    (re.compile(r"(?<![A-Za-z0-9_])xox[abprs]-[A-Za-z0-9\-]{10,}"), REDACTED),  # Slack tokens
    (re.compile(r"(?<![A-Za-z0-9_])AKIA[0-9A-Z]{16}\b"), REDACTED),  # AWS access key ids
    # Case-sensitive and with a digit: "the bearer of bad tidings" is lore, not a header.
    (re.compile(r"(?<![A-Za-z0-9_])(Bearer|Basic)\s+(?=[A-Za-z._~+/=\-]*\d)[A-Za-z0-9._~+/=\-]{12,}"),
     rf"\1 {REDACTED}"),
    # key=value / "key": "value" for names that only ever label credentials.
    (
        re.compile(
            r"""(?i)(?<![a-z0-9_])((?:x-)?api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret)"""
            r"""(["']?\s*[:=]\s*["']?)([^\s"'\\&,;}]{6,})"""
        ),
        rf"\1\2{REDACTED}",
    ),
)


# A password in a URL (http://user:pass@host/v1): the user name stays, the password goes.
_URL_PASSWORD = re.compile(r"(?i)(?<![a-z0-9_+.\-])([a-z][a-z0-9+.\-]*://[^\s:/@\"'\\]*):([^\s@/\"'\\]+)@")
# HTTP basic auth: base64 of "user:password", whatever its digits (the Bearer/Basic pattern
# above wants a digit so that prose is left alone; a decoded "user:pass" is proof enough).
_BASIC = re.compile(r"(?<![A-Za-z0-9_])Basic\s+([A-Za-z0-9+/]{4,}={0,2})")


def _basic_pair(match: re.Match[str]) -> str:
    try:
        decoded = base64.b64decode(match[1], validate=True).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return match[0]
    return f"Basic {REDACTED}" if ":" in decoded else match[0]


def secret_env_values(environ: dict[str, str] | None = None) -> list[str]:
    """The values of environment variables named like secrets (…_API_KEY, …_TOKEN, …_PASSWORD)
    or declared as holding one by the settings."""
    env = os.environ if environ is None else environ
    values = {
        value
        for name, value in env.items()
        if name.upper().endswith(_SECRET_ENV_SUFFIXES) and len(value) >= _MIN_SECRET_LEN
    }
    # Variables the settings name as holding a secret (model.api_key_env = "MY_LLM_KEY"):
    # their values are secrets whatever the names look like.
    values.update(value for name in SECRET_VARIABLES
                  if len(value := env.get(name, "")) >= _MIN_DECLARED_LEN)
    # Longest first, so a value that contains another is removed whole.
    return sorted(values, key=len, reverse=True)


def scrub(text: str, environ: dict[str, str] | None = None, *,
          values: list[str] | None = None) -> str:
    """Return `text` with API-key-looking strings and secret env-variable values replaced.

    Both the raw value and its JSON-escaped form are removed, because messages are stored as
    JSON text. Replacements contain no quotes or backslashes, so valid JSON stays valid.
    `values`: the secret values, when the caller read them once (`secret_env_values`).
    """
    if not text:
        return text
    for value in secret_env_values(environ) if values is None else values:
        text = text.replace(value, REDACTED)
        escaped = json.dumps(value)[1:-1]
        if escaped != value:
            text = text.replace(escaped, REDACTED)
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    text = _URL_PASSWORD.sub(rf"\1:{REDACTED}@", text)
    return _BASIC.sub(_basic_pair, text)


def secret_spans(text: str, environ: dict[str, str] | None = None, *,
                 values: list[str] | None = None) -> list[tuple[int, int]]:
    """Where in `text` `scrub` finds something to redact, as (start, end) pairs: a stream that
    shows text piece by piece must not show the first half of one."""
    spans = []
    for value in secret_env_values(environ) if values is None else values:
        at = text.find(value)
        while at >= 0:
            spans.append((at, at + len(value)))
            at = text.find(value, at + 1)
    for pattern in (*(p for p, _ in _PATTERNS), _URL_PASSWORD, _BASIC):
        spans += [m.span() for m in pattern.finditer(text)]
    return spans


class ScrubFilter(logging.Filter):
    """A logging filter that scrubs each record's final message: a library's warning quotes
    whatever the server echoed (an Authorization header, a URL with its password)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = scrub(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        return True
