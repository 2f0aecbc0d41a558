"""The words a follow-up refers with, in both languages: pronouns, demonstrative phrases (这把剑,
that sword), relatives (她的丈夫, her husband), a dropped subject (后来呢? And then?), and the
words around them that decide what they stand for. agent/librarian/referring.py finds them in a
question with these tables."""

from __future__ import annotations

import re
from typing import Literal

from stores.lang import has_han, zh

Gender = Literal["m", "f", ""]
"""As agent.world.gender.Gender (the vocabulary imports nothing from the project)."""

RELATIVE_FAMILIES = {
    "spouse": r"妻子|夫人|丈夫|老婆|妻|嫁|娶|\bwife\b|\bhusband\b|\bmarr(?:y|ied)\b|\bspouse\b",
    "father": r"父亲|义父|\bfather\b",
    "mother": r"母亲|\bmother\b",
    "son": r"儿子|长子|次子|\bsons?\b",
    "daughter": r"女儿|\bdaughters?\b",
    "brother": r"兄弟|哥哥|弟弟|兄长|\bbrothers?\b",
    "sister": r"姐姐|妹妹|\bsisters?\b",
    "teacher": r"师父|师傅|老师|\bteacher\b|\bmaster\b|\btaught\b|\bmentor\b",
}
"""The kinship family a relative word belongs to, as an alternation of its words."""

FEMALE_RELATIVE = (r"妻子|夫人|老婆|妻|女儿|母亲|姐姐|妹妹|\bwife\b|\bdaughters?\b"
                   r"|\bmother\b|\bsisters?\b|\bwoman\b|\bgirl\b")
"""Words for a female relative (wife, 女儿): the person asked for is a woman (a pattern)."""

MALE_RELATIVE = (r"丈夫|儿子|长子|次子|父亲|义父|兄弟|哥哥|弟弟|\bhusband\b|\bsons?\b"
                 r"|\bfather\b|\bbrothers?\b")
"""Words for a male relative (husband, 父亲) (a pattern)."""

CLAUSE_EN = re.compile(r",|\b(?:when|while|after|before|because|since|until|as|if|once|so that)\b",
                       re.I)
"""Words that open a new clause, where a pronoun may point back at the question's subject."""

# -- dropped subjects -----------------------------------------------------------------------------
DROPPED_ZH = re.compile(
    r"^(?P<lead>那么|那|然后|所以|还有|而)?(?=后来|然后|之后|最后|最终|结果|接着|再后来|此后|从此"
    r"|临终|临死|死前|死后|死在|死于|死时|晚年|享年|多大|几岁|葬在|葬于|为什么|为何|怎么|如何"
    r"|又|还|也|曾|是否|有没有|被|结局|下场|一生|生平"
    r"|在哪|在何处|在什么地方|从哪|从何处|什么时候|何时|哪一年|哪年).{0,24}$")
DROPPED_EN = re.compile(
    r"^(?:and\s+)?(?:so\s+)?(?:then(?:\s+what)?|what\s+next|what\s+then|after\s+that|afterwards"
    r"|what\s+happened(?P<when>\s+(?:next|then|after\s+that|afterwards|later|in\s+the\s+end"
    r"|at\s+the\s+end))?)\s*[?.!]*$", re.I)

EVENT_FRAME_EN = re.compile(
    r"^(?:and\s+|so\s+)?(?:(?:in\s+)?(?P<chapter>which|what)\s+chapter\s+(?:is|was|does|did)\s+"
    r"(?:that|this|it)(?:\s+(?:in|happen|told))?|(?P<when>when)\s+(?:was|did|does)\s+(?:that|this|it)"
    r"(?:\s+happen)?|(?P<where>where)\s+(?:was|did|does)\s+(?:that|this|it)(?:\s+happen)?)\s*[?.!]*$",
    re.I)
EVENT_FRAME_ZH = re.compile(
    r"^(?:那|这|此事|这件事|那件事)(?:是)?(?:发生在|发生于|出现在|写在|在)?(?:(?P<chapter>第几回|哪一回|哪回|第几章|哪一章)"
    r"|(?P<when>什么时候|何时)|(?P<where>哪里|哪儿|何处))(?:的事|发生的|的)?[？?。！!]*$")
