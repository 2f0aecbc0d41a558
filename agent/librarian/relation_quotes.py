"""Which of the evidence's sentences an answer about a relation quotes first: the one that
states the relation the answer names (or each step of a path through a third person), else,
for two people no typed relation joins, one that names both with a word for kin, and for a
relative of one person, one that names that person with a word for the relation asked. The
line that names the relation is agent/librarian/relations.py's."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from agent.librarian.ranking import Sentence, is_spoken
from agent.schemas import Passage, Relation
from stores.entities.kinship import (
    Statement,
    apposed_to_kin,
    apposed_to_role,
    names_a_relative,
    tie_between,
)
from stores.lang import LANGUAGES, has_han, language, zh
from stores.lang.text import reading_rule, sentences


def stating_first(ranked: Sequence[Sentence], relation: Relation | None,
                   forms: Callable[[str], list[str]],
                   said_in: Callable[[str], list[Statement]]) -> list[Sentence]:
    """The sentences that state `relation` (see `stating`) first, then the rest as ranked."""
    first = stating(ranked, relation, forms, said_in) if relation is not None else []
    return first + [s for s in ranked if s not in first]


def steps_stated_first(ranked: Sequence[Sentence], path: Sequence[Relation],
                       forms: Callable[[str], list[str]],
                       said_in: Callable[[str], list[Statement]]) -> list[Sentence]:
    """For relations through a third person, the sentence that states each step, the first
    step's first, then the rest as ranked: an answer cites both halves of what it says."""
    lead: list[Sentence] = []
    for step in path:
        lead += [s for s in stating(ranked, step, forms, said_in)[:1] if s not in lead]
    return lead + [s for s in ranked if s not in lead]


def stating(ranked: Sequence[Sentence], relation: Relation,
            forms: Callable[[str], list[str]],
            said_in: Callable[[str], list[Statement]]) -> list[Sentence]:
    """The sentences that state `relation`, from its passages: those the text's statements
    read it in ("Mr. Elton cared little about it, compared with his wife"), then those naming
    both its ends, in the ranker's order; when the search brought none of those, the first of
    its passages' own sentences that does ([] when none does)."""
    if not relation.evidence:
        return []
    ends = [[relation.source, *forms(relation.source)], [relation.target, *forms(relation.target)]]
    pair = {relation.source, relation.target}
    evidence = {p.chunk_id for p in relation.evidence}

    def names_both(text: str) -> bool:
        return all(any(f and f in text for f in end) for end in ends)

    read_of: dict[str, list[str]] = {}

    def stated(passage: Passage) -> list[str]:  # each passage read once, not once a sentence
        key = passage.chunk_id or passage.text
        if key not in read_of:
            read_of[key] = [s.sentence for s in said_in(passage.text)
                            if {s.source, s.target} == pair]
        return read_of[key]

    def said(s: Sentence) -> bool:
        return any(s.text in sentence or sentence in s.text for sentence in stated(s.passage))

    mine = [s for s in ranked if s.passage.chunk_id in evidence]
    first = [s for s in mine if said(s)]
    first += [s for s in mine if names_both(s.text) and s not in first]
    if not first:
        read = [(passage, s.text) for passage in relation.evidence
                for s in sentences(passage.text, reading_rule(passage.text))]
        # a declared relation's passages are its ends' lore entries, which need not name their
        # owner (沈砚's entry: 顾怀山之徒): one naming both (顾怀山's: 沈砚与韩峥的师父) first,
        # else one naming the end the entry is not about (not 沈砚's 字青崖 for his disciple)
        first = [Sentence(text, passage, 0) for passage in relation.evidence
                 for text in stated(passage)][:1] or [
            Sentence(text, passage, 0) for passage, text in read if names_both(text)][:1] or [
            Sentence(text, passage, 0) for passage, text in read if relation.declared
            and any(f and f in text for end in ends if passage.chapter_title not in end
                    for f in end)][:1]
    return first


