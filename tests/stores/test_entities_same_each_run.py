"""The same text gives the same entities on every run: Python orders a set of strings by a hash
that changes from one process to the next (PYTHONHASHSEED), and a tie broken by that order gave
三国演义's 晋公 to 司马昭 on one ingest and to no one on the next (their passages name 司马昭 and
司马懿 alike). Each check runs in processes of several hash seeds and compares."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

TITLES = """
import json
from stores.entities.titles import fold_titles
from stores.models import Entity
chunks = ["晋公司马昭与司马懿议事。晋公曰：可。", "晋公司马昭入朝，司马懿随之。",
          "晋公大喜，司马懿亦喜，司马昭拜谢。", "晋公出城，司马懿、司马昭皆从。",
          "晋公还师，司马懿与司马昭同归。", "晋公设宴，司马昭、司马懿在座。"]
people = [Entity("司马昭", "person"), Entity("司马懿", "person")]
found = fold_titles(people, "".join(chunks), chunks)
print(json.dumps({e.name: sorted(e.aliases) for e in found}, ensure_ascii=False))
"""


def run(code: str, seed: int) -> dict:
    env = {**os.environ, "PYTHONHASHSEED": str(seed)}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


def test_a_nobles_title_goes_to_the_same_person_whatever_the_hash_seed() -> None:
    results = [run(TITLES, seed) for seed in range(6)]
    assert all(r == results[0] for r in results), results
    # written before 司马昭's name every time, its passages name him no less than anyone
    assert results[0]["司马昭"] == ["晋公"], results[0]