"""A follow-up that asks where, when or in which chapter *that* was — the event the last question
asked about, not a person or a thing: "Which chapter is that in?", 那是第几回？"""
EVENT_ASKED = {"chapter": (" — in which chapter?", "——是第几回？"), "when": (" — when?", "——是什么时候？"),
               "where": (" — where?", "——在哪里？")}
"""What the last question becomes for each frame (English, Chinese)."""

DROPPED_EN_VERB = re.compile(
    r"^(?P<lead>(?:and|but|so|then)\s+)?(?=(?:(?:later|then|finally|afterwards|also|ever)\s+)?"
    r"(?:(?!(?:need|feed|seed|bed|red|shed|wed)\b)[a-z]{2,}ed|went|came|saw|took|gave|fled|fought"
    r"|met|left|became|found|made|told|said|wrote|got|ran|fell|sent|brought|bought|lost|won"
    r"|held|kept|knew|thought|spent|stayed|lived)\s)", re.I)
"""A question that starts with its verb, its subject dropped: "Died of what in the end?",
"And later married whom?" (the subject goes before the verb)."""

# -- referring expressions -------------------------------------------------------------------------
ZH_RELATIVES = "|".join(("妻子", "夫人", "丈夫", "儿子", "长子", "次子", "女儿", "父亲", "母亲",
                         "哥哥", "弟弟", "姐姐", "妹妹", "师父", "老师"))
"""The relatives 他的/她的 may name (她的丈夫), as an alternation."""
ZH_PERSON_NOUNS = "孩子|儿子|女儿|女子|女人|男子|男人|小孩|少年|姑娘|老人|老者|将军|大将|武将|谋士|军师|皇帝|和尚|道士"
ZH_THING_NOUN_TEXT = ("宝刀|宝剑|刀|剑|马|宝物|宝贝|东西|物件|兵器|兵书|书|地图|图|信|印|玉玺|旗|枪"
                      "|戟|弓|船|宝|药|毒药")
ZH_THING_NOUNS = tuple(ZH_THING_NOUN_TEXT.split("|"))
"""Nouns that name a thing (马, 刀, 剑, 书 …)."""
ZH_PLACE_NOUNS = "城池|城|地方|山|关|寨|岛|湖|楼|府|镇|村|渡口|崖|庙|寺|阁|江|河"

ZH_REFERRING: list[tuple[str, str, Gender, int, bool | None]] = [  # Chinese referring expressions
    # (pattern, kind, gender, count, possessive)
    (rf"(?P<p>他|她)的(?P<rel>{ZH_RELATIVES})", "relation", "", 0, False),
    (r"他们俩|她们俩|他俩|她俩", "persons", "", 2, False),
    (r"他们|她们", "persons", "", 0, False),
    (rf"(?:这|那|此)(?:两|二)(?:个|位|名)?(?:人|{ZH_PERSON_NOUNS}|兄弟)", "new_persons", "", 2, False),
    (rf"(?:这|那|此)(?:三)(?:个|位|名)?(?:人|{ZH_PERSON_NOUNS}|兄弟)", "new_persons", "", 3, False),
    (r"(?:此|这|那)(?:二|两)人", "persons", "", 2, False),
    (rf"(?:这|那|此)(?:个|位|名)?(?:{ZH_PERSON_NOUNS})", "new_person", "", 0, False),
    (r"此人|这个人|那个人|这人|那人|该人|此公|这位|那位", "person", "", 0, False),
    (zh.SHE, "person", "f", 0, False),
    (zh.HE, "person", "m", 0, False),
    (r"(?<![尤极与及何])其(?![他中余实次间后])", "person", "", 0, True),
    (r"它们|它", "thing", "", 0, False),
    (rf"(?:这|那|此)(?:把|匹|件|张|幅|本|口|柄|封|颗|块|面|支|杆|艘|条|瓶)?(?:{ZH_THING_NOUN_TEXT})",
     "thing", "", 0, False),
    (rf"那里|那儿|这里|这儿|该地|此地|此处|那边|(?:这|那|此)(?:座|个)?(?:{ZH_PLACE_NOUNS})",
     "place", "", 0, False),
]

