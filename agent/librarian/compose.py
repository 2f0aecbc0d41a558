"""The offline model's answer: sentences copied from the best passages, each cited.

Extractive on purpose: every claim is words of the text, so every citation checks out.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from agent.librarian.analysis import QueryPlan
from agent.librarian.evidence_answers import evidence_only, picked_answer
from agent.librarian.extract import Candidate
from agent.librarian.quoting import (
    MAX_CITED,
    bearing,
    best_sentence,
    cite_lines,
    distinct,
    question_words,
    quotable,
    quote_sentences,
)
from agent.librarian.ranking import Sentence, chosen
from agent.librarian.relation_quotes import (
    pair_named_first,
    stating_first,
    steps_stated_first,
    subject_named_first,
)
from agent.librarian.relations import (
    against_seniority,
    answering_relation,
    asked_relations,
    linking_path,
    related_answers,
    relation_lines,
    relative_by_path,
)
from agent.librarian.relatives_named import asks_for_a_relative, asks_of_a_relative
from agent.schemas import Answer, Citation, Passage, Relation
from stores.entities.kinship import Statement
from stores.lang import asked_thing, asks
from stores.lang.asking import (
    RELATION_CUES,
    RELATION_VERBS,
    content_query,
    known_given_name,
    name_like,
    wanted_gender,
)
from stores.lang.text import fold_latin
from stores.lang.zh import OPENING_NAME, POINTING
from stores.models import chapter_label

WHO = asks("person_named")
MANY = asks("many")
"""A who-question that asks for more than one person."""


def missing_words(terms: Sequence[str], in_world: Callable[[str], bool]) -> list[str]:
    """The question's words that the world's text never uses."""
    return [t for t in terms if not in_world(t) and not t.startswith(POINTING)]


def strangers(plan: QueryPlan, missing: Sequence[str], in_world: Callable[[str], bool]) -> list[str]:
    """Names in the question that the world's text never mentions (张三丰, Oxford, Sherlock),
    as the question writes them."""
    words = re.findall(r"[^\W\d_]+", plan.question)
    found = [next((w for w in words if fold_latin(w) == t), t) if t.isascii() else t
             for t in missing if name_like(t, plan.question) and not known_given_name(t, in_world)]
    opening = _OPENING_NAME.match(plan.question.strip())
    # not a name the world knows with a particle after it (孙坚是 …, 宝玉在 …); beside one it
    # knows, still a stranger (李慕白和沈砚是什么关系)
    if opening and not any(opening.group(1) in e or e in opening.group(1)
                           for e in plan.entities) and not in_world(opening.group(1)[:2]) \
            and not in_world(opening.group(1)) and not known_given_name(opening.group(1), in_world) \
            and not any(opening.group(1) in f or f in opening.group(1) for f in found):
        found.insert(0, opening.group(1))  # 王大锤是怎么死的: cut up as 王 / 大锤
    return found


_OPENING_NAME = re.compile(OPENING_NAME)


def unsettled(plan: QueryPlan, missing: Sequence[str], absent: Sequence[str]) -> bool:
    """The question leans on what the text never mentions: a name, or two or more stretches of
    words (电脑 and 型号). Whatever the passages say, they cannot settle it, so the answer is
    evidence. It is not refused: a reader asks in their own words and names (bench/tune.py
    ablate over seven sets: refusing on missing words caught 3 of 12 unanswerable development
    questions and 0 of 16 held-out ones, and refused 6 answerable held-out ones; refusing on a
    missing name caught 4 and 0, and refused 1)."""
    return bool(absent) or len(_stretches(missing, plan.question)) >= 2


def _stretches(words: Sequence[str], question: str) -> list[tuple[int, int]]:
    """Where the words stand in the question, overlapping ones merged: the search segmenter
    gives 博物 and 博物馆, 托付 and 付给 — one missing word each, not two."""
    spans = sorted((at, at + len(w)) for w in words if (at := question.find(w)) >= 0)
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    folded = [w for w in words if question.find(w) < 0]  # Latin words are folded: count each
    return merged + [(-1, -1)] * len(folded)


def compose(plan: QueryPlan, ranked: Sequence[Passage], relations: Sequence[Relation],
            terms: Sequence[str], in_world: Callable[[str], bool],
            names_in: Callable[[str], list[str]],
            people_in: Callable[[str], list[str]],
            gender: Callable[[str], str], picked: Sequence[Candidate] = (),
            say: Callable[[str], str] = str, sentences_ranked: Sequence[Sentence] = (),
            forms: Callable[[str], list[str]] = lambda name: [],
            said_in: Callable[[str], list[Statement]] = lambda text: [],
            spans_in: Callable[[str], list[tuple[int, int, str]]] = lambda text: []) -> Answer:
    """An extractive answer citing the best passages, or a clear 'not in the text'. Its first
    line is the sentence most likely to answer (`sentences_ranked`: the evidence's sentences, by
    agent/librarian/ranking.py), then at most two more that add something new. A question
    after one thing names the candidate the fitted weights put first (`picked`,
    agent/librarian/extract.py), as `say` names it, when it is sure enough, before the sentence
    that names it; otherwise the candidate is kept as the likely referent. A who-question whose
    relation the world knows is answered with the relative. `forms` gives a name's aliases,
    `said_in` the relations a passage's text states (stores/entities/family.py), `spans_in` a
    text's mentions as (start, end, name)."""
    if not ranked:
        return not_in_text(plan)
    # 孙权的哥哥 is not the younger brother the text names (孙权弟孙翊)
    relations = [r for r in relations if not against_seniority(plan, r, said_in)]
    missing = missing_words(terms, in_world)
    absent = strangers(plan, missing, in_world)
    words = [w for w in tokens_of(plan.question) if w not in plan.entities]
    many = bool(MANY.search(plan.question))
    # 曹操的父亲是怎么死的 asks how a relative died, not who they are: no relation line answers
    bare = (plan.asks_relation and not asks_of_a_relative(plan.question, spans_in)
            and (asks_only_the_relation(plan) or asks_for_a_relative(plan.question, spans_in)))
    # "What is the name of Emma's father?", 曹丕的父亲叫什么名字: a relative's name asks who
    who = bool(WHO.search(plan.question)) or (bare and asked_thing(plan.question) == "name")
    candidates = weigh_people(plan, ranked, words, people_in) if who else []
    people = [c.name for c in candidates[:2] if c.votes >= candidates[0].votes / 2]
    related = related_answers(plan, relations) if bare else []
    if related and (want := wanted_gender(plan.question, plan.mentions)):
        # Haydée's mother: not her father, though both are her parents (but 韩夫人是谁的女儿:
        # the daughter is the one named, the parent asked for may be either)
        related = ([n for n in related if gender(n) == want]
                   + [n for n in related if not gender(n)])
    supported = False  # the votes name the right person too rarely to be stated
    if bare and plan.relation and len(plan.entities) == 1 and not related:
        kind = plan.relation[0]
        if found := relative_by_path(plan, relations, gender,
                                     wanted_gender(plan.question, plan.mentions)):
            # Who is Henry Tilney's father? — asked as how the one two steps reach is related
            plan = dataclasses.replace(plan, entities=[found[0], *plan.entities],
                                       how_related=True)
        else:
            sentences_ranked = subject_named_first(sentences_ranked, kind, plan.entities[0],
                                                   spans_in)
    if related and who:
        # a relation of the kind asked for, declared by the world or stated by a sentence of
        # the text (the daughter of Tobias Wren), which is cited first: that is the support
        people = related
        supported = True
        # cite first where the answer meets the one asked about, not where the question's
        # words happen to stand (an English chapter about someone else's "disciples")
        ranked = sorted(ranked, key=lambda p: not _meets(p, plan.entities[0], related))
        sentences_ranked = [s for s in sentences_ranked
                            if _meets(s.passage, plan.entities[0], related)] or sentences_ranked
        # and the sentence that states the relation before any other where they meet
        sentences_ranked = stating_first(
            sentences_ranked, answering_relation(plan, asked_relations(plan, relations),
                                                 related[0]), forms, said_in)
    elif picked and not (plan.how_related and len(plan.entities) > 1):  # Who is A to B?
        return picked_answer(plan, picked, ranked, terms, names_in, say,
                             unsettled(plan, missing, absent), absent, sentences_ranked, forms)
    if bare and len(plan.entities) > 1:
        # "how is A related to B": the sentence that states the relation the line names first,
        # else one that names both
        asked = asked_relations(plan, relations)
        relation = answering_relation(plan, asked)
        if path := linking_path(plan, asked):
            sentences_ranked = steps_stated_first(sentences_ranked, path, forms, said_in)
        elif relation is not None:
            sentences_ranked = stating_first(sentences_ranked, relation, forms, said_in)
        else:
            sentences_ranked = pair_named_first(sentences_ranked, plan.entities[:2], spans_in,
                                                relations)
    leading = chosen(sentences_ranked, MAX_CITED)
    if leading:
        cited, citations = quote_sentences(leading, question_words(plan, terms))
    else:
        cited = distinct(ranked, MAX_CITED)
        citations = [Citation(chunk_id=p.chunk_id, chapter=p.chapter, source=p.source,
                              lines=p.lines, quote=best_sentence(p, terms, plan, names_in, people))
                     for p in cited]
    cited, citations = bearing(plan, cited, citations, terms)
    pair = len(plan.entities) > 1 or any(r.type != "co_occurs" for r in relations)
    # a pair no typed relation joins has no line: its quotes alone are no answer
    lines = [line for line in (relation_lines(plan, asked_relations(plan, relations),
                                              next(iter(related), ""), gender, say, said_in)
                               if bare and pair else []) if line]
    if people and citations:
        quoted = [n for n in people_in(citations[0].quote) if n not in plan.entities]
        # "哪三个人" wants everyone the best sentence names (or every relative the relation
        # has: 顾怀山的徒弟有谁); "谁" wants the one the votes or the relation chose
        if not many:
            named = people[:1]
        elif related:
            named = related
        else:
            named = quoted if len(quoted) > 1 else people[:1]
        if not supported or unsettled(plan, missing, absent):
            return evidence_only(plan, cited, citations, lines, named, absent, say)
        if not (lines and all(say(n) in lines[0] for n in named)):  # said once, not twice
            shown_names = [say(n) for n in named]
            lines.append(("、".join(shown_names) + "。") if plan.chinese
                         else (", ".join(shown_names) + "."))
        subjects = list(dict.fromkeys([*named, *plan.entities]))
        return Answer(text="\n".join(line for line in [*lines, *cite_lines(plan, cited, citations, say)]
                                     if line), citations=citations, entities=subjects[:6])
    subjects = _answer_entities(plan, citations, names_in)
    if unsettled(plan, missing, absent):
        return evidence_only(plan, cited, citations, lines, subjects, absent, say)
    # quotes alone, the best sentence first, state nothing of the reader's own; a relation line
    # is made only from a typed relation (that two names share passages says nothing of how
    # they are related)
    if not lines:
        return evidence_only(plan, cited, citations, lines, subjects, absent, say)
    return Answer(text="\n".join(line for line in [*lines, *cite_lines(plan, cited, citations, say)]
                                 if line), citations=citations, entities=subjects)


