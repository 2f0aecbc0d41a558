"""How the offline reader quotes: the sentence of a passage worth quoting, the sentences that
bear on the question, one passage per chapter first, and the lines that cite them (见第5回「…」：…[1],
In chapter 8 (…): “…” [1]).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from agent.librarian.analysis import QueryPlan
from agent.librarian.extract import quotes
from agent.librarian.ranking import MAX_QUOTE as RANKED_QUOTE
from agent.librarian.ranking import Sentence
from agent.schemas import Answer, Citation, Passage
from stores.entities.kinship import says_kin
from stores.lang import clip, clip_at, clip_through, has_han, in_quotes, shown, without_label
from stores.lang.asking import CITED_FIRST, CITED_MORE, CITED_NEAREST, SAID_BY, WORDS_OF
from stores.lang.text import (
    SentenceRule,
    fold_latin,
    holds_word,
    reading_rule,
    sentences,
    stem,
    word_starts,
)
from stores.models import LORE_CHAPTER, chapter_label

MAX_QUOTE = 140

MAX_CITED = 3

def quotable(text: str, rule: SentenceRule = "clause") -> list[str]:
    """The sentences of a passage worth quoting (four characters or more), as written."""
    return [s.text for s in sentences(text, rule) if len(s.text) >= 4]


# Not asks("who"), the follow-up rules' wider kind: with whose / 叫什么名字 the composer
# stated a name where it quoted the passage (demo-13 and demo-23 answered 沈砚 and 顾青禾, both
# wrong, when the two were one pattern).

def best_sentence(passage: Passage, terms: Sequence[str], plan: QueryPlan,
                  names_in: Callable[[str], list[str]], answer: Sequence[str] = ()) -> str:
    """The passage's sentence that holds the most question words and the question's names,
    and for a who-question the people the answer is about; for a relation, a sentence that
    names it."""
    # an English full stop ends the sentence a quote is cut from (the clause rule would quote a
    # whole paragraph's opening: "She and Eleanor sat on the hatch cover…" for "He died on my
    # sword"); the votes keep the clause rule their figures were measured with
    rule = reading_rule(passage.text)
    candidates = quotable(passage.text, rule) or [passage.text.strip()]

    def score(sentence: str) -> tuple[float, int]:
        low = sentence.lower()
        hits = sum(len(t) for t in terms if t.lower() in low)
        named = names_in(sentence)
        base = hits + sum(2 for n in named if n in plan.entities)
        bonus = sum(3 for n in named if n in answer)
        # "Who was Mira's father?": the sentence that says how they are related
        bonus += 3 if plan.kind == "relational" and base and says_kin(sentence) else 0
        return (base + bonus if base else 0), -abs(len(sentence) - 60)

    return clip(unlabelled(passage, max(candidates, key=score)), MAX_QUOTE)

def unlabelled(passage: Passage, sentence: str) -> str:
    """An entry's sentence without the entry's own label, which its cite line names already
    (见设定「落星崖」：落星崖：白沙江边… → 见设定「落星崖」：白沙江边…)."""
    return without_label(sentence, passage.chapter_title) if passage.chapter == LORE_CHAPTER \
        else sentence

def quote_sentences(chosen_sentences: Sequence[Sentence], words: Sequence[str] = (),
                    ) -> tuple[list[Passage], list[Citation]]:
    """The passages and citations of the sentences an answer quotes, each quoted whole, or a
    long one from the clause where the question's `words` stand (`focused`)."""
    cited = [s.passage for s in chosen_sentences]
    citations = [Citation(chunk_id=p.chunk_id, chapter=p.chapter, source=p.source, lines=p.lines,
                          quote=focused(unlabelled(p, with_speaker(p.text, s.text)), words,
                                        RANKED_QUOTE))
                 for s, p in zip(chosen_sentences, cited, strict=True)]
    return cited, citations


_TOLD_AFTER = re.compile(r"[^\n“”「」『』\"。！？]{1,60}[。！？]?")
"""The telling that goes on after someone's words on the same line, to its sentence's end."""


def with_speaker(text: str, sentence: str) -> str:
    """A Chinese sentence of someone's words alone, with the telling that follows it on its line
    up to the sentence's end, which says whose words they are: 「“我和你困觉，我和你困觉！”阿Ｑ
    忽然抢上去，对伊跪下了。」 was quoted only to its closing mark (a newcomer's trial on 呐喊)."""
    said = sentence.strip()
    if not (has_han(said) and said[:1] in "“「『" and said[-1:] in "”」』"):
        return sentence
    at = text.find(said)
    told = _TOLD_AFTER.match(text, at + len(said)) if at >= 0 else None
    return said + told.group(0) if told and has_han(told.group(0)[:1]) else sentence


