"""Guessing a person's grammatical gender, so that 她 / she skips the men and 他 / he the women.

The sources, strongest first: titles in the names (夫人, 姑娘, Miss, Madame / 先生, Mr., Count),
the world's description of the entity (之女, 之妻 / 之夫, 之父), the kinship words the text writes
right before the entity's name (司马懿长子司马师, 刘备之妻甘夫人), and the pronouns that follow the
entity's mentions in the text (她 vs 他, she/her vs he/him/his); before the pronouns, the given
name other people of the book go by (Charles Hayter is a man as Charles Musgrove is:
`GenderGuesser._given_name`). Pronouns vote only in a text whose own pronouns tell the genders
apart: 三国演义 and 红楼梦 never write 她 (their 他 is every person, 黛玉 as much as 宝玉), so
there most guesses come from titles and stay unknown otherwise: an unknown gender never rules a
candidate out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache, cached_property, lru_cache

from stores.lang import en, has_han, zh
from stores.lang.gender import Gender, title_gender
from stores.lang.text import sentences

TITLES_EN = en.FEMALE_TITLE_WORDS | en.MALE_TITLE_WORDS
"""Words that stand before an English name as a title (Madame, M., Count …)."""

_F_DESC = re.compile(f"{zh.FEMALE_DESCRIPTION}|{en.FEMALE_DESCRIPTION}", re.I)
_M_DESC = re.compile(f"{zh.MALE_DESCRIPTION}|{en.MALE_DESCRIPTION}", re.I)
_KIN_BEFORE = {"m": re.compile(f"(?:{zh.MALE_DESCRIPTION})$|{en.kin_before_name(en.MALE_KIN)}"),
               "f": re.compile(f"(?:{zh.FEMALE_DESCRIPTION})$|{en.kin_before_name(en.FEMALE_KIN)}")}
_KIN_AFTER = {"m": re.compile(en.kin_after_name(en.MALE_KIN)),
              "f": re.compile(en.kin_after_name(en.FEMALE_KIN))}
KIN_MARGIN = 2
"""Kin words beside a name overrule its pronouns when this many more say one sex; a single one
only speaks where the pronouns say nothing."""
_AROUND = 40
"""How many characters around a mention are read for a kinship word (长子, his wife)."""
_SHE = re.compile(f"{zh.SHE}|{en.SHE}", re.I)
_HE = re.compile(f"{zh.HE}|{en.HE}", re.I)
_WINDOW_ZH, _WINDOW_EN = 40, 160
_MAX_PASSAGES = 60


def description_gender(description: str) -> Gender:
    """The gender a description's kinship words lean to (…之女，…之妻 / …之夫，…之父)."""
    if not description:
        return ""
    # Only the first sentence or two describe the entity itself; later ones its deeds and kin.
    text = "".join(s.text for s in sentences(description, "mark")[:2])
    return _decide(len(_M_DESC.findall(text)), len(_F_DESC.findall(text)), margin=1)


def pronouns_tell(texts: Iterable[str]) -> bool:
    """Whether the texts' pronouns tell women from men: the female one is at least
    `SHE_SHARE` of the two, in the first `PRONOUN_SAMPLE` of them (红楼梦 and 三国演义: 0 of
    ~13,000 and ~1,000; the demo world 0.30; Monte Cristo and Pride and Prejudice about a
    third)."""
    she = he = 0
    for text in texts:
        she += len(_SHE.findall(text))
        he += len(_HE.findall(text))
        if she + he >= PRONOUN_SAMPLE:
            break
    return she + he == 0 or she >= SHE_SHARE * (she + he)


SHE_SHARE = 0.05
PRONOUN_SAMPLE = 2000
"""Pronouns enough to tell: the texts are read only until this many are seen (the whole of Monte
Cristo took 326 ms on the first follow-up's gender guess)."""


def kin_gender(name: str, passages: Sequence[str],
               spans: Callable[[str], list[tuple[int, int, str]]], margin: int = 1) -> Gender:
    """The gender the kinship words beside the entity's mentions say (懿长子司马师, her daughter
    Haydée; Vasiliki, his beloved wife), where a classical text's 他 says nothing and a novel's
    she is drowned by the men around a woman."""
    return _decide(*kin_votes(name, passages, spans), margin=margin)


def kin_votes(name: str, passages: Sequence[str],
              spans: Callable[[str], list[tuple[int, int, str]]]) -> tuple[int, int]:
    """(men, women): the mentions whose neighbouring kin word says each sex."""
    votes = {"m": 0, "f": 0}
    for text in passages[:_MAX_PASSAGES]:
        for start, end, canonical in spans(text):
            if canonical == name:
                before, after = text[max(0, start - _AROUND):start], text[end:end + _AROUND]
                for sex in votes:
                    votes[sex] += bool(_KIN_BEFORE[sex].search(before)
                                       or _KIN_AFTER[sex].search(after))
    return votes["m"], votes["f"]


