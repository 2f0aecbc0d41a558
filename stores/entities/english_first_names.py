"""How an English book's first names join the people they name (stores.entities.english
groups the names; these are its steps for first names): a pet name and its given name are one
person (Lizzy, Eliza → Elizabeth); a first name joins the one full name that starts with it,
written near it, or the one whose family name stands near it when two men share it (Charles →
Charles Musgrove, not Charles Hayter); a first name known alone takes the family's name the text
writes after it (Lydia Bennet → Lydia) and its shorter titled forms (M. Maximilian); and a full
name whose first name is a person's own is a person too."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter

from stores.entities.english_families import first_name_holder
from stores.entities.english_forms import (
    MALE_TITLES,
    Groups,
    bare_name,
    first_words,
    is_full,
    split_title,
)
from stores.lang.en import KNIGHTED_TITLES, MARRIED_TITLES, PET_NAMES
from stores.lang.gender import title_gender

ANCHOR_USES = 2
"""A full name written this often names the person its first name or surname belongs to, though
it is too rare to be an entity of its own."""
DOMINANCE = 5
"""A first name or a surname shared by two men's full names joins the one written this many
times more often."""
NEAR_FULL_NAME = 20_000
"""A first name joins a full name only where the text writes it alone within this many
characters of the full name somewhere (an introduction goes on with the first name): Jacopo,
the sailor of chapters 21–30, is not Jacopo Manfredi, written once in chapter 66, 940,000
characters from the nearest 'Jacopo'; on the development books the farthest pair a join needs is
Frederick and Frederick Wentworth, 3,625 characters apart."""


def fold_first_names(g: Groups, kept: dict[str, int]) -> None:
    """A pet name and the given name it is formed from, both used alone as names, are one
    person: Lizzy and Eliza → Elizabeth. The rarer form joins the commoner (Catherine, used
    alone ten times in Pride and Prejudice, joins Kitty)."""
    for pet, formal in PET_NAMES.items():
        pet_owner, formal_owner = g.owner(pet), g.owner(formal)
        if pet_owner and formal_owner and pet_owner != formal_owner and (
                pet_owner == pet or formal_owner == formal):
            rare, common = sorted((pet_owner, formal_owner), key=lambda n: (
                len(n.split()) > 1, kept.get(n, 0)))
            g.move(rare, common)


def add_rare_pet_forms(g: Groups, counts: Counter[str]) -> None:
    """A pet name or the given name it is formed from, written alone too rarely to be kept
    (at least ANCHOR_USES times), is a form of the one group that holds the other alone:
    Brother Jacob's Letty (twice) is Letitia's, and Penelope (twice) Penny's."""
    for pet, formal in PET_NAMES.items():
        for rare, kept in ((pet, formal), (formal, pet)):
            owner = g.owner(kept)
            if owner is not None and g.owner(rare) is None and counts[rare] >= ANCHOR_USES:
                g.groups[owner].append(rare)


def join_first_names(g: Groups, kept: dict[str, int], anchors: dict[str, int],
                      text: str = "") -> None:
    """A first name joins the one full name that starts with it, written near it (see
    NEAR_FULL_NAME; no `text`: anywhere); a full name too rare to be kept names the group."""
    fulls = {n for n in (*kept, *anchors) if is_full(n)}
    uses = {n: anchors.get(n) or kept.get(n, 0) for n in fulls}
    as_surname: Counter[str] = Counter()  # Colonel Fitzwilliam, M. Franz; not Sir John
    for name, count in kept.items():
        if (title := split_title(name)[0]) in MALE_TITLES and title not in KNIGHTED_TITLES:
            as_surname[bare_name(split_title(name)[1])] += count
    for full in sorted(fulls, key=lambda n: -uses[n]):
        first = full.split()[0]
        if first not in g.groups or as_surname[first] > uses[full]:
            continue  # Colonel Fitzwilliam (far more than Fitzwilliam Darcy): a surname
        if any(f"{title} {full}" in kept for title in KNIGHTED_TITLES):
            continue  # a knight is Sir Walter, not Walter: that is his grandson
        namesakes = [f for f in fulls if f != full and f.split()[0] == first]
        if text and namesakes and first_name_holder(first, [full, *namesakes], text) == full:
            pass  # the family's name stands near the first name alone far more often
        elif namesakes and uses[full] < DOMINANCE * max(uses[f] for f in namesakes):
            continue  # two people of one first name, neither written far more often
        elif any(n != full and n.split()[0] == first and len(n.split()) > 1
                 and (anchors.get(n) or kept.get(n, 0)) >= uses[full]
                 for n in (*kept, *anchors)):
            continue  # Mansfield is not Mansfield Wood (twice) beside Mansfield Park (32 times)
        if text and not _written_near(first, full, text):
            continue
        if full in g.groups:
            g.move(first, full)
            g.person.add(full)
        elif g.owner(full) is None:
            g.rename(first, full)  # too rare to make a person of it: Rosings Park


