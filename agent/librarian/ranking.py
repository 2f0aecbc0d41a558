"""Which sentence of the evidence answers the question: the sentences of the graded passages,
each described by general features and scored by weights fitted book by book.

The offline reader cannot read a passage, so it leads with the sentence most likely to hold
the answer (issue 38). Every sentence of the best passages (and each chapter's title, read once)
is described by:

- `cover`: how much of the question, names and words, weighted by rarity, it holds (grading);
- `words`: the same for the question's words alone, without its names;
- `names`: the share of the question's people, places and things it names;
- `kind`: it holds something of the kind asked for that the question does not name (who → a
  person, where → a place, how many → a number);
- `picked`: the answer picker's probability (extract.py) for the likeliest candidate it names;
- `near`: the question's words and names stand close together in it;
- `title`: its chapter's title holds the question's words;
- `rank`: the reciprocal rank of its passage; `first`: it opens its passage;
- `short`: it is too short to say much (under a dozen characters or four words);
- `verse`: it is a line of verse (Chinese clauses of five or seven characters: a novel's poems
  sum a scene up in allusions, 茅庐三顾心相知, rather than tell it);
- `spoken`: it is someone's words in quotation marks, not the telling;
- `around`: how much of the question it holds with the sentences either side of it: the
  sentence that answers often stands beside the one that echoes the question (Who carried
  Marianne home when she twisted her ankle? "…took her up in his arms without farther delay,
  and carried her down the hill", after the sentence of the fall), where a sentence elsewhere
  shares a word or two with it alone ("carried home to her mind"). (The whole passage's share,
  tried beside it, ranked worse out of fold: -0.5 points.)

A logistic model over them, fitted by `bench/sentences_fit.py` on the development sets one
book left out at a time and stored in `ranking_weights.json`, orders the sentences; no rule
here names a book or a question.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import TypeVar

from agent.librarian.analysis import QueryPlan
from agent.librarian.extract import Candidate, mentions_of_kind
from agent.schemas import Passage
from stores.lang import en, has_han, zh
from stores.lang.text import is_verse, reading_rule, sentences
from stores.models import LORE_CHAPTER

TOP = 8
"""How many of the best passages are read for sentences."""
FEATURES = ("bias", "cover", "words", "names", "kind", "picked", "near", "title", "rank", "first",
            "short", "verse", "spoken", "around")
"""The names of a sentence's features, in the order of its vector."""
WINDOW = {True: 20, False: 80}
"""How close (characters; Han text: True) the question's words stand for `near`."""
SHORT = {True: 12, False: 25}


@dataclass
class Sentence:
    """One sentence of the evidence, where it stands, and how likely it answers."""

    text: str
    passage: Passage
    rank: int
    """The rank of its passage (0: the best)."""
    title: bool = False
    """A chapter's title, read as a sentence of its best passage."""
    features: dict[str, float] = field(default_factory=dict)
    score: float = 0.0

    def vector(self) -> list[float]:
        return [self.features.get(name, 0.0) for name in FEATURES]


@dataclass(frozen=True)
class Reading:
    """What the ranker reads of the question and the world."""

    mentioned: Callable[[str], list[tuple[int, int, str]]]
    """Spans of the names a text mentions: (start, end, canonical name)."""
    kinds: dict[str, str]
    covers: Callable[[str, list[str]], tuple[float, float]]
    """(text, names in it) → (share of the whole question, share of its words) the text holds."""
    words: Sequence[str]
    """The question's content words (not its names)."""
    kind: str | None = None
    """What one thing the question asks for (stores.lang.asked_thing), if any."""
    picked: Sequence[Candidate] = ()


def rank_sentences(plan: QueryPlan, ranked: Sequence[Passage], reading: Reading,
                   top: int = TOP) -> list[Sentence]:
    """Every sentence of the best passages, most likely to answer first (ties: story order of
    the passages' rank, then the sentence's place)."""
    found = gather(plan, ranked, reading, top)
    for s in found:
        s.score = score(s.vector())
    return sorted(found, key=lambda s: -s.score)


def gather(plan: QueryPlan, ranked: Sequence[Passage], reading: Reading,
           top: int = TOP) -> list[Sentence]:
    """The sentences with their features (unscored)."""
    picked = {c.name: c.probability for c in reading.picked}
    titles_read: set[str] = set()
    found: list[Sentence] = []
    for rank, passage in enumerate(ranked[:top]):
        units = [(s.text, False) for s in sentences(passage.text, reading_rule(passage.text))
                 if len(s.text.strip()) >= 4]
        title = passage.chapter_title
        if title and passage.chapter != LORE_CHAPTER and title not in titles_read:
            titles_read.add(title)
            units.insert(0, (title, True))
        title_words = reading.covers(title, [])[1] if title and passage.chapter != LORE_CHAPTER \
            else 0.0
        for j, (text, is_title) in enumerate(units):
            s = describe(Sentence(text.strip(), passage, rank, is_title), plan, reading,
                         picked, title_words, first=j == int(units[0][1]))
            told = [t for t, heading in units[max(0, j - 1):j + 2] if not heading]
            s.features["around"] = _cover(reading, " ".join(told)) if not is_title else 0.0
            found.append(s)
    return found


def _cover(reading: Reading, text: str) -> float:
    """How much of the question, names and words weighted by rarity, `text` holds."""
    return reading.covers(text, [n for _, _, n in reading.mentioned(text)])[0]


