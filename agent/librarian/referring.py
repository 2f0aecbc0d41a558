"""The words a follow-up refers with (他, 这把剑, 那里, her husband, there) and what they want.

`find_references(question)` lists the referring expressions of a question, left to right, each
with the kind of referent it needs (a person, several persons, an item, a place), the gender a
pronoun implies, and how the name that replaces it must be written (X的, X's).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from agent.world.gender import Gender
from stores.lang import HAN, asks
from stores.lang.referring import (
    EN_MOTION,
    EN_OBJECT_NEXT,
    EN_PREPOSITIONS,
    EN_REFERRING,
    FEMALE_RELATIVE,
    MALE_RELATIVE,
    RELATIVE_FAMILIES,
    ZH_DEMONSTRATIVE,
    ZH_NOT_NOUNS,
    ZH_REFERRING,
    ZH_RELATIVE_GENDER,
)

CJK = HAN


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

_FAMILY_RES = {name: re.compile(p, re.I) for name, p in RELATIVE_FAMILIES.items()}


def relation_family(text: str) -> str:
    """The kinship family a text asks about (spouse for 嫁给了谁 / whom did she marry), or ''."""
    for name, pattern in _FAMILY_RES.items():
        if pattern.search(text):
            return name
    return ""


_FEMALE_RELATIVE = re.compile(FEMALE_RELATIVE, re.I)
_MALE_RELATIVE = re.compile(MALE_RELATIVE, re.I)


# -- referring expressions ------------------------------------------------------------------------
_ZH_RE = re.compile("|".join(f"(?P<z{i}>{p})" for i, (p, *_) in enumerate(ZH_REFERRING)))
_EN_RE = re.compile("|".join(f"(?P<e{i}>{p})" for i, (p, *_) in enumerate(EN_REFERRING)), re.I)


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
    _, kind, gender, count, possessive = ZH_REFERRING[i]
    ref = Reference(m.start(), m.end(), m.group(0), kind, gender, count, bool(possessive),
                    noun=_zh_noun(m.group(0), kind))
    if kind == "relation":
        pronoun = m.group(0)[0]  # the 他/她 of 他的父亲
        gender = "f" if pronoun == "她" else "m"
        rel = m.group(0)[2:]
        bare = Reference(m.start(), m.start() + 1, pronoun, "person", gender)
        return replace(ref, gender=gender, family=relation_family(rel),
                       relative_gender=ZH_RELATIVE_GENDER.get(rel, ""), fallback=bare, noun=rel)
    return ref




def _zh_noun(surface: str, kind: str) -> str:
    """这匹马 → 马, 这个孩子 → 孩子, 那座城 → 城; '' for a pronoun (他, 它, 那里)."""
    if kind not in ("thing", "place", "new_person", "new_persons") or len(surface) < 2:
        return ""
    noun = ZH_DEMONSTRATIVE.sub("", surface)
    return "" if noun == surface or noun in ZH_NOT_NOUNS else noun


def _en(m: re.Match[str], question: str) -> Reference:
    i = int(m.lastgroup[1:])  # type: ignore[index]
    _, kind, gender, count, possessive = EN_REFERRING[i]
    text = m.group(0)
    if possessive is None:  # "her": possessive before a noun, object otherwise
        following = re.match(r"\s*([A-Za-z']+)", question[m.end():])
        possessive = following is not None and following.group(1).lower() not in EN_OBJECT_NEXT
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




def _there_preposition(before: str) -> str:
    """'there' is an adverb: 'stay there' → 'stay in X', 'go there' → 'go to X', 'from there' → 'from X'."""
    word = re.search(r"([A-Za-z']+)\s*$", before)
    last = word.group(1).lower() if word else ""
    if last in EN_PREPOSITIONS:
        return ""
    return "to " if last in EN_MOTION else "in "
