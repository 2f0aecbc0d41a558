"""A huge file in the corpus folder (issue 39, item 7): a 3 GB sparse file was read whole
(3.2 GB of memory, 21 s) before being called binary, and a larger one would exhaust memory.
Its first bytes and its size decide, so `lore ingest` refuses it at once, in little memory."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.lore import ROOT

pytestmark = pytest.mark.slow  # `lore` in a subprocess

GB = 1 << 30


MEASURE = """
import resource, subprocess, sys
code = subprocess.run(sys.argv[2:]).returncode
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
open(sys.argv[1], "w").write(f"{code} {peak}")
"""
"""Runs a command and writes its exit code and peak RSS (KiB). A fresh interpreter between the
test and `lore`: Linux counts what a child had at fork in its peak, and a pytest worker with
models loaded has 900 MB."""


def ingest_rusage(home: Path, corpus: Path) -> tuple[int, str, int]:
    """`lore ingest CORPUS --world big`: exit code, stderr and peak RSS in bytes."""
    env = {**os.environ, "LORE_HOME": str(home)}
    result = home.parent / "measured.txt"
    proc = subprocess.run([sys.executable, "-c", MEASURE, str(result), sys.executable, "-m",
                           "tui", "ingest", str(corpus), "--world", "big"], cwd=ROOT, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          timeout=600)
    code, peak = map(int, result.read_text().split())
    return code, proc.stderr, peak * 1024


def corpus_with(tmp_path: Path, name: str, head: bytes, size: int) -> Path:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(ROOT / "stores" / "demo_world" / "zh" / "01.txt", corpus / "01.txt")
    big = corpus / name
    with big.open("wb") as f:  # sparse: no disk is used for the rest
        f.write(head)
        f.truncate(size)
    return big


@pytest.mark.parametrize("head, size, said", [
    (b"", 3 * GB, "binary file"),  # all zeros, as `truncate -s 3G` makes it
    # text, then more than a file may hold (not 3 GB: read whole, it would take 7 GB)
    ("第一回 雪夜\n\n沈砚在灯下读书。\n".encode() * 1000, 300 << 20, "at most"),
], ids=["3 GB of zeros", "300 MB"])
def test_a_huge_file_is_refused_from_its_first_bytes_and_size(tmp_path: Path, head: bytes,
                                                              size: int, said: str) -> None:
    big = corpus_with(tmp_path, "huge.txt", head, size)
    code, err, peak = ingest_rusage(tmp_path / "home", big.parent)
    assert code == 2, err
    assert "Traceback" not in err and said in err and "huge.txt" in err and "→" in err
    assert peak < GB // 2, f"{peak / GB:.1f} GB of memory to refuse it"
