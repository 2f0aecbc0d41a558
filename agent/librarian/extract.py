"""The answer a question asks for, picked from the graded evidence by fitted weights.

A question that asks for a thing — a person (谁, who), a place (哪里, where), a number (多少, how
many) — is answered by one of the things of that kind the best passages name. Every candidate
is described by general features of where it stands: how much of the question (weighted by
rarity) the sentences naming it hold, how close it stands to the question's words, how many of
the best passages agree, whether a chapter title names it, whether the world's type for it is
the one asked for, whether the book calls it by the noun the question asks by (which teacher:
Koga, teacher of English), how common it is in the whole book, and — when the question quotes a line
(“…”是谁说的, Who says '…'?) — whether it stands by those words and is the one saying them.
A logistic model over those features, fitted by `bench/answers_fit.py` on the development
sets book by book (leave-one-book-out) and stored in `extract_weights.json`, gives each
candidate a probability; the librarian states the best one when it clears the fitted threshold
and otherwise keeps it as the likely referent of the next 他 / she. No rule here names a book
or a question.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources

from agent.librarian.analysis import QueryPlan
from agent.librarian.phrases import en_places, zh_places
from agent.schemas import Passage
from stores.lang import HAN_RANGES, asks, en, has_han, zh
from stores.lang.en import NUMBER_WORDS
from stores.lang.text import inside_quotation, sentences
from stores.models import ANSWERING_TYPES, LORE_CHAPTER, may_answer

TOP = 5
"""How many of the best passages are read for candidates."""

PERSON, PLACE, NUMBER, NAME = "person", "place", "number", "name"
"""What a question asks for (stores.lang.asked_thing)."""

FEATURES = ("bias", "best", "best_words", "share", "leader", "margin", "near", "near_best",
            "slot", "passages", "first", "title", "typed", "common", "lore", "speaker", "quoted",
            "votes", "votes_leader", "anchor", "anchor_speaks", "described")
"""The names of a candidate's features, in the order of its vector (see `Candidate`)."""

_ZH_NUMBER = re.compile(zh.COUNTED)
_EN_NUMBER = re.compile(r"\b(?:\d[\d,]*|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
                        + rf")(?:[- ](?:{'|'.join(en.NUMBER_SCALES)}))?\b", re.I)
ASKING = {PERSON: "person_named", PLACE: "where", NUMBER: "number", NAME: "who"}
"""The question words of each kind (stores/lang), which mark the answer's slot in the question."""
_SPEAKS = {True: re.compile(zh.SPEAKS), False: re.compile(en.SPEAKS, re.I)}
_ONE_AS_PRONOUN = re.compile(en.ONE_AS_PRONOUN, re.I)
WINDOW = {True: 12, False: 40}
"""How far from a candidate, in characters (Han text: True), the slot's words are looked for."""


@dataclass
class Candidate:
    """Something the evidence puts forward as the answer, with its features."""

    name: str
    """The canonical name, or the words as written (a number, a place the world does not list)."""
    kind: str
    typed: bool = False
    features: dict[str, float] = field(default_factory=dict)
    best_chunk: str = ""
    """The passage whose sentence holds most of the question beside it."""
    best_sentence: str = ""
    probability: float = 0.0

    def vector(self) -> list[float]:
        return [self.features.get(name, 0.0) for name in FEATURES]


@dataclass(frozen=True)
class World:
    """What the extractor reads of the world: its names and their types, how many passages
    mention each, and how much of the question a stretch of text holds."""

    mentioned: Callable[[str], list[tuple[int, int, str]]]
    """Spans of the names a text mentions: (start, end, canonical name)."""
    kinds: dict[str, str]
    passages_with: Callable[[str], int]
    size: int
    covers: Callable[[str, list[str]], tuple[float, float]]
    """(text, names in it) → (share of the whole question, share of its words) the text holds."""
    words: Sequence[str]
    """The question's content words (not its names), to measure distance to."""
    tokens: Sequence[str] = ()
    """Every content word of the question but its names, single characters too (斩, 请): a
    sentence votes for the names in it by how many of their letters it holds."""
    described: Callable[[str], float] = lambda name: 0.0
    """How often the book calls a name by the noun the question asks for (which teacher: Koga,
    teacher of English), from 0 to 1; 0 for a question that asks by no noun."""


