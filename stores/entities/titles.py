"""Names a Chinese text gives a person it already knows: ruler titles and childhood names.

Both need the world's people first, so they run after the entities are merged:
- a ruler title written right before a person's name, nearly always the same person's
  (蜀汉后主刘禅), names that person wherever the text uses it alone (后主 in the chapters after
  刘备's death) — measured on 三国演义 this yields 后主 → 刘禅 (2 of its 3 name-following uses;
  the third is a list, 后主、黄皓) and rejects 魏主 and 吴主, which the text puts before several
  emperors (曹睿 18 of 35, 孙亮 10 of 23), and 蜀主 (used alone 18 times);
- a childhood name given shortly after a birth (甘夫人生刘禅 … 故乳名阿斗) belongs to the child.

A noble's title (温侯, 武乡侯, 晋公, 蛮王) passes from father to son (魏王 is 曹操 until 第七十八回
and 曹丕 after), and the text names the heir with the title more often than the founder. So it
is the person's written before their name only when the passages that use the title (with the
one before each) name that person in at least PRESENCE of them, and no one in more: 温侯吕布
(吕布 in all 11), 晋公司马昭; not 魏王曹丕 (曹操 in more of 魏王's passages), nor 蛮王孟获 (the
title is also 沙摩柯's, in passages without 孟获).
A shorter title inside a longer one the same person holds (乡侯 in 武乡侯) is not a second alias.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from stores.entities.matcher import AliasMatcher, alias_map
from stores.lang.zh import CHILDHOOD_NAME as _CHILD_NAME
from stores.lang.zh import RANK_TITLE, RULER_TITLE
from stores.models import Entity

MIN_STANDALONE = 20
"""The title must be used alone this often for it to be worth an alias."""
DOMINANCE = 2 / 3
"""The share of the title's name-following uses that must go to one person."""
MIN_RANK_USES = 5
"""A noble's title must be written alone this often to be worth an alias."""
PRESENCE = 0.9
"""The share of a noble title's passages that must name its holder: 蛮王 names 孟获 in 88%
of its passages, and 沙摩柯 (unknown to the world) in others."""


def fold_titles(entities: list[Entity], text: str,
                chunk_texts: Sequence[str] = ()) -> list[Entity]:
    """Give ruler titles, nobles' titles (from `chunk_texts`, the passages in story order) and
    childhood names to the people they belong to (see the module)."""
    people = {e.name: e for e in entities if e.type == "person" and len(e.name) >= 2}
    if not people:
        return entities
    claimed = {a for e in entities for a in (e.name, *e.aliases)}
    names = "|".join(map(re.escape, sorted(people, key=len, reverse=True)))
    if chunk_texts:
        _fold_rank_titles(people, claimed, names, text, chunk_texts)
    before: dict[str, Counter[str]] = {}
    for match in re.finditer(f"({RULER_TITLE})({names})", text):
        before.setdefault(match[1], Counter())[match[2]] += 1
    for title, owners in before.items():
        (owner, count), = owners.most_common(1)
        if title in claimed or count < 2 or count < DOMINANCE * sum(owners.values()):
            continue
        uses = text.count(title) - owners[owner]
        if uses >= MIN_STANDALONE:
            people[owner].aliases.append(title)
            people[owner].mentions += uses
            claimed.add(title)
    for match in _CHILD_NAME.finditer(text):
        child, small = people.get(match["name"]), match["small"]
        if child is not None and small not in claimed:
            child.aliases.append(small)
            child.mentions += text.count(small)
            claimed.add(small)
    return entities


def _fold_rank_titles(people: dict[str, Entity], claimed: set[str], names: str, text: str,
                      chunk_texts: Sequence[str]) -> None:
    """Give a noble's title to the person the text writes it before, when its passages name
    that person (see the module)."""
    title_end = re.compile(f"(?:{RANK_TITLE})$")
    before: dict[str, Counter[str]] = {}
    for match in re.finditer(names, text):
        head = text[max(0, match.start() - 3):match.start()]
        for start in range(len(head) - 1):  # 封温侯吕布: 温侯 as well as 封温侯
            if title_end.fullmatch(head[start:]):
                before.setdefault(head[start:], Counter())[match[0]] += 1
    found: dict[str, str] = {}
    matcher = AliasMatcher(alias_map(list(people.values())))
    for title, owners in before.items():
        (owner, count), = owners.most_common(1)
        uses = text.count(title) - sum(owners.values())
        if (title in claimed or count < 2 or count < DOMINANCE * sum(owners.values())
                or uses < MIN_RANK_USES):
            continue
        if owner in _most_present(title, chunk_texts, matcher):
            found[title] = owner
    for title, owner in found.items():
        if any(longer != title and longer.endswith(title) and found[longer] == owner
               for longer in found):
            continue  # 乡侯 of 武乡侯
        people[owner].aliases.append(title)
        people[owner].mentions += text.count(title)
        claimed.add(title)


def _most_present(title: str, chunk_texts: Sequence[str], matcher: AliasMatcher) -> set[str]:
    """The people named (by name or alias) in at least PRESENCE of the passages that write
    `title`, each with the passage before it, and in no fewer than anyone else: more than one
    when they tie (晋公's passages name 司马昭 and 司马懿 alike), which one came first in a set
    was chance, and an ingest gave 晋公 to 司马昭 or not by it."""
    present: Counter[str] = Counter()
    passages = 0
    for i, chunk in enumerate(chunk_texts):
        if title not in chunk:
            continue
        passages += 1
        window = chunk if i == 0 else chunk_texts[i - 1] + chunk
        present.update({name for *_, name in matcher.find_spans(window)})
    most = max(present.values(), default=0)
    return {name for name, count in present.items()
            if count == most and count >= PRESENCE * passages}
