"""Whom a word for kin names, by the world's typed relations: Gregor's father is Mr. Samsa where
the world relates Mr. Samsa to Gregor as parent and knows no other father of his. Read by the
entity stage, which counts "his father" in a passage about Gregor as a mention of Mr. Samsa
(`kin_named`), and by the librarian, which asks "What does Gregor's father throw?" of Mr. Samsa
(agent/librarian/relatives_named.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache

from stores.entities.family import Families, kin_mentions
from stores.lang import LANGUAGES, has_han, language
from stores.models import Relation

Span = tuple[int, int, str]


@cache
def relative_words(han: bool) -> dict[str, tuple[tuple[str, str, str], ...]]:
    """Each relative word of the script's languages (Han: True) → the (relation type, the
    relative's end, gender) it names (father → parent_of, source, m)."""
    found: dict[str, list[tuple[str, str, str]]] = {}
    for code in LANGUAGES:
        for key, word in language(code).relative_words.items():
            if has_han(word) == han:
                found.setdefault(word.lower(), []).append(key)
    return {word: tuple(keys) for word, keys in found.items()}


def relatives_of(name: str, word: str, relations: Mapping[str, Sequence[Relation]],
                 gender: Callable[[str], str], horizon: int = 0) -> list[str]:
    """Whom the world's typed relations (by name) make `name`'s `word` (father, 妻子), of the
    word's gender, by relations told up to the horizon (0: the whole story); [] for a word
    that names no relation (aunt: the world keeps it as kin)."""
    found: list[str] = []
    for kind, end, wanted in relative_words(has_han(word)).get(word.lower(), ()):
        for r in relations.get(name, ()):
            if r.type != kind or (horizon and not r.declared and r.chapters
                                  and min(r.chapters) > horizon):
                continue
            ends = {"source": [(r.source, r.target)], "target": [(r.target, r.source)]}.get(
                end, [(r.source, r.target), (r.target, r.source)])
            found += [relative for relative, owner in ends
                      if owner == name and relative != name
                      and gender(relative) in ("", wanted or gender(relative))]
    return list(dict.fromkeys(found))


def kin_named(chunks: Iterable[tuple[str, int, str, list[Span]]], families: Families,
              relations: Iterable[Relation]) -> dict[str, list[str]]:
    """Chunk id → the people its text calls by a word for kin alone ("his father", "Gregor's
    mother") whom the world's typed relations make the one such relative of a person the text
    leaves sure (`family.kin_mentions`), and whom the chunk does not name: The Metamorphosis
    writes "his father" for Mr. Samsa through most of its second part, and Emma "her father"
    for Mr. Woodhouse."""
    by_name: dict[str, list[Relation]] = {}
    for r in relations:
        if r.type != "co_occurs":
            by_name.setdefault(r.source, []).append(r)
            by_name.setdefault(r.target, []).append(r)
    gender = families.gender.get
    found: dict[str, list[str]] = {}
    for chunk_id, _, text, spans in chunks:
        present = {name for *_, name in spans}
        for owner, word, *_ in kin_mentions(text, spans, families):
            relative = relatives_of(owner, word, by_name, lambda n: gender(n, ""))
            if len(relative) == 1 and relative[0] not in present:
                found.setdefault(chunk_id, []).append(relative[0])
                present.add(relative[0])
    return found
