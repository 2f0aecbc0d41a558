"""What the librarian answers from the world's own structure, before and beside any search:
the chapter of the last answer's sentence, what a chapter tells and whom it names most
(agent/librarian/chapters.py), another name's owner, a name's parts, the chapter
that tells a death (agent/librarian/known.py), and for "who is X" the card, said first under
the name asked for, or the sentence where the story first names X when no sentence says who X
is; and whom an answer that only quotes may be about (`of_their_story`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cached_property

from agent.librarian.ages import age_answer
from agent.librarian.analysis import QueryPlan
from agent.librarian.chapters import (
    Chapters,
    appearance_account,
    chapter_account,
    chapter_asked,
)
from agent.librarian.identity import identity_asked, name_asked
from agent.librarian.known import (
    alias_answer,
    alias_asked_for,
    alias_lead,
    chapter_answer,
    death_chapter_answer,
    led_by,
    name_answer,
    names_apart,
    one_person_asked,
    with_quote,
)
from agent.librarian.married_names import maiden_name_answer, married_name_answer
from agent.librarian.quoting import cite_line, with_speakers
from agent.librarian.relations import related_answers
from agent.schemas import Answer, Citation, Passage, Relation
from agent.views.card_text import Voice
from agent.world.lexicon import Resolution
from agent.world.retrieval import Retriever
from stores.cards import Card
from stores.entities.speakers import speeches
from stores.lang import en, has_han
from stores.lang.asking import WHO_SAID, first_named, wanted_gender
from stores.models import BOND_TYPES, Chunk

_WHO_SAID = re.compile(WHO_SAID, re.I)
QUOTE_PROBE = 40
"""How much of a quote's start finds it in its passage (a long sentence is quoted cut)."""


