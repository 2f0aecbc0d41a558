"""The men of one family told apart by their titles (stores/entities/english.py groups them):
a rank before the surname is one man's (General Tilney, Captain Tilney), Mr. and the surname
is then the family's other man named in full (Mr. Tilney: Henry Tilney), a full name under a
title however rarely written is the full name's (Mr. James Morland, once), and the first names
written after a man's title are sons of their family."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping

from stores.entities.english_forms import (
    MALE_TITLES,
    Groups,
    bare_name,
    called_apart,
    is_full,
    split_title,
)
from stores.lang.en import COMMON_TITLES, MARRIED_TITLES, SERVICE_RANKS, given_gender
from stores.lang.en_titles import ELDEST_SON_AFTER
from stores.lang.gender import person_gender, title_gender


def split_ranks(g: Groups, seen: Mapping[str, int], min_count: int) -> None:
    """A rank before a surname (General Tilney, Captain Tilney) names another man of the family
    than the group's other title with that surname (Mr. Tilney): Northanger Abbey's father, elder
    son and younger son were one entity, joined through "Tilney" alone. Each such rank form
    written `min_count` times leaves the group for the one group holding a full name under the
    same rank (Captain Tilney → Captain Frederick Tilney), else makes a person of its own; a
    rarer one leaves a man's full name the text never writes under that rank, and is no one
    (`_unranked_full_name`)."""
    for name in list(g.groups):
        if name not in g.groups:
            continue
        forms = [name, *g.groups[name]]
        single = [(f, *split_title(f)) for f in forms
                  if split_title(f)[0] in MALE_TITLES and len(split_title(f)[1]) == 1]
        titles = {title for _, title, _ in single}
        if len(titles) < 2 or not titles & set(SERVICE_RANKS):
            continue
        keep = split_title(name)[0] if split_title(name)[0] in titles else next(
            t for _, t, _ in sorted(single, key=lambda x: -seen.get(x[0], 0)))
        for form, title, rest in single:
            if form == name or title == keep or (
                    title not in SERVICE_RANKS and keep not in SERVICE_RANKS):
                continue
            if seen.get(form, 0) < min_count:
                if title in SERVICE_RANKS and _unranked_full_name(name, title, g.names()):
                    g.groups[name].remove(form)  # too rare for a person of its own
                continue
            owners = {g.owner(n) for n in g.names() if (t := split_title(n))[0] == title
                      and len(t[1]) > 1 and t[1][-1] == rest[0]}
            fulls = [o for o in owners if o is not None and o != name]
            g.groups[name].remove(form)
            if len(fulls) == 1:
                g.groups[fulls[0]].append(form)
                g.person.add(fulls[0])  # a man under his rank
            else:
                g.groups[form] = []
                g.person.add(form)


def _unranked_full_name(name: str, rank: str, names: Iterable[str]) -> bool:
    """The group is a man's full name the text never writes under `rank` (Henry Crawford, never
    Admiral Henry Crawford): a rarer rank form with his surname is another man's, his uncle
    the Admiral (Mansfield Park), not a form of his; a group named by a title and a surname
    alone (Mr. Weston, once Captain Weston) may well be his."""
    return is_full(name) and f"{rank} {name}" not in names


def _misters(g: Groups) -> list[tuple[str, str]]:
    """(group, surname) for each group of Mr. and a surname, and the surname alone, only."""
    found = []
    for name, aliases in g.groups.items():
        forms = [split_title(n) for n in (name, *aliases)]
        surnames = {rest[0] for _, rest in forms if len(rest) == 1}
        if (len(surnames) == 1 and all(len(rest) == 1 and title in ("", *COMMON_TITLES)
                                       for title, rest in forms)
                and any(title in COMMON_TITLES for title, _ in forms)):
            found.append((name, surnames.pop()))
    return found


def join_mr_of_ranked_family(g: Groups, men: set[str], seen: Mapping[str, int]) -> None:
    """Mr. and a surname whose family has a man known by a rank (General Tilney, Captain
    Tilney) is the family's one other man named in full under no rank: Northanger Abbey's
    "Mr. Tilney" is Henry Tilney (Mr. Henry Tilney), as his father and elder brother go by
    their ranks; the surname alone, which the elder brother goes by too, stays apart. `men`:
    the first names written after a man's title (men_by_title); `seen`, how often each form is
    written: a man the text calls apart from "Mr." and the surname is not the one it means
    (`called_apart`)."""
    for name, surname in _misters(g):
        if name not in g.groups:
            continue

        def ranked(owner: str) -> bool:
            return any(split_title(n)[0] in SERVICE_RANKS for n in (owner, *g.groups[owner]))

        family = {owner for n in g.names() if (owner := g.owner(n)) not in (None, name)
                  and bare_name(split_title(n)[1]).split()[-1:] == [surname]}
        if not any(ranked(owner) for owner in family):
            continue
        others = {owner for owner in family if not ranked(owner) and any(
            is_full(n) and n.split()[0] in men for n in (owner, *g.groups[owner]))}
        if len(others) != 1:
            continue
        target = others.pop()
        # the surname alone stays apart: the elder brother goes by it too (Tilney, 6 of 10)
        mr_forms = [n for n in (name, *g.groups[name]) if split_title(n)[0] in COMMON_TITLES]
        if any(called_apart(target, form, seen) for form in mr_forms):
            continue
        bare = [n for n in (name, *g.groups[name]) if not split_title(n)[0]]
        g.groups[target].extend(mr_forms)
        g.person.add(target)
        del g.groups[name]
        g.person.discard(name)
        if bare:
            g.groups[bare[0]] = bare[1:]


def join_mr_eldest_son(g: Groups, text: str, households: Iterable[str]) -> None:
    """Mr. and a surname alone is the family's eldest son where the text says which of its men
    named in full he is, the father no longer a "Mr. and Mrs." of that surname (`households`:
    english_titles.couples): Sense and Sensibility's "Mr. Ferrars" (30 times) is Edward, "the
    eldest son of a man who had died very rich", while Robert goes by "Mr. Robert Ferrars".
    `households`: the surnames a living couple goes by (english_titles.couples, COUPLE_USES).
    Not a son who goes by a rank (Northanger Abbey's Frederick, "my eldest son", is Captain
    Tilney, and Mr. Tilney his brother Henry), nor where the father lives: Persuasion's Mr
    Musgrove (Mr and Mrs Musgrove, 16 times) is Charles Musgrove's father."""
    for name, surname in _misters(g):
        if name not in g.groups:
            continue
        if surname in households:
            continue
        family = {owner for n in g.names() if is_full(n) and n.split()[-1] == surname
                  and (owner := g.owner(n)) not in (None, name)}
        eldest = {owner for owner in family if not any(
            split_title(n)[0] in SERVICE_RANKS for n in (owner, *g.groups[owner])) and any(
            re.search(re.escape(n) + ELDEST_SON_AFTER, text) for n in (owner, *g.groups[owner])
            if len(split_title(n)[1]) > 1)}
        if len(eldest) != 1:
            continue
        target = eldest.pop()
        g.groups[target].extend((name, *g.groups.pop(name)))
        g.person.add(target)
        g.person.discard(name)