ZH_RELATIVE_GENDER: dict[str, Gender] = {
    "妻子": "f", "夫人": "f", "女儿": "f", "母亲": "f", "姐姐": "f", "妹妹": "f", "丈夫": "m",
    "儿子": "m", "长子": "m", "次子": "m", "父亲": "m", "哥哥": "m", "弟弟": "m"}
"""The gender of the relative a ZH_RELATIVES word names."""

EN_RELATIVES = ("husband|wife|son|daughter|father|mother|brother|sister|master|teacher|mentor"
                "|fianc[ée]e?|betrothed")
EN_THINGS = ("sword|blade|knife|dagger|map|ship|boat|letter|book|ring|diamond|treasure|horse"
             "|jewel|document|packet|note|weapon|poison|purse")
EN_THING_NOUNS = tuple(EN_THINGS.split("|"))
"""The nouns a thing the last question named ends in (his letter, the diamond): what "it" as an
object stands for, as a Chinese 它 takes ZH_THING_NOUNS."""
EN_IT_AS_SUBJECT = re.compile(r"\b(?:is|was|were|are|did|does|do|has|had|have|will|would|could"
                              r"|can|should|shall|may|might|must)\s+$", re.I)
"""What stands before "it" as the subject of a question (How did it happen? Is it true?): an
event or nothing, not the thing the last question named…"""
EN_THING_DOES = re.compile(r"^\s+(?:say|tell|contain|mean|show|read|hold|cost|weigh)\b", re.I)
"""…unless what follows "it" is what a thing does (What does it say? What did it contain?)."""
EN_PLACES = ("place|city|town|island|fortress|prison|castle|village|house|inn|lake|river"
             "|grotto|cave|ferry|cliff|tower|harbour|harbor|port")
_OBJECT_NEXT_TEXT = """
when to in at by with for from and or that the a an about after before into as again up
down off out if while because so than then is was were did do does not on over round
around through across along back away home here there under behind toward towards near
past beside among against upon onto within without once twice first last alone too
"""
EN_OBJECT_NEXT = frozenset(_OBJECT_NEXT_TEXT.split())
"""Words after 'her' that make it an object, not a possessive (showed her to, told her that,
showed her round the house)."""
EN_REFERRING: list[tuple[str, str, Gender, int, bool | None]] = [  # English ones
    (rf"\b(?P<p>his|her|their)\s+(?P<rel>{EN_RELATIVES})\b", "relation", "", 0, False),
    (r"\b(?:both of them|the two of them|the two)\b", "persons", "", 2, False),
    # a reflexive means the subject before it, as typed: "Why did he kill himself?" is no
    # question about another man (a newcomer's trial: "Why did Morcerf kill Edmond Dantès?")
    (r"\bthey\b|\bthem\b", "persons", "", 0, False),
    (r"\btheirs?\b", "persons", "", 0, True),
    (r"\b(?:this|that)\s+(?:man|boy|child|young man|old man|prisoner|sailor|priest)\b",
     "new_person", "m", 0, False),
    (r"\b(?:this|that)\s+(?:woman|girl|lady|young woman)\b", "new_person", "f", 0, False),
    # "the child" as a reference, not as the start of a description (the child who …)
    (r"\bthe\s+(?:child|baby|infant)\b(?!\s+(?:who|that|whom|which|of|in|at|with)\b)",
     "new_person", "", 0, False),
    (r"\bhe\b|\bhim\b", "person", "m", 0, False),
    (r"\bhis\b", "person", "m", 0, True),
    (r"\bshe\b", "person", "f", 0, False),
    (r"\bhers\b", "person", "f", 0, True),
    (r"\bher\b", "person", "f", 0, None),  # object or possessive: decided by the next word
    (rf"\b(?:this|that)\s+(?:{EN_THINGS})\b", "thing", "", 0, False),
    (r"\bits\b", "thing", "", 0, True),
    (r"\bit\b(?!\s+(?:true|possible|likely|said|seems|is said|end(?:ed)?)\b)", "thing", "", 0,
     False),
    (rf"\b(?:this|that)\s+(?:{EN_PLACES})\b", "place", "", 0, False),
    # "there" as a place, not "is there / there was"
    (r"(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bwere )\bthere\b"
     r"(?!\s+(?:is|are|was|were|be|been|'s|any|a|an|many|much)\b)", "place", "", 0, False),
]

