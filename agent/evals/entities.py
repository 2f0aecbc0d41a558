"""`lore eval entities`: does the world know who is who?

Two files per book, written from the text by someone who never ran Lorekeeper (bench/questions/
README.md, "Entity sets"):

- merges (`merges_<book>.jsonl`): name pairs, `{"a", "b", "same", "kind"}`. A pair is *merged*
  when both names resolve, through the world's alias table, to one entity. Precision is the
  share of merged pairs that are one person; recall the share of one-person pairs merged. A
  not-same pair is a trap a careless rule falls into (贾政 ↔ 贾赦, 二爷 ↔ 贾琏, Miss Bennet ↔
  Elizabeth Bennet), so precision is measured where it is hardest.
- people (`people_<book>.jsonl`): the book's main people, `{"entity", "names", "main"}`. A
  person is *found* when the full name resolves to an entity that no other listed person's full
  name resolves to; *whole* when every listed name resolves to that one entity; *named so* when
  the entity's own name is the full name (what `lore entities` lists and cards are titled by).

Names resolve exactly as `lore card NAME` resolves them (AliasMatcher.resolve: the name or an
alias, ignoring case and accents), never by a substring.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from stores.entities.matcher import AliasMatcher, alias_map
from stores.errors import InputError, at_line
from stores.models import Entity

PAIR_FIELDS = ("id", "a", "b", "same", "kind")
PERSON_FIELDS = ("id", "entity", "names")

Resolve = Callable[[str], str | None]


@dataclass(slots=True)
class PairGrade:
    """One name pair and what the world made of it."""

    id: str
    a: str
    b: str
    same: bool
    kind: str
    a_is: str | None
    """The entity `a` resolves to (None: no entity has that name)."""
    b_is: str | None
    merged: bool

    @property
    def right(self) -> bool:
        return self.merged == self.same


@dataclass(slots=True)
class PersonGrade:
    """One main person and the entity the world holds for them."""

    id: str
    entity: str
    main: bool
    found_as: str | None
    """The entity the full name resolves to."""
    shared_with: list[str]
    """Other listed people whose full name resolves to the same entity."""
    names: int
    names_there: int
    """How many of the person's names resolve to `found_as`."""
    split: list[str]
    """The person's names that resolve to another entity (a second entity for one person)."""

    @property
    def found(self) -> bool:
        return self.found_as is not None and not self.shared_with

    @property
    def whole(self) -> bool:
        return self.found and self.names_there == self.names

    @property
    def named_so(self) -> bool:
        return self.found and self.found_as == self.entity


@dataclass(slots=True)
class EntityReport:
    """A book's figures."""

    same_pairs: int = 0
    merged_right: int = 0
    """One-person pairs merged (true positives)."""
    other_pairs: int = 0
    merged_wrong: int = 0
    """Not-same pairs merged (false positives)."""
    by_kind: dict[str, dict[str, int]] = field(default_factory=dict)
    people: int = 0
    found: int = 0
    whole: int = 0
    named_so: int = 0
    entities: int = 0
    pairs: list[PairGrade] = field(default_factory=list)
    persons: list[PersonGrade] = field(default_factory=list)

    @property
    def precision(self) -> float | None:
        merged = self.merged_right + self.merged_wrong
        return self.merged_right / merged if merged else None

    @property
    def recall(self) -> float | None:
        return self.merged_right / self.same_pairs if self.same_pairs else None

    @property
    def coverage(self) -> float | None:
        return self.found / self.people if self.people else None


def load_records(path: Path, fields: Sequence[str]) -> list[dict[str, Any]]:
    """The JSON records of a merges or people file; InputError naming the line otherwise."""
    records = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"not valid JSON: {exc.msg}", where=at_line(path, n),
                             hint="one JSON object per line") from None
        if not isinstance(record, dict) or (missing := [f for f in fields if f not in record]):
            raise InputError(f"missing {', '.join(missing) if isinstance(record, dict) else 'fields'}",
                             where=at_line(path, n), hint=f"each record needs {', '.join(fields)}")
        records.append(record)
    return records


def resolver(entities: Iterable[Entity]) -> Resolve:
    """Name → the entity it names, as `lore card` resolves it (no substring fallback)."""
    return AliasMatcher(alias_map(entities)).resolve