def join_mr_unnamed_son(g: Groups, men: set[str], households: Iterable[str]) -> None:
    """Mr. and a surname alone is the one man of the family named in full whom the text never
    calls by a title and his first name: younger sons go by "Mr. Edmund Bertram", the father by
    his rank or title (Sir Thomas Bertram), so Mansfield Park's "Mr. Bertram" (58 times) is Tom
    Bertram, the heir, as the README says (a newcomer's trial found him an entity of his own).
    `men`: the first names written after a man's title (men_by_title). Not where a living
    couple goes by the surname (`households`: the father is Mr. X), nor a woman (Miss Maria
    Bertram), nor a man of a rank or title (Sir, Captain), nor when two such men remain."""
    for name, surname in _misters(g):
        if name not in g.groups or surname in households:
            continue
        family = {owner for n in g.names() if is_full(n) and n.split()[-1] == surname
                  and (owner := g.owner(n)) not in (None, name)}
        # the family's man is named by his full name (Tom Bertram), not a first name another
        # goes by too (Sense and Sensibility's servant Thomas holds "Thomas Palmer", once)
        unnamed = {owner for owner in family if is_full(owner) and owner.split()[-1] == surname
                   and _a_man([owner, *g.groups[owner]])
                   and not any(split_title(n)[0] not in ("", *COMMON_TITLES)
                               for n in (owner, *g.groups[owner]))
                   and not any(is_full(n) and n.split()[0] in men
                               for n in (owner, *g.groups[owner]))}
        # the father goes by another title (Sir Thomas Bertram), or "Mr. Morland" may be him
        titled = any(split_title(n)[0] not in ("", *COMMON_TITLES) and _a_man([owner])
                     for owner in family for n in (owner, *g.groups[owner]))
        if len(unnamed) != 1 or not titled:
            continue
        target = unnamed.pop()
        g.groups[target].extend((name, *g.groups.pop(name)))
        g.person.add(target)
        g.person.discard(name)


