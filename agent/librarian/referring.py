"""The words a follow-up refers with (他, 这把剑, 那里, her husband, there) and what they want.

`find_references(question)` lists the referring expressions of a question, left to right, each
with the kind of referent it needs (a person, several persons, an item, a place), the gender a
pronoun implies, and how the name that replaces it must be written (X的, X's).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from agent.gender import Gender
from stores.lang import HAN, asks, zh

CJK = HAN


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


@dataclass(frozen=True)
class Reference:
    """One referring expression in a question."""

    start: int
    end: int
    surface: str
    kind: str
    """person, persons, new_person, new_persons, relation, thing or place."""
    gender: Gender = ""
    count: int = 0
    """How many persons a plural names (他俩 → 2); 0 = as many as fit (up to 3)."""
    possessive: bool = False
    """The replacement is written X的 / X's (其, his, its)."""
    english: bool = False
    prefix: str = ""
    suffix: str = ""
    family: str = ""
    """For a relation (her husband): the kinship family (spouse, son …)."""
    relative_gender: Gender = ""
    """For a relation: the gender of the relative (husband → m)."""
    fallback: Reference | None = None
    """For a relation: the bare pronoun, resolved when the relation cannot be."""
    noun: str = ""
    """The noun a demonstrative phrase names (这匹马 → 马, that sword → sword, 这个孩子 → 孩子);
    for a relation, the relative (丈夫, husband)."""


# -- what a question asks -------------------------------------------------------------------------
WHO, WHERE, WHAT = asks("who"), asks("where"), asks("what")

_FAMILIES = {
    "spouse": r"妻子|夫人|丈夫|老婆|妻|嫁|娶|\bwife\b|\bhusband\b|\bmarr(?:y|ied)\b|\bspouse\b",
    "father": r"父亲|义父|\bfather\b",
    "mother": r"母亲|\bmother\b",
    "son": r"儿子|长子|次子|\bsons?\b",
    "daughter": r"女儿|\bdaughters?\b",
    "brother": r"兄弟|哥哥|弟弟|兄长|\bbrothers?\b",
    "sister": r"姐姐|妹妹|\bsisters?\b",
    "teacher": r"师父|师傅|老师|\bteacher\b|\bmaster\b|\btaught\b|\bmentor\b",
}
_FAMILY_RES = {name: re.compile(p, re.I) for name, p in _FAMILIES.items()}
_FEMALE_RELATIVE = re.compile(r"妻子|夫人|老婆|妻|女儿|母亲|姐姐|妹妹|\bwife\b|\bdaughters?\b"
                              r"|\bmother\b|\bsisters?\b|\bwoman\b|\bgirl\b", re.I)
_MALE_RELATIVE = re.compile(r"丈夫|儿子|长子|次子|父亲|义父|兄弟|哥哥|弟弟|\bhusband\b|\bsons?\b"
                            r"|\bfather\b|\bbrothers?\b", re.I)


def relation_family(text: str) -> str:
    """The kinship family a text asks about (spouse for 嫁给了谁 / whom did she marry), or ''."""
    for name, pattern in _FAMILY_RES.items():
        if pattern.search(text):
            return name
    return ""


def wanted_gender(text: str) -> Gender:
    """The gender of the person a who-question asks for (周瑜的妻子是谁？ → f), if it says."""
    if _FEMALE_RELATIVE.search(text):
        return "f"
    if _MALE_RELATIVE.search(text):
        return "m"
    return ""


CLAUSE_EN = re.compile(r",|\b(?:when|while|after|before|because|since|until|as|if|once|so that)\b",
                       re.I)
"""Words that open a new clause, where a pronoun may point back at the question's subject."""

