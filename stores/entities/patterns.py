"""Aliases a text introduces itself: Chinese courtesy names (字), Daoist styles (道号),
childhood names (小字), and a few English "X, known as Y" phrasings.

Precision matters more than recall here: a false (name, 字) pair glues two people together
for the whole world, while a missed one only leaves an alias unresolved. So every form needs
a clear name boundary, and the 字 must be two characters followed by punctuation or by one
of the words the novel continues an introduction with (者也, 乃, 现为 …).
"""

from __future__ import annotations

from collections.abc import Iterable

from stores.entities.surnames import COMPOUND_SURNAMES, SINGLE_SURNAMES, surname_of
from stores.lang.en import CALLED_HIM as _EN_CALLED_HIM
from stores.lang.en import FULL_NAME as _FULL_NAME
from stores.lang.en import KNOWN_AS as _EN_ALIAS
from stores.lang.en import NAME_TITLES
from stores.lang.en import NOT_NAMES as EN_STOPWORDS
from stores.lang.text import sentence_start
from stores.lang.zh import CALLED_BY_ALL as _CALLED
from stores.lang.zh import CHILDHOOD_NAME_AFTER_FATHER as _CHILD
from stores.lang.zh import COURTESY_BARE as _BARE
from stores.lang.zh import COURTESY_FULL as _FULL
from stores.lang.zh import COURTESY_GIVEN as _GIVEN
from stores.lang.zh import COURTESY_KIN as _KIN
from stores.lang.zh import COURTESY_NAMED as _NAMED
from stores.lang.zh import COURTESY_SHORT as _SHORT
from stores.lang.zh import DAOIST_STYLE as _STYLE
from stores.lang.zh import NOT_COURTESY as _NOT_ZI
from stores.lang.zh import NOT_GIVEN_NAME as _NOT_GIVEN

# A title that stands before a name (Mr, Madame): the name after it counts.
_EN_TITLES = frozenset(t.rstrip(".") for t in NAME_TITLES)
_SHORT_LOOKBACK = 40

# A style name is looked for this far back for the 字 it belongs to (亮字孔明，道号卧龙先生).
_STYLE_LOOKBACK = 16


class _Found:
    """Courtesy names collected per person, in order of first appearance."""

    def __init__(self) -> None:
        self.zi: dict[str, list[str]] = {}
        self.surname: dict[str, str] = {}
        self.other: dict[str, list[str]] = {}

    def add(self, surname: str, name: str, zis: Iterable[str | None]) -> None:
        bucket = self.zi.setdefault(name, [])
        self.surname.setdefault(name, surname)
        for zi in zis:
            if zi and zi not in _NOT_ZI and zi not in bucket and zi != name:
                bucket.append(zi)

    def add_other(self, name: str, alias: str) -> None:
        bucket = self.other.setdefault(name, [])
        if alias not in bucket and alias != name:
            bucket.append(alias)

    def result(self) -> list[tuple[str, list[str]]]:
        out = []
        for name, zis in self.zi.items():
            surname = self.surname[name]
            compounds = [surname + zi for zi in zis if surname and surname + zi != name]
            others = [a for a in self.other.get(name, []) if a not in zis]
            aliases = list(dict.fromkeys([*zis, *compounds, *others]))
            if aliases:
                out.append((name, aliases))
        return out