def _a_man(forms: list[str]) -> bool:
    """A man's title is among the names, or a man's given name opens one (Tom Bertram)."""
    firsts = [words[0] for n in forms if (words := split_title(n)[1])]
    return title_gender(forms) == "m" or any(given_gender(first) == "m" for first in firsts)


def join_titled_full_names(g: Groups, counts: Counter[str]) -> None:
    """A full name under a man's or an unmarried woman's title, however rarely written, is the
    full name's (Mr. James Morland, once: James Morland, whose title says he is a man); a
    married woman's title before a man's name is his wife (Mrs. John Knightley), not him."""
    known = g.names()
    for name in counts:
        title, words = split_title(name)
        if (not title or title in MARRIED_TITLES or len(words) < 2 or name in known
                or not is_full(" ".join(words))):
            continue
        owner = g.owner(" ".join(words))
        if owner is None or split_title(owner)[0] not in ("", title):
            continue
        # a woman's title is no form of a man's name (Mademoiselle Noirtier de Villefort)
        if title_gender([owner, *g.groups[owner]]) in ("", title_gender([name])):
            g.groups[owner].append(name)


def men_by_title(counts: Counter[str]) -> set[str]:
    """First names the text writes, once or more, after a man's title and before a surname (Mr.
    Henry Tilney, Captain Frederick Tilney, Mr. James Morland): sons of their family."""
    return {words[0] for name in counts if (words := split_title(name)[1])
            and split_title(name)[0] in MALE_TITLES and len(words) > 1}


def join_rare_full_names(g: Groups, counts: Counter[str]) -> None:
    """A full name the text writes too seldom to be kept, whose surname names one person alone
    of the gender its common first name says, is that person's: "the lady of Thomas Palmer,
    Esq." (once) is Mr. Palmer's, "The name of Willoughby, John Willoughby" Willoughby's, "his
    behaviour to Eliza Williams" Miss Williams's. Not where another person of that gender bears
    the surname (Henry Dashwood, where Mr. Dashwood and John Dashwood are two), where the
    person's own full name has another first name (a father, a brother), or where she bears it
    by marriage (Mrs Harville: Fanny Harville is her husband's sister)."""
    known = g.names()
    for name in counts:
        words = name.split()
        if name in known or len(words) != 2 or not is_full(name):
            continue
        first, surname = words
        gender = given_gender(first)
        if not gender:
            continue
        bearers = [p for p in g.person if _bears(p, g.groups.get(p, ()), surname)
                   and person_gender([p, *g.groups.get(p, ())]) in ("", gender)]
        if len(bearers) != 1:
            continue
        forms = [bearers[0], *g.groups[bearers[0]]]
        if person_gender(forms) != gender or any(
                is_full(f) and f.split()[0] != first for f in forms):
            continue
        if any(split_title(f)[0] in MARRIED_TITLES for f in forms):
            continue  # her name by marriage: Fanny Harville is Captain Harville's sister
        g.groups[bearers[0]].append(name)


def _bears(person: str, forms: Iterable[str], surname: str) -> bool:
    """One of a person's names ends with `surname`: alone, titled or in full."""
    return any(f.split()[-1] == surname for f in (person, *forms))
