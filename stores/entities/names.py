"""The parts of a Chinese person's name and the story they are read in, shared by the joins of
people.py and address.py: the world's text with where its chapters start (`Story`), where words
stand in it, surname + given name (`FullName`), and how two entities become one (`rename`,
`absorb`)."""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from stores.entities.surnames import surname_of
from stores.lang import is_han
from stores.lang.zh import ADDRESS_KIN
from stores.models import Entity

MINOR = 10
"""A person mentioned this many times less than a form of address that speaks on its own (金凤
beside 凤姐's 1,756 mentions) is not whom the form calls."""
DOMINANCE = 3
"""The surname's best-known person must be mentioned this many times more than the next."""
PRESENCE_DOMINANCE = 2
"""Of the people of a form's surname named in the passages that use the form, the one named
this many times more often than the next takes the form."""


@dataclass(frozen=True, slots=True)
class Story:
    """The world's text in one string, and where each chapter starts in it."""

    text: str
    starts: tuple[int, ...]
    """The offset of each chapter's first passage, ascending."""

    @classmethod
    def of(cls, chunk_texts: Sequence[str], chapters: Sequence[int] | None) -> Story:
        starts, at, last = [], 0, None
        for i, text in enumerate(chunk_texts):
            chapter = chapters[i] if chapters is not None else i
            if chapter != last:
                starts.append(at)
                last = chapter
            at += len(text) + 1
        return cls("\n".join(chunk_texts), tuple(starts))

    def chapter_at(self, offset: int) -> int:
        """The index of the chapter that holds `offset`."""
        return bisect_right(self.starts, offset) - 1


def occurrences(words: Iterable[str], text: str) -> dict[str, list[int]]:
    """Where each word starts in the text (overlapping occurrences too), in one pass."""
    import ahocorasick

    automaton = ahocorasick.Automaton()
    for word in words:
        automaton.add_word(word, word)
    found: dict[str, list[int]] = defaultdict(list)
    if len(automaton) == 0:
        return found
    automaton.make_automaton()
    for end, word in automaton.iter(text):
        found[word].append(end - len(word) + 1)
    return found


# -- the parts of a person's name ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FullName:
    """A Chinese name as surname + given name."""

    surname: str
    given: str

    @property
    def name(self) -> str:
        return self.surname + self.given


def full_name(name: str) -> FullName | None:
    """Surname + a one- or two-character given name (贾宝玉, 王熙凤, 司马懿), or None."""
    surname = surname_of(name)
    given = name[len(surname):]
    if not surname or not 1 <= len(given) <= 2 or not all(map(is_han, name)):
        return None
    return None if is_address_form(name) else FullName(surname, given)


def is_address_form(name: str) -> bool:
    """The name ends in a kin word or honorific (凤姐, 林妹妹, 宝二爷): a form of address."""
    return any(name.endswith(kin) and len(name) > len(kin) for kin in ADDRESS_KIN)


def person_full_name(entity: Entity) -> FullName | None:
    """The person's full name among their name and aliases: the entity's own name first, else
    the first full alias with a two-character given name; a person known only by a
    two-character given name (宝玉) has that, without a surname."""
    for name in (entity.name, *entity.aliases):
        parsed = full_name(name)
        if parsed is not None and (name == entity.name or len(parsed.given) == 2):
            return parsed
    name = entity.name
    if len(name) == 2 and all(map(is_han, name)) and not is_address_form(name):
        return FullName("", name)
    return None


def rename(entity: Entity, name: str) -> None:
    """Name the entity `name`, keeping its old name as an alias."""
    aliases = [a for a in entity.aliases if a != name]
    entity.aliases = [entity.name, *aliases]
    entity.name = name


def absorb(owner: Entity, other: Entity) -> None:
    """`other` is `owner` under another name: its names, mentions and sources join the owner."""
    for alias in (other.name, *other.aliases):
        if alias != owner.name and alias not in owner.aliases:
            owner.aliases.append(alias)
    owner.mentions += other.mentions
    owner.sources += [s for s in other.sources if s not in owner.sources]
    owner.description = owner.description or other.description


def plain(entity: Entity) -> bool:
    """An entity only a tagger or a speaker found: a glossary's or a pattern's entry stays."""
    return set(entity.sources) <= {"tagger", "speaker"}
