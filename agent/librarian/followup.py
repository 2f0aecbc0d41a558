"""Follow-up questions made explicit by rules: 他最后死在哪里？ → 诸葛亮最后死在哪里？

The offline path has no language model to read a follow-up, so pronouns (他/她/它/他们/此人/那里/
这把剑, he/she/it/they/there/that sword) and dropped subjects (后来呢？, What happened next?) are
replaced in place by the canonical name of their referent. The referent comes from the last turns
(their questions, what the answers said and quoted, not only the entities they listed) and the
entity stack, filtered by what the reference can point at: a person for 他, a known woman is
never 他 and a known man never 她, an item for 它, a place for 那里. A place or thing the world
does not list is written as the last turns wrote it (白帝城, the diamond).

Whom a follow-up is about: when the previous question asked *who* (刘备三顾茅庐请的是谁？), the
person the answer introduced is the new topic (诸葛亮); otherwise the previous question's subject
stays the topic (吕布骑的是什么马？ → 这匹马是谁送给他的？ → 吕布). A pronoun the previous question
already carried keeps the topic (他借这把刀想去杀谁？ → 事败后他杀了谁一家？ → still 曹操). *That*
in "Which chapter is that in?" / 那是第几回？ is the event the previous question asked about: that
question is asked again, with the chapter, the time or the place. Words
and patterns live in stores/lang and agent/librarian/referring.py, the ranking of candidates in
agent/librarian/candidates.py, and places and things read from text in
agent/librarian/phrases.py; the stack itself in agent/conversation/stack.py.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from agent.librarian.candidates import Context
from agent.librarian.married_names import spouse_by_name
from agent.librarian.referring import Reference, find_references
from agent.world.lexicon import Lexicon, Resolution
from sessions.records import StackEntry, Turn
from stores.lang import en, has_han, zh
from stores.lang.asking import quotes_only, unsure_lead
from stores.lang.referring import (
    CHAPTER_DEIXIS_EN,
    CHAPTER_DEIXIS_ZH,
    CLAUSE_EN,
    DROPPED_EN,
    DROPPED_EN_VERB,
    DROPPED_ZH,
    EVENT_ASKED,
    EVENT_FRAME_EN,
    EVENT_FRAME_ZH,
)
from stores.models import LORE_CHAPTER
from stores.readers.headings import chapters_named

LOOKBACK = 3
"""Answered turns looked at before the stack."""


def resolve_followup(question: str, stack: Sequence[StackEntry], last_turns: Sequence[Turn],
                     names_in: Lexicon) -> str:
    """The question with pronouns and a dropped subject replaced by canonical names."""
    return resolve(question, stack, last_turns, names_in).text


def resolve(question: str, stack: Sequence[StackEntry], last_turns: Sequence[Turn],
            lexicon: Lexicon) -> Resolution:
    """Like `resolve_followup`, also saying which words were taken to mean whom."""
    answered = [t for t in last_turns if t.status == "answered"][-LOOKBACK:]
    if answered and (event := _event_asked(question, answered[-1])):
        return event
    named = _chapter_named(question, answered[-1]) if answered else question
    if named != question:  # Who is the main character in that chapter? → … in chapter 2?
        return replace(_resolve(named, stack, answered, lexicon), question=question)
    return _resolve(question, stack, answered, lexicon)


def _chapter_named(question: str, last: Turn) -> str:
    """The question with "that chapter" / 那一回 as the chapter the last turn meant: the one its
    question named, else the chapter of its answer's first quote of the story."""
    deixis = CHAPTER_DEIXIS_ZH if has_han(question) else CHAPTER_DEIXIS_EN
    found = deixis.search(question)
    if found is None:
        return question
    asked = last.resolved_question or last.question
    named = chapters_named(asked)
    cited = [int(c["chapter"]) for c in last.citations
             if isinstance(c, dict) and c.get("chapter") not in (None, LORE_CHAPTER)]
    if not named and not cited:
        return question
    chapter = (named or cited)[0]
    said = f"第{chapter}回" if has_han(question) else f"chapter {chapter}"
    return question[:found.start()] + said + question[found.end():]


