"""How the offline model searches: which tool calls a question gets, and how their results
are fused into one ranked list of evidence.

Each question kind gets the calls that earn their keep on it (measured on bench/questions, and
kept only where they also help books they were not written for: bench/tune.py ablate):
names → an entity-filtered search beside the open one; "which chapter" → chapter titles;
deaths → the entity's passages searched with the words a story uses for dying; relations →
the graph's evidence passages and, for "what is A's relation to B", A's passages searched
with B and the words for kin and rank; quotes → BM25 on the quoted words.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from agent.librarian.analysis import (
    DEATH_WORDS_EN,
    DEATH_WORDS_ZH,
    KIN_WORDS_EN,
    KIN_WORDS_ZH,
    QueryPlan,
)
from agent.librarian.relations import named_pairs
from agent.schemas import Memory, Passage, Relation, TimelineEvent
from agent.world.fusion import rrf
from stores.keyword.segment import stock_tokens
from stores.lang.asking import content_query
from stores.protocols import Hit


@dataclass
class Step:
    """One tool call the offline model makes."""

    tool: str
    args: dict[str, Any]
    weight: float = 1.0
    """How much this call's ranking counts in the fusion."""
    label: str = ""


@dataclass
class Results:
    """Tool results of a run, in call order."""

    lists: list[tuple[Step, list[Passage]]] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    timeline: list[TimelineEvent] = field(default_factory=list)
    memories: list[Memory] | None = None
    """What `recall_session` gave (None: it was not called)."""


EN_WEIGHTS = (2.0, 0.5)
"""English (BM25, entity-filtered search) weights in the fusion."""
ZH_WEIGHTS = (1.0, 1.0)
"""Chinese (BM25, entity-filtered search) weights in the fusion."""
CHAPTER_WEIGHT = 2.0
"""The weight of the searches inside the chapters a question names: what it asks is there."""
HYBRID_WEIGHT = 0.6
"""The open hybrid (dense + BM25) search's weight in the fusion, in every language."""


def first_steps(plan: QueryPlan) -> list[Step]:
    """The first round of tool calls for a question."""
    q = plan.question
    terms = content_query(q) or q
    # Measured on bench/questions: for English, where the dense side is weak, BM25 must lead
    # (Monte Cristo recall@5 0.51 -> 0.56); the same weights cost 三国演义 0.02, so they differ.
    keyword_weight, entity_weight = ZH_WEIGHTS if plan.chinese else EN_WEIGHTS
    steps = [Step("keyword_search", {"query": terms, "top_k": 20}, keyword_weight, "bm25"),
             Step("vector_search", {"query": q, "top_k": 20}, HYBRID_WEIGHT, "hybrid")]
    if plan.chapters:  # "Who visits Sotherton in chapter 9?": that chapter's passages first
        within = {"start": min(plan.chapters), "end": max(plan.chapters)}
        steps += [Step("keyword_search", {"query": terms, "top_k": 10, "chapter_range": within},
                       CHAPTER_WEIGHT, "chapter"),
                  Step("vector_search", {"query": q, "top_k": 10, "chapter_range": within},
                       CHAPTER_WEIGHT, "chapter")]
    main = plan.entities[0] if plan.entities else None
    if plan.kind == "exact" and plan.quote:
        steps.insert(0, Step("keyword_search", {"query": plan.quote, "top_k": 10}, 2.0, "quote"))
    if main:
        # The names as written leave the entity query too (云长温酒斩 searched "云长温酒斩"
        # within 关羽's passages; "温酒斩" finds 回5): 三国演义 alias recall 0.80 → 0.90.
        rest = entity_rest(plan, terms)
        steps.append(Step("vector_search", {"query": rest, "top_k": 20, "entity": main},
                          entity_weight, "entity"))
        if plan.death_subject:
            steps += death_steps(plan.death_subject, rest, plan.chinese)
    if plan.kind == "relational" and main:
        if len(plan.entities) > 1:
            # every pair of the (at most three) people named: 司马师、司马昭和司马懿是什么关系
            steps += [Step("graph_search", {"entity": a, "other": b}, 1.0, "graph")
                      for a, b in named_pairs(plan.entities)]
        else:
            steps.append(Step("graph_search", {"entity": main}, 1.0, "graph"))
        if len(plan.entities) > 1 and plan.how_related:
            # "What is A's relation to B": the pair's passages that use a word for kin or rank
            # (with the kin concept of grading: Monte Cristo relation recall 0.36 → 0.50).
            cues = KIN_WORDS_ZH if plan.chinese else KIN_WORDS_EN
            steps.append(Step("vector_search", {"query": f"{plan.entities[1]} {cues}",
                                                "top_k": 20, "entity": main}, 1.0, "kin"))
    if plan.kind == "temporal" and main:
        steps.append(Step("track_entity", {"entity": main}, 0.0, "timeline"))
    return steps


