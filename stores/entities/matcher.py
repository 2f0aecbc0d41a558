"""Exact, fast alias matching: every alias of every entity in one Aho–Corasick automaton.

Matching is leftmost-longest and non-overlapping, so 刘玄德 counts once for 刘备 and 诸葛亮 is
not also read as 葛亮 or 亮. Chinese has no word boundaries, so Chinese aliases match anywhere;
an alias in Latin script must start and end on a word boundary ("Ali" is not found in
"Alibaba"). Case: a single Latin word matches only as written ("Will" the name, not "will"),
and so does any name made of common words ("The Count"); a name of two or more proper words
("Edmond Dantès", "Monte Cristo") also matches in any case, because its lowercase spelling is
never an ordinary phrase and headings are often in capitals.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from stores.entities.tagger import common_noun, dictionary_word
from stores.lang import is_han
from stores.lang.en import COMMON_NAME_WORDS as _COMMON_WORDS
from stores.lang.en_titles import (
    NAME_TITLES,
    OWN_NAME_TITLES,
    PLAIN_TITLES,
    UNDOTTED,
)
from stores.lang.gender import title_gender
from stores.models import Entity


@dataclass(frozen=True, slots=True)
class _Alias:
    text: str
    canonical: str
    any_case: bool
    left_boundary: bool
    right_boundary: bool


def _is_latin_word_char(ch: str) -> bool:
    # CJK characters are alphanumeric too, but never glue onto a Latin name.
    return (ch.isalnum() or ch == "_") and ord(ch) < 0x2E80


# Typographic apostrophes and quotes: a user types d'If where the book prints d’If. One
# character for one, so offsets in a translated text are offsets in the original.
_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "ʼ": "'", "′": "'"})
_NARROW = str.maketrans({**{chr(k): v for k, v in _APOSTROPHES.items()},
                         **{chr(code): chr(code - 0xFEE0) for code in range(0xFF01, 0xFF5F)}})
"""The apostrophes, and full-width letters, digits and signs as ASCII: a user types 阿Q where
呐喊 prints 阿Ｑ. One character for one, as `_APOSTROPHES`."""


def _fold(name: str) -> str:
    """Case-, accent-, apostrophe- and space-insensitive key for `resolve` (dantes == Dantès),
    a title's full stop aside (Mrs Weston == Mrs. Weston)."""
    decomposed = unicodedata.normalize("NFKD", name.translate(_APOSTROPHES).casefold())
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(word.rstrip(".") if i < len(words) - 1 else word
                    for words in [stripped.split()] for i, word in enumerate(words))


_DOTTED = {**UNDOTTED, **{bare: dotted for dotted, bare in UNDOTTED.items()}}
"""A title as the other usage writes it: Mr. ↔ Mr, Mrs. ↔ Mrs …"""


def _title_variants(exact: Mapping[str, str]) -> dict[str, str]:
    """Each titled alias written with its title's full stop or without (Mr Knightley → Mr.
    Knightley), for a user who writes it the other way: a text mentioning "Mr Knightley"
    mentions Mr. Knightley. Not where the other form is an alias already, nor where two
    entities' aliases would give the same one."""
    found: dict[str, set[str]] = {}
    for alias, canonical in exact.items():
        title, _, rest = alias.partition(" ")
        if rest and title in _DOTTED and (other := f"{_DOTTED[title]} {rest}") not in exact:
            found.setdefault(other, set()).add(canonical)
    return {other: next(iter(names)) for other, names in found.items() if len(names) == 1}


def _any_case(alias: str) -> bool:
    words = alias.split()
    proper = [w for w in words if w.lower() not in _COMMON_WORDS and w[:1].isupper()]
    return len(words) >= 2 and len(proper) >= 2