# -- dropped subjects -----------------------------------------------------------------------------
DROPPED_ZH = re.compile(
    r"^(?P<lead>那么|那|然后|所以|还有|而)?(?=后来|然后|之后|最后|最终|结果|接着|再后来|此后|从此"
    r"|临终|临死|死前|死后|死在|死于|死时|晚年|享年|多大|几岁|葬在|葬于|为什么|为何|怎么|如何"
    r"|又|还|也|曾|是否|有没有|被|结局|下场|一生|生平).{0,24}$")
DROPPED_EN = re.compile(
    r"^(?:and\s+)?(?:so\s+)?(?:then(?:\s+what)?|what\s+next|what\s+then|after\s+that|afterwards"
    r"|what\s+happened(?P<when>\s+(?:next|then|after\s+that|afterwards|later|in\s+the\s+end"
    r"|at\s+the\s+end))?)\s*[?.!]*$", re.I)

# -- referring expressions ------------------------------------------------------------------------
_ZH_RELATIVES = "|".join(("妻子", "夫人", "丈夫", "儿子", "长子", "次子", "女儿", "父亲", "母亲",
                          "哥哥", "弟弟", "姐姐", "妹妹", "师父", "老师"))
_ZH_PERSON_NOUNS = "孩子|儿子|女儿|女子|女人|男子|男人|小孩|少年|姑娘|老人|老者|将军|大将|武将|谋士|军师|皇帝|和尚|道士"
_ZH_THING_NOUNS = ("宝刀|宝剑|刀|剑|马|宝物|宝贝|东西|物件|兵器|兵书|书|地图|图|信|印|玉玺|旗|枪"
                   "|戟|弓|船|宝|药|毒药")
ZH_THING_NOUNS = tuple(_ZH_THING_NOUNS.split("|"))
"""Nouns that name a thing (马, 刀, 剑, 书 …)."""
_ZH_PLACE_NOUNS = "城池|城|地方|山|关|寨|岛|湖|楼|府|镇|村|渡口|崖|庙|寺|阁|江|河"

_ZH: list[tuple[str, str, Gender, int, bool | None]] = [
    # (pattern, kind, gender, count, possessive)
    (rf"(?P<p>他|她)的(?P<rel>{_ZH_RELATIVES})", "relation", "", 0, False),
    (r"他们俩|她们俩|他俩|她俩", "persons", "", 2, False),
    (r"他们|她们", "persons", "", 0, False),
    (rf"(?:这|那|此)(?:两|二)(?:个|位|名)?(?:人|{_ZH_PERSON_NOUNS}|兄弟)", "new_persons", "", 2, False),
    (rf"(?:这|那|此)(?:三)(?:个|位|名)?(?:人|{_ZH_PERSON_NOUNS}|兄弟)", "new_persons", "", 3, False),
    (r"(?:此|这|那)(?:二|两)人", "persons", "", 2, False),
    (rf"(?:这|那|此)(?:个|位|名)?(?:{_ZH_PERSON_NOUNS})", "new_person", "", 0, False),
    (r"此人|这个人|那个人|这人|那人|该人|此公|这位|那位", "person", "", 0, False),
    (zh.SHE, "person", "f", 0, False),
    (zh.HE, "person", "m", 0, False),
    (r"(?<![尤极与及何])其(?![他中余实次间后])", "person", "", 0, True),
    (r"它们|它", "thing", "", 0, False),
    (rf"(?:这|那|此)(?:把|匹|件|张|幅|本|口|柄|封|颗|块|面|支|杆|艘|条|瓶)?(?:{_ZH_THING_NOUNS})",
     "thing", "", 0, False),
    (rf"那里|那儿|这里|这儿|该地|此地|此处|那边|(?:这|那|此)(?:座|个)?(?:{_ZH_PLACE_NOUNS})",
     "place", "", 0, False),
]
_ZH_RE = re.compile("|".join(f"(?P<z{i}>{p})" for i, (p, *_) in enumerate(_ZH)))
_ZH_RELATIVE_GENDER: dict[str, Gender] = {"妻子": "f", "夫人": "f", "女儿": "f", "母亲": "f", "姐姐": "f", "妹妹": "f",
                       "丈夫": "m", "儿子": "m", "长子": "m", "次子": "m", "父亲": "m", "哥哥": "m",
                       "弟弟": "m"}

