"""Titles held of a place (Count of Monte Cristo, Baron d'Épinay): the person an apposition gives
one to ("Edmond Dantès, Count of Monte Cristo"), and the place's name used alone as that
person's (Monte Cristo); see the rules in stores/entities/english.py."""

from __future__ import annotations

import re

from stores.entities.english_forms import OF_PLACE, Groups, bare_surname, is_full
from stores.lang.en import PLACE_TITLES, SAME_RANK


def appositions(text: str) -> list[tuple[str, str]]:
    """(full name, title of a place) for each "Edmond Dantès, Count of Monte Cristo" in the
    text: a person's full name, a comma and a title held of a place, which name one person."""
    if not text:
        return []
    titles = "|".join(map(re.escape, PLACE_TITLES))
    full = r"[A-ZÀ-Þ][\w’'-]+(?: (?:de |d’|d')?[A-ZÀ-Þ][\w’'-]+)+"
    pattern = re.compile(rf"(?P<name>{full}),\s+_?(?:the\s+)?(?P<title>(?:{titles})\s+"
                         rf"(?:of|de|d’|d')\s*[A-ZÀ-Þ][\w’'-]+(?:\s+[A-ZÀ-Þ][\w’'-]+)?)_?"
                         rf"(?!['’]s)")
    found = []
    for match in pattern.finditer(text):
        name = " ".join(match["name"].split())
        title = " ".join(match["title"].split()).strip("_")
        if is_full(name):
            found.append((name, title))
    return list(dict.fromkeys(found))


def join_appositions(g: Groups, appositions: list[tuple[str, str]]) -> None:
    """An apposition gives the full name's person the title, or the title's group when the
    title is a group of its own or its place's name used as a person's (the Count of Monte
    Cristo, and Monte Cristo); a title already part of another person's names (Albert de
    Morcerf's Vicomte de Morcerf) is left where it is."""
    for name, title in appositions:
        person, other = g.owner(name), g.owner(title)
        if person is None or person == other:
            continue
        if other is None:
            g.groups[person].append(title)
        elif other == title or other in g.styled:
            g.move(other, person)
        else:
            continue
        g.person.add(person)
        for group, forms in _title_of_another_name(g, person, name, title).items():
            if set(forms) == {group, *g.groups[group]}:
                g.move(group, person)  # the title's forms alone: the group is his
            elif group not in forms:
                g.groups[group] = [f for f in g.groups[group] if f not in forms]
                g.groups[person].extend(forms)


def _title_of_another_name(g: Groups, person: str, name: str,
                           title: str) -> dict[str, list[str]]:
    """Group → its forms of the same title of the family's name, in any of its languages (the
    Comte de Morcerf), in groups that name no full-named person, when the apposition's man was born to another
    name (Fernand Mondego, Count of Morcerf): the title is his. Only the title's forms go: the
    surname under a title of address (M. de Morcerf) is his son's too. A son of the family's
    name holds his own (Albert de Morcerf, Vicomte de Morcerf), and a man of the family's own
    name (Franz d'Épinay, Baron d'Épinay) may be his father's heir to it: neither is read."""
    place = OF_PLACE.match(title)
    if place is None or bare_surname(name.split()) == place["place"]:
        return {}
    rank = SAME_RANK.get(place["title"], place["title"])
    found: dict[str, list[str]] = {}
    for group, aliases in g.groups.items():
        if group == person or any(is_full(f) for f in (group, *aliases)):
            continue
        for form in (group, *aliases):
            held = OF_PLACE.match(form)
            if held and held["place"] == place["place"] and SAME_RANK.get(
                    held["title"], held["title"]) == rank:
                found.setdefault(group, []).append(form)
    return found


def join_places(g: Groups) -> None:
    """A title of a place (Count of Monte Cristo) joins the place's name used alone as a person
    (Monte Cristo), unless a family bears it (Albert de Morcerf: Count of Morcerf is one man of
    several Morcerfs)."""
    surnames = {bare_surname(n.split()) for n in g.names() if is_full(n)}
    for name, match in [(n, OF_PLACE.match(n)) for n in list(g.groups)]:
        if match is None:
            continue
        place = match["place"]
        owner = g.owner(place)
        if owner is not None and owner != name and place not in surnames:
            g.move(name, owner)
            g.person.add(owner)
            g.styled.add(owner)
