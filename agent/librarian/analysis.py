"""Query analysis: what kind of question this is, which entities and chapters it names.

Rules, not a model: fast, deterministic and the same in every run. The librarian routes on the
result (once a turn: agent.librarian.model caches it for the run); language models read the
question and the conversation themselves.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from stores.entities.kinship import names_a_relative
from stores.lang import HAN_RANGES, asks, en, has_han, zh
from stores.readers.headings import parse_cjk_number

Kind = Literal["exact", "relational", "temporal", "session", "conceptual"]

# A straight apostrophe inside a word (d'Épinay's) is not a quotation mark.
QUOTE = re.compile(r"[“\"「『]([^”\"」』]{2,80})[”\"」』]|(?<![^\W\d_])'([^']{2,80})'(?![^\W\d_])")
RELATIONAL = re.compile(
    r"关系|什么人|是谁的|之间|结义|兄弟|义父|父亲|儿子|妻|夫人|主公|君臣|师徒|师父|徒弟|仇|敌|盟"
    r"|\brelat|\bfather\b|\bmother\b|\bson\b|\bdaughter\b|\bwife\b|\bhusband\b|\bbrother"
    r"|\bsister\b|\bmaster\b|\bservant\b|\benemy|\bfriend|\bfiance|\bbetroth|\bmarr(?:y|ied|iage)\b"
    r"|\bdisciple|\bpupil|\bapprentice|\bmentor|\bteacher"
    r"|嫁|娶"
    r"|\bwho is .{1,40} to\b", re.I)
TEMPORAL = re.compile(
    r"哪一回|第几回|哪回|哪一章|第几章|什么时候|何时|最后|后来|之后|之前|先后|死|亡|去世|临终|结局"
    r"|\bwhich chapter\b|\bwhen\b|\bafter\b|\bbefore\b|\bfinally\b|\bin the end\b|\blater\b"
    r"|\bdie[ds]?\b|\bdeath\b|\bkilled\b|\bfirst time\b|\bbegin|\bend of\b", re.I)
SESSION = re.compile(
    r"刚才|之前问|前面说|我们聊|你说过|上次|我问过|earlier (?:you|we)|we (?:talked|discussed)"
    r"|you (?:said|mentioned)|did i ask|previous(?:ly)? (?:question|answer)", re.I)
CHAPTER_REF = re.compile(r"第([一二三四五六七八九十百零〇两\d]+)[回章]|\bchapter (\d+)\b", re.I)
ASKS_CHAPTER = asks("which_chapter")
DEATH = re.compile(r"死|亡|去世|身故|临终|被杀|被害|杀害|斩杀|刺杀|被斩|遇害|下场|结局|怎么死"
                   r"|\bdie[ds]?\b|\bdeath\b|\bkill(?:ed|s)?\b|\bdead\b|\bsuicide\b"
                   r"|\bshoots? (?:him|her)self\b|\bpoison(?:ed|s)?\b|\bbecame of\b", re.I)
MULTI_HOP = re.compile(r"的那[位个名员]|那个人|那人|那位|此人|的人|\bthe (?:man|woman|one|person) who\b"
                       r"|\bwhose\b", re.I)

# Words a story uses for how two people are related; a question that asks for "the relation"
# searches them within the pair's passages.
KIN_WORDS_ZH = " ".join(zh.LANGUAGE.kin_words)
KIN_WORDS_EN = " ".join(en.LANGUAGE.kin_words)
ASKS_RELATION = re.compile(r"关系|\brelat(?:ion|ed|ionship)\b", re.I)

KILLING = re.compile(r"杀害|刺杀|斩杀|杀|斩|害|\bkill(?:ed|s)?\b|\bmurder", re.I)
"""Death words whose victim comes after them."""

# Ways a story says someone died; the search adds them when a question asks about a death.
DEATH_WORDS_ZH = " ".join(zh.LANGUAGE.death_words)
DEATH_WORDS_EN = " ".join(en.LANGUAGE.death_words)

def known_names(question: str, spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The question's mentions without those that are part of a longer name the world does not
    know: in "old Louis Dantès", Louis (the king) and Dantès (Edmond) are one man, neither of
    them."""
    joined = {i for i in range(len(spans) - 1)
              if spans[i][2] != spans[i + 1][2]
              and re.fullmatch(r" ", question[spans[i][1]:spans[i + 1][0]])
              and question[spans[i][0]].isupper() and question[spans[i + 1][0]].isupper()}
    return [span for i, span in enumerate(spans) if i not in joined and i - 1 not in joined]


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
    # not whose death is asked about.
    subject = next((name for start, end, name in spans
                    if death and after <= start < death.start()
                    and not names_a_relative(question, end)), "")
    # 杀害张飞, who killed Franz's father: the victim follows a verb of killing (三国演义
    # multi_hop recall 0.48 → 0.60: the description 杀害张飞 now looks for 张飞's death).
    if death and not subject:
        subject = next((name for start, _, name in spans
                        if death.end() <= start <= death.end() + 2 and KILLING.match(death[0])), "")
    chapters = [n for m in CHAPTER_REF.finditer(question)
                if (n := parse_cjk_number(m.group(1) or m.group(2))) is not None]
    if quote:
        kind: Kind = "exact"
    elif SESSION.search(question):
        kind = "session"
    elif RELATIONAL.search(question) and entities:
        kind = "relational"
    elif TEMPORAL.search(question) and entities:
        kind = "temporal"
    else:
        kind = "conceptual"
    unnamed = question
    for start, end, _ in sorted(spans, reverse=True):
        unnamed = unnamed[:start] + " " + unnamed[end:]
    return QueryPlan(question=question, kind=kind, entities=entities,
                     quote=(quote.group(1) or quote.group(2)) if quote else "", chapters=chapters,
                     asks_chapter=bool(ASKS_CHAPTER.search(question)),
                     about_death=bool(death), death_subject=subject,
                     multi_hop=bool(hops) or bool(MULTI_HOP.search(question)),
                     hops=hops, bridges=bridges, relation=relation_cue(unnamed),
                     asks_relation=relation_asked(question, [question[a:b] for a, b, _ in spans]),
                     mentions=list(dict.fromkeys(question[a:b] for a, b, _ in spans)))