def entity_rest(plan: QueryPlan, terms: str) -> str:
    """The search terms without the names as written (云长温酒斩 → 温酒斩): what to look for
    within the named one's passages."""
    rest = re.sub(r"['’]s\b", " ", terms)
    for name in sorted({*plan.entities, *plan.mentions}, key=len, reverse=True):
        rest = rest.replace(name, " ")
    return " ".join(rest.split()) or terms


def bridge_entities(plan: QueryPlan, ranked: list[Passage], limit: int = 2) -> list[str]:
    """Entities the best passages are about that the question does not name: the person a
    multi-hop question describes (三顾茅庐请出山的那位军师 → 诸葛亮)."""
    weights: dict[str, float] = {}
    for rank, passage in enumerate(ranked[:3]):
        for position, name in enumerate(passage.entities[:4]):
            if name not in plan.entities:
                weights[name] = weights.get(name, 0.0) + 1.0 / (1 + rank) / (1 + position)
    return [n for n, _ in sorted(weights.items(), key=lambda kv: -kv[1])[:limit]]


def second_steps(plan: QueryPlan, ranked: list[Passage]) -> list[Step]:
    """A second round for questions that describe their subject instead of naming it."""
    if not plan.multi_hop:
        return []
    rest = content_query(plan.question)
    steps: list[Step] = []
    for name in bridge_entities(plan, ranked):
        if plan.about_death:
            steps += death_steps(name, rest, plan.chinese)
        else:
            steps.append(Step("vector_search", {"query": rest, "top_k": 10, "entity": name},
                              1.0, f"bridge:{name}"))
    return steps


def death_steps(entity: str, rest: str, chinese: bool) -> list[Step]:
    """A death is told in the words a story uses for dying, often without the person's name
    (先主…崩于永安宫): search the entity's passages and the whole text for them."""
    words = DEATH_WORDS_ZH if chinese else DEATH_WORDS_EN
    return [Step("vector_search", {"query": f"{rest} {words}", "top_k": 20, "entity": entity},
                 1.5, "death"),
            Step("keyword_search", {"query": f"{entity} {words}", "top_k": 20}, 1.0,
                 "death-words")]


SHARED_TITLE_WORD = 3
"""A word in more chapter titles than this names a part or a story (FairytaleQA titles every
section with its story's name), not an event: it makes no title the answer's."""


@lru_cache(maxsize=4096)
def _title_words(title: str) -> frozenset[str]:
    """A title's Latin words, folded and stemmed as the search stems the question's (cemetery →
    cemeteri); cached, since every question reads the same titles."""
    return frozenset(t for t in stock_tokens(title) if t.isascii())


def in_title(term: str, title: str) -> bool:
    """The question's term is a word of the title: a whole Latin word of four letters or more,
    or Han text of two characters or more."""
    if term.isascii():
        return len(term) >= 4 and term in _title_words(title)
    return len(term) >= 2 and term in title


def title_chapters(terms: list[str], titles: dict[int, str], limit: int = 2) -> list[int]:
    """Chapters whose titles share the most words with the question (回 titles name events
    the text never names: 借箭, 三顾草庐)."""
    terms = [t for t in terms
             if sum(in_title(t, title) for title in titles.values()) <= SHARED_TITLE_WORD]
    scored = []
    for chapter, title in titles.items():
        hits = [t for t in terms if in_title(t, title)]
        if hits:
            scored.append((sum(len(t) for t in hits), -chapter, chapter))
    return [c for *_, c in sorted(scored, reverse=True)[:limit]]


def title_steps(plan: QueryPlan, titles: dict[int, str], min_chars: int = 0) -> list[Step]:
    """Search inside the chapters whose titles share words with the question; `min_chars` asks
    for that many matched characters (an open question needs more than a 'which chapter' one)."""
    terms = [t for t in stock_tokens(content_query(plan.question)) if t not in plan.entities]
    if min_chars:
        # An open question's names do not make a title the answer's chapter (What did Sinbad
        # the Sailor's letter tell Julie to fetch? is not chapter 31, "Italy: Sinbad the
        # Sailor"); a 'which chapter' question's place names may (The Château d'If).
        named = set(stock_tokens(" ".join([*plan.mentions, *plan.entities])))
        terms = [t for t in terms if t not in named]
    chapters = [c for c in title_chapters(terms, titles)
                if sum(len(t) for t in terms if in_title(t, titles[c])) >= min_chars]
    return [Step("keyword_search", {"query": content_query(plan.question) or plan.question,
                                    "top_k": 3, "chapter_range": {"start": c, "end": c}},
                 1.5, f"title:{c}") for c in chapters]