def _resolve(question: str, stack: Sequence[StackEntry], answered: Sequence[Turn],
             lexicon: Lexicon) -> Resolution:
    context = Context(lexicon, answered, stack, question)
    refs = find_references(question)
    if not refs:
        return _dropped_subject(question, context)
    pieces, at, referents = [], 0, []
    spans = lexicon.spans(question)
    earlier = [(end, [name]) for _, end, name in spans]
    resolved: list[tuple[Reference, list[str]]] = []
    for ref in refs:
        if _theirs(ref, earlier) or _relative_named(ref, [start for start, _, _ in spans]):
            continue
        names = (_named_as(question, ref, spans, lexicon) or _subjects(ref, resolved)
                 or _bound(question, ref, earlier, lexicon) or _own(question, ref, earlier, lexicon)
                 or context.referent(ref))
        if not names and ref.fallback is not None:
            if _theirs(ref.fallback, earlier):
                continue
            bearer = _own(question, ref.fallback, earlier, lexicon) or context.referent(ref.fallback)
            names = spouse_by_name(lexicon, bearer, ref)  # her husband → Villefort
            if not names:  # her husband → Mercédès's husband
                ref, names = ref.fallback, bearer
        if not names:
            continue
        if ref.possessive and ref.kind == "person" and _said_before(ref, names, earlier):
            continue  # Where did she get her sword? → Where did Su Wan get her sword?
        pieces += [question[at: ref.start], context.render(ref, names)]
        at = ref.end
        referents.append((question[ref.start: ref.end], names))
        earlier.append((ref.end, names))
        resolved.append((ref, names))
    if not referents:
        return Resolution(question, question)
    return Resolution(question, "".join(pieces) + question[at:], referents)


def _event_asked(question: str, last: Turn) -> Resolution | None:
    """"Which chapter is that in?" after "How did Gu Huaishan die?" → "How did Gu Huaishan die —
    in which chapter?": *that* is the event the last question asked about."""
    zh = has_han(question)
    frame = (EVENT_FRAME_ZH if zh else EVENT_FRAME_EN).match(question.strip())
    if frame is None:
        return None
    asked = next(kind for kind in EVENT_ASKED if frame.group(kind))
    before = (last.resolved_question or last.question).strip().rstrip("?？。.!！")
    for frames in EVENT_ASKED.values():  # asked of that event already: its question again
        for frame_text in frames:
            before = before.removesuffix(frame_text.rstrip("?？"))
    text = before + EVENT_ASKED[asked][zh]
    cited = [c for c in last.citations if isinstance(c, dict)] if asked == "chapter" else []
    unsure = unsure_lead(last.answer) or quotes_only(before, last.answer)
    return Resolution(question, text, cited=cited or None, cited_unsure=unsure)


APPOSED = 2
"""A name this close after a relation (her sister Mary, 他的儿子关平) names the relative."""


def _relative_named(ref: Reference, name_starts: Sequence[int]) -> bool:
    """The question names the relative right after the words for them: "Who is her sister Mary
    married to?" asks of Mary, whoever's sister she is; taking her for Lady Russell, the last
    woman spoken of, read it as "Lady Russell's sister Mary" (a newcomer's trial), a kinship
    the book never states."""
    return ref.kind == "relation" and any(0 <= at - ref.end <= APPOSED for at in name_starts)


def _bound(question: str, ref: Reference, earlier: list[tuple[int, list[str]]],
           lexicon: Lexicon) -> list[str]:
    """A pronoun in a later clause that means the question's subject: "What did her husband
    do when she left him?" → him = the husband. Only a known, matching gender binds."""
    if not (ref.english and ref.kind == "person" and ref.gender):
        return []
    for end, names in sorted(earlier):
        if end > ref.start or len(names) != 1:
            continue
        if _KIN_OWNED[ref.gender].match(question, end):
            break  # "What did David's father do before he died?": he is the father
        if CLAUSE_EN.search(question[end: ref.start]) and lexicon.gender(names[0]) == ref.gender:
            return names
        break  # only the subject (the first person named) binds
    return []


_KIN_OWNED = {gender: re.compile(rf"['’]s?\s+(?:[a-z]+\s+)?(?:{words})\b", re.I)
              for gender, words in (("m", en.MALE_KIN), ("f", en.FEMALE_KIN))}
"""A name's relative of one gender right after it ("David's father", "Emma's eldest sister")."""


def _own(question: str, ref: Reference, earlier: list[tuple[int, list[str]]],
         lexicon: Lexicon) -> list[str]:
    """An English pronoun after the one person the question names before it, whom its gender
    fits, is that person: "Where does Sir Thomas have his estates abroad?", "Where did Maria
    Bertram live after leaving her husband?" (not the last answer's Mr. Rushworth or Fanny: a
    newcomer's trial), and so is a subject after it: "Who told Catherine she had to leave?"
    (not Mrs. Morland: another). Not an object, which the nearer subject cannot be ("Who
    reproached Emma for treating her so?" is not Emma). A gender the world does not know fits;
    another one does not."""
    if not (ref.english and ref.kind == "person" and ref.gender and (
            ref.possessive or ref.surface.lower() in en.NOMINATIVE_PRONOUNS)):
        return []
    before = {name for end, names in earlier if end <= ref.start for name in names}
    if len(before) != 1:
        return []
    # "What did David's father do before he died?": he is the father, not David
    if any(_KIN_OWNED[ref.gender].match(question, end) for end, _ in earlier if end <= ref.start):
        return []
    name = next(iter(before))
    return [name] if lexicon.kind(name) == "person" and lexicon.gender(name) in (
        "", ref.gender) else []