def pair_named_first(ranked: Sequence[Sentence], pair: Sequence[str],
                      spans_in: Callable[[str], list[tuple[int, int, str]]],
                      relations: Sequence[Relation]) -> list[Sentence]:
    """For a pair no typed relation joins, the sentences that name both with a word for kin
    said of them (`kinship.tie_between`) first, then those that name one's kin ("Miss Bates's
    niece") or call one of them a relative, or give their trade, in a passage that names the
    other ("His brother-in-law, Mr. Hurst"; "consulting Mr. Perry, the apothecary", in a passage
    of Mr. Woodhouse's), then those that name both with a word for what one is to the other
    ("less as a governess than a friend"), then those that name both, each in the ranker's
    order. When the search brought none of the first three, the passages the pair shares are
    read for sentences naming both: "What is Mr. Perry to Mr. Woodhouse?" was answered with a
    sentence about Mr. Woodhouse alone, and "What was Mrs. Weston to Emma?" with one where his
    father stood beyond a semicolon. Within each, the telling comes before a character's
    words: what the narrator says two people are to each other is told; what one says of the
    other ("you are very much mistaken if you suppose Mr. Perry to be that sort of character")
    is an opinion. `spans_in` gives a text's mentions as (start, end, name)."""
    wanted = set(pair)

    def names_both(text: str) -> bool:
        return wanted <= {name for *_, name in spans_in(text)}

    def names_kin(s: Sentence) -> bool:  # Miss Bates's niece; his brother-in-law, Mr. Hurst
        spans = spans_in(s.text)
        return any(name in wanted and (names_a_relative(s.text, end) or (
            (apposed_to_kin(s.text, start, end) or apposed_to_role(s.text, end))
            and (wanted - {name}) <= {other for *_, other in spans_in(s.passage.text)}))
            for start, end, name in spans)

    def tie(text: str) -> str:  # the closest thing the sentence says the two are to each other
        spans = spans_in(text)
        ties = {tie_between(text, (a, b), (c, d)) for a, b, one in spans for c, d, other in spans
                if one in wanted and other in wanted and one < other}
        return "kin" if "kin" in ties else "tie" if "tie" in ties else ""

    def tier(s: Sentence) -> tuple[int, bool]:
        both = names_both(s.text)
        said = tie(s.text) if both else ""
        return (0 if said == "kin" else 1 if names_kin(s) else 2 if said == "tie"
                else 3 if both else 4, is_spoken(s.text))

    tiers = [(tier(s), s) for s in ranked]  # each sentence read once
    if not any(t[0] <= TIED for t, _ in tiers):
        shared = [p for r in relations if r.type == "co_occurs" and {r.source, r.target} == wanted
                  for p in r.evidence]
        there = {s.text for s in ranked}
        tiers += [(tier(s), s) for s in (Sentence(s.text, passage, len(ranked)) for passage in shared
                                         for s in sentences(passage.text, reading_rule(passage.text))
                                         if names_both(s.text) and s.text not in there)]
    # stable: the ranker's order within each tier
    return [s for _, s in sorted(tiers, key=lambda ts: ts[0])]


TIED = 2
"""The tiers of `pair_named_first` that say what the two are to each other: when the search
brought no such sentence, the passages the pair shares are read for one."""


def subject_named_first(ranked: Sequence[Sentence], kind: str, subject: str,
                        spans_in: Callable[[str], list[tuple[int, int, str]]]) -> list[Sentence]:
    """For a relative of one person the world relates no one to (Who is Harriet Smith's
    father?), the sentences that name that person and a word for the relation asked, at either
    end (father or daughter: "Harriet Smith was the natural daughter of somebody"), first, then
    those that name the person, then those of passages that do, each in the ranker's order and
    the telling before a character's words: the question was answered with "Emma allowed her
    father to talk", Emma's father."""
    words = [word for code in LANGUAGES
             for (of, *_), word in language(code).relative_words.items() if of == kind]
    alternatives = "|".join(sorted(map(re.escape, words), key=len, reverse=True)) or "(?!)"
    english = re.compile(rf"\b(?:{alternatives})s?\b", re.I)
    # whose kin, said with 之 / 的 (苏老七的女儿, 苏老七之女): 父 alone is in 师父 (a teacher)
    chinese = re.compile(rf"{zh.OF}(?:{alternatives})")

    def tier(s: Sentence) -> tuple[int, bool]:
        # a lore entry, titled by its owner, need not name them: 苏绾's "柳溪镇渔户苏老七之女"
        here = (subject in {name for *_, name in spans_in(s.text)}
                or s.passage.chapter_title == subject)
        kin = (chinese if has_han(s.text) else english).search(s.text) is not None
        return (0 if here and kin else 1 if here
                else 2 if subject in s.passage.entities else 3, is_spoken(s.text))

    return sorted(ranked, key=tier)  # stable: the ranker's order within each tier