def text_gender(name: str, passages: Sequence[str],
                spans: Callable[[str], list[tuple[int, int, str]]], *,
                he_tells: bool = True) -> Gender:
    """The gender of the pronouns that follow the entity's mentions, before anyone else is named.
    With `he_tells` False (a text whose 他 is every person: `pronouns_tell`) only she votes.

    All the pronouns in those windows decide when they clearly lean one way. In a novel where
    men are everywhere they often do not for a woman (Mercédès is followed by as many he as she:
    the men around her), so then only the first pronoun after each mention votes, and a woman
    is one whose mentions are followed by she in a share of them no man's reaches.
    """
    she = he = first_she = first_he = 0
    for text in passages[:_MAX_PASSAGES]:
        found = spans(text)
        for i, (_, end, canonical) in enumerate(found):
            if canonical != name:
                continue
            stop = found[i + 1][0] if i + 1 < len(found) else len(text)
            width = _WINDOW_ZH if has_han(text[end: end + 8]) else _WINDOW_EN
            window = text[end: min(stop, end + width)]
            shes = [m.start() for m in _SHE.finditer(window)]
            hes = [m.start() for m in _HE.finditer(window)]
            she, he = she + len(shes), he + len(hes)
            if shes or hes:
                first = min(shes + hes)
                first_she, first_he = first_she + (first in shes), first_he + (first in hes)
    if she + he < 2:
        return ""
    if she > he:
        return "f"
    if not he_tells:
        return ""
    if he > 2 * she:
        return "m"
    votes = first_she + first_he
    if votes >= 4 and first_she >= _FIRST_SHE_SHARE * votes:
        return "f"
    return ""


_FIRST_SHE_SHARE = 0.4
"""In Monte Cristo the first pronoun after a woman's name is she 43–76% of the time, after a
man's 0–26%."""


def _decide(m: int, f: int, margin: int) -> Gender:
    if f >= m + margin:
        return "f"
    if m >= f + margin:
        return "m"
    return ""


class GenderGuesser:
    """Guesses and remembers the gender of a world's persons (cheap: a few passages each)."""

    def __init__(self, aliases: Mapping[str, Sequence[str]], descriptions: Mapping[str, str],
                 passages: Callable[[str], Sequence[str]],
                 spans: Callable[[str], list[tuple[int, int, str]]],
                 he_tells: Callable[[], bool] = lambda: True) -> None:
        self.aliases = aliases
        self.he_tells = cache(he_tells)
        self.descriptions = descriptions
        self.passages = passages
        self.spans = spans
        self.guess = lru_cache(maxsize=4096)(self._guess)

    def __call__(self, name: str) -> Gender:
        return self.guess(name)

    def _guess(self, name: str) -> Gender:
        return self._reading(name, given=True)

    @cache  # noqa: B019 (one guesser a world, kept for the world's life)
    def _own(self, name: str) -> Gender:
        """A gender from the person's own names, description, kin words or pronouns ("" if
        none), the given name aside."""
        return self._reading(name, given=False)

    def _reading(self, name: str, given: bool) -> Gender:
        named = (title_gender([name, *self.aliases.get(name, ())])
                 or description_gender(self.descriptions.get(name, "")))
        if named:
            return named
        passages = self.passages(name)  # read once: the kin words and the pronouns share them
        m, f = kin_votes(name, passages, self.spans)
        return (_decide(m, f, margin=KIN_MARGIN)
                or (self._given_name(name) if given else "")
                or text_gender(name, passages, self.spans, he_tells=self.he_tells())
                or _decide(m, f, margin=1))

    def _given_name(self, name: str) -> Gender:
        """The gender a common given name says (`en.given_gender`), else that of the book's
        other people who go by the same given name, when they all have one by their own
        titles, kin words or pronouns: Charles Hayter is a man as Charles Musgrove is, though
        he is so often named beside the woman he courts that "she" follows his name 4 times in
        10 (and the one other Charles's own reading is no more than his pronouns). Latin names
        only (a Chinese name has no given name apart)."""
        given = name.split()[0]
        if has_han(name) or given.endswith(".") or given.lower() in TITLES_EN:  # St., Mr.
            return ""
        if said := en.given_gender(given):  # 'm' or 'f'
            return "m" if said == "m" else "f"
        found = {self._own(n) for n in self._by_given_name.get(given, ()) if n != name}
        return found.pop() if len(found) == 1 else ""

    @cached_property
    def _by_given_name(self) -> dict[str, set[str]]:
        """First word of a name or alias → the entities going by it, read once a world."""
        found: dict[str, set[str]] = {}
        for name, aliases in self.aliases.items():
            for form in (name, *aliases):
                if form.split():
                    found.setdefault(form.split()[0], set()).add(name)
        return found
