"""Query analysis: what kind of question this is, which entities and chapters it names.

Rules, not a model: fast, deterministic and the same in every run. The offline model routes on
the result; the real models get the same facts in their prompt.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

Kind = Literal["exact", "relational", "temporal", "session", "conceptual"]

QUOTE = re.compile(r"[“\"「『']([^”\"」』']{2,80})[”\"」』']")
RELATIONAL = re.compile(
    r"关系|什么人|是谁的|之间|结义|兄弟|义父|父亲|儿子|妻|夫人|主公|君臣|师徒|师父|徒弟|仇|敌|盟"
    r"|\brelat|\bfather\b|\bmother\b|\bson\b|\bdaughter\b|\bwife\b|\bhusband\b|\bbrother"
    r"|\bsister\b|\bmaster\b|\bservant\b|\benemy|\bfriend|\bfiance|\bbetroth|\bmarried\b"
    r"|\bwho is .{1,40} to\b", re.I)
TEMPORAL = re.compile(
    r"哪一回|第几回|哪回|哪一章|第几章|什么时候|何时|最后|后来|之后|之前|先后|死|亡|去世|临终|结局"
    r"|\bwhich chapter\b|\bwhen\b|\bafter\b|\bbefore\b|\bfinally\b|\bin the end\b|\blater\b"
    r"|\bdie[ds]?\b|\bdeath\b|\bkilled\b|\bfirst time\b|\bbegin|\bend of\b", re.I)
SESSION = re.compile(
    r"刚才|之前问|前面说|我们聊|你说过|上次|我问过|earlier (?:you|we)|we (?:talked|discussed)"
    r"|you (?:said|mentioned)|did i ask|previous(?:ly)? (?:question|answer)", re.I)
CHAPTER_REF = re.compile(r"第([一二三四五六七八九十百零〇两\d]+)[回章]|\bchapter (\d+)\b", re.I)
ASKS_CHAPTER = re.compile(r"哪一回|第几回|哪回|哪一章|第几章|\bwhich chapter\b|\bwhat chapter\b",
                          re.I)
DEATH = re.compile(r"死|亡|去世|身故|被杀|被害|杀害|斩杀|被斩|遇害|下场|结局|怎么死"
                   r"|\bdie[ds]?\b|\bdeath\b|\bkill(?:ed|s)?\b|\bdead\b|\bsuicide\b"
                   r"|\bshoots? (?:him|her)self\b|\bpoison(?:ed|s)?\b|\bbecame of\b", re.I)
MULTI_HOP = re.compile(r"的那[位个名员]|那个人|那人|那位|此人|的人|\bthe (?:man|woman|one|person) who\b"
                       r"|\bwhose\b", re.I)

# Ways a story says someone died; the search adds them when a question asks about a death.
DEATH_WORDS_ZH = "死 亡 卒 殁 薨 崩 逝 寿 亡年 归天 归神 遇害 被害 身死 而亡 气绝"
DEATH_WORDS_EN = "died dead death killed poison perished buried grave corpse suicide"

CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5,
             "六": 6, "七": 7, "八": 8, "九": 9}
CN_UNITS = {"十": 10, "百": 100, "千": 1000}


def chinese_number(text: str) -> int:
    """一百二十 → 120, 三十七 → 37, 十 → 10, 一一八 → 118, 37 → 37."""
    if text.isdigit():
        return int(text)
    if all(ch in CN_DIGITS for ch in text):  # digit by digit, as some editions number
        return int("".join(str(CN_DIGITS[ch]) for ch in text))
    total, current = 0, 0
    for ch in text:
        if ch in CN_DIGITS:
            current = CN_DIGITS[ch]
        elif ch in CN_UNITS:
            total += (current or 1) * CN_UNITS[ch]
            current = 0
    return total + current


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

    @property
    def chinese(self) -> bool:
        return bool(re.search(r"[\u4e00-\u9fff]", self.question))


def analyse(question: str, spans_in: Callable[[str], list[tuple[int, int, str]]]) -> QueryPlan:
    """Classify the question; `spans_in(text)` gives (start, end, canonical name) mentions."""
    quote = QUOTE.search(question)
    spans = spans_in(question)
    entities = list(dict.fromkeys(name for _, _, name in spans))
    death = DEATH.search(question)
    subject = next((name for start, _, name in spans if death and start < death.start()), "")
    chapters = [chinese_number(m.group(1) or m.group(2)) for m in CHAPTER_REF.finditer(question)]
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
    return QueryPlan(question=question, kind=kind, entities=entities,
                     quote=quote.group(1) if quote else "", chapters=chapters,
                     asks_chapter=bool(ASKS_CHAPTER.search(question)),
                     about_death=bool(death), death_subject=subject,
                     multi_hop=bool(MULTI_HOP.search(question)))
