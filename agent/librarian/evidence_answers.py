"""Answers that state nothing of the reader's own: the evidence alone, the sentence most likely
to answer first as the nearest found (`evidence_only`), and an answer around the candidate the
picker put first (agent/librarian/extract.py), named when it is sure enough, else kept as the
likely referent among what the answer is about (`picked_answer`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from agent.librarian.analysis import QueryPlan
from agent.librarian.extract import NUMBER, Candidate, stated
from agent.librarian.quoting import (
    MAX_CITED,
    MAX_QUOTE,
    bearing,
    best_sentence,
    cite_lines,
    distinct,
    question_words,
    quote_sentences,
    unlabelled,
)
from agent.librarian.ranking import Sentence, chosen, containing
from agent.schemas import Answer, Citation, Passage
from stores.lang import clip
from stores.lang.asking import nearest

FIRST_LINE_GUESS = 0.5
"""The first line's candidate is the second guess when the picker gives it this share of the best
one's probability or more."""
GUESSES = 3
"""An unsure answer's candidates kept among what it is about, most probable first."""


def picked_answer(plan: QueryPlan, picked: Sequence[Candidate], ranked: Sequence[Passage],
                  terms: Sequence[str], names_in: Callable[[str], list[str]],
                  say: Callable[[str], str], unsure: bool, absent: Sequence[str],
                  lines: Sequence[Sentence] = (),
                  forms: Callable[[str], list[str]] = lambda name: []) -> Answer:
    """The candidate stated in a plain sentence, then the sentence it stands in (cited first:
    what the answer states stands in what it cites), then more evidence; or, when it is not
    sure enough, the evidence alone in its ranked order, the candidate's sentence among it and
    the candidate first among what the answer is about, so a follow-up's 他 / she means it.
    (Leading with an unsure candidate's sentence put a gold chapter first for 61 of 175
    development answers that were evidence, the ranked order for 111: demo, 三国演义, Monte
    Cristo, FairytaleQA on the e5 worlds.) Unsure, the next candidates follow it among what the
    answer is about (GUESSES in all), so a she that the first cannot be still finds the likely
    woman."""
    best = picked[0]
    first = next(p for p in ranked if p.chunk_id == best.best_chunk)
    sure = stated(best) and not unsure
    if lines:
        return _picked_from(plan, picked, lines, sure, absent, say, forms, terms)
    best_ranked = distinct(ranked, MAX_CITED)
    if sure:
        cited = [first, *(p for p in best_ranked if p.chunk_id != first.chunk_id)][:MAX_CITED]
    elif any(p.chunk_id == first.chunk_id for p in best_ranked):
        cited = best_ranked
    else:  # the guess's own sentence among the evidence, last
        cited = [*best_ranked[:MAX_CITED - 1], first]
    citations = [Citation(chunk_id=p.chunk_id, chapter=p.chapter, source=p.source, lines=p.lines,
                          quote=clip(unlabelled(p, best.best_sentence.strip()), MAX_QUOTE)
                          if p is first and best.best_sentence.strip() else
                          best_sentence(p, terms, plan, names_in, [best.name])) for p in cited]
    cited, citations = bearing(plan, cited, citations, terms, first.chunk_id)
    about = [] if best.kind == NUMBER else [best.name]
    if not sure:
        about = [c.name for c in picked[:GUESSES] if c.kind != NUMBER]
        return evidence_only(plan, cited, citations, [], about, absent, say)
    lead = f"{say(best.name)}。" if plan.chinese else f"{say(best.name)}."
    return Answer(text="\n".join([lead, *cite_lines(plan, cited, citations, say)]),
                  citations=citations, entities=list(dict.fromkeys([*about, *plan.entities]))[:6])