_EN_RELATIVES = ("husband|wife|son|daughter|father|mother|brother|sister|master|teacher|mentor"
                 "|fianc[ée]e?|betrothed")
_EN_THINGS = ("sword|blade|knife|dagger|map|ship|boat|letter|book|ring|diamond|treasure|horse"
              "|jewel|document|packet|note|weapon|poison|purse")
_EN_PLACES = ("place|city|town|island|fortress|prison|castle|village|house|inn|lake|river"
              "|grotto|cave|ferry|cliff|tower|harbour|harbor|port")
_OBJECT_NEXT = _words(
    "when to in at by with for from and or that the a an about after before into as again up "
    "down off out if while because so than then is was were did do does not on over round "
    "around through across along back away home here there under behind toward towards near "
    "past beside among against upon onto within without once twice first last alone too")
_EN: list[tuple[str, str, Gender, int, bool | None]] = [
    (rf"\b(?P<p>his|her|their)\s+(?P<rel>{_EN_RELATIVES})\b", "relation", "", 0, False),
    (r"\b(?:both of them|the two of them|the two)\b", "persons", "", 2, False),
    (r"\bthey\b|\bthem\b|\bthemselves\b", "persons", "", 0, False),
    (r"\btheirs?\b", "persons", "", 0, True),
    (r"\b(?:this|that)\s+(?:man|boy|child|young man|old man|prisoner|sailor|priest)\b",
     "new_person", "m", 0, False),
    (r"\b(?:this|that)\s+(?:woman|girl|lady|young woman)\b", "new_person", "f", 0, False),
    # "the child" as a reference, not as the start of a description (the child who …)
    (r"\bthe\s+(?:child|baby|infant)\b(?!\s+(?:who|that|whom|which|of|in|at|with)\b)",
     "new_person", "", 0, False),
    (r"\bhe\b|\bhim\b|\bhimself\b", "person", "m", 0, False),
    (r"\bhis\b", "person", "m", 0, True),
    (r"\bshe\b|\bherself\b", "person", "f", 0, False),
    (r"\bhers\b", "person", "f", 0, True),
    (r"\bher\b", "person", "f", 0, None),  # object or possessive: decided by the next word
    (rf"\b(?:this|that)\s+(?:{_EN_THINGS})\b", "thing", "", 0, False),
    (r"\bits\b", "thing", "", 0, True),
    (r"\bit\b(?!\s+(?:true|possible|likely|said|seems|is said|end(?:ed)?)\b)", "thing", "", 0,
     False),
    (rf"\b(?:this|that)\s+(?:{_EN_PLACES})\b", "place", "", 0, False),
    # "there" as a place, not "is there / there was"
    (r"(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bwere )\bthere\b"
     r"(?!\s+(?:is|are|was|were|be|been|'s|any|a|an|many|much)\b)", "place", "", 0, False),
]
_EN_RE = re.compile("|".join(f"(?P<e{i}>{p})" for i, (p, *_) in enumerate(_EN)), re.I)


def find_references(question: str) -> list[Reference]:
    """The referring expressions of a question, left to right (Chinese or English rules)."""
    if not CJK.search(question):
        return [_en(m, question) for m in _EN_RE.finditer(question)]
    found = [_zh(m) for m in _ZH_RE.finditer(question)] + [
        _en(m, question) for m in _EN_RE.finditer(question)
        if not CJK.search(m.group(0)) and _latin_context(question, m)]
    refs: list[Reference] = []
    for ref in sorted(found, key=lambda r: r.start):
        if not refs or ref.start >= refs[-1].end:
            refs.append(ref)
    return refs