QUALIFIED = 2
"""A relation question with this many content words besides its names and relation words asks
more than the relation (Andrea's *real* father *according to his testimony in court*): the graph
holds what the text says most often, not which of its sayings is true or when it held."""


def asks_only_the_relation(plan: QueryPlan) -> bool:
    """The question asks who someone's relative is, or how two are related, and nothing more
    (沈青崖唯一的弟子是谁, Who is Haydée's father?, What is Edmond's relation to Louis?)."""
    rest = plan.question
    for mention in sorted(plan.mentions, key=len, reverse=True):
        rest = rest.replace(mention, " ")
    for pattern, _, _ in (*RELATION_CUES, *RELATION_VERBS):
        rest = pattern.sub(" ", rest)
    return len(tokens_of(rest)) < QUALIFIED


def _meets(passage: Passage, subject: str, others: Sequence[str]) -> bool:
    return subject in passage.entities and any(o in passage.entities for o in others)


@dataclass(frozen=True)
class Voted:
    """Someone the best passages put forward as a who-question's answer."""

    name: str
    votes: float
    """Sentences naming them, weighted by how much of the question each holds and by rank."""


def weigh_people(plan: QueryPlan, ranked: Sequence[Passage], words: Sequence[str],
                 names_in: Callable[[str], list[str]], top: int = 5) -> list[Voted]:
    """Everyone the question does not name, voted for by the sentences of the best passages
    in proportion to how much of the question each sentence holds (云长提华雄之头 … 酒尚温时斩华雄
    → 关羽), most votes first."""
    votes: dict[str, float] = {}
    for rank, passage in enumerate(ranked[:top]):
        for sentence in quotable(passage.text):
            named = names_in(sentence)
            held = sum(len(w) for w in words if w in sentence)
            weight = held + sum(2 for n in named if n in plan.entities)
            for name in named:
                if name not in plan.entities and weight:
                    votes[name] = votes.get(name, 0.0) + weight / (1 + rank)
    return [Voted(n, v) for n, v in sorted(votes.items(), key=lambda kv: -kv[1])]