ZH_DEMONSTRATIVE = re.compile(r"^(?:这|那|此)(?:两|二|三)?(?:个|位|名|座|把|匹|件|张|幅|本|口|柄|封|颗"
                              r"|块|面|支|杆|艘|条|瓶)?")
"""The demonstrative (and its measure word) before a noun: 这匹马, 那座城."""

ZH_NOT_NOUNS = ("里", "儿", "边", "处", "地", "人")
"""What follows a demonstrative without naming a thing: 那里, 这儿, 此处, 那人."""

_PREPOSITIONS_TEXT = "from to in at near over under of beyond into toward towards around"
EN_PREPOSITIONS = frozenset(_PREPOSITIONS_TEXT.split())
"""Words before 'there' that already say how it is reached (from there: from X)."""
_MOTION_TEXT = """
go goes went gone going come comes came coming travel travelled traveled sail
sailed return returned flee fled get got move moved send sent take took bring
brought lead led run ran escape escaped ride rode walk walked
"""
EN_MOTION = frozenset(_MOTION_TEXT.split())
"""Verbs of going before 'there' (went there: went to X)."""

ZH_SUBJECT_THEN = ("是", "的", "在", "为什么", "为何", "怎么", "怎样", "有", "和", "跟", "与", "被", "把",
                   "姓", "叫", "住", "做", "干", "去", "到", "说", "后来", "最后", "死", "对", "又",
                   "也", "曾", "多大", "几岁", "为", "想", "要", "会", "能", "从")
"""What follows a question's subject (七斤是做什么的？ 假洋鬼子为什么打阿Q？): where a name the world
does not list ends, when it opens a question."""
ZH_NOT_SUBJECT_START = frozenset("他她它这那此谁什哪为怎然当我你咱如")
"""First characters of a question's opening words that are no name: pronouns, question words."""
ZH_NOT_SUBJECT = ("后来", "大家", "有人", "众人", "最后", "那时", "当时", "之后", "以后", "结果", "是不是")
"""Opening words of a question that are no name (大家为什么笑？ — 大哥 is one, and 后主)."""
_NOT_SUBJECT_TEXT = """
who whom whose what which when where why how did does do is was were are has had have can could
will would i tell describe and but chapter
"""
EN_NOT_SUBJECT = frozenset(_NOT_SUBJECT_TEXT.split())
"""Capitalised words of a question that are no name the question is about (its opening word
is capitalised whatever it is)."""

_WHERE_IS_EN = re.compile(r"^\s*where\s+(?:is|was|are|were|lies|lay|stands|stood)\s+(?:the\s+)?",
                          re.I)
_WHERE_IS_ZH = re.compile(r"在哪|在何处|在什么地方|位于何处|位于哪")


def asks_where_it_is(question: str, written: str) -> bool:
    """The question asks where the place written `written` lies (Where is Delaford? 白帝城在
    哪里？): that place is what a follow-up's "there" means, not the county the answer gives."""
    asked = question.strip()
    if has_han(written):
        return asked.startswith(written) and _WHERE_IS_ZH.search(asked, len(written)) is not None
    found = _WHERE_IS_EN.match(asked)
    return found is not None and asked[found.end():].startswith(written)

CHAPTER_DEIXIS_EN = re.compile(r"\b(?:that|this|the\s+same)\s+chapter\b", re.I)
CHAPTER_DEIXIS_ZH = re.compile(r"(?:那|这|该|此|同)一?[回章]")
"""A chapter the conversation named before: "Who is the main character in that chapter?",
那一回里谁出场了？ (the last question's chapter, else the chapter of the last answer's first
quote)."""
