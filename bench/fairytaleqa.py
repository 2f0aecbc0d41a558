"""Convert FairytaleQA stories and questions into a Lorekeeper world plus a questions JSONL.

FairytaleQA (../shared/data/fairytaleqa, SOURCES.md there) splits each story into numbered
sections and gives every question the sections that answer it (`cor_section`). A Lorekeeper
world is a set of files whose chapter numbers are unique across the world, so the sections of
all converted stories are numbered globally: story k's section s becomes chapter
`offset_k + s`, where offset_k is the number of sections of the stories before it (stories in
sorted name order, so the numbering is deterministic).

Output in --out DIR:
    corpus/<story>.md      one Markdown file per story; each section a `# Chapter N. <Story> §s`
    questions.jsonl        our question format (bench/questions/README.md); `type` is "fact" for
                           FairytaleQA `local` questions and "multi_hop" for `summary` ones, the
                           FairytaleQA attribute (character, setting, action, feeling, causal
                           relationship, outcome resolution, prediction) is kept in `attribute`,
                           gold_chapters are the global chapters of cor_section, evidence is ""
                           (FairytaleQA gives no quote)
    manifest.json          story → file, first and last chapter, number of questions

    .venv/bin/python bench/fairytaleqa.py --split test --stories 20 --out /tmp/ftqa
    .venv/bin/lore ingest /tmp/ftqa/corpus --world ftqa
    .venv/bin/lore eval retrieval --world ftqa --questions /tmp/ftqa/questions.jsonl
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from stores.errors import InputError, LoreError  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = Path(os.environ.get("LORE_SHARED_DATA", ROOT.parent / "shared" / "data")) / "fairytaleqa"
SPLITS = ("train", "val", "test")
STORY_SUFFIX = "-story.csv"
QUESTION_SUFFIX = "-questions.csv"
QUESTION_COLUMNS = ("question_id", "local-or-sum", "cor_section", "attribute1", "question", "answer1")


@dataclass(slots=True)
class Story:
    """One FairytaleQA story: its slug, display name and section texts in order."""

    slug: str
    name: str
    sections: dict[int, str] = field(default_factory=dict)
    offset: int = 0

    def chapter(self, section: int) -> int:
        """The global chapter number of one of this story's sections."""
        return self.offset + section


def story_name(slug: str) -> str:
    """'golden-goose' → 'Golden Goose' (capitalised, so the heading reads as a chapter title)."""
    return " ".join(word.capitalize() for word in slug.split("-"))


def story_slugs(data: Path, split: str) -> list[str]:
    """Sorted story slugs of a split (from section-stories/<split>/<slug>-story.csv)."""
    folder = data / "section-stories" / split
    if not folder.is_dir():
        raise InputError(f"no FairytaleQA split folder {folder}", where=folder,
                         hint=f"pass --data pointing at the fairytaleqa folder; splits: {SPLITS}")
    return sorted(p.name[: -len(STORY_SUFFIX)] for p in folder.glob(f"*{STORY_SUFFIX}"))


def read_story(data: Path, split: str, slug: str) -> Story:
    """Read a story CSV (section,text). A repeated section number continues that section."""
    path = data / "section-stories" / split / f"{slug}{STORY_SUFFIX}"
    story = Story(slug, story_name(slug))
    with path.open(newline="", encoding="utf-8-sig") as fh:
        reader = csv.DictReader(fh)
        if not {"section", "text"} <= set(reader.fieldnames or ()):
            raise InputError(f"expected the columns section,text, found {reader.fieldnames}",
                             where=path, hint="is this a FairytaleQA section-stories CSV?")
        for row in reader:
            try:
                number = int(row["section"])
            except ValueError:
                raise InputError(f"section {row['section']!r} is not a number",
                                 where=f"{path}:{reader.line_num}",
                                 hint="fix the section column") from None
            text = row["text"].replace("\r\n", "\n").strip()
            # remarkable-rocket (train) numbers two sections 5; keep both texts, in order.
            old = story.sections.get(number)
            story.sections[number] = f"{old}\n\n{text}" if old else text
    if not story.sections:
        raise InputError("the story has no sections", where=path, hint="check the CSV")
    return story


