"""Query analysis: what kind of question this is, which entities and chapters it names.

Rules, not a model: fast, deterministic and the same in every run. The librarian routes on the
result (once a turn: agent.librarian.model caches it for the run); language models read the
question and the conversation themselves.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from stores.entities.kinship import names_a_relative
from stores.lang import asks, en, has_han, zh
from stores.lang.asking import (
    ASKED_OWNER,
    DEATH,
    HOPS_EN,
    HOPS_EN_AND,
    HOPS_ZH,
    HOPS_ZH_THAT,
    KILLING,
    MULTI_HOP,
    ORDERED_MARRIAGE,
    OWNER_AFTER,
    OWNER_GAP,
    RELATION_CUES,
    RELATION_VERBS,
    RELATIONAL,
    SESSION,
    TEMPORAL,
    asks_how_related,
)
from stores.lang.text import CLOSING_QUOTES, OPENING_QUOTES
from stores.readers.headings import chapters_named

Kind = Literal["exact", "relational", "temporal", "session", "conceptual"]

# A straight apostrophe inside a word (d'Épinay's, everybody's) is not a quotation mark.
QUOTE = re.compile(rf"[{OPENING_QUOTES}]([^{CLOSING_QUOTES}]{{2,80}})[{CLOSING_QUOTES}]"
                   r"|(?<![^\W\d_])'((?:[^']|(?<=\w)'(?=\w)){2,80})'(?![^\W\d_])")
ASKS_CHAPTER = asks("which_chapter")
_ASKS_WHO = asks("person_named")
# Words a story uses for how two people are related; a question that asks for "the relation"
# searches them within the pair's passages.
KIN_WORDS_ZH = " ".join(zh.LANGUAGE.kin_words)
KIN_WORDS_EN = " ".join(en.LANGUAGE.kin_words)


# Ways a story says someone died; the search adds them when a question asks about a death.
DEATH_WORDS_ZH = " ".join(zh.LANGUAGE.death_words)
DEATH_WORDS_EN = " ".join(en.LANGUAGE.death_words)

def known_names(question: str, spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The question's mentions without those that are part of a longer name the world does not
    know: in "old Louis Dantès", Louis (the king) and Dantès (Edmond) are one man, neither of
    them; nor a name in brackets that glosses the one before it (Mrs. John Dashwood (Fanny)).
    A word of place written after a name (Norland Park, of Norland and a "Park") is the name's
    place: the name counts, the word does not."""
    joined = {i for i in range(len(spans) - 1)
              if spans[i][2] != spans[i + 1][2]
              and re.fullmatch(r" ", question[spans[i][1]:spans[i + 1][0]])
              and question[spans[i][0]].isupper() and question[spans[i + 1][0]].isupper()}
    # "Norland Park": a word of place after a name makes the name's place, not an unknown name
    tails = {i for i in joined if question[spans[i + 1][0]:spans[i + 1][1]] in en.PLACE_TAILS}
    joined -= tails
    # "Mrs. John Dashwood (Fanny)": a name in brackets right after another glosses it
    glosses = {i + 1 for i in range(len(spans) - 1)
               if re.fullmatch(r"\s*[(（]", question[spans[i][1]:spans[i + 1][0]])
               and re.match(r"\s*[)）]", question[spans[i + 1][1]:])}
    return [span for i, span in enumerate(spans)
            if i not in joined and i - 1 not in joined and i not in glosses
            and i - 1 not in tails]