class AliasMatcher:
    """Finds entity mentions in text and resolves a name to its canonical entity.

    Built from a mapping alias → canonical name; every canonical name is an alias of itself.
    Single-character aliases are kept for `resolve` but never matched in running text (操,
    亮 would match everywhere).
    """

    def __init__(self, aliases: Mapping[str, str]) -> None:
        self._exact: dict[str, str] = {}
        for alias, canonical in aliases.items():
            alias, canonical = alias.strip(), canonical.strip()
            if alias and canonical:
                self._exact.setdefault(alias, canonical)
        for canonical in {c.strip() for c in aliases.values() if c.strip()}:
            self._exact[canonical] = canonical  # a canonical name is never someone's alias
        folded: dict[str, set[str]] = {}
        for alias, canonical in self._exact.items():
            folded.setdefault(_fold(alias), set()).add(canonical)
        self._folded = {key: next(iter(names)) for key, names in folded.items() if len(names) == 1}
        self._automaton: Any = None
        self._titles: dict[str, tuple[str, frozenset[str]]] | None = None
        self._forms: dict[str, list[str]] | None = None
        self._words: set[str] | None = None
        self._latin = False
        self._build()

    def _build(self) -> None:
        import ahocorasick

        keyed: dict[str, list[_Alias]] = {}
        for alias, canonical in {**_title_variants(self._exact), **self._exact}.items():
            if len(alias) < 2:
                continue
            latin = any(_is_latin_word_char(ch) for ch in alias.translate(_NARROW))
            self._latin = self._latin or latin
            entry = _Alias(alias, canonical, latin and _any_case(alias),
                           _is_latin_word_char(alias[0]), _is_latin_word_char(alias[-1]))
            key = alias.translate(_NARROW)
            keyed.setdefault(key.lower() if latin else key, []).append(entry)
        if not keyed:
            return
        automaton = ahocorasick.Automaton()
        for key, entries in keyed.items():
            automaton.add_word(key, (len(key), tuple(entries)))
        automaton.make_automaton()
        self._automaton = automaton

    def __len__(self) -> int:
        return len(self._exact)

    def resolve(self, name: str) -> str | None:
        """The canonical name for `name` (an alias or the canonical name itself), else None.

        Exact first; then ignoring case, accents and repeated spaces when that is unambiguous;
        then, for "the" and one word, that word ("the Colonel" → "Colonel").
        """
        key = name.strip()
        if not key:
            return None
        found = self._exact.get(key) or self._folded.get(_fold(key))
        title = key.split()
        if found is None and len(title) == 2 and title[0].lower() == "the":
            # "the Colonel" is the one a title alone names (Colonel Brandon's "Colonel")
            found = self._exact.get(title[1]) or self._folded.get(_fold(title[1]))
        return found

    def find_spans(self, text: str) -> list[tuple[int, int, str]]:
        """Leftmost-longest, non-overlapping mentions as (start, end, canonical name)."""
        if self._automaton is None or not text:
            return []
        haystack = text.translate(_NARROW)
        if self._latin:
            lowered = haystack.lower()
            if len(lowered) != len(haystack):
                # A few characters (İ) lengthen when lowered; keep those as written so that
                # offsets in the haystack stay offsets in the text.
                lowered = "".join(ch if len(ch.lower()) != 1 else ch.lower() for ch in haystack)
            haystack = lowered
        candidates: list[tuple[int, int, str]] = []
        for end, (length, entries) in self._automaton.iter(haystack):
            start = end - length + 1
            canonical = self._accept(text, start, end + 1, entries)
            if (canonical is not None and not self._titled_apart(text, start, end + 1, canonical)
                    and not _title_of_a_name(text, start, end + 1)
                    and not _inside_idiom(text, start, end + 1)
                    and not self._given_name_of_another(text, start, end + 1, canonical)):
                candidates.append((start, -length, canonical))
        candidates.sort()
        spans: list[tuple[int, int, str]] = []
        last_end = 0
        for start, neg_length, canonical in candidates:
            if start >= last_end:
                last_end = start - neg_length
                spans.append((start, last_end, canonical))
        return spans

    def forms(self, canonical: str) -> list[str]:
        """Every name and alias `canonical` goes by."""
        if self._forms is None:
            self._forms = {}
            for alias, owner in self._exact.items():
                self._forms.setdefault(owner, []).append(alias)
        return self._forms.get(canonical, [])

    def _given_name_of_another(self, text: str, start: int, end: int, canonical: str) -> bool:
        """A one-word Latin alias that is the first word of a fuller name of the entity (Andrea
        of Andrea Cavalcanti), written before a capitalised surname none of its names goes on
        with and no name of the world holds, names another man: "Andrea Rondolo" is no mention
        of Andrea Cavalcanti (a newcomer's trial on Monte Cristo, his card's first appearance).
        A surname the world knows may be the one she married: "Ann Grantley" is Ann Hale."""
        word = text[start:end]
        if not word or " " in word or not _is_latin_word_char(word[0]):
            return False
        after = _NEXT_NAME.match(text, end)
        if after is None or after["name"] in self._name_words():
            return False
        # a surname of its own fuller names is a name word of the world: answered above
        return any(f.startswith(word + " ") for f in self.forms(canonical))

    def _name_words(self) -> set[str]:
        """Every word of every name and alias (Grantley of Mr. Grantley)."""
        if self._words is None:
            self._words = {w for alias in self._exact for w in alias.split()}
        return self._words

    def _titled_apart(self, text: str, start: int, end: int, canonical: str) -> bool:
        """A Latin alias written right after a person's title, in a form no one goes by (the
        longer alias would have matched), that is not the one the entity goes by: of the other
        sex (Mrs. Knightley is no mention of Mr. Knightley, Miss Weston none of Mr. Weston,
        "Mrs. Robert Ferrars" none of Robert Ferrars but his wife), or, before a one-word alias,
        a rank, a knight's or a peer's title none of its names bears ("Admiral Crawford" is
        Henry Crawford's uncle, "Sir Henry" another man). Mr., Miss and the like of its own sex
        are its own (Master Caderousse, Miss Fanny)."""
        if start == 0 or not _is_latin_word_char(text[start]):
            return False
        found = _OWN_TITLE_BEFORE.search(text, max(0, start - 16), start)
        if found is None:
            return False
        title = found["title"]
        sex, titles = self._bearing(canonical)
        if NAME_TITLES.get(title) and sex and NAME_TITLES[title] != sex:
            return True
        return (" " not in text[start:end] and title not in PLAIN_TITLES
                and title.rstrip(".") not in titles)

    def _bearing(self, canonical: str) -> tuple[str, frozenset[str]]:
        """The sex the titles of an entity's names give, and those titles."""
        if self._titles is None:
            self._titles = {owner: (title_gender(names), frozenset(
                n.split()[0].rstrip(".") for n in names
                if len(n.split()) > 1 and n.split()[0] in NAME_TITLES))
                for owner in set(self._exact.values()) for names in [self.forms(owner)]}
        sex, titles = self._titles.get(canonical, ("", frozenset()))
        return sex, titles

    @staticmethod
    def _accept(text: str, start: int, end: int, entries: Iterable[_Alias]) -> str | None:
        for entry in entries:
            if entry.left_boundary and start > 0 and _is_latin_word_char(text[start - 1]):
                continue
            if entry.right_boundary and end < len(text) and _is_latin_word_char(text[end]):
                continue
            if entry.any_case or (text[start:end].translate(_NARROW)
                                  == entry.text.translate(_NARROW)):
                return entry.canonical
        return None

    def find(self, text: str) -> Counter[str]:
        """How often each entity is mentioned in `text` (canonical name → count)."""
        return Counter(canonical for _, _, canonical in self.find_spans(text))


