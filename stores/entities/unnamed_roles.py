"""People a story never names and calls by their calling alone: The Metamorphosis' chief clerk
("the chief clerk", 34 times) and its charwoman are in its cast as much as Grete, but no name
holds them, so `lore card "chief clerk"` found no one, an answer that quotes "the chief clerk
had already reached the stairs" named no one a follow-up's "he" could be, and the timeline
and the relations map had nothing of them (a newcomer's trial).

Such a calling, written with "the" often enough, is a person of the world, named as the text
writes it (the chief clerk). Not where the text gives the calling a name ("Deschamps, the
notary", "the notary Deschamps", "Danglars the banker"): it is then a named person's, whom the
calling stands for in context. Not a state or a side someone is on (the prisoner, the soldier,
the stranger), which the story says of many, nor a title (the count), which stores/entities/
definite_titles.py reads."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from stores.entities.matcher import AliasMatcher, alias_map
from stores.lang.en import (
    APPOSITION_ENDS,
    CALLING_OF_SOMEONE,
    NAME_AFTER_CALLING,
    NAME_BEFORE_CALLING,
    STOPWORDS,
    THE_CALLING,
    WOMENS_CALLINGS,
)
from stores.lang.gender import person_gender
from stores.models import Entity

ROLE_MIN_USES = 6
"""How many times "the" and the calling must be written (The Metamorphosis' chief clerk 34, its
charwoman 7, its maid 6)."""
STANDS_FOR_SHARE, STANDS_FOR_LIFT = 0.4, 3.0
"""A calling stands for a named person, in passages that name them, when that person is named
in at least this share of the passages that write the calling and this many times as often as
in the book's passages at large: Monte Cristo's "the steward" is Bertuccio, "the innkeeper"
Caderousse; The Metamorphosis' Gregor, named nearly everywhere, is not its chief clerk."""
DOMINANT_FORM = 0.6
"""The share of a calling's uses with "the" that its most written form must hold: the chief
clerk, not the clerk of another firm; a calling written with many words before it (the old
notary, the young notary, the notary) is no one's in particular."""

_THE_CALLING = re.compile(THE_CALLING)


def role_entities(chunk_texts: list[str], entities: list[Entity]) -> list[Entity]:
    """People of the cast the text never names, as `unnamed_roles` finds them, each a person
    entity with its mentions counted; none whose calling stands for a named person of
    `entities` (STANDS_FOR_SHARE, STANDS_FOR_LIFT)."""
    text = "\n".join(chunk_texts)
    found = unnamed_roles(text, [n for e in entities for n in (e.name, *e.aliases)])
    if not found:
        return []
    persons = [e for e in entities if e.type == "person"]
    gender = {e.name: person_gender([e.name, *e.aliases]) for e in persons}
    people = AliasMatcher(alias_map(persons))
    named = [{n for *_, n in people.find_spans(chunk)} for chunk in chunk_texts]
    everywhere = Counter(n for names in named for n in names)
    written = re.compile(rf"\b({'|'.join(re.escape(name) for name, _ in found)})\b", re.I)
    each = [Counter(m.lower() for m in written.findall(chunk)) for chunk in chunk_texts]
    out = []
    for name, aliases in found:
        uses = [counts[name.lower()] for counts in each]
        holding = [names for names, n in zip(named, uses, strict=True) if n]
        beside = Counter(n for names in holding for n in names)
        # a woman's calling stands for no man (the charwoman is not Mr. Samsa)
        womans = name.split()[-1] in WOMENS_CALLINGS
        if any(n >= STANDS_FOR_SHARE * len(holding)
               and n / len(holding) >= STANDS_FOR_LIFT * everywhere[p] / len(chunk_texts)
               and not (womans and gender[p] == "m")
               for p, n in beside.items()):
            continue
        out.append(Entity(name, "person", aliases, sources=["role"], mentions=sum(uses)))
    return out


def unnamed_roles(text: str, names: Iterable[str]) -> list[tuple[str, list[str]]]:
    """(the calling as written, the calling without "the") for each calling the text writes with
    "the" ROLE_MIN_USES times, in one form mostly (DOMINANT_FORM), that it never gives a name
    (see the module docstring) and that is no name already (`names`)."""
    known = {n.lower() for n in names}
    written = Counter(" ".join(m[1].split()) for m in _THE_CALLING.finditer(text))
    by_calling: dict[str, Counter[str]] = {}
    for form, n in written.items():
        by_calling.setdefault(form.split()[-1], Counter())[form] += n
    found = []
    for forms in by_calling.values():
        form, n = forms.most_common(1)[0]
        if n < ROLE_MIN_USES or n < DOMINANT_FORM * sum(forms.values()):
            continue
        if f"the {form}" in known or form in known or _given_a_name(form, text):
            continue
        found.append((f"the {form}", [form]))  # "The chief clerk …" holds "chief clerk"
    return found


def _given_a_name(form: str, text: str) -> bool:
    """The text puts a name beside the calling: "Deschamps, the notary,", "Bertuccio, his
    steward", "the notary Deschamps"; not "Gregor, the chief clerk is here". Each place the
    calling is written is looked at, not the whole text for a name (Monte Cristo: 2.7 s)."""
    calling = r"\s+".join(map(re.escape, form.split()))
    # the calling first, as a literal the engine finds fast (no \b before it)
    for word in re.finditer(rf"{calling}\b", text):
        m = _OF_SOMEONE.search(text, max(0, word.start() - 8), word.start())
        if m is None:
            continue
        named = _NAME_BEFORE.search(text, max(0, m.start() - NAME_REACH), m.start())
        # not a word that opens a sentence ("When the manager, escorted by the pilgrims, …")
        if named and named[0].split()[0].lower() not in STOPWORDS and \
                _APPOSITION_ENDS.match(text, word.end()):
            return True
        if m["the"] and _NAME_AFTER.match(text, word.end()):
            return True
    return False


NAME_REACH = 40
"""How far before a calling its name may begin ("M. Bartolomeo Cavalcanti, the")."""
_OF_SOMEONE = re.compile(rf"{CALLING_OF_SOMEONE}$")
_NAME_BEFORE = re.compile(NAME_BEFORE_CALLING)
_APPOSITION_ENDS = re.compile(APPOSITION_ENDS)
_NAME_AFTER = re.compile(NAME_AFTER_CALLING)
