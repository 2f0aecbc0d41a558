"""Evidence grading: how much of the question a passage covers, weighted by how rare each word is.

The retrievers rank passages by their own lights (BM25 by term statistics, the dense side by
meaning); grading reads every pooled passage once more against the question. A term counts
as covered when the passage contains it (Han text: the word itself; Latin text: any word
sharing its stem, so *married* covers *marry* and *marriage*); a name counts as
covered when the passage mentions the entity under any of its names (云长 is covered by a
passage that says 关羽). Each term weighs its inverse document frequency in the world, so
*Pharaon* counts more than *voyage*.

The same statistics tell when a question leans on words the world never uses (smartphone,
电脑): the model then answers that the text does not say.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from agent.librarian.analysis import (
    KIN_WORDS_EN,
    KIN_WORDS_ZH,
    QueryPlan,
)
from agent.schemas import Passage
from agent.world.retrieval import Retriever
from stores.entities.kinship import says_kin
from stores.keyword.segment import ENGLISH_STOPWORDS, stock_tokens
from stores.lang import en, has_han, zh
from stores.lang.asking import ASKS_RELATION, DEATH, content_query
from stores.lang.text import fold_latin, han_in, sentences, stem

_LATIN_WORD = re.compile(r"[a-z0-9]+")
HAN_MIN = 1
"""Han words this long count as terms: classical Chinese says with one character (斩, 骑, 嫁)
what a question says with two (三国演义 answerable 0.848 with 2, 0.852 with 1)."""


DYING_ZH = zh.LANGUAGE.dying_words
DYING_EN = en.LANGUAGE.dying_words


@dataclass(frozen=True)
class Term:
    """One thing a supporting passage should contain."""

    text: str
    weight: float
    entity: str = ""
    """Canonical name when the term is a mention of an entity."""
    forms: tuple[str, ...] = ()
    """For a concept (dying): the words any of which covers it."""
    near: tuple[str, ...] = ()
    """Names one of which should share a sentence with the concept's word (whose death)."""


NOT_NEAR = 0.5
"""Credit for a word of dying that shares no sentence with the dying person's names: 杀 and
死 fill every battle, and a death is told beside the name (吕蒙…七窍流血而死)."""


def told_of(text: str, term: Term) -> bool:
    """A sentence of the text holds one of the term's names and one of its words."""
    return any(any(name in sentence for name in term.near) and _holds_form(sentence, term)
               for sentence in (s.text for s in sentences(text, "between")))


def told_as_kin(text: str, term: Term) -> bool:
    """A sentence of the text holds a word for kin and one of the term's words: "And how long
    ago may it be that your mother died?" tells a death of someone it names only as kin."""
    return any(says_kin(sentence) and _holds_form(sentence, term)
               for sentence in (s.text for s in sentences(text, "between")))


def _holds_form(sentence: str, term: Term) -> bool:
    """One of the term's words is in the sentence: a Latin one as a whole word, folded."""
    low = fold_latin(sentence)
    return any((re.search(rf"\b{form}\b", low) if form.isascii() else form in sentence)
               for form in term.forms)


def _compound_of(word: str, words: Sequence[str]) -> bool:
    """A Han word made of other words of the question (赤壁之战 beside 赤壁): the search
    segmenter gives both, and counting the compound too would weigh one concept twice (a
    passage saying 赤壁之战 outranked the ones telling the 苦肉计 the question asks about)."""
    return has_han(word) and any(w != word and len(w) >= 2 and has_han(w) and w in word
                                 for w in words)