@dataclass
class QueryPlan:
    """What the question asks and what it names."""

    question: str
    kind: Kind
    entities: list[str] = field(default_factory=list)
    """Canonical names mentioned, in order of appearance."""
    quote: str = ""
    """A quoted phrase to look up verbatim."""
    chapters: list[int] = field(default_factory=list)
    """Chapters named in the question (第三回, chapter 5)."""
    asks_chapter: bool = False
    """The question asks which chapter something happens in."""
    about_death: bool = False
    death_subject: str = ""
    """The entity whose death is asked about: named before the word for dying (关羽在哪一回死的,
    how did Morcerf die), not after it (who died, leaving Dantès in command)."""
    multi_hop: bool = False
    """The question describes someone instead of naming them (那位军师 … 最后死在哪里)."""
    mentions: list[str] = field(default_factory=list)
    """The names as the question writes them (云长, the Count)."""
    hops: tuple[str, str] | None = None
    """A multi-hop question split into the description of its subject and what it asks about
    them: 温酒斩华雄的那位将军 | 最后败走的是哪座城."""
    bridges: int = 1
    """How many people the description stands for (两个部将 → 2, 三兄弟 → 3)."""
    relation: tuple[str, str] | None = None
    """The relation the question asks for and the named entity's role in it, read outside
    the names (Lord Wilmore is not asking who Wilmore serves): see `relation_cue`."""
    asks_relation: bool = False
    """The answer is the relation itself or the relative (什么关系, 沈砚的师父是谁, whose
    father), not something else the question says about a relative (Whom did Haydée accuse
    of betraying her father?): see `relation_asked`."""
    how_related: bool = False
    """The question asks how two it names are related (什么关系, How is Isabella related to
    Mr. John Knightley?, What is Jane Fairfax to Miss Bates?): see `asks_how_related`."""

    @property
    def chinese(self) -> bool:
        return has_han(self.question)


def analyse(question: str, spans_in: Callable[[str], list[tuple[int, int, str]]]) -> QueryPlan:
    """Classify the question; `spans_in(text)` gives (start, end, canonical name) mentions."""
    quote = QUOTE.search(question)
    spans = known_names(question, spans_in(question))
    entities = list(dict.fromkeys(name for _, _, name in spans))
    hops, bridges = split_hops(question, spans)
    # In a multi-hop question the one who dies is the described subject, not a name in the
    # description (刺杀董卓的那个人最后在哪里被处死: not 董卓), so only the rest is read for it.
    after = len(question) - len(hops[1]) if hops else 0
    death = DEATH.search(question, after)
    # "Edmond's father" is someone else than Edmond: a name that stands for a relative is
    # not whose death is asked about. Of several names, the nearest the word for dying: "What
    # did Catherine suspect about Mrs. Tilney's death?" asks about Mrs. Tilney's.
    subject = next((name for start, end, name in reversed(spans)
                    if death and after <= start < death.start()
                    and not names_a_relative(question, end)), "")
    # "after her parents died": a relative's death, told of by a possessive, not the named one's
    if death and en.RELATIVE_BEFORE.search(question, after, death.start()):
        subject = ""
    # 杀害张飞, who killed Franz's father: the victim follows a verb of killing (三国演义
    # multi_hop recall 0.48 → 0.60: the description 杀害张飞 now looks for 张飞's death).
    if death and not subject:
        subject = next((name for start, _, name in spans
                        if death.end() <= start <= death.end() + 2 and KILLING.match(death[0])), "")
    chapters = chapters_named(question)
    how_related = asks_how_related(question, [question[a:b] for a, b, _ in spans])
    if quote:
        kind: Kind = "exact"
    elif SESSION.search(question):
        kind = "session"
    elif (RELATIONAL.search(question) or how_related) and entities:
        kind = "relational"
    elif TEMPORAL.search(question) and entities:
        kind = "temporal"
    else:
        kind = "conceptual"
    verb = relation_verb(question, spans)
    unnamed = question
    for start, end, _ in sorted(spans, reverse=True):
        unnamed = unnamed[:start] + " " + unnamed[end:]
    relation = relation_cue(unnamed) or verb
    if relation is not None and relation[0] in ("spouse", "engaged") and ORDERED_MARRIAGE.search(
            question):
        relation = None  # which of his wives came first, the spouse edges do not say
    return QueryPlan(question=question, kind=kind, entities=entities,
                     quote=(quote.group(1) or quote.group(2)) if quote else "", chapters=chapters,
                     asks_chapter=(asks_chapter := bool(ASKS_CHAPTER.search(question))),
                     about_death=bool(death), death_subject=subject,
                     multi_hop=bool(hops) or bool(MULTI_HOP.search(question)),
                     hops=hops, bridges=bridges,
                     relation=relation,
                     # "In which chapter does Mr. Palfrey consent to Penny's marriage?" asks
                     # when, not whom (it was answered "Mrs. Palfrey is Mr. Palfrey's wife")
                     asks_relation=not asks_chapter and (
                         relation_asked(question, [question[a:b] for a, b, _ in spans])
                         or verb is not None),
                     how_related=how_related,
                     mentions=list(dict.fromkeys(question[a:b] for a, b, _ in spans)))


