"""Optional cross-encoder reranking of fused hits, selected by `retrieval.reranker`.

`cross-encoder:<model>` uses sentence-transformers' CrossEncoder, `flag:<model>` uses
FlagEmbedding's FlagReranker (e.g. BAAI/bge-reranker-v2-m3). No reranker weights ship
offline, so the default is none. Libraries are imported, and weights loaded, on first use.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from stores import backends, plugins
from stores.embedders.hub import first_line, quiet_model_loading, resolve_model
from stores.errors import ConfigError

SETTING = "retrieval.reranker"
_FETCH_HINT = ("Download the reranker where you have internet (e.g. `hf download "
               "BAAI/bge-reranker-v2-m3 --local-dir ./bge-reranker`), copy the folder here and "
               "set retrieval.reranker = \"flag:./bge-reranker\"; or set it to \"\" to rank "
               "without a reranker")


@runtime_checkable
class Reranker(Protocol):
    """Scores (query, passage) pairs jointly; higher is more relevant."""

    name: str

    def rerank(self, query: str, passages: Sequence[tuple[str, str]]) -> list[tuple[str, float]]:
        """(chunk id, text) pairs → (chunk id, score), best first."""
        ...


class _LazyReranker:
    """Shared loading and ordering; subclasses say how to build the model and score pairs."""

    kind = ""

    def __init__(self, model: str, device: str = "cpu", batch_size: int = 32) -> None:
        self.model = model
        self.device = device
        self.batch_size = batch_size
        self.name = f"{self.kind}:{model}"
        self._model: Any = None

    def load(self) -> None:
        """Load the weights now; a model that cannot be loaded is a ConfigError."""
        if self._model is not None:
            return
        source, local = resolve_model(self.model, setting=SETTING, what=f"{self.kind} reranker",
                                      fetch_hint=_FETCH_HINT)
        if local:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
        try:
            self._model = self._build(source, local)
        except Exception as exc:
            raise ConfigError(f"cannot load the {self.kind} reranker {self.model!r}: "
                              f"{first_line(exc)}", where=SETTING, hint=_FETCH_HINT) from None

    def _build(self, source: str, local: bool) -> Any:
        raise NotImplementedError

    def _scores(self, pairs: list[tuple[str, str]]) -> Sequence[float]:
        raise NotImplementedError

    def rerank(self, query: str, passages: Sequence[tuple[str, str]]) -> list[tuple[str, float]]:
        """(chunk id, text) pairs → (chunk id, score), best first; ties keep the input order."""
        if not passages:
            return []
        self.load()
        scores = [float(s) for s in self._scores([(query, text) for _, text in passages])]
        order = sorted(range(len(passages)), key=lambda i: (-scores[i], i))
        return [(passages[i][0], scores[i]) for i in order]


class CrossEncoderReranker(_LazyReranker):
    """sentence-transformers CrossEncoder (e.g. cross-encoder/ms-marco-MiniLM-L-6-v2)."""

    kind = "cross-encoder"

    def _build(self, source: str, local: bool) -> Any:
        CrossEncoder = backends.load("sentence_transformers", "CrossEncoder")

        quiet_model_loading()
        return CrossEncoder(source, device=self.device, local_files_only=local)

    def _scores(self, pairs: list[tuple[str, str]]) -> Sequence[float]:
        return self._model.predict(pairs, batch_size=self.batch_size, show_progress_bar=False)


class FlagRerankerBackend(_LazyReranker):
    """FlagEmbedding FlagReranker (e.g. BAAI/bge-reranker-v2-m3); scores squashed to 0–1."""

    kind = "flag"

    def _build(self, source: str, local: bool) -> Any:
        FlagReranker = backends.load("FlagEmbedding", "FlagReranker")

        quiet_model_loading()
        return FlagReranker(source, use_fp16=False, devices=self.device, batch_size=self.batch_size)

    def _scores(self, pairs: list[tuple[str, str]]) -> Sequence[float]:
        scores = self._model.compute_score([list(p) for p in pairs], normalize=True)
        return [scores] if isinstance(scores, float) else list(scores)


def make_reranker(spec: str, device: str = "cpu") -> Reranker | None:
    """The reranker `spec` names: "" → None, "cross-encoder:<model>", "flag:<model>".

    Nothing is imported or loaded here; the first `rerank` (or `load()`) does that.
    """
    spec = spec.strip()
    if not spec:
        return None
    kind, sep, model = spec.partition(":")
    kind, model = kind.strip().lower(), model.strip()
    made = plugins.load(plugins.RERANKERS, kind) if sep and model else None
    if made is None:
        kinds = " or ".join(f"\"{k}:<model id or folder>\"" for k in plugins.names(plugins.RERANKERS))
        raise ConfigError(f"bad reranker {spec!r}", where=SETTING,
                          hint=f"write {kinds}, or \"\" for none")
    return made(model, device=device)