def grade_pairs(pairs: Iterable[dict[str, Any]], resolve: Resolve) -> list[PairGrade]:
    grades = []
    for p in pairs:
        a_is, b_is = resolve(p["a"]), resolve(p["b"])
        grades.append(PairGrade(str(p["id"]), p["a"], p["b"], bool(p["same"]), str(p["kind"]),
                                a_is, b_is, a_is is not None and a_is == b_is))
    return grades


def grade_people(people: Sequence[dict[str, Any]], resolve: Resolve) -> list[PersonGrade]:
    owners: dict[str, list[str]] = defaultdict(list)
    found = {str(p["id"]): resolve(p["entity"]) for p in people}
    for p in people:
        if (entity := found[str(p["id"])]) is not None:
            owners[entity].append(p["entity"])
    grades = []
    for p in people:
        found_as = found[str(p["id"])]
        names = list(dict.fromkeys([p["entity"], *p["names"]]))
        resolved = [resolve(n) for n in names]
        grades.append(PersonGrade(
            id=str(p["id"]), entity=p["entity"], main=bool(p.get("main", True)),
            found_as=found_as,
            shared_with=[o for o in owners.get(found_as or "", []) if o != p["entity"]],
            names=len(names),
            names_there=sum(1 for r in resolved if found_as is not None and r == found_as),
            split=[n for n, r in zip(names, resolved, strict=True)
                   if r is not None and r != found_as]))
    return grades


def evaluate(entities: Sequence[Entity], pairs: Iterable[dict[str, Any]] = (),
             people: Sequence[dict[str, Any]] = ()) -> EntityReport:
    """Grade a world's entities against a book's merges and people (either may be empty)."""
    resolve = resolver(entities)
    report = EntityReport(entities=len(entities))
    report.pairs = grade_pairs(pairs, resolve)
    for g in report.pairs:
        row = report.by_kind.setdefault(f"{'same' if g.same else 'not'}:{g.kind}",
                                        {"pairs": 0, "merged": 0})
        row["pairs"] += 1
        row["merged"] += g.merged
        if g.same:
            report.same_pairs += 1
            report.merged_right += g.merged
        else:
            report.other_pairs += 1
            report.merged_wrong += g.merged
    report.persons = [g for g in grade_people(people, resolve) if g.main]
    report.people = len(report.persons)
    report.found = sum(g.found for g in report.persons)
    report.whole = sum(g.whole for g in report.persons)
    report.named_so = sum(g.named_so for g in report.persons)
    return report


def _share(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def render(report: EntityReport) -> str:
    lines = []
    if report.pairs:
        lines.append(f"merges: precision {_share(report.precision)} "
                     f"({report.merged_right} one-person pairs merged, {report.merged_wrong} of "
                     f"{report.other_pairs} traps), recall {_share(report.recall)} "
                     f"({report.merged_right} of {report.same_pairs})")
    if report.people:
        lines.append(f"people: {report.found} of {report.people} found under their full name "
                     f"({_share(report.coverage)}), {report.whole} with every name, "
                     f"{report.named_so} named so; {report.entities} entities in the world")
    for kind, row in sorted(report.by_kind.items()):
        lines.append(f"  {kind:<24} {row['merged']:>3} of {row['pairs']:<3} merged")
    for g in report.pairs:
        if not g.right:
            what = "not merged" if g.same else "merged, wrongly"
            lines.append(f"  ✗ {g.a} ↔ {g.b} ({g.kind}): {what} — {g.a_is or '∅'} / "
                         f"{g.b_is or '∅'}")
    for p in report.persons:
        if not p.found:
            why = (f"shares {p.found_as} with {', '.join(p.shared_with)}" if p.found_as
                   else "no entity")
            lines.append(f"  ✗ {p.entity}: {why}")
    return "\n".join(lines)


def to_json(report: EntityReport) -> str:
    data = asdict(report)
    data.update(precision=report.precision, recall=report.recall, coverage=report.coverage)
    for row, grade in zip(data["persons"], report.persons, strict=True):
        row.update(found=grade.found, whole=grade.whole, named_so=grade.named_so)
    return json.dumps(data, ensure_ascii=False)
