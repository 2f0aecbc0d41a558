"""Names a Chinese text gives a person it already knows: ruler titles and childhood names.

Both need the world's people first, so they run after the entities are merged:
- a ruler title written right before a person's name, nearly always the same person's
  (蜀汉后主刘禅), names that person wherever the text uses it alone (后主 in the chapters after
  刘备's death) — measured on 三国演义 this yields 后主 → 刘禅 (2 of its 3 name-following uses;
  the third is a list, 后主、黄皓) and rejects 魏主 and 吴主, which the text puts before several
  emperors (曹睿 18 of 35, 孙亮 10 of 23), and 蜀主 (used alone 18 times);
- a childhood name given shortly after a birth (甘夫人生刘禅 … 故乳名阿斗) belongs to the child.

Titles ending in 王 or 公 are left alone: they pass from father to son (魏王 is 曹操 until 第七十八回
and 曹丕 after), and the text names the heir with the title more often than the founder.
"""

from __future__ import annotations

import re
from collections import Counter

from stores.lang.zh import CHILDHOOD_NAME as _CHILD_NAME
from stores.lang.zh import RULER_TITLE
from stores.models import Entity

MIN_STANDALONE = 20
"""The title must be used alone this often for it to be worth an alias."""
DOMINANCE = 2 / 3
"""The share of the title's name-following uses that must go to one person."""


def fold_titles(entities: list[Entity], text: str) -> list[Entity]:
    """Give ruler titles and childhood names to the people they belong to (see the module)."""
    people = {e.name: e for e in entities if e.type == "person" and len(e.name) >= 2}
    if not people:
        return entities
    claimed = {a for e in entities for a in (e.name, *e.aliases)}
    names = "|".join(map(re.escape, sorted(people, key=len, reverse=True)))
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