def courtesy_names(text: str) -> list[tuple[str, list[str]]]:
    """Names the text introduces with their courtesy names (字) and compounds (surname + 字).

    `姓刘，名备，字玄德` gives ("刘备", ["玄德", "刘玄德"]); a person introduced twice is merged.
    Also picks up the 道号 that follows a 字 (水镜先生, 水镜) and a 小字 (曹操 → 阿瞒).
    Returns (full name, aliases) in order of first appearance.
    """
    found = _Found()
    taken: list[tuple[int, int]] = []
    for match in _FULL.finditer(text):
        surname = match["cs"] or match["ss"]
        found.add(surname, surname + match["given"], (match["zi"], match["zi2"]))
        taken.append(match.span())
    for match in _BARE.finditer(text):
        name = _bare_name(match["pre"])
        if name and not _overlaps(match.span(), taken):
            found.add(_surname(name), name, (match["zi"], match["zi2"]))
            taken.append(match.span())
    for match in _NAMED.finditer(text):
        name = _bare_name(match["pre"])
        if name == match["pre"] and not _overlaps(match.span(), taken):
            found.add(_surname(name), name, (match["zi"],))
            taken.append(match.span())
    given_index = _given_index(found)
    for match in _GIVEN.finditer(text):
        if _overlaps(match.span(), taken):
            continue
        surname = _surname_from_sentence(text, match.start(), given_index)
        given = match["given"]
        if surname:
            name = given if given.startswith(surname) and len(given) > 1 else surname + given
            found.add(surname, name, (match["zi"], match["zi2"]))
    for match in _SHORT.finditer(text):
        name = _recent_name(text, match.start(), match["given"])
        if name and not _overlaps(match.span(), taken):
            found.add(_surname(name), name, (match["zi"],))
    _add_styles(text, found)
    _add_child_names(text, found)
    return found.result()


def _overlaps(span: tuple[int, int], taken: list[tuple[int, int]]) -> bool:
    return any(start < span[1] and span[0] < end for start, end in taken)


def _surname(name: str) -> str:
    return surname_of(name) or name[:1]


def _bare_name(pre: str) -> str:
    """The person's name at the end of `pre` (up to 3 Han characters before `，字`), or ''."""
    if pre[-1] in _NOT_GIVEN:
        return ""
    if len(pre) == 3 and pre[:2] in COMPOUND_SURNAMES:
        return pre
    if pre[-2] in SINGLE_SURNAMES and pre[-2] not in _NOT_GIVEN:
        return pre[-2:]
    return ""


def _given_index(found: _Found) -> dict[str, str]:
    """Single-character given name → surname, for names that share no given name."""
    index: dict[str, str] = {}
    clashes: set[str] = set()
    for name, surname in found.surname.items():
        given = name[len(surname):]
        if len(given) == 1:
            if given in index and index[given] != surname:
                clashes.add(given)
            index[given] = surname
    return {given: surname for given, surname in index.items() if given not in clashes}


def _surname_from_sentence(text: str, pos: int, given_index: dict[str, str]) -> str:
    """The surname of the kin named earlier in the sentence (袁隗之侄：名绍 → 袁)."""
    prefix = text[sentence_start(text, pos):pos]
    kin = list(_KIN.finditer(prefix))
    if not kin:
        return ""
    last = kin[-1]  # the nearest one
    who = last["who"]
    # The lazy group grabbed the fewest characters; widen it back to a whole name.
    start = last.start("who")
    wide = prefix[max(0, start - 2):last.end("who")]
    for size in (3, 2):
        name = wide[-size:]
        if len(name) == size:
            if size == 3 and name[:2] in COMPOUND_SURNAMES:
                return name[:2]
            if size == 2 and name[0] in SINGLE_SURNAMES:
                return name[0]
    return given_index.get(who[-1], "")


def _recent_name(text: str, pos: int, given: str) -> str:
    """The full name ending in `given` named just before `pos` (陈琳 … 琳字孔璋), or ''."""
    window = text[max(0, pos - _SHORT_LOOKBACK):pos]
    at = window.rfind(given)
    while at >= 1:
        if at >= 2 and window[at - 2:at] in COMPOUND_SURNAMES:
            return window[at - 2:at + 1]
        if window[at - 1] in SINGLE_SURNAMES and window[at - 1] not in _NOT_GIVEN:
            return window[at - 1:at + 1]
        at = window.rfind(given, 0, at)
    return ""