def candidates(plan: QueryPlan, kind: str, ranked: Sequence[Passage], world: World) -> list[Candidate]:
    """Every candidate of the asked kind in the best passages, with its features, most
    probable first (by the fitted weights)."""
    opening = world.mentioned(plan.question.lstrip())[:1]
    subject_first = bool(opening) and opening[0][0] == 0 and \
        world.kinds.get(opening[0][2], "other") in ("person", "other")
    before, after = _slot_words(plan.question, kind, world.words, subject_first)
    quoted = quote_units(plan.quote)
    found: dict[str, Candidate] = {}
    votes: dict[str, float] = {}
    letters: dict[str, float] = {}
    chunks: dict[str, set[str]] = {}
    titles_read: set[str] = set()
    for rank, passage in enumerate(ranked[:TOP]):
        title = passage.chapter_title
        title_names = {n for _, _, n in world.mentioned(title)} if title else set()
        units = [passage.text[start:end] for start, end, _ in sentences(passage.text)]
        with_title = bool(title) and title not in titles_read and passage.chapter != LORE_CHAPTER
        if with_title:
            # a chapter title sums its chapter up in a line (赵子龙单骑救主): read it once, as
            # the first sentence of the best passage of that chapter
            titles_read.add(title)
            units.insert(0, title)
        held_quote = [quote_held(unit, quoted) for unit in units]
        for j, sentence in enumerate(units):
            in_title = with_title and j == 0
            here, first_unit = held_quote[j]
            next_held = held_quote[j + 1][0] if j + 1 < len(units) else 0.0
            spans = world.mentioned(sentence)
            if passage.chapter == LORE_CHAPTER:  # a lore entry's sentences are about its title
                spans = [*((0, 0, n) for n in title_names), *spans]
            names = [n for _, _, n in spans]
            whole, words = world.covers(sentence, names)
            held = sum(len(t) for t in world.tokens if t in sentence) + 2 * sum(
                n in plan.entities for n in names)
            for at, end, name in mentions_of_kind(kind, sentence, spans, world.kinds):
                if name in plan.entities or name in plan.mentions or name in plan.question:
                    continue
                c = found.get(name)
                if c is None:
                    c = found[name] = Candidate(name, kind, _typed(kind, world.kinds.get(name)))
                    c.features = {"first": 1 / (1 + rank), "typed": float(c.typed)}
                f = c.features
                votes[name] = votes.get(name, 0.0) + whole / (1 + rank)
                letters[name] = letters.get(name, 0.0) + held / (1 + rank)
                if whole > f.get("best", -1):
                    f["best"], c.best_chunk = whole, passage.chunk_id
                    # a title is no quote of the passage: its best sentence is chosen there
                    c.best_sentence = "" if in_title else sentence
                f["best_words"] = max(f.get("best_words", 0.0), words)
                near = _nearness(sentence, at, end, world.words)
                f["near"] = max(f.get("near", 0.0), near)
                f["near_best"] = max(f.get("near_best", 0.0), near * whole)
                f["slot"] = max(f.get("slot", 0.0), _in_slot(sentence, at, end, before, after))
                speaking = bool(_SPEAKS[has_han(sentence)].match(sentence, end))
                if speaking:
                    f["speaker"] = 1.0
                if inside_quotation(sentence, at):
                    f["quoted"] = 1.0
                if quoted:  # the question quotes a line: who stands by it, who says it
                    f["anchor"] = max(f.get("anchor", 0.0), here, NEXT_SENTENCE * next_held)
                    f["anchor_speaks"] = max(f.get("anchor_speaks", 0.0), _says_quote(
                        sentence, at, speaking, here, first_unit, next_held))
                if whole > 0:
                    chunks.setdefault(name, set()).add(passage.chunk_id)
                if name in title_names:
                    f["title"] = 1.0
                if passage.chapter == LORE_CHAPTER and whole > 0:
                    f["lore"] = 1.0
    if not found:
        return []
    order = sorted(votes, key=lambda n: -votes[n])
    top = votes[order[0]] or 1.0
    second = votes[order[1]] if len(order) > 1 else 0.0
    most_letters = max(letters.values()) or 1.0
    for name, c in found.items():
        f = c.features
        f["bias"] = 1.0
        f["share"] = votes[name] / top
        f["leader"] = float(name == order[0])
        f["margin"] = (top - second) / top if name == order[0] else 0.0
        f["passages"] = len(chunks.get(name, ())) / TOP
        f["votes"] = letters[name] / most_letters
        f["votes_leader"] = float(letters[name] == most_letters)
        df = world.passages_with(name) if kind != NUMBER else 0
        f["common"] = math.log1p(df) / math.log1p(max(world.size, 1))
        f["described"] = world.described(name)
        c.probability = probability(c.vector())
    return sorted(found.values(), key=lambda c: -c.probability)