def _written_near(first: str, full: str, text: str) -> bool:
    """The text writes `first` alone within NEAR_FULL_NAME characters of `full` somewhere, or
    does not write one of them (nothing to tell them apart by)."""
    rest = full.split(" ", 1)[1]
    alone = [m.start() for m in re.finditer(rf"\b{re.escape(first)}\b(?! {re.escape(rest)})",
                                            text)]
    fulls = [m.start() for m in re.finditer(re.escape(full), text)]
    return not alone or not fulls or any(
        bisect_left(alone, at - NEAR_FULL_NAME) < bisect_right(alone, at + NEAR_FULL_NAME)
        for at in fulls)


def add_family_names(g: Groups, counts: Counter[str], households: Counter[str],
                     fulls: Counter[str]) -> None:
    """A first name known alone, written once or more with the family's name, is the same
    person: Jane Bennet and Miss Lydia Bennet join Jane and Lydia, with the untitled form, so a
    question naming "Lydia Bennet" means Lydia, not Lydia and Mr. Bennet; a particle may stand
    before the family's name (M. Noirtier de Villefort joins Noirtier). Not a family's name
    taken for a first name: a couple goes by it (`households`: Mr. and Mrs. Weston, 18 times in
    Emma), so "Weston Churchill", Frank's signature, is no form of Mr. Weston."""
    known = g.names()
    families = {name.split()[-1] for name in known if len(name.split()) > 1} | {
        name for name in g.groups if len(name.split()) == 1}
    # a first name several full names start with is none of theirs alone (Charles: Charles
    # Hayter, Charles Musgrove, Charles Smith)
    firsts = first_words(fulls)
    for name in counts:
        _, words = split_title(name)
        surname = bare_name(words[1:])  # all after the first name: one word, or no family's
        # with a particle, the first name must be a person's (Gérard, a group no title made a
        # person of, does not take Gérard de Villefort from the Villefort the text means)
        # a woman's title is no form of a man's ("Mademoiselle Noirtier de Villefort", once,
        # is Valentine, not M. Noirtier)
        if (len(words) > 1 and words[0] in g.groups and surname in families
                and not households[words[0]]
                and surname != words[0] and len(surname.split()) == 1 and firsts[words[0]] == 1
                and (len(words) == 2 or words[0] in g.person)
                and not _other_gender(name, [words[0], *g.groups[words[0]]])):
            for form in dict.fromkeys((name, " ".join(words))):
                if form not in known:
                    g.groups[words[0]].append(form)
                    known.add(form)


def _other_gender(form: str, group: list[str]) -> bool:
    """The form's title makes it a woman and the group's titles a man, or the other way."""
    mine, theirs = title_gender([form]), title_gender(group)
    return bool(mine and theirs and mine != theirs)


def add_short_forms(g: Groups, counts: Counter[str], anchors: dict[str, int],
                     fulls: Counter[str], min_count: int, lowercase: set[str]) -> None:
    """A person's first name is theirs in shorter forms too, when no other full name the text
    writes starts with it: under the title the text writes before the full name (Count Andrea
    Cavalcanti → Count Andrea; M. Maximilian Morrel → M. Maximilian), and alone when the text
    writes it alone, if too rarely to be kept (Gaspard, six times, → Gaspard Caderousse), and
    never in lower case (a word, not a name)."""
    firsts = first_words(fulls)
    owners = {f: g.owner(f) for f in anchors}
    for name, count in counts.items():
        words = name.split()
        if (len(words) != 1 or count < ANCHOR_USES or count >= min_count or name in lowercase
                or g.owner(name) is not None or firsts[name] != 1):
            continue
        full = next((f for f in anchors if f.split()[0] == name), "")
        owner = owners.get(full)
        if owner is not None and owner in g.person:
            g.groups[owner].append(name)
    known = g.names()
    for person in list(g.person):
        for name in [person, *g.groups.get(person, [])]:
            title, rest = split_title(name)
            # Mrs. John Dashwood is John Dashwood's wife: no "Mrs. John" of hers
            short = (f"{title} {rest[0]}" if title and title not in MARRIED_TITLES
                     and len(rest) > 1 else "")
            if (short and short not in known and is_full(" ".join(rest))
                    and firsts[rest[0]] == 1):
                g.groups[person].append(short)
                known.add(short)


def persons_by_first_name(g: Groups) -> None:
    """A full name whose first name is a person's own name used alone is a person too: Charles
    Hayter, though bare Charles is Charles Musgrove (not a place, as Camden Place is: its first
    word names no one)."""
    firsts = {n for n in g.person if len(n.split()) == 1} | {
        rest[0] for person in g.person for form in (person, *g.groups.get(person, []))
        if is_full(" ".join(rest := split_title(form)[1]))}
    for name in g.groups:
        if name not in g.person and is_full(name) and name.split()[0] in firsts:
            g.person.add(name)