_GIVES_NAME = re.compile(f"(?:{zh.GIVES_NAME})|(?:{en.GIVES_NAME})", re.I)
_ENDS = re.compile(r"[\s?？.。!！]*$")


def _named_as(question: str, ref: Reference, spans: Sequence[tuple[int, int, str]],
              lexicon: Lexicon) -> list[str]:
    """A person pronoun asked why or how it is called the name the question ends with is the
    one of that name: "他为什么叫闰土？" is 闰土, "Why is he called the Count?" the Count's
    person (the name after the pronoun is otherwise never its referent: What did he give
    Caderousse?)."""
    if ref.kind != "person" or ref.possessive:
        return []
    for start, end, name in spans:
        if (start >= ref.end and _ENDS.fullmatch(question[end:])
                and _GIVES_NAME.search(question[ref.end:start])
                and lexicon.kind(name) == "person"
                and lexicon.gender(name) in ("", ref.gender or lexicon.gender(name))):
            return [name]
    return []


def _subjects(ref: Reference, resolved: list[tuple[Reference, list[str]]]) -> list[str]:
    """A possessive of the gender of a pronoun the question took before it means the same
    person: "Where did she get her sword?" — her is she (Su Wan), not the next woman."""
    if not (ref.possessive and ref.english and ref.kind == "person" and ref.gender):
        return []
    return next((names for before, names in reversed(resolved) if before.kind == "person"
                 and not before.possessive and before.gender == ref.gender), [])


def _said_before(ref: Reference, names: list[str], earlier: list[tuple[int, list[str]]]) -> bool:
    """A possessive whose one referent the question already names before it reads best as
    typed: "Where did Su Wan get her sword?", not "… get Su Wan's sword?"."""
    return len(names) == 1 and any(end <= ref.start and names == said for end, said in earlier)


def _theirs(ref: Reference, earlier: list[tuple[int, list[str]]]) -> bool:
    """A plural after two persons the question already names means them: "What did her husband
    do when she and their son left him?" — their = she and her husband, as written, not the
    last answer's people."""
    if ref.kind != "persons":
        return False
    before = {n for end, names in earlier if end <= ref.start for n in names}
    return len(before) >= 2


def _dropped_subject(question: str, context: Context) -> Resolution:
    """后来呢？ → 诸葛亮后来呢？, What happened next? → What happened to Danglars next?, Died of
    what? → Kiyo died of what?"""
    if context.lexicon.names_in(question):
        return Resolution(question, question)
    zh = has_han(question)
    match = (DROPPED_ZH if zh else DROPPED_EN).match(question.strip())
    verb_first = None if zh or match else DROPPED_EN_VERB.match(question.strip())
    if match is None and verb_first is None:
        return Resolution(question, question)
    topic = context.pick(Reference(0, 0, "", "person")) \
        or context.pick(Reference(0, 0, "", "thing"))
    if not topic:
        return Resolution(question, question)
    name = context.display(topic, zh)
    text = question.strip()
    if verb_first is not None:  # Died of what? → Kiyo died of what?
        lead = verb_first.group("lead") or ""
        rest = text[len(lead):]
        text = f"{lead}{name} {rest[:1].lower()}{rest[1:]}"
        text = text[:1].upper() + text[1:]
    elif zh and match:
        lead = match.group("lead") or ""
        text = text[: len(lead)] + name + text[len(lead):]
    elif match:
        tail = (match.group("when") or "next").strip()
        text = f"What happened to {name} {tail}?"
    return Resolution(question, text, [(question.strip(), [topic])])


def is_followup(question: str) -> bool:
    """Whether the question leans on the conversation (a pronoun or a dropped subject)."""
    zh = has_han(question)
    dropped = (DROPPED_ZH, EVENT_FRAME_ZH) if zh else (DROPPED_EN, DROPPED_EN_VERB, EVENT_FRAME_EN)
    return bool(find_references(question)) or any(p.match(question.strip()) for p in dropped)