_NEXT_NAME = re.compile(r" (?P<name>[A-ZÀ-Þ][\w’'-]+)")
"""A capitalised word right after a name, after one space."""
_TITLE_OF_A_NAME = re.compile(
    r"(?P<title>" + "|".join(re.escape(t) for t in sorted(OWN_NAME_TITLES, key=len, reverse=True))
    + r")\s+[A-ZÀ-Þ]")


def _inside_idiom(text: str, start: int, end: int) -> bool:
    """A two-character Chinese name that is a word of the language too, and opens or ends a
    four-character word of it there (关羽's first 字 长生 in 长生不老): the idiom's characters,
    not the name. A name the dictionary knows as a name (王允 in 司徒王允) is the name."""
    if end - start != 2 or not is_han(text[start]) or not common_noun(text[start:end]):
        return False
    return dictionary_word(text[start:start + 4]) or (start >= 2 and dictionary_word(
        text[end - 4:end]))


def _title_of_a_name(text: str, start: int, end: int) -> bool:
    """The alias is a title alone (the Admiral's "Admiral") written before a name not its own:
    "Admiral Baldwin" is no mention of Admiral Croft (a newcomer's trial on Persuasion); his own
    name there is a longer alias, matched first."""
    found = _TITLE_OF_A_NAME.match(text, start)
    return found is not None and found.end("title") == end
_OWN_TITLE_BEFORE = re.compile(
    r"(?<![\w.])(?P<title>" + "|".join(re.escape(t) for t in sorted(
        OWN_NAME_TITLES, key=len, reverse=True)) + r")\s+$")


def count_mentions(matcher: AliasMatcher, texts: Iterable[str]) -> Counter[str]:
    """Mentions of every entity over many texts (canonical name → count)."""
    total: Counter[str] = Counter()
    for text in texts:
        total.update(matcher.find(text))
    return total


def alias_map(entities: Iterable[Entity]) -> dict[str, str]:
    """alias → canonical name for an AliasMatcher; canonical names map to themselves."""
    mapping: dict[str, str] = {}
    entities = list(entities)
    for entity in entities:
        for alias in entity.aliases:
            mapping.setdefault(alias, entity.name)
    for entity in entities:
        mapping[entity.name] = entity.name
    return mapping