# 温酒斩华雄的 | 那位将军 | 最后败走…: a description, the person it stands for, then a later fate.
HOPS_ZH = re.compile(r"^(?P<desc>.{3,}?)的(?P<who>[^的，,。？?]{1,6}?)"
                     r"(?P<rest>(?:里|中|之中)?(?:最后|后来|最终|之后|终于|下场|结局).*)$")
# "The man who wrote …: what title …", "Who killed X's father, and what is that man's …",
# "The bandit who held … later captured which banker?"
# 温酒斩华雄的 | 那位将军 | 是在哪里结义的: "that one" marks a description whatever is asked.
HOPS_ZH_THAT = re.compile(r"^(?P<desc>.{3,}?)的(?P<who>那[位个名员]?[^的，,。？?]{0,4}?)"
                          r"(?P<rest>(?:是|在|最后|后来|最终|之后|终于|又|曾|为什么|为何|怎么|叫|姓|有).*)$")
HOPS_EN = re.compile(r"^(?P<desc>the \w+ (?:who|whom|that|[A-Z]).+?)(?::\s*|\s+(?=(?:later|afterwards|"
                     r"eventually|finally|turns? out)\b))(?P<rest>.+)$", re.I)
HOPS_EN_AND = re.compile(r"^(?P<desc>.+?),\s+and\s+(?P<rest>.*\b(?:that|this) (?:man|woman|person)"
                         r"\b.*)$", re.I)
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


# How people ask for a declared relation: (pattern, relation type, the asked-about entity's role).
# "沈砚的师父是谁" asks for the mentor OF 沈砚: 沈砚 is the target of a mentor edge.
RELATION_CUES: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (re.compile(r"师父|师傅|恩师|\b(?:master|teacher|mentor)s?\b", re.I), "mentor", "target"),
    (re.compile(r"徒弟|弟子|门生|\b(?:disciple|student|apprentice|pupil)s?\b", re.I), "mentor",
     "source"),
    (re.compile(r"妻子|夫人|丈夫|夫君|嫁|娶"
                r"|\b(?:wife|wives|husbands?|spouses?|marr(?:y|ied|iage))\b", re.I),
     "spouse", "either"),
    (re.compile(r"主公|主人|效忠|\b(?:lord|serves?)\b", re.I), "serves", "source"),
    (re.compile(r"结义|义兄|义弟|\bsworn\b", re.I), "sworn_sibling", "either"),
    (re.compile(r"父亲|母亲|\b(?:father|mother|parent)s?\b", re.I), "parent_of", "target"),
    (re.compile(r"儿子|女儿|之子|\b(?:sons?|daughters?|child|children)\b", re.I), "parent_of",
     "source"),
    (re.compile(r"仇人|敌人|\b(?:enem(?:y|ies)|foes?)\b", re.I), "enemy", "either"),
)


OWNER_GAP = re.compile(f"(?:[{HAN_RANGES}]{{0,4}}的|之|['’]s\\s+(?:[a-z]+\\s+){{0,2}}|\\s+)")
"""What stands between a name and its relative word: 沈砚的师父, 沈青崖唯一的弟子, Mira's father,
Mira's only living son, Mercédès marry."""
ASKED_OWNER = re.compile(r"(?:谁的|\bwhose\s+)$", re.I)
"""谁的师父, whose father: the relative word is the question's object."""
OWNER_AFTER = re.compile(r"^\s+(?:of|to)\s+(?:the\s+)?", re.I)


def relation_asked(question: str, mentions: list[str]) -> bool:
    """The question asks what a relation is or who someone's relative is: "什么关系", or a
    relative word owned by a name or by the question word (沈砚的师父, Mira's father, father
    of Mira, 谁的儿子). A relative word elsewhere (Whom did Haydée accuse of betraying her
    father?) is something the question says about the answer, not what it asks for."""
    if ASKS_RELATION.search(question):
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
    """The declared relation a question asks for, with the named entity's role in it."""
    for pattern, kind, role in RELATION_CUES:
        if pattern.search(question):
            return kind, role
    return None