class WorldAnswers:
    """Answers one world's structure gives (see the module docstring)."""

    def __init__(self, retriever: Retriever) -> None:
        self.retriever = retriever

    @cached_property
    def chapters(self) -> Chapters:
        return Chapters(self.retriever.story, self.retriever.chapter_titles)

    def known(self, resolution: Resolution, plan: QueryPlan, horizon: int = 0) -> Answer | None:
        """An answer from what the world knows (agent/librarian/known.py), or None."""
        r = self.retriever
        say = Voice(plan.chinese, r.entities).name
        if resolution.cited is not None:
            # 韩峥是怎么死的？ 那是第几回？: the chapter that tells the death, not the chapter of
            # the answer's first quote (a plot by those who later kill him)
            return self.death_chapter(plan, say, horizon) or chapter_answer(
                resolution.cited, plan.chinese, r.chunks, r.chapter_titles,
                unsure=resolution.cited_unsure)
        chapter = chapter_asked(plan.question)
        if chapter and len(set(plan.chapters)) == 1:  # What happens in chapter 2?
            return chapter_account(chapter, plan.chapters[0], self.chapters, plan.chinese,
                                   r.spans, r.kinds, say, horizon)
        if len(plan.entities) == 1 and r.kinds.get(plan.entities[0]) == "person":
            entity = plan.entities[0]  # Which chapter does Mr. Yates first appear in?
            seen = appearance_account(plan.question, entity, r.card, r.chunks,
                                      [entity, *r.entities.get(entity, [])],
                                      r.chapter_titles, plan.chinese, say, horizon)
            if seen is not None:
                return seen
        one = (one_person_asked(plan.mentions, plan.entities, r.matcher, say(plan.entities[0]))
               if plan.how_related and plan.entities else None)
        return ((alias_lead(one, plan.entities[0], plan.chinese, r.entities, r.story, say,
                            horizon) if one else None)
                or alias_answer(plan.question, plan.chinese, r.matcher, r.entities, r.story, say)
                or name_answer(plan.question, plan.chinese, r.matcher, r.entities, r.story)
                or married_name_answer(plan.question, plan.chinese, r.matcher, r.card, r.story,
                                       say, horizon)
                or maiden_name_answer(plan.question, plan.chinese, r.matcher, r.entities,
                                      r.story, say, horizon)
                or self.home(plan, say, horizon)
                or self.age(plan, say, horizon)
                or self.death_chapter(plan, say, horizon))

    def age(self, plan: QueryPlan, say: Callable[[str], str], horizon: int) -> Answer | None:
        """How old is Harriet Smith?: the sentence that gives her age (agent/librarian/ages.py)."""
        if len(plan.entities) != 1 or \
                self.retriever.kinds.get(plan.entities[0]) not in ("person", "other"):
            return None
        kinds, lexicon = self.retriever.kinds, self.retriever.lexicon
        return age_answer(plan.question, plan.entities[0], self.retriever.story,
                          self.retriever.spans, say, horizon,
                          lambda name: lexicon.gender(name) if kinds.get(name) == "person"
                          else "-")

    def home(self, plan: QueryPlan, say: Callable[[str], str], horizon: int) -> Answer | None:
        """Where does Sir Walter live?: the homes the card holds (stores/card_homes.py), under
        the horizon, with the sentence that gives the first."""
        if plan.chinese or len(plan.entities) != 1 or not en.LIVES_ASKED.search(plan.question):
            return None
        card = self.retriever.card(plan.entities[0])
        homes = card.as_of(horizon).of_kind("home") if card is not None else []
        chunk = self.retriever.chunks.get(homes[0].chunk_id) if homes else None
        if card is None or chunk is None:
            return None
        lead = f"{say(card.entity)} lives at {', then at '.join(h.text for h in homes)}."
        return with_quote(lead, (chunk, homes[0].quote), False, card.entity)

    def death_chapter(self, plan: QueryPlan, say: Callable[[str], str],
                      horizon: int) -> Answer | None:
        """孙策死在哪一回？: the chapter that tells the death (agent/librarian/known.py)."""
        return self.death_told(plan, say, horizon) if plan.asks_chapter else None

    def death_told(self, plan: QueryPlan, say: Callable[[str], str],
                   horizon: int) -> Answer | None:
        """Where the story tells the death the question asks about, with the sentence that
        tells it (孙策死于第29回…「孙策既死…」), or None."""
        subject = plan.death_subject
        card = self.retriever.card(subject) if plan.about_death and subject else None
        if card is None:
            return None
        r = self.retriever
        return death_chapter_answer(subject, r.entities.get(subject, []), r.story,
                                    {a.chapter: a.mentions for a in card.appearances},
                                    plan.chinese, r.chapter_titles, say, horizon)

    def kin_of_kin(self, plan: QueryPlan, relations: list[Relation],
                   horizon: int) -> list[Relation]:
        """For a question after one person's relative that none of `relations` answers, of the
        gender asked (Who is Henry Tilney's father?; Catherine's mother is no father), the kin
        and marriages the cards hold of that person and of each of their kin, as relations
        under the horizon: the two steps it may be answered through (agent/librarian/
        relations.py, `relative_by_path`). [] for any other question."""
        if not (plan.asks_relation and plan.relation and len(plan.entities) == 1):
            return []
        wanted = wanted_gender(plan.question, plan.mentions)
        gender = self.retriever.lexicon.gender
        if any(not wanted or gender(n) in ("", wanted) for n in related_answers(plan, relations)):
            return []
        name = plan.entities[0]
        found: dict[tuple[str, str, str], Relation] = {}
        kin = [name]
        for who in kin:
            card = self.retriever.card(who)
            for fact in card.as_of(horizon).of_kind("relation") if card is not None else []:
                if fact.text not in BOND_TYPES:
                    continue
                source, target = (who, fact.other) if fact.end == "source" else (fact.other, who)
                evidence = ([self.passage(fact.chunk_id)]
                            if fact.chunk_id in self.retriever.chunks else [])
                found.setdefault((source, target, fact.text), Relation(
                    source=source, target=target, type=fact.text, weight=fact.weight,
                    chapters=[fact.chapter], evidence=evidence))
                if who == name and fact.other not in kin:
                    kin.append(fact.other)
        return list(found.values())

    def passage(self, chunk_id: str) -> Passage:
        chunk = self.retriever.chunks[chunk_id]
        return Passage(chunk_id=chunk.id, chapter=chunk.chapter, source=chunk.document,
                       lines=(chunk.line_start, chunk.line_end), text=chunk.text,
                       chapter_title=chunk.chapter_title, entities=chunk.entities)

    def alias_first(self, plan: QueryPlan, entity: str, told: Answer, horizon: int) -> Answer:
        """A card asked for by another name of its entity (伯岩是谁？ Who is the Count?) says
        first whose name it is, with the sentence that gives it."""
        r = self.retriever
        alias = alias_asked_for(name_asked(plan.question) or "", entity, r.matcher)
        say = Voice(plan.chinese, r.entities).name
        if alias is None or not names_apart(alias, say(entity)):
            return told
        lead = alias_lead(alias, entity, plan.chinese, r.entities, r.story, say, horizon,
                          quoted=[c.quote for c in told.citations])
        return told if lead is None else led_by(lead, told)

    def introduction(self, plan: QueryPlan, card: Card, told: Answer) -> Answer | None:
        """The line quoting the sentence where the story first names the card's entity, as the
        card `told` cites it; None when it cites no first appearance."""
        first = card.first
        cited = next((c for c in told.citations if first and c.chunk_id == first.chunk_id), None)
        if cited is None or cited.chunk_id not in self.retriever.chunks:
            return None
        say = Voice(plan.chinese, self.retriever.entities).name
        line = first_named(cite_line(plan, self.passage(cited.chunk_id), cited.quote, 1, say))
        return Answer(text=line, citations=[cited], entities=[card.entity],
                      stop_reason="evidence")

    def card_asked(self, plan: QueryPlan) -> Card | None:
        """The card of the entity a "who is X" question asks about (answered from it); none
        for "Who is Su Wan to Shen Yan?", which asks how two are related."""
        if plan.how_related:
            return None
        who = identity_asked(plan.question, self.retriever.matcher, self.retriever.kinds)
        return self.retriever.card(who) if who else None

    def of_their_story(self, plan: QueryPlan, answer: Answer) -> Answer:
        """An answer that only quotes is about no one of another story (`of_their_story`)."""
        if answer.stop_reason != "evidence":
            return answer
        kept = of_their_story(answer.entities, plan.entities, self._chapters)
        return answer if kept == answer.entities else answer.model_copy(update={"entities": kept})

    def with_speakers(self, plan: QueryPlan, answer: Answer) -> Answer:
        """An English answer whose quotes are someone's words says whose (`quoting.with_speakers`)."""
        if plan.chinese:
            return answer
        said = plan.quote if plan.quote and _WHO_SAID.search(plan.question) else ""
        return with_speakers(answer, self.speaker, said)

    def speaker(self, citation: Citation) -> str:
        """Who says the words a citation quotes, as the passage tells it (stores/entities/
        speakers.py), when the quote does not name them; '' for the telling, for words of two
        people, or for a speaker the passage leaves open."""
        chunk = self.retriever.chunks.get(citation.chunk_id)
        quote = citation.quote.strip().strip("…").strip()
        if chunk is None or not quote or has_han(quote):
            return ""
        # the passage before, of the same chapter, says whose turn the first words are
        before = self._before.get(chunk.id)
        text = f"{before.text}\n{chunk.text}" if before is not None else chunk.text
        at = text.replace("\n", " ").find(quote[:QUOTE_PROBE], len(text) - len(chunk.text))
        if at < 0:
            return ""
        gender = self.retriever.families.gender
        spans = [s for s in self.retriever.spans(text) if s[2] in gender]
        said = {s.speaker for s in speeches(text, spans, gender)
                if s.start - 1 <= at + len(quote) and at <= s.end}
        who = next(iter(said)) if len(said) == 1 else ""
        forms = [who, *self.retriever.entities.get(who, [])] if who else []
        return "" if any(f and f in quote for f in forms) else who

    @cached_property
    def _before(self) -> dict[str, Chunk]:
        """A passage's id → the passage before it in the same chapter."""
        story = self.retriever.story
        return {c.id: b for b, c in zip(story, story[1:], strict=False) if b.chapter == c.chapter}

    def _chapters(self, name: str) -> set[int]:
        """The chapters an entity of the world appears in (none for a phrase it does not list)."""
        if name not in self.retriever.entities:
            return set()
        card = self.retriever.card(name)
        return {a.chapter for a in card.appearances} if card is not None else set()


def of_their_story(about: Sequence[str], asked: Sequence[str],
                   chapters: Callable[[str], set[int]]) -> list[str]:
    """Of the names an answer that only quotes is about, those the next 他 / she may mean: the
    people asked about, and anyone who shares a chapter with one of them (or whose chapters are
    unknown). 孔乙己偷了谁家的书？ made 阿Ｑ, of another story of the collection, the likely
    answer and the next question's 他 (a newcomer's trial on 呐喊)."""
    theirs = {c for name in asked for c in chapters(name)}
    return [n for n in about if n in asked or not theirs or not (c := chapters(n)) or c & theirs]
