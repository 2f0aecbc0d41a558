"""The chat models behind the agent: Gemini and any OpenAI-compatible server (registered as
readers in agent.readers.registry, beside the offline librarian), and how failed requests are retried.

Transient model errors (HTTP 429, 5xx, timeouts, dropped connections, a response the adapter
could not parse) are retried by the `Backoff` capability with exponential backoff, honouring the
provider's Retry-After. It is the only retry layer: the provider SDKs' own retries are switched off
(`max_retries=0`) so one setting, `model.retries`, says how often a request is tried. When the
tries are spent, `ask` raises `ModelUnavailable` naming the provider, the model and what to do.
"""

from __future__ import annotations

import logging
import os
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import anyio
from pydantic_ai import RetryModelRequest, RunContext
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.exceptions import (
    ContentFilterError,
    ModelAPIError,
    ModelAuthenticationError,
    ModelConnectionError,
    ModelHTTPError,
    ModelNotFoundError,
    ModelQuotaExceededError,
    ModelRateLimitError,
    ModelRequestTimeout,
    ModelServerError,
    ModelTimeoutError,
    ModelUnavailableError,
    OutputTokenLimitExceeded,
    UnexpectedModelBehavior,
)

from agent.readers.registry import Reader, ReaderContext, first_search, make_reader
from agent.readers.settings import ModelSettings
from agent.world.retrieval import Retriever
from stores.errors import ConfigError, LoreError

if TYPE_CHECKING:
    from pydantic_ai.models import Model, ModelRequestContext
    from pydantic_ai.settings import ModelSettings as RequestSettings

log = logging.getLogger(__name__)

DEFAULT_NAMES = {"google": "gemini-2.5-flash"}
GOOGLE_KEY_VARS = ("GEMINI_API_KEY", "GOOGLE_API_KEY")


class ModelUnavailable(LoreError):
    """The chat model could not answer (after retrying what was worth retrying)."""

    exit_code = 4


def make_model(settings: ModelSettings, retriever: Retriever | None = None) -> Model:
    """The pydantic-ai model of the reader `settings.provider` names (agent.readers.registry)."""
    return make_reader(ReaderContext(settings, retriever)).model


def _request(settings: ModelSettings) -> RequestSettings:
    # The SDKs' own retries are off: `Backoff` is the one retry layer.
    return {"timeout": settings.timeout_s, "max_retries": 0}


def gemini_reader(context: ReaderContext) -> Reader:
    """Gemini through google-genai; reaches the world only through the tools."""
    return Reader(_google(context.settings, _request(context.settings)))


def openai_reader(context: ReaderContext) -> Reader:
    """Any OpenAI-compatible server (Ollama, llama.cpp, vLLM, OpenAI itself), with what a small
    local model needs where the settings ask for it (agent.readers.small_context): the tools it is offered,
    the lean prompt and compact tools and results (`prompt = "lean"`), a plain-text answer
    (`output = "text"`), a first round made for it (`search_first`), and its tool calls read
    from text when it writes them so."""
    from agent.readers.small_context import LEAN_PROMPT, SmallContext

    settings = context.settings
    lean = settings.prompt == "lean"
    small = SmallContext(tuple(settings.tools), lean, settings.round_tokens,
                         settings.search_first,
                         first_search(settings.search_first, context))
    return Reader(_openai(settings, _request(settings)), [small],
                  prompt=LEAN_PROMPT if lean else None, text_output=settings.output == "text")


def _google(settings: ModelSettings, request: RequestSettings) -> Model:
    from pydantic_ai.models.google import GoogleModel
    from pydantic_ai.providers.google import GoogleProvider

    names = (settings.api_key_env,) if settings.api_key_env else GOOGLE_KEY_VARS
    key = next((os.environ[n] for n in names if os.environ.get(n)), None)
    if key is None:
        raise ConfigError(f"no API key for Gemini: {' / '.join(names)} is not set",
                          where="model.api_key_env" if settings.api_key_env else "model.provider",
                          hint=f"export {names[0]}=<your key> (https://aistudio.google.com/apikey), "
                               "or set model.provider = \"offline\"")
    provider = GoogleProvider(api_key=key, base_url=settings.base_url or None)
    return GoogleModel(settings.name or DEFAULT_NAMES["google"], provider=provider,
                       settings=request)


def _openai(settings: ModelSettings, request: RequestSettings) -> Model:
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    if not settings.base_url:
        raise ConfigError("model.provider is \"openai\" but model.base_url is empty",
                          where="model.base_url",
                          hint="set it to the server's OpenAI-compatible URL, e.g. "
                               "http://127.0.0.1:11434/v1 for Ollama")
    if not settings.name:
        raise ConfigError("model.provider is \"openai\" but model.name is empty", where="model.name",
                          hint="set it to a model the server offers, e.g. qwen2.5:7b")
    env = settings.api_key_env or "OPENAI_API_KEY"
    key = os.environ.get(env)
    if settings.api_key_env and not key:
        raise ConfigError(f"the environment variable {env} named by model.api_key_env is not set",
                          where="model.api_key_env",
                          hint=f"export {env}=<key>, or empty model.api_key_env for a local server")
    # Local servers (Ollama, llama.cpp) take any key; the SDK insists on a non-empty one.
    provider = OpenAIProvider(base_url=settings.base_url, api_key=key or "not-needed")
    return OpenAIChatModel(settings.name, provider=provider, settings=request)