def _latin_context(question: str, m: re.Match[str]) -> bool:
    """An English pronoun inside a Chinese question only counts between Latin words."""
    before = question[max(0, m.start() - 2): m.start()]
    return not CJK.search(before) and bool(re.search(r"[A-Za-z]", question[:m.start()]))


def _zh(m: re.Match[str]) -> Reference:
    i = int(m.lastgroup[1:])  # type: ignore[index]
    _, kind, gender, count, possessive = _ZH[i]
    ref = Reference(m.start(), m.end(), m.group(0), kind, gender, count, bool(possessive),
                    noun=_zh_noun(m.group(0), kind))
    if kind == "relation":
        pronoun = m.group(0)[0]  # the 他/她 of 他的父亲
        gender = "f" if pronoun == "她" else "m"
        rel = m.group(0)[2:]
        bare = Reference(m.start(), m.start() + 1, pronoun, "person", gender)
        return replace(ref, gender=gender, family=relation_family(rel),
                       relative_gender=_ZH_RELATIVE_GENDER.get(rel, ""), fallback=bare, noun=rel)
    return ref


_ZH_DEMONSTRATIVE = re.compile(r"^(?:这|那|此)(?:两|二|三)?(?:个|位|名|座|把|匹|件|张|幅|本|口|柄|封|颗"
                               r"|块|面|支|杆|艘|条|瓶)?")


def _zh_noun(surface: str, kind: str) -> str:
    """这匹马 → 马, 这个孩子 → 孩子, 那座城 → 城; '' for a pronoun (他, 它, 那里)."""
    if kind not in ("thing", "place", "new_person", "new_persons") or len(surface) < 2:
        return ""
    noun = _ZH_DEMONSTRATIVE.sub("", surface)
    return "" if noun == surface or noun in ("里", "儿", "边", "处", "地", "人") else noun


def _en(m: re.Match[str], question: str) -> Reference:
    i = int(m.lastgroup[1:])  # type: ignore[index]
    _, kind, gender, count, possessive = _EN[i]
    text = m.group(0)
    if possessive is None:  # "her": possessive before a noun, object otherwise
        following = re.match(r"\s*([A-Za-z']+)", question[m.end():])
        possessive = following is not None and following.group(1).lower() not in _OBJECT_NEXT
    noun = text.split()[-1].lower() if kind in ("thing", "place", "new_person") \
        and len(text.split()) > 1 else ""
    ref = Reference(m.start(), m.end(), text, kind, gender, count, bool(possessive), english=True,
                    noun=noun)
    if text.lower() == "there":
        ref = replace(ref, prefix=_there_preposition(question[: m.start()]))
    if kind == "relation":
        pronoun, rel = text.split(None, 1)
        p = pronoun.lower()
        pgender: Gender = "m" if p == "his" else "f" if p == "her" else ""
        bare = Reference(m.start(), m.start() + len(pronoun), pronoun,
                         "persons" if p == "their" else "person", pgender, possessive=True,
                         english=True)
        rgender: Gender = "f" if _FEMALE_RELATIVE.search(rel) else \
            "m" if _MALE_RELATIVE.search(rel) else ""
        return replace(ref, gender="", family=relation_family(rel), relative_gender=rgender,
                       fallback=bare, noun=rel.lower())
    return ref


_PREPOSITIONS = _words("from to in at near over under of beyond into toward towards around")
_MOTION = _words("go goes went gone going come comes came coming travel travelled traveled sail "
                 "sailed return returned flee fled get got move moved send sent take took bring "
                 "brought lead led run ran escape escaped ride rode walk walked")


def _there_preposition(before: str) -> str:
    """'there' is an adverb: 'stay there' → 'stay in X', 'go there' → 'go to X', 'from there' → 'from X'."""
    word = re.search(r"([A-Za-z']+)\s*$", before)
    last = word.group(1).lower() if word else ""
    if last in _PREPOSITIONS:
        return ""
    return "to " if last in _MOTION else "in "
