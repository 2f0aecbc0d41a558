"""Who's who, on every book with an entity set: merges (precision, recall), main people found
under their full name, "who is X" cards, follow-up resolution, and the entity stage's cost.

    .venv/bin/python bench/entities.py [--home DIR] [--books sanguo,monte,...] [--json FILE]
    .venv/bin/python bench/entities.py --recompute --books sanguo,monte   # the quick loop

Each book is ingested once into --home (default bench/results/worlds, shared with
bench/retrieval_sets.py and bench/cards.py) unless it is there, as a user would ingest their own
novel: from the text alone, no glossary. The figures come from the commands a user runs: `lore
eval entities`, `lore eval cards` and `lore eval dialogues` (--json). `--recompute` instead
rebuilds each world's entities in this process from the passages stored in the catalog, with
the code as it is now, and grades them without writing anything (seconds a book, merges and
people only): the loop for working on the entity rules. Only development books belong in that
loop; held-out books (their sets written by someone who never ran Lorekeeper) are printed apart
and are never to be tuned on.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DATA = Path(os.environ.get("LORE_SHARED_DATA", ROOT.parent / "shared" / "data"))
QUESTIONS = ROOT / "bench" / "questions"
LORE = [sys.executable, "-m", "tui"]


@dataclass(frozen=True)
class Book:
    name: str
    world: str
    corpus: Path | None
    """The chapters folder (None: a text bench/texts.py fetches, named `fetched`)."""
    held_out: bool
    fetched: str = ""
    cards: tuple[str, ...] = ()
    dialogues: tuple[str, ...] = ()

    @property
    def people(self) -> Path:
        return QUESTIONS / f"people_{self.name}.jsonl"

    @property
    def merges(self) -> Path:
        return QUESTIONS / f"merges_{self.name}.jsonl"

    def chapters(self) -> Path:
        if self.corpus is not None:
            return self.corpus
        sys.path.insert(0, str(ROOT / "bench"))
        import texts

        return texts.fetch(self.fetched)


BOOKS = [
    Book("sanguo", "sanguo", DATA / "sanguo_yanyi/chapters", False,
         cards=("cards_sanguo_b",), dialogues=("sanguo_dialogues",)),
    Book("monte_cristo", "monte", DATA / "monte_cristo/chapters", False,
         cards=("cards_monte_cristo",), dialogues=("monte_cristo_dialogues",)),
    Book("emma", "emma", None, False, fetched="emma", cards=("cards_emma",),
         dialogues=("emma_dialogues",)),
    Book("nahan", "nahan", None, False, fetched="nahan", cards=("cards_nahan",)),
    Book("persuasion", "persuasion", None, False, fetched="persuasion",
         cards=("cards_persuasion",)),
    Book("northanger", "northanger", None, False, fetched="northanger",
         cards=("cards_northanger",)),
    Book("sense", "sense", None, False, fetched="sense", cards=("cards_sense",),
         dialogues=("sense_dialogues",)),
    Book("hongloumeng", "hlm", DATA / "hongloumeng/chapters", True,
         cards=("cards_hongloumeng",), dialogues=("hongloumeng_dialogues",)),
    Book("pride_and_prejudice", "pride", DATA / "pride_and_prejudice/chapters", True,
         cards=("cards_pride_and_prejudice",), dialogues=("pride_and_prejudice_dialogues",)),
    Book("botchan", "botchan", None, True, fetched="botchan",
         dialogues=("botchan_dialogues",)),
    Book("voyage_out", "voyage", None, True, fetched="voyage_out"),
]
"""The books with an entity set. 三国演义's first cards set (the 20 most-mentioned people) is
held out while the book is development: it is measured by bench/cards.py, not here."""


@dataclass
class Row:
    book: str
    held_out: bool
    merges: dict = field(default_factory=dict)
    cards: dict[str, dict] = field(default_factory=dict)
    dialogues: dict[str, dict] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)


def lore(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LORE_HOME": str(home)}
    return subprocess.run([*LORE, *args], cwd=ROOT, env=env, capture_output=True, text=True)


def lore_json(home: Path, *args: str) -> dict:
    done = lore(home, *args)
    if done.returncode != 0:
        raise SystemExit(f"lore {' '.join(args)} failed:\n{done.stderr}")
    return json.loads(done.stdout)


def prepare(book: Book, home: Path) -> dict[str, float]:
    """Ingest the book unless its world is there; the ingest's stage seconds ({} if there)."""
    from stores.catalog import Catalog
    from stores.ingest import ingest
    from tui.settings import load_settings

    settings = load_settings(ROOT / "config.toml", home)
    catalog = Catalog(settings.catalog_path)
    try:
        there = catalog.world(book.world) is not None
    finally:
        catalog.close()
    if there:
        return {}
    return ingest(settings, book.world, [book.chapters()]).seconds


