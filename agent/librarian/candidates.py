"""Whom or what a reference may point at: candidates from the last turns and the entity stack.

The last turns are read as a listener reads them: the question (as resolved), the answer's leading
statement, then the rest of the answer and its quotes. Their names come from the world's alias
matcher; places and things the world does not list come from agent/librarian/phrases.py (白帝城, the
Château d’If, 赤兔马, the diamond). Candidates are ranked by what the previous question asked:

- a who-question makes the person the answer introduced the topic (刘备三顾茅庐请的是谁？ →
  诸葛亮); asked who someone *is* (凤雏指的是谁？), the one asked about stays the topic (庞统);
- a where-question makes the answer's place the referent of 那里 / there; otherwise the last
  place the question named;
- a what-question makes the thing the answer led with the referent of 它 / it;
- otherwise the previous question's subject stays the topic.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from agent.librarian.phrases import (
    CJK,
    TurnText,
    en_lead_thing,
    en_places,
    en_things,
    en_titled,
    turn_text,
    unknown_subject,
    used_as_place,
    zh_places,
    zh_things,
)
from agent.librarian.referring import (
    WHAT,
    WHERE,
    WHO,
    Reference,
    relation_family,
)
from agent.world.gender import Gender
from sessions.records import StackEntry, Turn
from stores.entities.family import known_family
from stores.lang import en, zh
from stores.lang.asking import (
    ASKS_WHOSE,
    asked_relation_kind,
    asks_how_related,
    quotes_first,
    wanted_gender,
)
from stores.lang.referring import (
    EN_IT_AS_SUBJECT,
    EN_THING_DOES,
    EN_THING_NOUNS,
    ZH_THING_NOUNS,
    asks_where_it_is,
)

if TYPE_CHECKING:
    from agent.world.lexicon import Lexicon

_IDENTITY_ZH = re.compile(zh.IDENTITY_QUESTION)
_IDENTITY_EN = re.compile(en.IDENTITY_QUESTION, re.I)
_PEOPLE = ("person", "new_person", "persons", "new_persons", "relation")
# Words next to a name that say how it is related (长子孙策, her husband Fernand, his son Albert).
_ROLE_WORDS = {**zh.ROLE_WORDS, **en.ROLE_WORDS}


class Context:
    """The candidates a reference may point at, best first, from the last turns and the stack."""

    def __init__(self, lexicon: Lexicon, turns: Sequence[Turn], stack: Sequence[StackEntry],
                 question: str) -> None:
        self.lexicon = lexicon
        self.question = question
        self.turns = list(reversed(turns))  # most recent first
        self.stack = [e.entity for e in stack]
        self.guesses = {e.entity for e in stack if e.guess}
        self.said = {e.entity: e.referred_as for e in stack}
        self.named_at: dict[str, int] = {}
        for start, _, name in lexicon.spans(question):
            self.named_at.setdefault(name, start)
        self.named_now = set(self.named_at)
        self.used: dict[str, list[str]] = {}  # surface → referent, within this question
        self.texts = {t.id: turn_text(t.resolved_question or t.question, t.answer, t.citations,
                                      lexicon.complete) for t in self.turns}
        self.phrase_kind: dict[str, str] = {}  # a phrase the world does not list → its kind
        self.phrase_gender: dict[str, Gender] = {}
        self.placed = self._placed()

    def _placed(self) -> set[str]:
        """Names the last turns used as places ("at the Pont du Gard inn", 屯于新野)."""
        placed: set[str] = set()
        for text in self.texts.values():
            for source in (text.asked, text.body):
                for start, end, name in self.lexicon.spans(source):
                    if used_as_place(source, start, end):
                        placed.add(name)
        return placed

    def kind(self, name: str) -> str:
        """The kind of a candidate: a phrase's, else its entity type, a place where used as one."""
        if name in self.phrase_kind:
            return self.phrase_kind[name]
        kind = self.lexicon.kind(name)
        if name in self.placed and (kind == "other" or (
                kind == "person" and self.lexicon.pronouns_tell()
                and not self.lexicon.gender(name))):
            return "place"  # an untyped name, or a "person" nobody calls he or she (where
            # the text's he and she tell people apart: in 红楼梦 到贾母处 is still a person)
        return kind

    def gender(self, name: str) -> Gender:
        """A candidate's gender: a titled phrase's (the Count → m), else the world's guess."""
        return self.phrase_gender.get(name) or self.lexicon.gender(name)

    # -- ranking --------------------------------------------------------------------------------
    def order(self, ref: Reference) -> list[str]:
        """Candidates for `ref`, most likely first (before filtering by type and gender)."""
        names: list[str] = []
        for turn in self.turns:
            names += self._turn_order(turn, ref)
        quoted: list[str] = []
        if ref.kind in _PEOPLE:  # the quotes name many in passing: known persons, last
            for turn in self.turns[:1]:
                quoted = [n for n in self.lexicon.names_in(self.texts[turn.id].body)
                          if self.lexicon.kind(n) == "person"]
        return list(dict.fromkeys(names + self.stack + quoted))

    def _turn_order(self, turn: Turn, ref: Reference) -> list[str]:
        lex, text = self.lexicon, self.texts[turn.id]
        asked = text.asked
        in_question = lex.names_in(asked)
        carried = [n for n in in_question if n not in lex.names_in(turn.question)]
        answer = [n for n in turn.entities if n]
        answer += [n for n in lex.names_in(text.head) if n not in answer]
        new = [n for n in answer if n not in in_question]
        if ref.kind in _PEOPLE[:4]:
            identity = self._identity(text)
            if identity:  # 凤雏指的是谁？ — the answer names the one asked about
                return [identity] + new + in_question
        # "Who is Su Wan to Shen Yan?" asks for no one new: the people it names stay the topic
        related = len(in_question) > 1 and asks_how_related(
            asked, [asked[start:end] for start, end, _ in lex.spans(asked)])
        # "曹丕是谁的儿子？" asks whose son 曹丕 is: 曹丕 stays the topic ("他篡汉是在第几回？"),
        # as "Whose son is Cao Pi?" keeps Cao Pi, when the question names one person
        whose = ASKS_WHOSE.search(asked) is not None and len(in_question) == 1
        if ref.kind in ("new_person", "new_persons") or (
                ref.kind in ("person", "persons") and WHO.search(asked) and not related
                and not whose):
            # 周瑜的妻子是谁？: a man the answer names is not the wife. Most men's gender is
            # unknown in classical text, so only a wanted woman must be known to be one.
            want = wanted_gender(asked) if WHO.search(asked) else ""
            new = [n for n in new if not want or lex.gender(n) == want
                   or (want == "m" and lex.gender(n) != "f")]
            if ref.noun:  # 这个孩子: the one the answer calls a child first
                new = self._in_role(text, ref.noun, new) + new
            if ref.kind.startswith("new"):
                return new + in_question + answer
            # the one the answer put forward is the topic; the others it quoted are no more
            # likely than the people the question named (Who proposed to Elizabeth? → Darcy;
            # then "her" is Elizabeth, not a woman the evidence names in passing). When that
            # one is a guess known not to be what the pronoun says (a she, the guess a man) and
            # no other word of the question took it, the reader's likeliest candidate of the
            # pronoun's gender leads instead (an unsure answer is about its next candidates; a
            # stated one's other names are only quoted).
            # An unsure answer's candidates are one answer's alternatives: once a word of this
            # question took one of them, no other word means another (Who gave the sword to Su
            # Wan? unsure, Eleanor first, Shen Yan next → "Where did he give it to her?": he
            # is Shen Yan, her is Su Wan, whom the question named — not Eleanor).
            lead = new[:1]
            taken = {n for names in self.used.values() for n in names}
            if lead and lead[0] in self.guesses and lead[0] not in taken and taken & set(new):
                lead = []
            elif lead and len(in_question) == 1 and asked_relation_kind(asked) is not None \
                    and (lead[0] in self.guesses or quotes_first(turn.answer or "")):
                # 曹操的父亲是谁？ answered only with quotes: its guess (马超, named in one) is no
                # one the next 他 means; the one whose father was asked is (a newcomer's trial);
                # so for "Who are Mrs. Price's sisters?", which asks for several (Mansfield Park:
                # "Where does she live?" was read of Susan, named in the quote)
                lead = []
            elif ref.gender and lead and lead[0] in self.guesses and lead[0] not in taken \
                    and self.gender(lead[0]) not in ("", ref.gender):
                lead = [n for n in new if self.gender(n) == ref.gender][:1] or lead
            return carried + lead + in_question + [n for n in new if n not in lead] + answer
        if ref.kind == "place":
            return self._places(text, ref, new) + carried + new + in_question + answer
        if ref.kind == "thing":
            return self._things(text, ref, answer) + new + in_question + answer
        return carried + self._subject(text) + in_question + answer

    def _subject(self, text: TurnText) -> list[str]:
        """The first person a question names: a known one, a titled one (the Count), or one
        the world does not list that the answer's text names too (七斤是做什么的？)."""
        asked = text.asked
        spans = [(s, n) for s, _, n in self.lexicon.spans(asked) if self.kind(n) == "person"]
        titled = en_titled(asked, [(s, e) for s, e, _ in self.lexicon.spans(asked)])
        if titled and (not spans or titled[0][0] < spans[0][0]):
            _, phrase, gender = titled[0]
            holder = self.lexicon.title_holder(phrase)
            if holder:  # the Count of this book: the one person the title names
                return [holder]
            self.phrase_kind.setdefault(phrase, "person")
            self.phrase_gender.setdefault(phrase, gender)
            return [phrase]
        return [n for _, n in spans[:1]] or self._unknown(text)

    def _identity(self, text: TurnText) -> str:
        """The one a who-is question asks about (凤雏指的是谁？ → 庞统, Who is Ruoting?; one the
        world does not list as the question wrote it: 七斤是谁？), or ''."""
        asked = text.asked
        m = _IDENTITY_ZH.match(asked.strip()) or _IDENTITY_EN.match(asked.strip())
        if not m:
            return ""
        x = re.sub(r"^(?:the|a)\s+", "", m.group("x").strip(), flags=re.I)
        spans = self.lexicon.spans(x)
        if len(spans) == 1 and spans[0][0] == 0 and spans[0][1] == len(x):
            return spans[0][2]
        unknown = self._unknown(text)
        return unknown[0] if unknown and unknown[0] == x else ""

    def _unknown(self, text: TurnText) -> list[str]:
        """The person a question is about whom the world does not list, as written, when the
        answer's text names them too (`phrases.unknown_subject`): a phrase of kind person."""
        phrase = unknown_subject(text.asked, text.body, self.lexicon.spans(text.asked),
                                 self.lexicon.spans(text.body))
        if not phrase:
            return []
        self.phrase_kind.setdefault(phrase, "person")
        return [phrase]

    def _places(self, text: TurnText, ref: Reference, put_forward: Sequence[str]) -> list[str]:
        """The places of a turn: the answer's first after a where-question, else the question's
        last; a demonstrative's noun (那座城) must end the place's name. The answer's own are
        the places it put forward (`put_forward`: what it stated, or the reader's likeliest
        candidates when unsure, in its order), then those its text names in order: "In which
        fortress was Dantès imprisoned?" unsure, its quotes naming Ham before the Château d'If,
        the likeliest place is still the Château d'If."""
        asked = self._places_in(text.asked)[::-1]
        answered = self._places_in(text.head) + self._places_in(text.body)
        answered = [n for n in put_forward if self.kind(n) == "place"] + answered
        if ref.noun:
            asked, answered = ([p for p in ps if p.endswith(ref.noun) or self.kind(p) == "place"]
                               for ps in (asked, answered))
        order = answered + asked if WHERE.search(text.asked) else asked + answered
        # "Where is Delaford?": there is Delaford, not the county the answer put it in
        located = [name for start, end, name in self.lexicon.spans(text.asked)
                   if name in asked and asks_where_it_is(text.asked, text.asked[start:end])]
        return list(dict.fromkeys(located + order))

    def _places_in(self, source: str) -> list[str]:
        spans = self.lexicon.spans(source)
        found = [(s, name) for s, e, name in spans
                 if self.lexicon.kind(name) == "place" or (
                     name in self.placed and used_as_place(source, s, e)
                     and self.kind(name) == "place")]
        phrases = zh_places(source, spans) if CJK.search(source) else en_places(source, spans)
        for _, phrase in phrases:
            self.phrase_kind.setdefault(phrase, "place")
        return [name for _, name in sorted(found + phrases)]

    def _things(self, text: TurnText, ref: Reference, answer: list[str]) -> list[str]:
        """The things of a turn: a word ending in the reference's noun (这匹马 → 赤兔马), or
        after a what-question the thing the answer led with ("A diamond" → the diamond)."""
        english = not CJK.search(text.asked + text.head)
        # What does he say in it? What does it say? (his letter) — not How did it happen?
        subject = (EN_IT_AS_SUBJECT.search(self.question[:ref.start])
                   and not EN_THING_DOES.match(self.question[ref.end:]))
        nouns = [ref.noun] if ref.noun else (
            list(ZH_THING_NOUNS) if not english else [] if subject else list(EN_THING_NOUNS))
        items = [n for n in answer if self.lexicon.kind(n) == "item"
                 and (not ref.noun or n.lower().endswith(ref.noun))]
        if WHAT.search(text.asked):  # the answer's thing first
            lead = en_lead_thing(text.head) if english and not ref.noun else ""
            found = ([lead] if lead else []) + self._things_in(text.head, ref, nouns, english)
            found += items
            if ref.noun:  # 它 / it has no noun to find in the quotes
                found += self._things_in(text.body, ref, nouns, english)
            found += self._things_in(text.asked, ref, nouns, english)
        else:
            found = self._things_in(text.asked, ref, nouns, english) + items
            if ref.noun:
                found += self._things_in(text.head + "\n" + text.body, ref, nouns, english)
        for phrase in found:
            if phrase not in self.lexicon.types:
                self.phrase_kind.setdefault(phrase, "item")
        return list(dict.fromkeys(found))

    def _things_in(self, source: str, ref: Reference, nouns: list[str],
                   english: bool) -> list[str]:
        """Items the world knows and phrases ending in one of `nouns`, in text order."""
        spans = self.lexicon.spans(source)
        hits = [(s, n) for s, _, n in spans if self.lexicon.kind(n) == "item"
                and (not ref.noun or n.lower().endswith(ref.noun))]
        named = [(s, e) for s, e, _ in spans]
        for noun in nouns:
            hits += ([(at, phrase) for at, end, phrase in en_things(source, noun)
                      if not any(at < e and s < end for s, e in named)]  # the Guiyan Map
                     if english else zh_things(source, noun, spans))
        return [phrase for _, phrase in sorted(hits)]

    def _in_role(self, text: TurnText, noun: str, names: list[str]) -> list[str]:
        """Of `names`, those the turn's answer names right after a word for the role (长子孙策,
        his son Albert)."""
        words = _ROLE_WORDS.get(noun) or (_ROLE_WORDS["child"] if noun in en.CHILD_NOUNS
                                          else re.escape(noun))
        role = re.compile(rf"(?:{words})[，,:：\s]{{0,3}}$", re.I)
        found = []
        for source in (text.head, text.body):
            for s, _, name in self.lexicon.spans(source):
                width = 6 if CJK.match(source[s]) else 16
                if name in names and role.search(source[max(0, s - width): s]):
                    found.append(name)
        return list(dict.fromkeys(found))

    # -- choosing -------------------------------------------------------------------------------
    def referent(self, ref: Reference) -> list[str]:
        """The canonical names `ref` stands for (several for 他们 / they), or [] if unsure."""
        if ref.surface in self.used:
            return self.used[ref.surface]
        if ref.kind in ("persons", "new_persons"):
            names = self.plural(ref)
        elif ref.kind == "relation":
            names = self.relation(ref)
        else:
            one = self.pick(ref)
            names = [one] if one else []
        if names:
            self.used[ref.surface] = names
        return names

    def pick(self, ref: Reference) -> str | None:
        """The first candidate of the right type and gender, not already named in the question.

        An entity of exactly the wanted type comes before an untyped (`other`) one, as worlds
        without a glossary have; a name the question gives before the reference comes last
        (刘备死后他的儿子 …), one it gives after never (What did he give Caderousse?).
        """
        taken = {n for names in self.used.values() for n in names}
        order = self.order(ref)
        if ref.gender == "f":
            # Women are the ones a world marks (夫人, Madame, a description): 她 / she goes to a
            # known woman first, and only then to someone whose gender is unknown.
            women = [n for n in order if self.gender(n) == "f"]
            order = women + [n for n in order if n not in women]
        later = {n for n, at in self.named_at.items() if at >= ref.start}
        for avoid in (self.named_now | taken, self.named_now, later):
            for strict in (True, False):
                for name in order:
                    if name not in avoid and self._fits(name, ref, strict):
                        return name
        return None

    def _fits(self, name: str, ref: Reference, strict: bool) -> bool:
        kind = self.kind(name)
        people = ref.kind in _PEOPLE
        if not strict and kind == "other":
            # Untyped entities (names found in the text, no glossary): one with a gender is a
            # person, one without may be anything; a thing or a place never has a gender. An
            # English he or she is no untyped name of no gender: English names a person with a
            # title or a first name, which give one ("Did she accept him?" was read of Smith,
            # a name in an earlier quote: a newcomer's trial on Mansfield Park)
            gendered = bool(self.gender(name))
            if people and ref.english and ref.gender and not gendered:
                return False
            if people or not gendered:
                kind = "person" if people else ("item" if ref.kind == "thing" else "place")
        if not strict and ref.kind == "thing" and kind in ("faction", "event"):
            kind = "item"
        if not strict and ref.kind == "place" and kind == "faction":
            kind = "place"
        wanted = "person" if people else {"place": "place", "thing": "item"}[ref.kind]
        if kind != wanted:
            return False
        if ref.gender:
            known = self.gender(name)
            return not known or known == ref.gender
        return True

    def plural(self, ref: Reference) -> list[str]:
        """他们 / they: the persons the last answer introduced, else those last talked about."""
        limit = ref.count or 3
        person = Reference(ref.start, ref.end, ref.surface, "person")

        def fits(names: Sequence[str]) -> list[str]:
            return [n for n in dict.fromkeys(names) if self._fits(n, person, False)]

        chosen: list[str] = []
        if self.turns:
            turn = self.turns[0]
            asked = fits(self.lexicon.names_in(turn.resolved_question or turn.question))
            # an answer that only quoted introduced no one: its quotes' names are no answer
            new = [n for n in fits(turn.entities) if n not in asked] if (
                self.texts[turn.id].head) else []
            if len(new) >= 2 or (ref.kind == "new_persons" and new):
                return new[:limit]
            chosen = asked if len(asked) >= 2 else asked + new[:1]
        # they after one person: their family first ("Who is Mrs. Thorpe?" "Where do they stay?"
        # read as Mrs. Thorpe and Henry Tilney, the one asked about two questions before)
        families = {known_family(n) for n in chosen} - {""}
        for name in sorted(fits(self.order(person)), key=lambda n: known_family(n) not in families):
            if len(chosen) >= 2:
                break
            if name not in chosen:
                chosen.append(name)
        return chosen[:limit] if len(chosen) >= 2 else []

    def relation(self, ref: Reference) -> list[str]:
        """her husband: the answer's new person when the last question asked for that relation."""
        for turn in self.turns[:1]:
            asked = turn.resolved_question or turn.question
            if WHO.search(asked) and relation_family(asked) == ref.family:
                in_question = self.lexicon.names_in(asked)
                person = Reference(ref.start, ref.end, "", "person", ref.relative_gender)
                text = self.texts[turn.id]
                if not text.head:  # it only quoted: whom its quotes name is no answer
                    return []
                answer = list(turn.entities) + self.lexicon.names_in(text.head)
                new = [n for n in answer if n not in in_question
                       and self._fits(n, person, False)]
                if new:
                    return [new[0]]
        return []

    # -- writing --------------------------------------------------------------------------------
    def render(self, ref: Reference, names: list[str]) -> str:
        """The words that replace the reference, in the question's language and grammar."""
        zh = not ref.english
        shown = [self.display(n, zh) for n in names]
        if len(shown) == 1:
            text = shown[0]
        elif zh:
            text = "、".join(shown[:-1]) + "和" + shown[-1]
        else:
            text = ", ".join(shown[:-1]) + " and " + shown[-1]
        if ref.possessive:
            text = text + ("的" if zh else ("'" if text.endswith("s") else "'s"))
        return ref.prefix + text + ref.suffix

    def display(self, name: str, zh: bool) -> str:
        """The canonical name, or an alias in the question's script when the name is not."""
        if bool(CJK.search(name)) == zh:
            return name
        said = self.said.get(name, "")
        if said and bool(CJK.search(said)) == zh and said in self.lexicon.aliases.get(name, ()):
            return said
        same = [a for a in self.lexicon.aliases.get(name, ()) if bool(CJK.search(a)) == zh]
        # Two-word names read best in a question (Shen Yan, Guiyan Map); titles and "the" less.
        same.sort(key=lambda a: (abs(len(a.split()) - 2), a.lower().startswith("the "), len(a)))
        return same[0] if same else name
