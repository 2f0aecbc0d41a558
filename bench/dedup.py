"""How similar are distinct passages, and how similar are near-copies? Picks the dedup threshold.

    .venv/bin/python bench/dedup.py [--corpus ../shared/data/sanguo_yanyi/chapters]

Chunks the novel as ingestion does, then prints (1) the most similar pairs of *different*
passages (every pair is compared), and (2) the similarity of each passage to edited copies of
itself: punctuation and line breaks changed, k characters replaced, ends cut the way a shifted
chunk boundary cuts them. The threshold `stores.dedup.NEAR_DUPLICATE` must sit between the two.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_CORPUS = ROOT.parent / "shared" / "data" / "sanguo_yanyi" / "chapters"


def passages(corpus: Path) -> list[str]:
    from stores.chunking import chunk_document
    from stores.ingest import corpus_files
    from stores.readers import read_document
    from tui.settings import load_settings

    settings = load_settings(ROOT / "config.toml")
    texts = []
    for path in corpus_files([corpus]):
        texts += [c.text for c in chunk_document(read_document(path), "w", settings.chunking)]
    return texts


def pairs_above(grams: list[frozenset[str]], threshold: float) -> list[tuple[float, int, int]]:
    """Every pair at or above `threshold`, found through shared shingles (not all n² pairs)."""
    holders: dict[str, list[int]] = {}
    for i, g in enumerate(grams):
        for s in g:
            holders.setdefault(s, []).append(i)
    found = []
    for i, g in enumerate(grams):
        shared: dict[int, int] = {}
        for s in g:
            for j in holders[s]:
                if j > i:
                    shared[j] = shared.get(j, 0) + 1
        for j, common in shared.items():
            score = common / (len(g) + len(grams[j]) - common)
            if score >= threshold:
                found.append((score, i, j))
    return sorted(found, reverse=True)


def edits(text: str, rng: random.Random) -> dict[str, str]:
    """Copies of a passage as another edition or another chunk boundary would give it."""
    punct = text.replace("，", ",").replace("。", ".").replace("：", ":").replace("\n", "\n\n")
    out = {"punctuation/breaks": punct}
    pool = "之乎者也曰其而以于为"
    for k in (5, 10, 20, 40):
        chars = list(text)
        for i in rng.sample(range(len(chars)), min(k, len(chars))):
            chars[i] = rng.choice(pool)
        out[f"{k} chars replaced"] = "".join(chars)
    for share in (0.1, 0.2, 0.3):
        cut = int(len(text) * share)
        out[f"{int(share * 100)}% cut off one end"] = text[cut:]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    args = parser.parse_args(argv)
    from stores.dedup import NEAR_DUPLICATE, shingles, similarity

    started = time.perf_counter()
    texts = [t for t in passages(args.corpus) if len(t) >= 40]
    grams = [shingles(t) for t in texts]
    close = pairs_above(grams, 0.05)
    print(f"{len(texts)} passages (>= 40 chars); pairs of different passages with Jaccard >= 0.05: "
          f"{len(close)} ({time.perf_counter() - started:.1f} s)")
    for score, i, j in close[:8]:
        print(f"  {score:.3f}  {texts[i][:24]!r}  ~  {texts[j][:24]!r}")
    print(f"highest among different passages: {close[0][0] if close else 0:.3f}")
    rng = random.Random(7)
    rows: dict[str, list[float]] = {}
    for text, g in zip(texts[::5], grams[::5], strict=True):
        for name, variant in edits(text, rng).items():
            rows.setdefault(name, []).append(similarity(g, shingles(variant)))
    print(f"\nnear-copies of {len(texts[::5])} passages: Jaccard  min / p5 / median  "
          f"(share >= threshold {NEAR_DUPLICATE})")
    for name, scores in rows.items():
        scores.sort()
        share = sum(s >= NEAR_DUPLICATE for s in scores) / len(scores)
        print(f"  {name:<22} {scores[0]:.3f} / {scores[len(scores) // 20]:.3f} / "
              f"{scores[len(scores) // 2]:.3f}   ({share:.0%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
