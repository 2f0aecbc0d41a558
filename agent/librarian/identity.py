"""Whom a "who is X / X是谁 / tell me about X" question asks about: a name or alias of the
world, or a fuller form of one, so that person's card answers it."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from stores.entities.english_forms import another_given_name
from stores.entities.matcher import AliasMatcher
from stores.entities.surnames import surname_of
from stores.lang import asks, en, has_han


def _with_surname(name: str, span: tuple[int, int, str], forms: Iterable[str]) -> bool:
    """A Chinese name asked with a surname before the one name the world knows (贾宝玉, where
    the world has 宝玉): the same person, unless their own names give them another surname
    (张玄德 is not 刘备's, whose 刘玄德 gives 刘)."""
    start, end, _ = span
    surname = name[:start]
    if not has_han(name) or end != len(name) or not surname or surname_of(name) != surname:
        return False
    theirs = {surname_of(f) for f in forms if len(f) >= 3} - {""}
    return not theirs or surname in theirs


def identity_asked(question: str, matcher: AliasMatcher,
                   kinds: Mapping[str, str] | None = None) -> str | None:
    """The entity a "who is X / X是谁 / tell me about X" question asks about: X is a name or
    alias of the world, or a fuller form of one (Gérard de Villefort → Villefort); of several
    names in it, the one that names its person most surely (`_identifies`), then the longest
    (Valentine de Villefort → Valentine, Isabella Knightley → Isabella). 沈砚的师父是谁 asks
    about someone else: it is more than a name. `kinds` (entity → type) tells a person known
    by a first name alone (Sarah) from a word the world keeps as a thing (Gérard)."""
    written = name_asked(question)
    if written is None:
        return None
    name = en.without_article(written)
    # "the Marquis" may be the alias itself, "the Count of Monte Cristo" only the name's
    exact = matcher.resolve(written) or matcher.resolve(name)
    if exact:
        return exact
    spans = matcher.find_spans(name)
    if len(spans) == 1 and _with_surname(name, spans[0], matcher.forms(spans[0][2])):
        return spans[0][2]  # 贾宝玉是谁: 宝玉, as `lore card 贾宝玉` finds him
    rest = name
    for start, end, _ in sorted(spans, reverse=True):
        rest = rest[:start] + " " + rest[end:]
    # only more of a name may be left (Gérard, de): 顾怀山的徒弟 asks about someone else
    if not spans or has_han(rest) or not all(_NAME_PART.fullmatch(w) for w in rest.split()):
        return None
    # of two names that are each their person's own, the first is the given name and the
    # other the family's: Sarah Morland is Sarah, not the "Morland" her brother James goes by
    people = {n for n, kind in (kinds or {}).items() if kind == "person"}
    found = max(spans, key=lambda s: (_identifies(name[s[0]:s[1]], s[2]),
                                      s[0] == 0 and s[2] in people, s[1] - s[0], -s[0]))[2]
    # Henry Dashwood is no fuller form of John Dashwood, whose "Dashwood" it holds
    return None if another_given_name(rest.split(), matcher.forms(found)) else found


def _identifies(form: str, entity: str) -> int:
    """How surely a form written in an asked name names its entity: its own name or given name
    (Isabella, Ann of Ann Hale) more than a form its name ends with, a family's surname
    (Knightley, which Mr. Knightley's brother shares): "Who is Isabella Knightley?" was
    answered with Mr. Knightley's card."""
    if form == entity or entity.startswith(form + " "):
        return 2
    return 0 if entity.endswith(" " + form) else 1


def name_asked(question: str) -> str | None:
    """X as a "who is X / X是谁 / tell me about X" question writes it, or None."""
    found = asks("identity").search(question.strip())
    if found is None:
        return None
    return next((g for g in found.groups() if g), "").strip().strip("“”\"'「」")


_NAME_PART = re.compile(rf"[A-ZÀ-Þ][\w'’.-]*|{'|'.join(map(re.escape, en.PARTICLES))}")
"""A word that may stand in a fuller form of a name: capitalised, or a particle (de, van)."""
