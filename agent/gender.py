"""Guessing a person's grammatical gender, so that 她 / she skips the men and 他 / he the women.

Three sources, strongest first: titles in the names (夫人, 姑娘, Miss, Madame / 先生, Mr., Count),
the world's description of the entity (之女, 之妻 / 之夫, 之父), and the pronouns that follow the
entity's mentions in the text (她 vs 他, she/her vs he/him/his). Classical Chinese rarely uses
她, so in 三国演义 most guesses come from titles and stay unknown otherwise: an unknown gender
never rules a candidate out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Literal

Gender = Literal["m", "f", ""]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_F_SUFFIX_ZH = ("夫人", "姑娘", "小姐", "娘娘", "皇后", "太后", "公主", "国太", "娘", "姬", "妃",
                "氏", "女", "姐", "妹", "婆", "嫂")
_M_SUFFIX_ZH = ("先生", "公子", "将军", "楼主", "师兄", "师叔", "师伯", "大哥", "丞相", "侯爷",
                "皇叔", "都督", "太守", "翁", "郎", "公", "侯", "王", "伯", "叔", "兄", "爷")
_F_TITLE_EN = _words("madame mme mme. mlle mlle. mademoiselle miss mrs mrs. lady countess "
                        "baroness mistress queen princess duchess marquise signora sister")
_M_TITLE_EN = _words("m. monsieur mr mr. sir lord count baron captain abbé abbe general king "
                        "prince duke marquis father signor major colonel dr dr. doctor "
                        "master")

_F_DESC = re.compile(r"之女|的女儿|义女|独女|长女|次女|之妻|的妻子|妻子|之母|的母亲|姑娘|夫人|小姐"
                     r"|\b(?:daughter|wife|mother|woman|girl|widow|sister|she|her)\b", re.I)
_M_DESC = re.compile(r"之夫|的丈夫|之子|的儿子|长子|次子|之父|的父亲|大哥|兄长|之弟|师兄"
                     r"|\b(?:son|husband|father|man|boy|brother|he|his|him)\b", re.I)

TITLES_EN = _F_TITLE_EN | _M_TITLE_EN
"""Words that stand before an English name as a title (Madame, M., Count …)."""

_SHE = re.compile(r"她(?!们)|\b(?:she|her|hers|herself)\b", re.I)
_HE = re.compile(r"(?<![其吉])他(?![们人乡日])|\b(?:he|him|his|himself)\b", re.I)
_WINDOW_ZH, _WINDOW_EN = 40, 160
_MAX_PASSAGES = 60


def title_gender(names: Iterable[str]) -> Gender:
    """The gender the names' titles or suffixes say (韩夫人, Miss Vance, Mr. Shen), if any."""
    votes = {"m": 0, "f": 0}
    for name in names:
        words = name.lower().split()
        if len(words) >= 2 and words[0] in _F_TITLE_EN:
            votes["f"] += 1
        elif len(words) >= 2 and words[0] in _M_TITLE_EN:
            votes["m"] += 1
        elif re.search(r"[\u4e00-\u9fff]$", name) and len(name) >= 2:
            if name.endswith(_F_SUFFIX_ZH):
                votes["f"] += 1
            elif name.endswith(_M_SUFFIX_ZH):
                votes["m"] += 1
    return _decide(votes["m"], votes["f"], margin=1)


def description_gender(description: str) -> Gender:
    """The gender a description's kinship words lean to (…之女，…之妻 / …之夫，…之父)."""
    if not description:
        return ""
    # Only the first sentence or two describe the entity itself; later ones its deeds and kin.
    head = re.split(r"(?<=[。.!?！？])", description, maxsplit=2)
    text = "".join(head[:2])
    return _decide(len(_M_DESC.findall(text)), len(_F_DESC.findall(text)), margin=1)


def text_gender(name: str, passages: Sequence[str],
                spans: Callable[[str], list[tuple[int, int, str]]]) -> Gender:
    """The gender of the pronouns that follow the entity's mentions, before anyone else is named.

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
            width = _WINDOW_ZH if re.search(r"[\u4e00-\u9fff]", text[end: end + 8]) else _WINDOW_EN
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
                 spans: Callable[[str], list[tuple[int, int, str]]]) -> None:
        self.aliases = aliases
        self.descriptions = descriptions
        self.passages = passages
        self.spans = spans
        self.guess = lru_cache(maxsize=4096)(self._guess)

    def __call__(self, name: str) -> Gender:
        return self.guess(name)

    def _guess(self, name: str) -> Gender:
        return (title_gender([name, *self.aliases.get(name, ())])
                or description_gender(self.descriptions.get(name, ""))
                or text_gender(name, self.passages(name), self.spans))