def describe(s: Sentence, plan: QueryPlan, reading: Reading, picked: dict[str, float],
             title_words: float, first: bool) -> Sentence:
    spans = reading.mentioned(s.text)
    if s.passage.chapter == LORE_CHAPTER:  # a lore entry's sentences are about its title
        spans = [*((0, 0, n) for _, _, n in reading.mentioned(s.passage.chapter_title)), *spans]
    names = [n for _, _, n in spans]
    whole, words = reading.covers(s.text, names)
    asked = [m for m in mentions_of_kind(reading.kind, s.text, spans, reading.kinds)
             if m[2] not in plan.entities and m[2] not in plan.question] if reading.kind else []
    if not reading.kind and plan.how_related and any(e in names for e in plan.entities):
        asked = _kin_words(s.text)  # how two are related: a word for kin or rank answers it
    han = has_han(s.text)
    s.features = {
        "bias": 1.0, "cover": whole, "words": words,
        "names": (sum(1 for e in plan.entities if e in names) / len(plan.entities)
                  if plan.entities else 0.0),
        "kind": float(bool(asked)),
        "picked": max((picked.get(n, 0.0) for _, _, n in asked), default=0.0),
        "near": _near(s.text, [*reading.words, *(m for m in plan.mentions)], WINDOW[han]),
        "title": title_words, "rank": 1 / (1 + s.rank), "first": float(first),
        "short": float(len(s.text) < SHORT[han] if han else len(s.text.split()) < 4),
        "verse": float(han and is_verse(s.text)),
        "spoken": float(is_spoken(s.text)),
    }
    return s


def _kin_words(text: str) -> list[tuple[int, int, str]]:
    """(start, end, word) of each word for kin or rank in the text (father, niece; 父, 师)."""
    pattern = _KIN_ZH if has_han(text) else _KIN_EN
    return [(m.start(), m.end(), m.group(0)) for m in pattern.finditer(text)]


_KIN_ZH = re.compile("|".join(sorted(zh.LANGUAGE.kin_words, key=len, reverse=True)))
_KIN_EN = re.compile(r"\b(?:" + "|".join(sorted(en.LANGUAGE.kin_words, key=len, reverse=True))
                     + r")s?\b", re.I)


def is_spoken(text: str) -> bool:
    """The sentence is mostly inside quotation marks."""
    inside = 0
    depth = 0
    for ch in text:
        if ch == '"':  # a straight quote opens or closes
            depth = 0 if depth else 1
        elif ch in "“「":
            depth += 1
        elif ch in "”」" and depth:
            depth -= 1
        elif depth:
            inside += 1
    return inside * 2 > len(text)


def _near(text: str, words: Sequence[str], window: int) -> float:
    """1 when two or more of the words stand within `window` characters of each other."""
    low = text.lower()
    at = sorted(i for w in dict.fromkeys(words) if w and (i := low.find(w.lower())) >= 0)
    return float(any(b - a <= window for a, b in zip(at, at[1:], strict=False)))


@cache
def fitted() -> dict[str, float]:
    """The weights `bench/sentences_fit.py` fitted on the development sets."""
    raw = json.loads(resources.files(__package__).joinpath("ranking_weights.json").read_text())
    return dict(raw["weights"])


def score(vector: Sequence[float], weights: dict[str, float] | None = None) -> float:
    """The sentence's logit under the fitted weights, as `bench/sentences_fit.py` ranks by."""
    w = weights if weights is not None else fitted()
    return sum(w.get(name, 0.0) * x for name, x in zip(FEATURES, vector, strict=True))


MAX_QUOTE = 240
"""A sentence is quoted whole up to this many characters."""
SAME_WORDS = 0.6
"""A sentence sharing this share of its characters with one already quoted adds nothing new."""


def chosen(ordered: Sequence[Sentence], limit: int, first: Sentence | None = None) -> list[Sentence]:
    """The sentences an answer quotes: `first` (or the best), then the next best that add
    something new — another passage, words not already quoted; a chapter title is no quote."""
    picked: list[Sentence] = [first] if first is not None else []
    for s in ordered:
        if len(picked) == limit:
            break
        if s.title or any(s.passage.chunk_id == p.passage.chunk_id for p in picked):
            continue
        if any(_overlap(s.text, p.text) >= SAME_WORDS for p in picked):
            continue
        picked.append(s)
    return picked


def _overlap(a: str, b: str) -> float:
    """The share of the shorter text's characters (Han) or words (Latin) the other holds."""
    if has_han(a) or has_han(b):
        units_a, units_b = set(a), set(b)
    else:
        units_a, units_b = set(a.lower().split()), set(b.lower().split())
    small = min(len(units_a), len(units_b)) or 1
    return len(units_a & units_b) / small


def containing(ordered: Sequence[Sentence], name: str, forms: Sequence[str]) -> Sentence | None:
    """The best sentence that names `name` (in any of its forms), or None."""
    return next((s for s in ordered if not s.title and any(f and f in s.text for f in
                                                             (name, *forms))), None)

T = TypeVar("T")


def in_named_chapters_first(plan: QueryPlan, items: list[T],
                            chapter_of: Callable[[T], int]) -> list[T]:
    """The passages or sentences of the chapters the question names first, each part in its
    order: what it asks is there."""
    if not plan.chapters:
        return items
    named = set(plan.chapters)
    return sorted(items, key=lambda item: chapter_of(item) not in named)  # stable