def death_title_steps(subject: str, titles: dict[int, str], chapters_of_subject: list[int],
                      chinese: bool, limit: int = 1) -> list[Step]:
    """The chapter whose title tells of a death ("The Suicide", 陨大星汉丞相归天) and where the
    person asked about is most talked about: titles name the event in words the question
    does not use (the Count de Morcerf shoots himself → Chapter 92, The Suicide)."""
    words = (DEATH_WORDS_ZH if chinese else DEATH_WORDS_EN).split()
    stems = set(stock_tokens(DEATH_WORDS_EN))  # titles' words are stemmed: The Suicide → suicid
    counts = Counter(chapters_of_subject)
    chosen = []
    for chapter, title in titles.items():
        told = any(w in title for w in words) if chinese else bool(stems & _title_words(title))
        if told and counts[chapter] >= 2:
            chosen.append((counts[chapter], chapter))
    return [Step("keyword_search", {"query": f"{subject} {' '.join(words)}", "top_k": 3,
                                    "chapter_range": {"start": c, "end": c}}, 1.5, f"title:{c}")
            for _, c in sorted(chosen, reverse=True)[:limit]]


def diversify(ranked: list[Passage], per_chapter: int = 2, head: int = 5) -> list[Passage]:
    """At most `per_chapter` passages of one chapter among the first `head`, so a question
    whose answer spans chapters is not crowded out by one chapter's passages."""
    top: list[Passage] = []
    rest: list[Passage] = []
    counts: dict[int, int] = {}
    for passage in ranked:
        if len(top) < head and counts.get(passage.chapter, 0) < per_chapter:
            top.append(passage)
            counts[passage.chapter] = counts.get(passage.chapter, 0) + 1
        else:
            rest.append(passage)
    return top + rest


GRADE_FLOOR = 0.25
"""A passage's fused score is multiplied by (GRADE_FLOOR + its question coverage), so a passage
that covers nothing keeps a fifth of the score of one that covers everything (0.25 and 1.0
measured the same on the development sets)."""
DROP_BELOW = 0.0
"""Passages covering no more than this share of the question leave the evidence (0.2 measured
the same as 0.0 on every set: such passages never reached the top five)."""
DENSE_TOOL = "vector_search"
"""The call that finds passages by meaning, not by the question's words."""
VOUCHING = ("title:",)
VOUCHED = 1.0
"""The coverage a passage found through the story's structure counts at least: a chapter whose
title names the event tells of it in other words than the question's (陨大星汉丞相归天 for
诸葛亮之死). Without it grading cost the timeline questions (三国演义 1.00 → 0.88, Monte
Cristo 1.00 → 0.60); at 0.75 三国演义 answerable was 0.821, at 1.0 0.839."""


def fuse(plan: QueryPlan, results: Results, passages_by_id: dict[str, Passage],
         k: int = 60, grade: Callable[[Passage], float] | None = None) -> list[Passage]:
    """One ranking from every call's results (weighted RRF, scaled by `grade`), best first."""
    scores: dict[str, float] = {}
    for step, passages in results.lists:
        if step.weight <= 0:
            continue
        for hit in rrf([[Hit(p.chunk_id, p.score) for p in passages]], k):
            scores[hit.chunk_id] = scores.get(hit.chunk_id, 0.0) + step.weight * hit.score
    graph_ids = [cid for rel in results.relations for cid in
                 (p.chunk_id for p in rel.evidence)]
    for rank, cid in enumerate(dict.fromkeys(graph_ids), start=1):
        scores[cid] = scores.get(cid, 0.0) + 1.0 / (k + rank)
    if grade is not None:
        vouched = {p.chunk_id for step, passages in results.lists
                   if step.label.startswith(VOUCHING) for p in passages}
        graded = {cid: max(grade(passages_by_id[cid]), VOUCHED if cid in vouched else 0.0)
                  for cid in scores if cid in passages_by_id}
        # A passage that holds nothing of the question is dropped from the evidence; where
        # none holds anything (its words are not the book's: "lodgers" for Kafka's "three
        # gentlemen"), what the vectors found by meaning is kept: the answer is then evidence,
        # not a refusal of a question the text answers in other words
        kept = {cid for cid in scores if graded.get(cid, 0.0) > DROP_BELOW} or {
            p.chunk_id for step, passages in results.lists if step.tool == DENSE_TOOL
            for p in passages}
        scores = {cid: s * (GRADE_FLOOR + graded.get(cid, 0.0)) for cid, s in scores.items()
                  if cid in kept}
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    return diversify([passages_by_id[cid].model_copy(update={"score": s}) for cid, s in ranked
                      if cid in passages_by_id])