# -- retrying ---------------------------------------------------------------------------------------
RETRY_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504, 529})


def retryable(error: BaseException) -> bool:
    """Whether another attempt at the same request may succeed."""
    if isinstance(error, ModelQuotaExceededError | ModelAuthenticationError | ModelNotFoundError
                  | ContentFilterError | OutputTokenLimitExceeded):
        return False
    if isinstance(error, ModelRateLimitError | ModelUnavailableError | ModelServerError
                  | ModelConnectionError):
        return True
    if isinstance(error, ModelHTTPError):
        return error.status_code in RETRY_STATUS
    # A response the adapter could not make sense of (e.g. a malformed function call).
    return isinstance(error, UnexpectedModelBehavior)


@dataclass
class Backoff(AbstractCapability[Any]):
    """Try a failed model request again, up to `retries` more times, waiting longer each time."""

    retries: int = 3
    base_s: float = 1.0
    """The first wait; each further wait doubles it (with ±25% jitter)."""
    cap_s: float = 20.0
    """No single wait is longer, whatever the provider's Retry-After says."""
    total_s: float = 90.0
    """A request gives up after this long in all, its tries and waits included
    (`model.total_timeout_s`): a hanging server would otherwise hold the user for
    (retries + 1) × model.timeout_s."""
    _attempts: int = 0

    async def wrap_model_request(self, ctx: RunContext[Any], *,
                                 request_context: ModelRequestContext, handler: Any) -> Any:
        try:
            with anyio.fail_after(self.total_s):
                return await handler(request_context)
        except TimeoutError:
            name = getattr(request_context.model, "model_name", "") or "model"
            error = ModelRequestTimeout(name, self.total_s)
            error.lore_attempts = self._attempts + 1  # type: ignore[attr-defined]
            raise error from None

    def delay(self, attempt: int, error: BaseException) -> float:
        after = getattr(error, "retry_after", None)
        if after is not None and after >= 0:
            return min(float(after), self.cap_s)
        wait = self.base_s * 2 ** (attempt - 1)
        return min(wait * random.uniform(0.75, 1.25), self.cap_s)

    async def on_model_request_error(self, ctx: RunContext[Any], *,
                                     request_context: ModelRequestContext,
                                     error: Exception) -> Any:
        attempt = self._attempts = request_context.attempt
        error.lore_attempts = attempt  # type: ignore[attr-defined]  # for the final message
        if attempt > self.retries or not retryable(error):
            raise error
        wait = self.delay(attempt, error)
        log.warning("model request failed (%s); attempt %d of %d in %.2f s",
                    error, attempt + 1, self.retries + 1, wait)
        await anyio.sleep(wait)
        raise RetryModelRequest()


def unavailable(error: Exception, model: Any) -> ModelUnavailable:
    """A ModelUnavailable that says which model failed, how, and what to do."""
    system = getattr(model, "system", "") or "model"
    name = getattr(model, "model_name", "") or "?"
    provider = getattr(model, "provider", None)
    url = getattr(provider, "base_url", "") if provider is not None else ""
    attempts = getattr(error, "lore_attempts", 1)
    tries = f" after {attempts} attempts" if attempts > 1 else ""
    where = f"model {system}:{name}" + (f" at {url}" if url else "")
    detail = _detail(error)
    return ModelUnavailable(f"the model did not answer{tries}: {detail}", where=where,
                            hint=_hint(error, url))


def _detail(error: Exception) -> str:
    """The status and the provider's own words, not the SDK's repr of the body."""
    status = getattr(error, "status_code", None)
    body = getattr(error, "body", None)
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        body = body["error"]
    text = body.get("message") if isinstance(body, dict) else None
    text = str(text or getattr(error, "message", "") or error or type(error).__name__)
    text = " ".join(text.split())[:300]
    if isinstance(error, ModelRequestTimeout):
        return f"no answer within {error.timeout:g} s in all"
    if isinstance(error, ModelTimeoutError):
        return f"no response in time ({text})"
    return f"HTTP {status}: {text}" if status else text


def _hint(error: Exception, url: str) -> str:
    later = "your question is saved: ask it again later, or set model.provider = \"offline\""
    if isinstance(error, ModelAuthenticationError) or getattr(error, "status_code", 0) in (401, 403):
        return "check the API key (model.api_key_env / GEMINI_API_KEY / OPENAI_API_KEY)"
    if isinstance(error, ModelNotFoundError) or getattr(error, "status_code", 0) == 404:
        return "check model.name: the server does not know that model"
    if isinstance(error, ModelQuotaExceededError):
        return f"the account's quota is used up; {later}"
    if isinstance(error, ModelRateLimitError) or getattr(error, "status_code", 0) == 429:
        return f"the provider is rate-limiting requests (raise model.retries to wait longer); {later}"
    if isinstance(error, ModelRequestTimeout):
        return (f"the model was given {error.timeout:g} s in all (model.total_timeout_s; each try "
                f"is cut at model.timeout_s); {later}")
    if isinstance(error, ModelConnectionError):
        return f"is the server{' at ' + url if url else ''} running and reachable? " \
               "(model.base_url, model.timeout_s)"
    if isinstance(error, UnexpectedModelBehavior):
        return f"the model kept sending malformed tool calls or answers; try a stronger model, or {later}"
    if isinstance(error, ModelAPIError):
        return f"the provider is failing; {later}"
    return later