def within_horizon(answer: Answer, horizon: int, chinese: bool, later: int = 0,
                   quotes_only: bool = False) -> Answer:
    """An answer that states nothing, read under a spoiler horizon, says how far the text was
    read: what was asked may well be told after it (Nothing up to chapter 3 says …); when a
    passage past the horizon holds more of the question (`later`: its chapter), it says that
    the horizon hides it — without telling what it says. `quotes_only`: the answer states
    nothing of its own, whatever its stop reason."""
    if not horizon or (answer.stop_reason not in ("not_in_text", "evidence") and not quotes_only):
        return answer
    if later:
        note = (f"（你的阅读进度是第{horizon}回：这件事可能在之后的章节才讲到，已隐藏。）" if chinese
                else f"(Your horizon is chapter {horizon}: the story may tell this later; "
                     f"what it says there is hidden.)")
        answer = answer.model_copy(update={"text": f"{answer.text}\n{note}"})
    lead = f"到{chapter_label(horizon, True)}为止，" if chinese else f"Up to chapter {horizon}: "
    first, _, rest = answer.text.partition("\n")
    if not chinese and first == NOT_IN_TEXT_EN:  # not "…says it: the text does not say: …"
        lead, first = "", f"Nothing up to chapter {horizon} answers this question."
    if (lead and not chinese and first[:1].isupper()
            and not first.startswith(("The text never", "I "))):
        first = first[:1].lower() + first[1:]  # not "I could not pick out…"
    return answer.model_copy(update={"text": "\n".join(filter(None, [lead + first, rest]))})


NOT_IN_TEXT_EN = "The text does not say: no passage answers this question."


def not_in_text(plan: QueryPlan) -> Answer:
    text = "原文中没有找到能回答这个问题的内容。" if plan.chinese else NOT_IN_TEXT_EN
    return Answer(text=text, entities=list(plan.entities), stop_reason="not_in_text")


def _answer_entities(plan: QueryPlan, citations: Sequence[Citation],
                     names_in: Callable[[str], list[str]]) -> list[str]:
    """What the answer is about, its new subject first: who the first quote names that the
    question did not (刘备三顾茅庐请的是谁 → 诸葛亮), then the question's own entities."""
    quoted = names_in(citations[0].quote) if citations else []
    fresh = [name for name in quoted if name not in plan.entities]
    return list(dict.fromkeys([*fresh[:2], *plan.entities]))[:6]


def tokens_of(question: str) -> list[str]:
    """Every content word of the question, single characters included (斩, 请)."""
    from stores.keyword.segment import stock_tokens

    return [t for t in stock_tokens(content_query(question)) if t.strip()]