def parse_sections(value: str, where: str) -> list[int]:
    """cor_section '14, 17' → [14, 17]."""
    try:
        return [int(part) for part in value.replace(" ", "").split(",") if part]
    except ValueError:
        raise InputError(f"cor_section {value!r} is not a list of section numbers",
                         where=where, hint="use comma-separated integers") from None


def read_questions(data: Path, split: str, story: Story) -> list[dict]:
    """The story's questions in our JSONL format, gold chapters mapped to global numbers."""
    path = data / "questions" / split / f"{story.slug}{QUESTION_SUFFIX}"
    out: list[dict] = []
    with path.open(newline="", encoding="utf-8-sig") as fh:
        reader = csv.DictReader(fh)
        missing = [c for c in QUESTION_COLUMNS if c not in (reader.fieldnames or ())]
        if missing:
            raise InputError(f"missing columns {missing}", where=path,
                             hint="is this a FairytaleQA questions CSV?")
        for row in reader:
            where = f"{path}:{reader.line_num}"
            sections = parse_sections(row["cor_section"], where)
            unknown = [s for s in sections if s not in story.sections]
            if not sections or unknown:
                raise InputError(f"cor_section {row['cor_section']!r} names no section of the story",
                                 where=where, hint=f"the story has sections 1..{max(story.sections)}")
            summary = row["local-or-sum"].strip().lower() == "summary"
            out.append({
                "id": f"{story.slug}-{row['question_id']}",
                "type": "multi_hop" if summary else "fact",
                "question": row["question"].strip(),
                "answer": row["answer1"].strip(),
                "gold_chapters": sorted({story.chapter(s) for s in sections}),
                "evidence": "",
                "attribute": row["attribute1"].strip(),
                "story": story.slug,
            })
    return out


def render_story(story: Story) -> str:
    """The Markdown corpus file: one `# Chapter N. <Story> §s` heading per section."""
    parts = [f"# Chapter {story.chapter(s)}. {story.name} §{s}\n\n{text}\n"
             for s, text in sorted(story.sections.items())]
    return "\n".join(parts)


def convert(data: Path, split: str, stories: int | None, out: Path) -> dict:
    """Write the corpus, questions.jsonl and manifest.json; return the manifest."""
    slugs = story_slugs(data, split)[: stories if stories else None]
    if not slugs:
        raise InputError(f"no stories in split {split!r}", where=data / "section-stories" / split,
                         hint="check --data and --split")
    corpus = out / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    offset, entries, questions = 0, [], []
    for slug in slugs:
        story = read_story(data, split, slug)
        story.offset = offset
        offset += max(story.sections)
        story_questions = read_questions(data, split, story)
        questions.extend(story_questions)
        (corpus / f"{slug}.md").write_text(render_story(story), encoding="utf-8")
        entries.append({"story": slug, "name": story.name, "file": f"corpus/{slug}.md",
                        "first_chapter": story.chapter(1), "last_chapter": story.chapter(max(story.sections)),
                        "questions": len(story_questions)})
    with (out / "questions.jsonl").open("w", encoding="utf-8") as fh:
        for q in questions:
            fh.write(json.dumps(q, ensure_ascii=False) + "\n")
    manifest = {"split": split, "stories": entries, "chapters": offset, "questions": len(questions)}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n",
                                       encoding="utf-8")
    return manifest


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(
        description="Convert FairytaleQA into a Lorekeeper corpus (one Markdown file per story, "
                    "sections as globally numbered chapters) and a questions JSONL.")
    parser.add_argument("--split", choices=SPLITS, default="test", help="FairytaleQA split (default test)")
    parser.add_argument("--stories", type=int, default=20,
                        help="convert the first N stories in sorted name order (0 = all; default 20)")
    parser.add_argument("--out", type=Path, required=True, help="output folder (created if missing)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA,
                        help=f"the fairytaleqa folder (default {DEFAULT_DATA})")
    args = parser.parse_args(argv)
    if args.stories < 0:
        parser.error("--stories must be 0 (all) or a positive number")
    try:
        manifest = convert(args.data, args.split, args.stories, args.out)
    except LoreError as exc:
        print(exc.render(), file=sys.stderr)
        return exc.exit_code
    print(f"{len(manifest['stories'])} stories, {manifest['chapters']} chapters, "
          f"{manifest['questions']} questions → {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