def mentions_of_kind(kind: str, sentence: str, spans: list[tuple[int, int, str]],
              kinds: dict[str, str]) -> list[tuple[int, int, str]]:
    """(start, end, name) of each candidate of the kind in one sentence."""
    if kind == NUMBER:
        pattern = _ZH_NUMBER if has_han(sentence) else _EN_NUMBER
        return [(m.start(), m.end(), m.group(0).lower()) for m in pattern.finditer(sentence)
                if not _inside(m.start(), m.end(), spans)
                and not _ONE_AS_PRONOUN.match(sentence, m.start())]
    out = [(s, e, n) for s, e, n in spans if may_answer(kinds.get(n, "other"), kind)]
    if kind == PLACE:  # places the world does not list by name (白帝城, the Château d'If)
        listed = zh_places(sentence, spans) if has_han(sentence) else en_places(sentence, spans)
        out += [(at, at + len(words), words) for at, words in listed]
    return out


NEXT_SENTENCE = 0.75
"""How much a quote in the next sentence counts for a name (宝玉看罢。笑道：“…”: the speaker is
often named a sentence before the words)."""
_HAN_RUN = re.compile(f"[{HAN_RANGES}]+")
_WORD = re.compile(r"[^\W\d_]{3,}")


QUOTE_HELD = 0.8
"""The share of a question's quotation a sentence must hold to be one it may quote."""


def quotes(sentence: str, quote: str) -> int:
    """How surely a sentence holds a question's quotation: 2 when it holds the words as
    written, in order (case, spacing and punctuation aside), 1 when it holds QUOTE_HELD of
    them, else 0."""
    if _plain(quote) and _plain(quote) in _plain(sentence):
        return 2
    return 1 if quote_held(sentence, quote_units(quote))[0] >= QUOTE_HELD else 0


def _plain(text: str) -> str:
    return " ".join(_EVERY_WORD.findall(text.lower()))


_EVERY_WORD = re.compile(r"[^\W_]+")


@lru_cache(maxsize=64)  # one question's quotation, read against each of its sentences
def quote_units(quote: str) -> frozenset[str]:
    """What a quotation is matched by: its pairs of Han characters, its words of three letters
    or more (lower-cased); none for no quotation."""
    pairs = {run[i:i + 2] for run in _HAN_RUN.findall(quote) for i in range(len(run) - 1)}
    return frozenset(pairs | {w.lower() for w in _WORD.findall(quote) if not has_han(w)})


def quote_held(sentence: str, units: frozenset[str]) -> tuple[float, int]:
    """The share of the question's quotation a sentence holds, and where the first of its
    units stands there (the words' start: a speaker is named before them)."""
    if not units:
        return 0.0, 0
    low = sentence.lower()
    found = [i for i in (low.find(u) for u in units) if i >= 0]
    return len(found) / len(units), min(found, default=len(sentence))


