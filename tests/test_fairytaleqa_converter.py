"""bench/fairytaleqa.py on the real FairytaleQA CSVs: global chapter numbering, headings the
corpus reader understands, and gold chapters mapped from cor_section."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
from pathlib import Path

from stores.readers import read_document

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "fairytaleqa.py"
HEADING = re.compile(r"^# Chapter (\d+)\. (.+) §(\d+)$", re.MULTILINE)


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=60)


def _csv(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_two_stories_become_globally_numbered_chapters(tmp_path: Path, shared_data: Path) -> None:
    data = shared_data / "fairytaleqa"
    done = _run("--split", "test", "--stories", "2", "--out", str(tmp_path), "--data", str(data))
    assert done.returncode == 0, done.stderr

    slugs = sorted(p.name[: -len("-story.csv")]
                   for p in (data / "section-stories" / "test").glob("*-story.csv"))[:2]
    assert sorted(p.stem for p in (tmp_path / "corpus").glob("*.md")) == slugs

    offset, offsets = 0, {}
    for slug in slugs:
        sections = _csv(data / "section-stories" / "test" / f"{slug}-story.csv")
        md = (tmp_path / "corpus" / f"{slug}.md").read_text(encoding="utf-8")
        headings = [(int(n), name, int(s)) for n, name, s in HEADING.findall(md)]
        assert [s for _, _, s in headings] == [int(r["section"]) for r in sections]
        assert [n for n, _, _ in headings] == [offset + int(r["section"]) for r in sections]
        assert {name for _, name, _ in headings} == {slug.replace("-", " ").title()}
        assert sections[-1]["text"].strip()[-60:] in md
        # the project's own reader sees the same chapters
        chapters = read_document(tmp_path / "corpus" / f"{slug}.md").chapters
        assert [c.number for c in chapters] == [n for n, _, _ in headings]
        offsets[slug] = offset
        offset += len(sections)
    assert offsets[slugs[1]] > 0

    records = [json.loads(line) for line in
               (tmp_path / "questions.jsonl").read_text(encoding="utf-8").splitlines()]
    rows = [(slug, row) for slug in slugs
            for row in _csv(data / "questions" / "test" / f"{slug}-questions.csv")]
    assert len(records) == len(rows)
    for record, (slug, row) in zip(records, rows, strict=True):
        cor = [int(s) for s in row["cor_section"].replace(" ", "").split(",")]
        assert record["gold_chapters"] == sorted({offsets[slug] + s for s in cor})
        assert record["question"] == row["question"].strip()
        assert record["answer"] == row["answer1"].strip()
        assert record["attribute"] == row["attribute1"]
        assert record["type"] == ("multi_hop" if row["local-or-sum"] == "summary" else "fact")
        assert record["evidence"] == ""
    assert {r["type"] for r in records} == {"fact", "multi_hop"}

    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert [s["first_chapter"] for s in manifest["stories"]] == [offsets[s] + 1 for s in slugs]
    assert manifest["questions"] == len(records)


def test_help_and_a_missing_split_folder(tmp_path: Path) -> None:
    assert "--stories" in _run("--help").stdout
    done = _run("--out", str(tmp_path / "out"), "--data", str(tmp_path / "nowhere"))
    assert done.returncode == 2
    assert "no FairytaleQA split folder" in done.stderr and "nowhere" in done.stderr