_COUNTS = {"两": 2, "二": 2, "三": 3, "四": 4, "two": 2, "three": 3}


def split_hops(question: str, spans: list[tuple[int, int, str]]) -> tuple[
        tuple[str, str] | None, int]:
    """(description, the rest) of a question that describes its subject instead of naming it,
    and how many people the description stands for; (None, 1) for other questions."""
    match = (HOPS_ZH.match(question) or HOPS_ZH_THAT.match(question) or HOPS_EN.match(question)
             or HOPS_EN_AND.match(question))
    if not match:
        return None, 1
    if match.re in (HOPS_ZH, HOPS_ZH_THAT):
        who_at = match.start("who")
        # 关羽的青龙偃月刀后来…: the "who" part names something itself, no hop to make.
        if any(who_at <= start < match.end("who") for start, _, _ in spans):
            return None, 1
    who = match.groupdict().get("who") or match.group("desc")[:12]
    count = next((n for word, n in _COUNTS.items() if word in who), 1)
    return (match.group("desc").strip(), match.group("rest").strip()), count




def relation_asked(question: str, mentions: list[str]) -> bool:
    """The question asks what a relation is or who someone's relative is: "什么关系", or a
    relative word owned by a name or by the question word (沈砚的师父, Mira's father, father
    of Mira, 谁的儿子). A relative word elsewhere (Whom did Haydée accuse of betraying her
    father?) is something the question says about the answer, not what it asks for, and so is
    a marriage that dates a maiden name (Who was Lady Bertram before she married? asks for
    her name, not her husband: en.MAIDEN_ASKED)."""
    if en.MAIDEN_ASKED.search(question):
        return False
    if asks_how_related(question, mentions):
        return True
    for pattern, _, _ in RELATION_CUES:
        for cue in pattern.finditer(question):
            before, after = question[:cue.start()], question[cue.end():]
            if ASKED_OWNER.search(before):
                return True
            for name in mentions:
                at = before.rfind(name)
                if at >= 0 and OWNER_GAP.fullmatch(before[at + len(name):]):
                    return True
                of = OWNER_AFTER.match(after)
                if of is not None and after[of.end():].startswith(name):
                    return True
    return False


def relation_cue(question: str) -> tuple[str, str] | None:
    """The declared relation a question asks for, with the named entity's role in it. Owned by
    the question word, the relative word is what the named one is, so the role turns round:
    沈砚的徒弟是谁 makes 沈砚 the mentor, 韩夫人是谁的女儿 / Whose daughter is she? the daughter."""
    for pattern, kind, role in RELATION_CUES:
        cue = pattern.search(question)
        if cue:
            return kind, (_other_end(role) if ASKED_OWNER.search(question[:cue.start()])
                          else role)
    return None


def relation_verb(question: str, spans: Sequence[tuple[int, int, str]]) -> tuple[str, str] | None:
    """The relation a verb beside a name asks for in a who-question: right before it, the name
    takes the verb's object role (Who taught Su Wan …? → Su Wan's mentor); right after it, the
    other end (Whom did Shen Yan teach? → his pupils). Not What did he teach Su Wan?"""
    if not _ASKS_WHO.search(question):
        return None
    for start, end, _ in spans:
        before, after = question[:start], question[end:]
        for pattern, kind, role in RELATION_VERBS:
            if any(not before[m.end():].strip() for m in pattern.finditer(before)):
                return kind, role
            if pattern.match(after.lstrip()) is not None:
                return kind, _other_end(role)
    return None


def _other_end(role: str) -> str:
    """A relation's other end: source ↔ target (either stays either)."""
    if role == "either":
        return role
    return "target" if role == "source" else "source"