def _add_styles(text: str, found: _Found) -> None:
    """A 道号 shortly after a 字 belongs to that 字's owner: 亮字孔明，道号卧龙先生; so does
    what everyone calls them: 名太，字称平，人皆呼为吉平."""
    owners: dict[str, set[str]] = {}
    for name, zis in found.zi.items():
        for zi in zis:
            owners.setdefault(zi, set()).add(name)
    for match in (*_STYLE.finditer(text), *_CALLED.finditer(text)):
        # Not bounded by the sentence: 字德操，颍川人也。道号水镜先生。
        before = text[max(0, match.start() - _STYLE_LOOKBACK):match.start()]
        best: tuple[int, str] | None = None
        for zi, names in owners.items():
            at = before.rfind(zi)
            if at >= 0 and len(names) == 1 and (best is None or at > best[0]):
                best = (at, next(iter(names)))
        if best is None:
            continue
        name = best[1]
        if match["suffix"]:
            found.add_other(name, match["hao"] + match["suffix"])
        found.add_other(name, match["hao"])


def _add_child_names(text: str, found: _Found) -> None:
    """曹嵩生操，小字阿瞒 → 曹操 is also 阿瞒 (only for people already introduced)."""
    for match in _CHILD.finditer(text):
        father = match["father"]
        if father[-3:-1] in COMPOUND_SURNAMES:
            surname = father[-3:-1]
        elif father[-2] in SINGLE_SURNAMES:
            surname = father[-2]
        else:
            continue
        name = surname + match["given"]
        if name in found.zi:
            found.add_other(name, match["small"])


# --- English -------------------------------------------------------------------------------


def _en_name_ok(name: str) -> bool:
    """Not a pronoun or sentence word; a title counts only with a name after it."""
    words = name.split()
    return words[0] not in EN_STOPWORDS or (words[0] in _EN_TITLES and len(words) > 1)


def english_aliases(text: str) -> list[tuple[str, list[str], bool]]:
    """`Peppino, called Rocca Priori` style introductions: (name, [alias], whether the words
    say the name is a person's: "whom", "him", "her").

    Only capitalised names on both sides; a pronoun or sentence word as the name is dropped.
    An epithet with its article (whom they call the Ox) is an alias with it and without it
    (the Ox, Ox); one given "him" or "her" (They call him the Ox) is of the one full name the
    paragraph wrote last before it, when it wrote no other (`_named_before`).
    """
    found: dict[str, list[str]] = {}
    people: set[str] = set()

    def add(name: str, alias: str, person: bool) -> None:
        bare = alias.removeprefix("the ")
        if not (_en_name_ok(name) and _en_name_ok(bare)) or name in (alias, bare):
            return
        bucket = found.setdefault(name, [])
        for form in dict.fromkeys((alias, bare)):
            if form not in bucket:
                bucket.append(form)
        if person:
            people.add(name)

    for match in _EN_ALIAS.finditer(text):
        # Hard-wrapped text breaks names across lines: "Rocca\nPriori".
        add(" ".join((match["name"] or match["name2"]).split()),
            " ".join((match["alias"] or match["alias2"]).split()), bool(match["name2"]))
    for match in _EN_CALLED_HIM.finditer(text):
        name = _named_before(text, match.start())
        if name:
            add(name, " ".join(match["alias"].split()), True)
    return [(name, aliases, name in people) for name, aliases in found.items()]


NAMED_BEFORE = 300
"""How far back (characters, within the paragraph) an epithet given "him" or "her" looks for
the one full name it is of."""


def _named_before(text: str, at: int) -> str | None:
    """The one full name (two capitalised words or more, not opening a sentence with a word of
    grammar) the paragraph writes in the NAMED_BEFORE characters before `at`; None when it
    writes none, or two that are not one in a longer form (Dunstan Quarry, Quarry)."""
    start = max(text.rfind("\n", 0, at), at - NAMED_BEFORE, 0)  # passages: a line a paragraph
    names = [" ".join(m[0].split()) for m in _FULL_NAME.finditer(text, start, at)]
    names = [n for n in names if _en_name_ok(n) and n.split()[0] not in _EN_TITLES]
    distinct = {n for n in names if not any(n != o and n in o for o in names)}
    return names[-1] if len(distinct) == 1 and names[-1] in distinct else None
