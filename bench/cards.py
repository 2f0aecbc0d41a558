"""Entity cards on every cards set: "who is X" right in the first sentence, the spoiler check,
and what building the cards costs at ingest.

    .venv/bin/python bench/cards.py [--home DIR] [--sets demo,monte,...] [--json FILE]

Each world is ingested once into --home (default bench/results/worlds, shared with
bench/retrieval_sets.py) in this process, so the ingest's own stage times give the cards' share;
a world already there is only measured (its cost row says so). Each set is then measured with
`lore eval cards --json`, the command a user runs. Held-out sets (written by someone who never
ran Lorekeeper; never tune on them) are printed apart from the development sets.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DATA = Path(os.environ.get("LORE_SHARED_DATA", ROOT.parent / "shared" / "data"))
QUESTIONS = ROOT / "bench" / "questions"


@dataclass(frozen=True)
class CardSet:
    name: str
    world: str
    corpus: Path | None  # None: the bundled demo world
    records: Path
    held_out: bool


SETS = [
    CardSet("demo", "demo", None, ROOT / "stores/demo_world/cards.jsonl", False),
    CardSet("monte", "monte", DATA / "monte_cristo/chapters", QUESTIONS / "cards_monte_cristo.jsonl",
            False),
    CardSet("sanguo_b", "sanguo", DATA / "sanguo_yanyi/chapters", QUESTIONS / "cards_sanguo_b.jsonl",
            False),
    CardSet("sanguo", "sanguo", DATA / "sanguo_yanyi/chapters", QUESTIONS / "cards_sanguo.jsonl",
            True),
    CardSet("hongloumeng", "hlm", DATA / "hongloumeng/chapters",
            QUESTIONS / "cards_hongloumeng.jsonl", True),
    CardSet("pride", "pride", DATA / "pride_and_prejudice/chapters",
            QUESTIONS / "cards_pride_and_prejudice.jsonl", True),
]


def prepare(card_set: CardSet, home: Path) -> dict[str, float] | None:
    """Ingest the set's world unless it is there; the ingest's stage seconds, or None."""
    from stores.catalog import Catalog
    from stores.ingest import ingest
    from tui.commands.world import DEMO_WORLD, demo_world_path
    from tui.settings import load_settings

    settings = load_settings(ROOT / "config.toml", home)
    catalog = Catalog(settings.catalog_path)
    try:
        there = catalog.world(card_set.world) is not None
    finally:
        catalog.close()
    if there:
        return None
    if card_set.corpus is None:
        folder = demo_world_path()
        paths = [p for p in (folder / "zh", folder / "en", folder / "dialogue") if p.exists()]
        report = ingest(settings, DEMO_WORLD, paths, folder / "glossary.toml")
    else:
        report = ingest(settings, card_set.world, [card_set.corpus])
    return report.seconds


def measure(card_set: CardSet, home: Path) -> dict:
    env = {**os.environ, "LORE_HOME": str(home)}
    done = subprocess.run([sys.executable, "-m", "tui", "eval", "cards", "--world",
                           card_set.world, "--questions", str(card_set.records), "--json"],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{card_set.name}: lore eval cards failed:\n{done.stderr}")
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, default=ROOT / "bench/results/worlds")
    parser.add_argument("--sets", default=",".join(s.name for s in SETS))
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    chosen = [s for s in SETS if s.name in args.sets.split(",")]
    costs: dict[str, dict[str, float] | None] = {}
    rows = []
    for card_set in chosen:
        if card_set.world not in costs:
            costs[card_set.world] = prepare(card_set, args.home)
        report = measure(card_set, args.home)
        rows.append({"set": card_set.name, "held_out": card_set.held_out, **report})
    for label, held in (("development", False), ("held out", True)):
        part = [r for r in rows if r["held_out"] == held]
        if not part:
            continue
        print(f"\n{label}: who is X (first sentence names who, with a citation)")
        print(f"{'set':<12} {'right':>9} {'share':>6} {'known':>6}  horizon  late citations")
        for r in part:
            share = r["right"] / r["records"] if r["records"] else 0.0
            print(f"{r['set']:<12} {r['right']:>4} / {r['records']:<2} {share:>6.0%} "
                  f"{r['known']:>6}  ch. {r['horizon']:<4} {r['late_citations']} of "
                  f"{r['cards_checked']} cards")
        total = sum(r["right"] for r in part) / max(1, sum(r["records"] for r in part))
        print(f"{'mean':<12} {'':>9} {total:>6.0%}")
    print("\ningest cost of the cards")
    for world, seconds in costs.items():
        if seconds is None:
            print(f"{world:<12} (already ingested in {args.home}: remove it to measure)")
            continue
        whole = sum(seconds.values())
        cards = seconds.get("cards", 0.0)
        print(f"{world:<12} cards {cards:.1f} s of {whole:.1f} s ({cards / whole:.1%})")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"sets": rows, "costs": costs}, ensure_ascii=False,
                                        indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