def _picked_from(plan: QueryPlan, picked: Sequence[Candidate], lines: Sequence[Sentence],
                 sure: bool, absent: Sequence[str], say: Callable[[str], str],
                 forms: Callable[[str], list[str]], terms: Sequence[str]) -> Answer:
    """`picked_answer` when the evidence's sentences are ranked: sure, the candidate named first
    on the line of the best sentence that names it; unsure, the ranked sentences alone."""
    best = picked[0]
    about = [] if best.kind == NUMBER else [best.name]
    if not sure:
        quoted = chosen(lines, MAX_CITED)
        own = containing(lines, best.name, forms(best.name))
        if best.kind != NUMBER and own is not None and own not in quoted:
            # the likely answer's own sentence stays among the evidence, last: what the stack's
            # guess stands on is there to read
            quoted = [*quoted[:MAX_CITED - 1], own]
        cited, citations = quote_sentences(quoted, question_words(plan, terms))
        cited, citations = bearing(plan, cited, citations, terms)
        # the guesses: the picker's likeliest, then the one the first line names (what the user
        # read first), then the picker's next. Leading with the first line's (when the picker
        # gave it half the best's probability or more) resolved one more 三国演义 follow-up of
        # 35 (sgd-04) and lost the acceptance dialogue on 8 chapters (徐庶's poem line first,
        # 0.23 against 诸葛亮's 0.24): not enough to lead with it.
        first_quote = citations[0].quote if citations else ""
        in_first = [c.name for c in picked if c.kind != NUMBER and any(
            f and f in first_quote for f in (c.name, *forms(c.name)))
            and c.probability >= FIRST_LINE_GUESS * picked[0].probability]
        likeliest = [c.name for c in picked[:GUESSES] if c.kind != NUMBER]
        about = list(dict.fromkeys([*likeliest[:1], *in_first[:1], *likeliest[1:]]))[:GUESSES]
        return evidence_only(plan, cited, citations, [], about, absent, say)
    first = containing(lines, best.name, forms(best.name))
    cited, citations = quote_sentences(chosen(lines, MAX_CITED, first),
                                        question_words(plan, terms))
    cited, citations = bearing(plan, cited, citations, terms, cited[0].chunk_id)
    cite = cite_lines(plan, cited, citations, say)
    lead = f"{say(best.name)}。" if plan.chinese else f"{say(best.name)}. "
    return Answer(text="\n".join([lead + cite[0], *cite[1:]]), citations=citations,
                  entities=list(dict.fromkeys([*about, *plan.entities]))[:6])


def evidence_only(plan: QueryPlan, cited: Sequence[Passage], citations: Sequence[Citation],
                  lines: Sequence[str], about: Sequence[str], absent: Sequence[str] = (),
                  say: Callable[[str], str] = str) -> Answer:
    """The sentences that matter, marked as evidence: no name is stated as the answer, and the
    sentence most likely to answer comes first. The one the sentences put forward stays first
    among what the answer is about (`about`): a follow-up's "他" means the person the user just
    read about (bench/questions/sanguo_dialogues.jsonl: follow-ups resolved right 0.78 with it,
    0.48 with the question's own names only)."""
    lead = ""
    if absent:  # say what the text never mentions: the reader may have another story in mind
        lead = (f"原文中没有提到{'、'.join(f'“{n}”' for n in absent)}。" if plan.chinese
                else f"The text never mentions {', '.join(absent)}.")
    evidence = cite_lines(plan, cited, citations, say)
    # quotes alone lead with the nearest the evidence has, whichever path chose them: no score
    # of the ranking or the picker tells a sentence that answers from one that does not (of the
    # development answers whose best sentence scored above the split once meant to, 7 of 10 did
    # not hold the answer); relation questions too, which reach here with no relation the world
    # knows ("Who does Anne marry at the end?" led plainly with “We do so wish that Charles had
    # married Anne instead”, a newcomer's trial on Persuasion), and chapter questions, whose
    # answer is the sentence's chapter ("Which chapter does Louisa fall from the Cobb in?" led
    # plainly with ch. 18's look back on the fall, which happens in ch. 12); not a quotation
    # looked up word for word (“分久必合，合久必分”是在哪一回？), whose chapter is where it stands
    if evidence and not lines and not (plan.asks_chapter and plan.quote):
        evidence[0] = nearest(evidence[0])
    text = "\n".join(line for line in [lead, *lines, *evidence] if line)
    return Answer(text=text, citations=list(citations),
                  entities=list(dict.fromkeys([*about, *plan.entities]))[:6], stop_reason="evidence")
