"""Peak memory of ingesting one file that is a single huge line (issue 15: 30 MB peaked at 1.55 GB).

    .venv/bin/python bench/long_line.py [--mb 30] [--lang zh|en]

The line is the novel's text (三国演义, or Monte Cristo for `en`) with its newlines removed,
repeated up to the size asked. Prints the resident set size at the start of each stage and
the peak within it (sampled every 50 ms), the process's maximum RSS, and the wall time.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
NOVELS = {"zh": ROOT.parent / "shared" / "data" / "sanguo_yanyi" / "chapters",
          "en": ROOT.parent / "shared" / "data" / "monte_cristo" / "chapters"}


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    return 0.0


def one_line(lang: str, mb: int, folder: Path) -> Path:
    text = ("" if lang == "zh" else " ").join(
        p.read_text(encoding="utf-8").replace("\n", "" if lang == "zh" else " ")
        for p in sorted(NOVELS[lang].glob("*.txt")))
    data = (text * (mb * 1_000_000 // len(text.encode()) + 1)).encode()[:mb * 1_000_000]
    path = folder / "one-line.txt"
    path.write_text(data.decode("utf-8", "ignore"), encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=30)
    parser.add_argument("--lang", choices=sorted(NOVELS), default="zh")
    args = parser.parse_args(argv)

    from stores.ingest import ingest
    from tui.settings import load_settings

    with tempfile.TemporaryDirectory(prefix="lore-long-line-") as tmp:
        corpus = Path(tmp) / "corpus"
        corpus.mkdir()
        one_line(args.lang, args.mb, corpus)
        stage, peaks = ["start"], {"start": rss_mb()}

        def sample() -> None:
            while True:
                peaks[stage[0]] = max(peaks.get(stage[0], 0.0), rss_mb())
                time.sleep(0.05)

        def progress(name: str, done: int, total: int) -> None:
            if name != stage[0]:
                print(f"  {name:<9} starts at {rss_mb():6.0f} MB", flush=True)
                stage[0] = name

        threading.Thread(target=sample, daemon=True).start()
        started = time.perf_counter()
        report = ingest(load_settings(ROOT / "config.toml", Path(tmp) / "home"), "line",
                        [corpus], progress=progress)
        wall = time.perf_counter() - started
    print("peak RSS by stage (MB): " + ", ".join(f"{k} {v:.0f}" for k, v in peaks.items()))
    print(f"{args.mb} MB {args.lang} one-line file: {report.chunks} passages, "
          f"max RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB, "
          f"{wall:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
