"""A child a Chinese text names by birth order with no parent written before it (忽次子关兴来寨内
省亲; 令长子程咨自引一军; 幼子袁尚): the parent is the one person of the child's surname the
sentence names before the word, or else the one the sentence before names. 「操长子曹丕」 and
「孙坚长子孙策」, whose parent is written, are stores/entities/kinship.py's."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from stores.entities.surnames import surname_of
from stores.lang import has_han, zh
from stores.lang.text import sentences

_UNOWNED = re.compile(zh.BY_BIRTH_ORDER)
AGREE = 2 / 3
"""The share of a child's passages that must name the same parent: a text that names the
child so in several places names one parent."""


def unowned_children(chunks: Iterable[tuple[str, int, str, list[tuple[int, int, str]]]],
                     people: set[str]) -> dict[tuple[str, str, str], list[tuple[str, int]]]:
    """(parent, child, "parent_of") → the (chunk id, chapter) passages that name the child by
    birth order with the parent named just before (see the module), as
    `kinship.stated_relations` gives relations; `people` are the world's persons, the only
    parents and children it reads."""
    votes: dict[str, Counter[str]] = {}
    where: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for chunk_id, chapter, text, spans in chunks:
        if not spans or not has_han(text):
            continue
        previous: list[str] = []
        for start, end, _ in sentences(text):
            inside = [(a, b, n) for a, b, n in spans if start <= a and b <= end and n in people]
            # a name a birth-order word stands before is a child, no parent: 长子刘禅……次子刘永
            ordered = {n for a, _, n in inside if _UNOWNED.search(text, start, a)}
            for a, _, child in inside:
                surname = surname_of(child)
                word = _UNOWNED.search(text, start, a)
                if not surname or word is None:
                    continue
                before = [n for s, _, n in inside if s < word.start() and n not in ordered]
                kin = _of_surname(before, surname, child) or (
                    [] if before else _of_surname(previous, surname, child))
                if len(kin) == 1:
                    votes.setdefault(child, Counter())[kin[0]] += 1
                    where.setdefault((kin[0], child), []).append((chunk_id, chapter))
            if inside:
                previous = [n for *_, n in inside if n not in ordered]
    found: dict[tuple[str, str, str], list[tuple[str, int]]] = {}
    for child, parents in votes.items():
        parent, count = parents.most_common(1)[0]
        if count >= AGREE * sum(parents.values()):
            found[(parent, child, "parent_of")] = where[(parent, child)]
    return found


def _of_surname(names: list[str], surname: str, child: str) -> list[str]:
    """The distinct people of `names` whose name starts with `surname`, the child aside, no
    woman by her title (孙夫人 is 孙权's sister, not his mother)."""
    return list(dict.fromkeys(n for n in names if n != child and surname_of(n) == surname
                              and not n.endswith(zh.FEMALE_NAME_ENDINGS)))
