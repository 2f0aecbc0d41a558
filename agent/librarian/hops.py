"""Multi-hop questions: find who the description stands for, then ask the rest about them.

温酒斩华雄的那位将军最后败走的是哪座城？ is two questions: who 温酒斩华雄 (关羽, 第五回), and where
关羽 最后败走 (麦城, 第七十六回). Round 1 searches the description beside the whole question;
the people the description's best sentences name are voted for (the bridge); round 2 searches
the rest of the question within the bridge's passages. The evidence interleaves both hops, so
an answer stands on each of them.

Measured (multi_hop recall@5, before → after): 三国演义 0.42 → 0.54, Monte Cristo 0.20 → 0.40,
demo 0.56 → 0.78; FairytaleQA's summary questions (no described subject) 0.55 → 0.56. A close
runner-up of the vote is asked about too (长坂坡救出的孩子: 黄忠 and 张著 outvote 刘禅 from the
description's sentences). A search around the chapter where a bridge fades from the story
(its death) was removed: it helped only 三国演义, the book it was written for (bench/tune.py
ablate -fade-all: 三国演义 0.86 → 0.82 without it, the six other sets unchanged).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from agent.librarian.analysis import DEATH_WORDS_EN, DEATH_WORDS_ZH, QueryPlan
from agent.librarian.strategy import Step, first_steps
from stores.lang.asking import content_query

HOP1 = "hop1"
HOP2 = "hop2:"


def hop_steps(plan: QueryPlan, desc: QueryPlan) -> list[Step]:
    """Round 1 of a multi-hop question: its description searched as a question of its own
    (`desc`: its names filter, its death words look for a death …) and the whole question by
    a hybrid search."""
    return [*(dataclasses.replace(step, label=HOP1) for step in first_steps(desc)),
            Step("vector_search", {"query": plan.question, "top_k": 20}, 0.6, "hybrid")]


def bridge_steps(plan: QueryPlan, bridges: Sequence[str]) -> list[Step]:
    """Round-2 searches: the rest of the question within each bridge's passages."""
    if not plan.hops:
        return []
    rest = content_query(plan.hops[1]) or plan.hops[1]
    if plan.about_death:
        rest = f"{rest} {DEATH_WORDS_ZH if plan.chinese else DEATH_WORDS_EN}"
    steps = []
    for name in bridges:
        steps += [Step("vector_search", {"query": rest, "top_k": 10, "entity": name}, 1.0,
                       HOP2 + name),
                  Step("keyword_search", {"query": f"{name} {rest}", "top_k": 10}, 1.0,
                       HOP2 + name)]
    return steps


def interleave(first: Sequence, seconds: Sequence[Sequence], key=lambda p: p.chunk_id) -> list:
    """Both hops' evidence, alternating: the description's best passage, then the best of each
    bridge, then the next of each … (duplicates once, where they first come)."""
    out, seen = [], set()
    lists = [list(first), *map(list, seconds)]
    for rank in range(max((len(x) for x in lists), default=0)):
        for ranking in lists:
            if rank < len(ranking) and key(ranking[rank]) not in seen:
                seen.add(key(ranking[rank]))
                out.append(ranking[rank])
    return out


def vote(ranked: Sequence, words: Sequence[str], weight_of, names_in, exclude: Sequence[str],
         sentences_of, top: int = 5) -> list[tuple[str, float]]:
    """People named in the sentences of the best passages, each sentence voting with the summed
    rarity of the description's words it holds (a shared 在 or 出 counts for little, 长坂 for
    much), discounted by the passage's rank. (name, votes), most voted first."""
    votes: dict[str, float] = {}
    for rank, passage in enumerate(ranked[:top]):
        for sentence in sentences_of(passage.text):
            weight = sum(weight_of(w) for w in words if w in sentence)
            if not weight:
                continue
            for name in names_in(sentence):
                if name not in exclude:
                    votes[name] = votes.get(name, 0.0) + weight / (1 + rank)
    return sorted(votes.items(), key=lambda kv: -kv[1])