def _says_quote(sentence: str, at: int, speaking: bool, here: float, first_unit: int,
                next_held: float) -> float:
    """How much of the question's quotation a name is the one to say: 宝玉笑道：“…” and
    “…,” said Darcy with the words in the sentence, 宝玉看罢，笑道。 with them in the next (a
    name before the words that does not speak them, as Elizabeth in "he looked at Elizabeth
    and said, '…'", says nothing)."""
    if speaking:
        return here if at < first_unit else NEXT_SENTENCE * next_held
    if first_unit < at and _SAID_BEFORE.search(sentence[max(0, at - 40):at]):
        return here
    return 0.0


_SAID_BEFORE = en.SAYS_AFTER_QUOTE_PATTERN


_CLEFT_ZH = re.compile(zh.CLEFT_ASKING)
_PASSIVE_ZH = re.compile(zh.PASSIVE_ASKING)
_INVERTED_EN = re.compile(en.INVERTED_ASKING, re.I)


def _slot_words(question: str, kind: str, words: Sequence[str],
                subject_first: bool = False) -> tuple[list[str], list[str]]:
    """The question's words before and after where the answer stands: 谁|斩了华雄 → ((), 斩);
    Who| killed Han Zheng → ((), killed). An answer stands where the question word does,
    except in a cleft without a subject of its own (在定军山斩了夏侯渊的是谁): there the one
    asked for did what the clause says, so its words follow the answer (黄忠斩了夏侯渊). A clause
    that opens with a person (`subject_first`: 子龙在长坂坡单骑救出的小主人是谁) asks for the one
    it acted on, as written. A passive question word (魏延是被谁斩杀的) is the doer as well;
    an English object question (Whom did Vampa capture?) has its words before the answer."""
    asking = asks(ASKING[kind]).search(question)
    if asking is None:
        return [], []
    low = question.lower()
    at = {w: low.find(w.lower()) for w in words}
    before = [w for w, i in at.items() if 0 <= i < asking.start()]
    after = [w for w, i in at.items() if i >= asking.end()]
    if (not subject_first and _CLEFT_ZH.search(question)) or _PASSIVE_ZH.search(
            question, 0, asking.start() + 1):
        return [], before + after
    if _INVERTED_EN.match(question, asking.end()):
        return before + after, []
    return before, after


def _in_slot(sentence: str, start: int, end: int, before: Sequence[str],
             after: Sequence[str]) -> float:
    """Share of the slot's words that stand on the same side of the candidate, close to it, as
    they stand around the question word."""
    if not before and not after:
        return 0.0
    reach = WINDOW[has_han(sentence)]
    low = sentence.lower()
    left, right = low[max(0, start - reach):start], low[end:end + reach]
    held = sum(w.lower() in left for w in before) + sum(w.lower() in right for w in after)
    return held / (len(before) + len(after))


def _inside(start: int, end: int, spans: list[tuple[int, int, str]]) -> bool:
    return any(s < end and start < e for s, e, _ in spans)


def _typed(kind: str, entity_type: str | None) -> bool:
    return entity_type in ANSWERING_TYPES.get(kind, ())


def _nearness(sentence: str, start: int, end: int, words: Sequence[str]) -> float:
    """1 right beside a word of the question, falling with the characters between (0: none
    there)."""
    low = sentence.lower()
    gaps = []
    for word in words:
        i = low.find(word.lower()) if word else -1
        if i >= 0:
            gaps.append(i - end if i >= end else max(0, start - (i + len(word))))
    return 1 / (1 + min(gaps) / 4) if gaps else 0.0


@dataclass(frozen=True)
class Weights:
    """The fitted model: a weight per feature and the probability an answer must reach to be
    stated."""

    weights: dict[str, float]
    threshold: float


@cache
def fitted() -> Weights:
    """The weights `bench/answers_fit.py` fitted on the development sets."""
    raw = json.loads(resources.files(__package__).joinpath("extract_weights.json").read_text())
    return Weights(raw["weights"], raw["threshold"])


def probability(vector: Sequence[float], weights: Weights | None = None) -> float:
    w = (weights or fitted()).weights
    z = sum(w.get(name, 0.0) * x for name, x in zip(FEATURES, vector, strict=True))
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))


def stated(best: Candidate | None) -> bool:
    """Whether the best candidate is sure enough to be stated as the answer."""
    return best is not None and best.probability >= fitted().threshold
