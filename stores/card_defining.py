"""How the words around a name in a sentence say who someone is, for the cards
(stores/card_sentences.py reads a passage's sentences with them): what right after a name
defines it ("Caderousse, a tailor, …", 「，字玄德」), a description or an office right before it (a
Dr. Grant, 丞相曹操, the banker Danglars), a name introduced by its parts (姓刘名备), and the
pronoun a sentence opens with. The patterns are each language's (stores/lang)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from stores.entities.matcher import AliasMatcher
from stores.lang import LANGUAGES, Language, language
from stores.lang.en import DESCRIBERS, NAME_TITLES, NOT_NAMES, PLACE_TITLES, SURELY_APPOSED
from stores.lang.text import QUOTE_MARKS

WEIGHTS = {"courtesy": 3.0, "kin": 3.0, "copula": 2.0, "origin": 2.0, "apposition": 2.5,
           "copula_vague": 1.0, "apposition_vague": 1.0, "married_name": 1.0, "described": 1.0}
"""How strongly each kind of defining pattern says who someone is."""
_SURELY_APPOSED = re.compile(SURELY_APPOSED)


def ends_longer_name(before: str) -> bool:
    """The name ends a longer one the world does not know (Policar Morrel is not Morrel; Fanny
    Harville, his sister, is not Captain Harville): a capitalised word stands right before it
    that is no title, nor, where it opens the sentence, a word a sentence opens with (But
    Morrel, Poor Harville)."""
    found = _WORD_BEFORE.search(before)
    if found is None or found["word"] in _NOT_NAME_WORDS:
        return False
    opens = not before[:found.start("word")].strip(f" {QUOTE_MARKS}‘'(")
    return not opens or found["word"] not in DESCRIBERS


_WORD_BEFORE = re.compile(r"(?<![\w.’'])(?P<word>[A-Z][a-zà-ÿ’'-]+)\s+$")
_NOT_NAME_WORDS = frozenset(NOT_NAMES) | frozenset(t.rstrip(".") for t in NAME_TITLES) | (
    frozenset(PLACE_TITLES))


def governed(before: str) -> bool:
    """The name is the object of a preposition (see `Language.governed`)."""
    return any(p.search(before) for p in _governed_patterns())


def subordinate(before: str) -> bool:
    """A word opening a clause stands right before the name (see `Language.subordinate`)."""
    return any(p.search(before) for p in _subordinate_patterns())


@cache
def _subordinate_patterns() -> list[re.Pattern[str]]:
    return [re.compile(language(code).subordinate) for code in LANGUAGES
            if language(code).subordinate]


@cache
def _governed_patterns() -> list[re.Pattern[str]]:
    return [re.compile(language(code).governed, re.I) for code in LANGUAGES
            if language(code).governed]


APPOSITION_WORDS = 4
"""An apposition that ends its sentence or clause is at most this many words: a longer one is the
rest of the sentence ("when he saw Franz, the servant came up to him."; "The older a person
grows, Harriet, the more important it is that their manners should not be bad; …")."""


def defines(after: str, governed: bool = False, clause: bool = False) -> float:
    """How strongly the words right after a name define it (0: they do not). After a
    preposition's object, what follows a comma mostly belongs to the sentence (at a sign from
    Edmond, the rest ranged themselves; the nourishment of Danglars, the giant, went on), so
    only an apposition that is surely about the name counts: a role of someone (to Louise
    d’Armilly, her singing teacher) or of a named thing (to Signor Pastrini, the proprietor of
    the Hôtel de Londres)."""
    for kind, pattern in _defining_patterns():
        found = pattern.match(after)
        if found is None or (governed and (kind != "apposition"
                                           or not _SURELY_APPOSED.search(found.group("what")))):
            continue
        if clause and not kind.startswith("apposition"):
            continue  # That Emma was his object …: the clause's subject, not an introduction
        if (kind == "apposition" and after[found.end():found.end() + 1] in ".!?;:"
                and len(found.group("what").split()) > APPOSITION_WORDS):
            continue
        return WEIGHTS[kind]
    return 0.0


def described_before(before: str, introduced: bool, told: bool) -> float:
    """How strongly a description written right before a name defines it (see
    `Language.described_before`): as weakly as a vague copula (是一个粗笨女人). Only where the
    story first names someone (`introduced`) is that their introduction (间壁的单四嫂子);
    later it says how they are at the moment (睡着的小栓) or how someone sees them (看不上眼的
    王胡). Someone's role set before the name that opens a sentence of the telling (`told`) is
    who they are wherever it stands ("Henry Wimbush's school-fellow and exact contemporary,
    Mr. Scogan looked far older…")."""
    for pattern in _described_patterns():
        found = pattern.search(before)
        if found is not None and (introduced or (told and found.groupdict().get("whose"))):
            return WEIGHTS["described"]
    return 0.0


@cache
def _described_patterns() -> list[re.Pattern[str]]:
    return [re.compile(language(code).described_before) for code in LANGUAGES
            if language(code).described_before]


def role_before(before: str, known: Callable[[str], bool] = lambda whose: True) -> str:
    """The office, role or kinship written right before a name (丞相曹操 → 丞相, 孙坚长子孙策 →
    孙坚长子, the banker Danglars → banker), or "". A kinship says whose kin only with a name the
    world `known`s (乃孟获之兄 → 孟获之兄): not 却说操长子 (a father by his given name alone) or
    遂立长子."""
    for language_, pattern in _role_patterns():
        found = pattern.search(before)
        if found is None:
            continue
        if found.group("office"):
            role = found.group("office")
            return "" if role in language_.not_roles else role
        # a kinship: whose kin, and which; which alone (有二子：长子关宁…次子关平) says nothing
        whose = found.groupdict().get("whose") or ""
        named = next((whose[-n:] for n in (3, 2) if len(whose) >= n and known(whose[-n:])), "")
        return named + found.group(0)[len(whose):] if named else ""
    return ""


def named_by_parts(sentence: str, matcher: AliasMatcher) -> list[str]:
    """The people a sentence introduces by the parts of their name (姓刘名备 → 刘备)."""
    found = []
    for pattern in _introductions():
        for match in pattern.finditer(sentence):
            surname = match.group("cs") or match.group("ss") or ""
            given, style = match.group("given"), match.groupdict().get("zi") or ""
            if surname:
                name = matcher.resolve(surname + given)
            else:  # 长子名策，字伯符: the one whose 字 it is, if their name ends with 策
                name = matcher.resolve(style) if style else None
                name = name if name and name.endswith(given) else None
            if name:
                found.append(name)
    return found


def pronoun_subject(sentence: str) -> re.Match[str] | None:
    """The pronoun a sentence opens with as its subject (see `Language.pronoun_subject`)."""
    return next((m for p in _pronoun_patterns() if (m := p.match(sentence))), None)


@cache
def _pronoun_patterns() -> list[re.Pattern[str]]:
    return [re.compile(language(code).pronoun_subject) for code in LANGUAGES
            if language(code).pronoun_subject]


@cache
def _defining_patterns() -> list[tuple[str, re.Pattern[str]]]:
    """Every language's defining patterns, each with its kind."""
    return [(kind, re.compile(source)) for code in LANGUAGES
            for kind, source in language(code).defining]


@cache
def _role_patterns() -> list[tuple[Language, re.Pattern[str]]]:
    return [(language(code), re.compile(language(code).role_before)) for code in LANGUAGES
            if language(code).role_before]


@cache
def _introductions() -> list[re.Pattern[str]]:
    return [re.compile(language(code).introduction) for code in LANGUAGES
            if language(code).introduction]
