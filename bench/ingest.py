"""Whole-novel ingestion benchmark: wall time, passages/s, the embedder's raw speed, peak RSS.

    .venv/bin/python bench/ingest.py [--corpus ../shared/data/sanguo_yanyi/chapters] [--keep DIR]

Targets (issue 2): the whole 三国演义 in <= 60 s wall on 2 cores, peak RSS <= 1.5 GB.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_CORPUS = ROOT.parent / "shared" / "data" / "sanguo_yanyi" / "chapters"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--world", default="bench")
    parser.add_argument("--keep", type=Path, help="data dir to keep (default: a temp dir)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    from stores.ingest import ingest
    from tui.settings import load_settings

    data_dir = args.keep or Path(tempfile.mkdtemp(prefix="lore-bench-"))
    settings = load_settings(ROOT / "config.toml", data_dir)
    started = time.perf_counter()
    report = ingest(settings, args.world, [args.corpus])
    wall = time.perf_counter() - started
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    again = time.perf_counter()
    second = ingest(settings, args.world, [args.corpus])
    noop_s = time.perf_counter() - again

    from stores.catalog import Catalog
    from stores.embedders import make_embedder

    texts = [t for _, _, t, _, _ in Catalog(settings.catalog_path).chunk_texts(args.world)]
    embedder = make_embedder(settings.embedder)
    embedder.embed(texts[:8])  # load the model outside the timing
    t0 = time.perf_counter()
    for start in range(0, len(texts), settings.embedder.batch_size):
        embedder.embed(texts[start:start + settings.embedder.batch_size])
    raw = len(texts) / (time.perf_counter() - t0)

    figures = {
        "corpus": str(args.corpus), "chunks": report.chunks, "entities": report.entities,
        "relations": report.relations, "wall_s": round(wall, 1),
        "chunks_per_s": round(report.chunks / wall, 1),
        "embedder_raw_passages_per_s": round(raw, 1), "peak_rss_mb": round(rss_mb),
        "stages_s": report.seconds, "rerun_noop": second.noop, "rerun_s": round(noop_s, 2),
    }
    if args.json:
        print(json.dumps(figures, ensure_ascii=False))
    else:
        for key, value in figures.items():
            print(f"{key:>28}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