def focused(sentence: str, words: Sequence[str], limit: int) -> str:
    """A long sentence quoted so that it holds the densest run of the question's `words`
    (within half the limit): "Who gave Fanny the amber cross?" quoted the first 240 characters
    of a long sentence, cut before "a very pretty amber cross which William had brought her from
    Sicily" (a newcomer's trial on Mansfield Park). From its start, a clause past the run, when
    that is at most LONGER times the limit (the opening names who the sentence is about: “Sir,”
    said d’Épinay to Noirtier, “… tell me … who killed my father”); else from the clause before
    the run (`clip_at`). Cut at the limit from its start (`clip`) when it holds none of them."""
    if len(sentence) <= limit or not words:
        return clip(sentence, limit)
    found = sorted({(at, w) for w in words for at in word_starts(sentence, w)})
    if not found:
        return clip(sentence, limit)

    def run(start: int) -> list[tuple[int, str]]:
        return [(at, w) for at, w in found if start <= at < start + limit // 2]

    # the earliest start of the run holding the most distinct words
    start = max((at for at, _ in found), key=lambda at: (len({w for _, w in run(at)}), -at))
    end = max(at + len(w) for at, w in run(start))
    if end + AFTER_WORDS <= limit:
        return clip(sentence, limit)
    if end <= LONGER * limit:
        return clip_through(sentence, end + AFTER_WORDS, LONGER * limit)
    return clip_at(sentence, start, limit)


LONGER = 2
"""A quote may run to this many times its limit to keep a sentence's opening with the words it
was chosen for (`focused`)."""
AFTER_WORDS = 60
"""A quote keeps at least this many characters after the question's words, the clause they
open with them: what answers follows them (“… after the date of Mary's birth-- "Married,
December 16, 1810…” was cut before "Charles, son and heir of Charles Musgrove", asked "Who did
Mary Elliot marry?": a newcomer's trial on Persuasion)."""

def cite_lines(plan: QueryPlan, cited: Sequence[Passage], citations: Sequence[Citation],
                say: Callable[[str], str] = str) -> list[str]:
    return [cite_line(plan, p, c.quote, n, say)
            for n, (p, c) in enumerate(zip(cited, citations, strict=True), start=1)]

def bearing(plan: QueryPlan, cited: Sequence[Passage], citations: Sequence[Citation],
            terms: Sequence[str], keep: str = "") -> tuple[list[Passage], list[Citation]]:
    """The citations whose quotes bear on the question: the first, the `keep` passage's (the
    likely answer's own sentence), and each other that holds one of the question's words
    besides its names. "Where does Shen Yan teach?" saw also “Shen Yan was quiet for a
    moment.”: a sentence that only names him. A question of names alone (俞涉是谁？) keeps the
    passages that mention one of them; a relation question's words (relation, 什么关系) are
    said in kin words: it keeps all."""
    if plan.asks_relation:
        return list(cited), list(citations)
    words = question_words(plan, terms)

    def bears(passage: Passage, quote: str) -> bool:
        if words:
            return any(holds_word(quote, w) for w in words)
        return any(e in passage.entities for e in plan.entities)

    pairs = [(p, c) for n, (p, c) in enumerate(zip(cited, citations, strict=True))
             if n == 0 or p.chunk_id == keep or bears(p, c.quote)]
    return [p for p, _ in pairs], [c for _, c in pairs]

def question_words(plan: QueryPlan, terms: Sequence[str]) -> list[str]:
    """The question's search terms besides its names."""
    return [t for t in terms if not _part_of_name(t, plan.mentions)]


def _part_of_name(term: str, mentions: Sequence[str]) -> bool:
    if has_han(term):
        return any(term in m or m in term for m in mentions)
    return any(term in {stem(fold_latin(w)) for w in m.split()} for m in mentions)

def distinct(ranked: Sequence[Passage], limit: int) -> list[Passage]:
    """The best passages, one per chapter first (a chapter is cited once unless it is all)."""
    chosen: list[Passage] = []
    chapters: set[int] = set()
    for passage in ranked[: limit * 3]:
        if passage.chapter not in chapters:
            chosen.append(passage)
            chapters.add(passage.chapter)
        if len(chosen) == limit:
            break
    return chosen or list(ranked[:1])

def cite_line(plan: QueryPlan, passage: Passage, quote: str, n: int,
               say: Callable[[str], str] = str) -> str:
    title = f"「{passage.chapter_title}」" if plan.chinese and passage.chapter_title else ""
    if plan.chinese:
        where = f"{chapter_label(passage.chapter, True)}{title}"
        lead = (CITED_FIRST if n == 1 else CITED_MORE)[True]
        return f"{lead}{where}：{shown(quote)}[{n}]"
    lore = passage.chapter == LORE_CHAPTER  # an entry's title is its entity: say it in English
    shown_title = say(passage.chapter_title) if lore else passage.chapter_title
    title = f" ({shown_title})" if passage.chapter_title else ""
    lead = (CITED_FIRST if n == 1 else CITED_MORE)[False]
    where = "the lore" if lore else f"chapter {passage.chapter}"
    return f"{lead}{where}{title}: {in_quotes(quote)} [{n}]"


def with_speakers(answer: Answer, speaker_of: Callable[[Citation], str],
                  said: str = "") -> Answer:
    """The answer with each cited quote of someone's words said to be theirs, where its line
    shows it and the quote does not name them: “I insist on you hearing the whole of it,” he
    replied, … (Willoughby's words) [1] (a newcomer's trial on Mansfield Park: speakers given
    only by "said she" were not named). `speaker_of` gives the one who says a citation's
    words, '' for none or for narration. `said` is the line a "who said" question asks about:
    the first line, quoting it, says by whom (Said by Jenny Mullion, in chapter 19: …)."""
    lines = answer.text.split("\n")
    changed = False
    for n, citation in enumerate(answer.citations, start=1):
        marker = f" [{n}]"
        at = next((i for i, line in enumerate(lines)
                   if line.endswith(marker) and in_quotes(citation.quote) in line), None)
        if at is None or not (who := speaker_of(citation)):
            continue
        nearest = CITED_NEAREST[False]
        if at == 0 and said and quotes(citation.quote, said) and lines[0].startswith(nearest):
            lines[0] = SAID_BY.format(who=who) + lines[0][len(nearest):]
        else:
            lines[at] = f"{lines[at][:-len(marker)]} ({WORDS_OF.format(who=who)}){marker}"
        changed = True
    return answer.model_copy(update={"text": "\n".join(lines)}) if changed else answer