def recompute(book: Book, home: Path) -> tuple[dict, float]:
    """Grade entities rebuilt now from the world's stored passages; (figures, seconds)."""
    from agent.evals.entities import PAIR_FIELDS, PERSON_FIELDS, evaluate, load_records, to_json
    from stores.catalog import Catalog
    from stores.entities.resolve import build_entities
    from tui.settings import load_settings

    settings = load_settings(ROOT / "config.toml", home)
    catalog = Catalog(settings.catalog_path)
    try:
        rows = catalog.chunk_texts(book.world)
        glossary = catalog.glossary(book.world)
    finally:
        catalog.close()
    if not rows:
        raise SystemExit(f"{book.name}: no world {book.world!r} in {home}: run without "
                         f"--recompute first to ingest it")
    speakers = Counter(s for *_, chunk_speakers, _ in rows for s in chunk_speakers)
    started = time.perf_counter()
    entities = build_entities(glossary, [r[2] for r in rows], speakers, settings.entities,
                              [r[1] for r in rows])
    seconds = time.perf_counter() - started
    report = evaluate(entities, load_records(book.merges, PAIR_FIELDS),
                      load_records(book.people, PERSON_FIELDS))
    return json.loads(to_json(report)), seconds


def measure(book: Book, home: Path, answers: bool) -> Row:
    row = Row(book.name, book.held_out, seconds=prepare(book, home))
    row.merges = lore_json(home, "eval", "entities", "--world", book.world, "--merges",
                           str(book.merges), "--people", str(book.people), "--json")
    if answers:
        for name in book.cards:
            row.cards[name] = lore_json(home, "eval", "cards", "--world", book.world,
                                        "--questions", str(QUESTIONS / f"{name}.jsonl"), "--json")
        for name in book.dialogues:
            row.dialogues[name] = lore_json(home, "eval", "dialogues", "--world", book.world,
                                            "--dialogues", str(QUESTIONS / f"{name}.jsonl"),
                                            "--json")
    return row


def _f(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def print_table(rows: list[Row]) -> None:
    for label, held in (("development", False), ("held out (never tuned on)", True)):
        part = [r for r in rows if r.held_out == held]
        if not part:
            continue
        print(f"\n{label}")
        print(f"{'book':<20} {'precision':>9} {'recall':>7} {'traps':>7} {'people':>7} "
              f"{'whole':>6} {'cards':>7} {'follow-ups':>10} {'entities s':>10}")
        for r in part:
            m = r.merges
            traps = f"{m['merged_wrong']}/{m['other_pairs']}"
            people = f"{m['found']}/{m['people']}"
            cards = sum(c["right"] for c in r.cards.values())
            cards_n = sum(c["records"] for c in r.cards.values())
            turns = [t for d in r.dialogues.values() for t in d.get("turns", [])
                     if t.get("turn", 1) > 1]
            follow = (sum(t["entity_ok"] for t in turns) / len(turns)) if turns else None
            seconds = r.seconds.get("entities")
            print(f"{r.book:<20} {_f(m['precision']):>9} {_f(m['recall']):>7} {traps:>7} "
                  f"{people:>7} {m['whole']:>6} "
                  f"{(f'{cards}/{cards_n}' if cards_n else '—'):>7} {_f(follow):>10} "
                  f"{(f'{seconds:.1f}' if seconds is not None else '—'):>10}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, default=ROOT / "bench/results/worlds")
    parser.add_argument("--books", default=",".join(b.name for b in BOOKS))
    parser.add_argument("--recompute", action="store_true",
                        help="rebuild entities in-process from the stored passages (no write)")
    parser.add_argument("--no-answers", action="store_true",
                        help="merges and people only: skip the cards and dialogues")
    parser.add_argument("--show", action="store_true", help="print every miss (recompute)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    chosen = [b for b in BOOKS if b.name in args.books.split(",")]
    rows = []
    for book in chosen:
        if args.recompute:
            figures, seconds = recompute(book, args.home)
            rows.append(Row(book.name, book.held_out, figures, seconds={"entities": seconds}))
            if args.show:
                _show(figures)
        else:
            rows.append(measure(book, args.home, not args.no_answers))
    print_table(rows)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps([r.__dict__ for r in rows], ensure_ascii=False,
                                        indent=1), encoding="utf-8")
    return 0


def _show(figures: dict) -> None:
    for g in figures["pairs"]:
        if g["merged"] != g["same"]:
            what = "not merged" if g["same"] else "MERGED"
            print(f"  ✗ {g['a']} ↔ {g['b']} ({g['kind']}): {what} — {g['a_is'] or '∅'} / "
                  f"{g['b_is'] or '∅'}")
    for p in figures["persons"]:
        if not p["found"]:
            print(f"  ✗ person {p['entity']}: {p['found_as'] or 'no entity'} "
                  f"{p['shared_with'] or ''}")


if __name__ == "__main__":
    raise SystemExit(main())