class Grader:
    """Term statistics of one world, computed once and cached."""

    def __init__(self, retriever: Retriever) -> None:
        self.retriever = retriever
        self._df: dict[str, int] = {}
        self._forms: dict[str, frozenset[str]] = {}

    @cached_property
    def _texts(self) -> list[str]:
        return [c.text for c in self.retriever.story]

    @cached_property
    def _latin(self) -> tuple[list[str], Counter[str]]:
        """Sorted vocabulary of folded Latin words and their document frequencies."""
        df: Counter[str] = Counter()
        for text in self._texts:
            df.update(set(_LATIN_WORD.findall(fold_latin(text))))
        return sorted(df), df

    @cached_property
    def _entity_df(self) -> Counter[str]:
        df: Counter[str] = Counter()
        for chunk in self.retriever.story:
            df.update(set(chunk.entities))
        return df

    @property
    def size(self) -> int:
        return max(1, len(self._texts))

    def forms(self, word: str) -> frozenset[str]:
        """The world's Latin words a question word covers (same stem)."""
        if word in self._forms:
            return self._forms[word]
        vocab, _ = self._latin
        prefix = stem(word, prefix=True)
        at = bisect.bisect_left(vocab, prefix)
        found = []
        while at < len(vocab) and vocab[at].startswith(prefix):
            found.append(vocab[at])
            at += 1
        self._forms[word] = frozenset(found)
        return self._forms[word]

    def df(self, term: str) -> int:
        """In how many passages the term occurs."""
        if term not in self._df:
            if has_han(term):
                self._df[term] = sum(1 for text in self._texts if han_in(term, text))
            else:
                _, df = self._latin
                # A word's forms share passages: the largest count is a fair lower bound.
                self._df[term] = max((df[w] for w in self.forms(term)), default=0)
        return self._df[term]

    def idf(self, df: int) -> float:
        return math.log(1 + self.size / (1 + df))

    def weight(self, word: str) -> float:
        """The rarity of a word in this world (0 for a word it never uses)."""
        df = self.df(word)
        return self.idf(df) if df else 0.0

    # -- the question ---------------------------------------------------------------------
    def terms(self, plan: QueryPlan) -> list[Term]:
        """The question's names and content words, weighted by rarity; words absent from the
        world are left out (see `missing`)."""
        found: list[Term] = []
        for name in plan.entities:
            found.append(Term(name, self.idf(self._entity_df.get(name, 0)), entity=name))
        words = self._words(plan)
        if plan.about_death:
            # A death is told in many words (崩, 斩于马下, was shot): the question's own word
            # for it (去世, 斩杀, die) is one concept that any of them covers.
            words = [w for w in words if not DEATH.search(w)]
        kept = [w for w in words if self.df(w)]
        for word in kept:
            if not _compound_of(word, kept):
                found.append(Term(word, self.idf(self.df(word))))
        if plan.how_related and len(plan.entities) > 1:
            # "什么关系", "relation to": any word for kin or rank answers it (父, granddaughter).
            forms = tuple((KIN_WORDS_ZH if plan.chinese else KIN_WORDS_EN).split())
            weight = max((t.weight for t in found), default=1.0)
            found = [t for t in found if not ASKS_RELATION.search(t.text)]
            found.append(Term("(kin)", weight, forms=forms))
        if plan.about_death:
            # either language's words: a bilingual world tells a death in the other one too
            # (Who killed Han Zheng? → 在落星崖一剑刺死韩峥)
            forms = (*DYING_ZH, *DYING_EN) if plan.chinese else (*DYING_EN, *DYING_ZH)
            weight = max((t.weight for t in found), default=1.0)
            subject = plan.death_subject
            near = (subject, *self.retriever.entities.get(subject, [])) if subject else ()
            found.append(Term("(dying)", weight, forms=forms, near=near))
        return found

    def missing(self, plan: QueryPlan) -> list[str]:
        """Content words of the question that no passage of the world contains."""
        return [w for w in self._words(plan) if not self.df(w)]

    def _words(self, plan: QueryPlan) -> list[str]:
        text = plan.question
        for start, end, _ in sorted(self.retriever.spans(text), reverse=True):
            text = text[:start] + " " + text[end:]
        words = []
        for token in stock_tokens(content_query(text)):
            if has_han(token):
                if len(token) >= HAN_MIN:
                    words.append(token)
            elif len(token) >= 3 and token not in ENGLISH_STOPWORDS and not token.isdigit():
                words.append(token)
        return list(dict.fromkeys(words))

    # -- a passage ------------------------------------------------------------------------
    def coverage(self, passage: Passage, terms: Sequence[Term]) -> float:
        """Share of the question's weight the passage covers (0–1)."""
        total = sum(t.weight for t in terms)
        if not total:
            return 0.0
        latin: set[str] | None = None
        got = 0.0
        for term in terms:
            hit: float
            if term.entity:
                hit = term.entity in passage.entities
            elif term.forms:
                if latin is None:
                    latin = set(_LATIN_WORD.findall(fold_latin(passage.text)))
                hit = any(form in latin if form.isascii() else form in passage.text
                          for form in term.forms)
                if hit and term.near:
                    hit = 1.0 if told_of(passage.text, term) else NOT_NEAR
            elif has_han(term.text):
                # The word, or its characters turned around (温酒 → 酒尚温时), count fully;
                # otherwise the share of its characters in the passage counts.
                hit = 1.0 if han_in(term.text, passage.text) else (
                    sum(ch in passage.text for ch in term.text) / len(term.text)) ** 2
            else:
                if latin is None:
                    latin = set(_LATIN_WORD.findall(fold_latin(passage.text)))
                hit = bool(self.forms(term.text) & latin)
            got += term.weight * float(hit)
        return got / total
