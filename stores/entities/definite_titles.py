"""A title with "the" and no name, in lower case ("the count", "the general"), is a mention of
the holder the telling last named in the chapter, or, before any, of the book's one holder where
the book leaves no doubt which. Monte Cristo's narrator writes "the count" some 950 times: the
Count of Monte Cristo in most chapters, the Count of Morcerf at his trial. Northanger Abbey's
"the general" (100 times) is General Tilney, the book's one general. Without this those passages
name no one, so the person's timeline, the passages a search filters by him and the people a
passage is about all miss him where the book calls him so.

It is no alias: the same words name two people (Monte Cristo's abbé is Faria, and later Busoni),
so only where they stand says whom. A title the text also writes as an adjective ("the general
opinion") is no one's."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from stores.entities.english_forms import split_title
from stores.lang.en import SAME_RANK, TITLES_ALONE
from stores.models import Entity

Span = tuple[int, int, str]

NOT_DEFINITE = frozenset({"Lord", "Lady"})
"""Titles that with "the" mean anyone's lord or lady, not a holder."""
TITLES = tuple(t for gender in ("m", "f") for t in TITLES_ALONE[gender].split("|")
               if t not in NOT_DEFINITE)
NOMINAL_SHARE = 0.8
"""At least this share of the title's uses with "the" must be a person's, not an adjective's
before a noun (the general opinion): Northanger Abbey's "the general" 0.94, Emma's 0."""
PASSAGE_DOMINANCE = 4
"""The book's one holder, named in passages that write the title with "the" this many times as
often as every other holder together (Monte Cristo's count: 243 passages against 21; its abbé,
Faria 33 against Busoni 10, is no one's before a chapter names one)."""

_AFTER_THE = re.compile(r"\b[Tt]he\s+([a-z][\w’'-]*)")


@dataclass
class DefiniteTitles:
    """The titles a book writes with "the" for a person, their holders, and the one holder each
    names before a chapter names any (`read` finds the mentions)."""

    holders: dict[str, set[str]] = field(default_factory=dict)
    """A title in lower case ("count") → the persons who hold it."""
    default: dict[str, str] = field(default_factory=dict)
    """A title → the book's one holder of it, where there is one."""
    nouns: Counter[str] = field(default_factory=Counter)
    """The words the text writes after "the": a noun, so "the general opinion" is no general."""
    _last: dict[str, str] = field(default_factory=dict)
    _chapter: int | None = None

    @classmethod
    def fit(cls, entities: Sequence[Entity], chunk_texts: Sequence[str],
            chunk_names: Sequence[set[str]], min_count: int) -> DefiniteTitles:
        """The titles written with "the" at least `min_count` times, mostly as a person's
        (NOMINAL_SHARE), each held by the persons with a name under it the text writes
        `min_count` times (Count of Monte Cristo, Comte de Morcerf: Count Albert, twice, holds
        none); `chunk_names` are the entities each chunk names."""
        text = "\n".join(chunk_texts)
        found = cls(nouns=Counter(m[1].lower() for m in _AFTER_THE.finditer(text)))
        persons = [e for e in entities if e.type == "person"]
        for title in TITLES if persons and text else ():
            holders = {e.name for e in persons
                       if sum(text.count(f) for f in (e.name, *e.aliases)
                              if _rank(f) == title) >= min_count}
            if not holders:
                continue
            word = title.lower()
            uses = [m for chunk in chunk_texts for m in _pattern(word).finditer(chunk)]
            nominal = [m for m in uses if found.nominal(m)]
            if len(uses) >= min_count and len(nominal) >= NOMINAL_SHARE * len(uses):
                found.holders[word] = holders
                if one := _one_holder(word, holders, chunk_texts, chunk_names, found, min_count):
                    found.default[word] = one
        return found

    def nominal(self, match: re.Match[str]) -> bool:
        """The title at `match` stands for a person: no noun follows it."""
        return not (match["next"] and self.nouns[match["next"].lower()])

    def read(self, chapter: int, text: str, spans: Sequence[Span]) -> list[Span]:
        """`spans` (a chunk's mentions, chunks read in story order) with its titles: each the
        holder last named before it in the chapter, else the book's one holder."""
        if chapter != self._chapter:
            self._chapter, self._last = chapter, {}
        if not self.holders:
            return list(spans)
        taken = [(s, e) for s, e, _ in spans]
        titles = [(m.start(), m.end("title"), m["title"].lower())
                  for word in self.holders for m in _pattern(word).finditer(text)
                  if self.nominal(m) and not any(s < m.end("title") and m.start() < e
                                                 for s, e in taken)]
        events = sorted([(s, 0, (s, e, name)) for s, e, name in spans]
                        + [(s, 1, (s, e, title)) for s, e, title in titles])
        out: list[Span] = []
        for _, is_title, (start, end, name) in events:
            if not is_title:
                out.append((start, end, name))
                for word, holders in self.holders.items():
                    if name in holders:
                        self._last[word] = name
            elif holder := self._last.get(name) or self.default.get(name):
                out.append((start, end, holder))
        return out


def _pattern(word: str) -> re.Pattern[str]:
    """"the count" where no name follows ("the Count of Morcerf" is his name), with the word
    after it in `next`."""
    return re.compile(rf"\b[Tt]he (?P<title>(?i:{re.escape(word)}))\b"
                      rf"(?![ \t]+(?:of|de|d[’'])\b)(?![ \t]+[A-ZÀ-Þ])"
                      r"(?:[ \t]+(?P<next>[a-z][\w’'-]*))?")


def _one_holder(word: str, holders: set[str], chunk_texts: Sequence[str],
                chunk_names: Sequence[set[str]], found: DefiniteTitles, min_count: int) -> str:
    """The holder named in at least `min_count` passages that write the title with "the" and
    name one holder, PASSAGE_DOMINANCE times as many as the others together; else ''."""
    beside: Counter[str] = Counter()
    pattern = _pattern(word)
    for chunk, names in zip(chunk_texts, chunk_names, strict=True):
        there = holders & names
        if len(there) == 1 and any(found.nominal(m) for m in pattern.finditer(chunk)):
            beside[next(iter(there))] += 1
    if not beside:
        return ""
    (holder, count), *others = beside.most_common()
    if count < min_count or count < PASSAGE_DOMINANCE * sum(n for _, n in others):
        return ""
    return holder


def _rank(form: str) -> str:
    """The title a name is written under, as the English rank (Comte de Morcerf → Count)."""
    words = form.split()
    title = split_title(form)[0] or (words[0] if len(words) > 1 else "")
    return SAME_RANK.get(title, title)


def definite_forms(names: Sequence[str]) -> list[str]:
    """The titles the names are written under, with "the" (General Tilney → "the general";
    Comte de Morcerf → "the count"): how a passage tagged with the person may name them."""
    ranks = {_rank(name) for name in names}
    return [f"the {title.lower()}" for title in TITLES if title in ranks]
