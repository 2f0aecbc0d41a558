"""A rank in the services written alone names the one person who holds it: "the Admiral" in
Persuasion is Admiral Croft, "Colonel" in Sense and Sensibility is Colonel Brandon, "Colonel and
Mrs. Campbell" in Emma is Colonel Campbell. A rank is a man's own (en.SERVICE_RANKS), so the
rank alone stands for its holder when the book names one, or one far more than any other; a
noble's title passes from father to son (the Count is Monte Cristo, or Morcerf, or his son) and
is not read so."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping

from stores.entities.english_forms import Groups, split_title
from stores.lang.en import SERVICE_RANKS

HOLDER_DOMINANCE = 5
"""The holder's titled forms must be written this many times as often as those of every other
person of the book who holds the rank, together (not Monte Cristo's Captain Leclere, 18 against
Captain Gaumard's 5). One named too seldom to be a person of the book is no rival (Persuasion's
Admiral Baldwin, 4 times in one conversation, against Admiral Croft's 14)."""


def join_ranks_alone(g: Groups, counts: Mapping[str, int], text: str, min_count: int) -> None:
    """The rank written alone at least `min_count` times (the Admiral; Colonel and Mrs.
    Campbell) becomes a name of its one holder among the persons (see HOLDER_DOMINANCE): one
    the book calls by the rank more than by any other title, whose group holds the forms.
    Mansfield Park's Admiral Crawford stands in Mr. Crawford's group, a grouping's error the
    rank alone would carry further."""
    for rank in SERVICE_RANKS:
        held: Counter[str] = Counter()
        for form, n in counts.items():
            title, rest = split_title(form)
            if title == rank and rest and (owner := g.owner(form)) in g.person:
                held[owner] += n
        if not held:
            continue
        (holder, written), *others = held.most_common()
        if written < HOLDER_DOMINANCE * sum(n for _, n in others):
            continue
        titles: Counter[str] = Counter()
        for form in (holder, *g.groups[holder]):
            titles[split_title(form)[0]] += counts.get(form, 0)
        if max(n for title, n in titles.items() if title) > written:
            continue  # known by another title: Mr. Crawford's group holds Admiral Crawford
        if len(re.findall(rf"\b{rank}\b(?!\s+[A-Z])", text)) < min_count:
            continue
        owner = g.owner(rank)
        if owner is None:
            g.groups[holder].append(rank)
        elif owner == rank and owner not in g.person:  # the word alone was read as a name
            g.move(rank, holder)
