"""Entity cards built at ingest from the world's passages (story order) and relations: the
strongest defining sentences (`stores.card_sentences`), the offices and the roles the text calls
someone by, where they live (`stores.card_homes`), typed relations with the sentence that states
them, and the chapters they appear in (see `stores.cards`)."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from functools import cache

from stores.card_homes import HomeReader
from stores.card_sentences import alias_chapter, read_sentences
from stores.cards import Appearance, Card, Fact
from stores.entities.family import Families, statements_in
from stores.entities.kinship import Statement
from stores.entities.matcher import AliasMatcher, alias_map
from stores.lang import LANGUAGES, has_han, language
from stores.lang.en import BOND_NOUNS, ROLE_NOUNS
from stores.lang.gender import person_gender
from stores.lang.text import sentences
from stores.models import LORE_CHAPTER, Chunk, Entity, Relation

MAX_DEFINING = 6
"""Defining sentences kept per entity (the strongest, earliest first)."""
MAX_OFFICES = 4
MIN_OPEN_ROLE = 3
"""An English role word ("the banker Danglars") must stand before the name this often: the
words are open-class (the door, the darkness), unlike the Chinese offices table."""
MAX_RELATIONS = 8


def build_cards(entities: Sequence[Entity], chunks: Iterable[Chunk],
                relations: Sequence[Relation]) -> list[Card]:
    """Every entity's card from the world's passages (story order) and relations."""
    cards = {e.name: Card(e.name, e.type, list(e.aliases)) for e in entities}
    matcher = AliasMatcher(alias_map(list(entities)))
    kinds = {e.name: e.type for e in entities}
    defining: dict[str, list[Fact]] = defaultdict(list)
    offices: dict[str, dict[str, Fact]] = defaultdict(dict)
    seen: dict[str, dict[int, Appearance]] = defaultdict(dict)
    narrated: set[tuple[str, int]] = set()
    written: dict[str, dict[str, int]] = defaultdict(dict)
    votes = RoleVotes(matcher, {n for n, kind in kinds.items() if kind == "person"})
    homes = HomeReader(matcher, kinds)
    # a title's gender, else a common given name's (Anne, of "In her low deck-chair Anne was
    # nearer to lying than to sitting. … She was Henry Wimbush's own niece": Crome Yellow)
    genders = {e.name: gender for e in entities if e.type == "person" and (
        gender := person_gender([e.name, *e.aliases]))}
    relatives = one_relative_each(relations, genders)
    read: dict[str, Chunk] = {}
    for chunk in chunks:
        read[chunk.id] = chunk
        if chunk.lore:
            owner = matcher.resolve(chunk.chapter_title)
            if owner in cards:
                cards[owner].facts.append(Fact("lore", chunk.text, chunk.id, chunk.chapter, 10.0))
            continue
        read_sentences(chunk, matcher, defining, offices, seen, kinds, genders, narrated,
                       written, relatives)
        votes.read(chunk)
        homes.read(chunk)
    mentions = {name: sum(a.mentions for a in by_chapter.values())
                for name, by_chapter in seen.items()}
    for name, fact in votes.roles(mentions):
        known = offices[name].get(fact.text)
        if known is None:
            offices[name][fact.text] = fact
        else:
            known.weight += fact.weight
    for name, card in cards.items():
        card.facts += _strongest(defining.get(name, []))
        roles = [f for f in offices.get(name, {}).values()
                 if (f.weight >= MIN_OPEN_ROLE or not f.text.isascii() or f.text in ROLE_NOUNS)
                 and f.text not in BOND_NOUNS]  # his good friend Perry: whose friend?
        card.facts += sorted(roles, key=lambda f: -f.weight)[:MAX_OFFICES]
        card.facts += homes.homes(name)
        card.appearances = sorted(seen.get(name, {}).values(), key=lambda a: a.chapter)
        card.alias_chapters = {a: chapter for a in card.aliases
                               if (chapter := alias_chapter(written[name], a)) is not None}
    lore = {name: card.of_kind("lore")[0].chunk_id for name, card in cards.items()
            if card.of_kind("lore")}
    families = Families(entities)
    for relation in sorted(relations, key=lambda r: (not r.declared, -r.weight)):
        if relation.type == "co_occurs":
            continue
        # a declared relation is cited by the lore entry that declares it
        stated = [e for e in relation.evidence if ":" not in e] or [lore.get(relation.source, "")]
        stated = _naming_both(stated, relation, read)
        for end, who, other in (("source", relation.source, relation.target),
                                ("target", relation.target, relation.source)):
            holder = cards.get(who)
            if holder is None or len(holder.of_kind("relation")) >= MAX_RELATIONS:
                continue
            # shown from the chapter of the passage it cites, not before: a card read as of a
            # chapter cites nothing later (Mr. Perry's wife, first met in ch. 12, cites ch. 41)
            chapter = max(min(relation.chapters) if relation.chapters else LORE_CHAPTER,
                          read[stated[0]].chapter if stated[0] in read else LORE_CHAPTER)
            statement = _stating(read.get(stated[0]), relation, matcher, families)
            holder.facts.append(Fact(
                "relation", relation.type, stated[0], chapter, relation.weight, other=other,
                end=end, quote=" ".join(statement.sentence.split()) if statement else "",
                word=statement.kin_word(who) if statement else ""))
    return list(cards.values())


def _naming_both(evidence: list[str], relation: Relation, read: dict[str, Chunk]) -> list[str]:
    """The relation's passages, those that name both people first: a card cites where a reader
    can see both ("Mrs. Palmer: Mr. Palmer's wife" cited "cried Mrs. Palmer to her husband",
    which names no Mr. Palmer, and the answer was marked unsupported)."""
    ends = {relation.source, relation.target}
    both = [e for e in evidence if e in read and ends <= set(read[e].entities)]
    return both + [e for e in evidence if e not in both]


def _stating(chunk: Chunk | None, relation: Relation, matcher: AliasMatcher,
             families: Families) -> Statement | None:
    """The statement of `chunk` that states the relation, as the text's statements read it."""
    if chunk is None or chunk.lore:
        return None
    ends = {relation.source, relation.target}
    return next((s for s in statements_in(chunk.text, matcher.find_spans(chunk.text), families)
                 if {s.source, s.target} == ends), None)


MIN_REFERRED = 10
"""A role noun must stand for one person this often ("the banker" after Danglars, 21 times; at
5, "the priest" became Caderousse's, the man the disguised abbé talks to, 8 times)."""
ROLE_LIFT = 3.0
"""…and that person must be this many times likelier to be named right before the noun than
their share of all the story's mentions of people: the last one named before "the officer"
is as often the man he arrests, and the hero is named before every noun."""


class RoleVotes:
    """Which person a role noun the text uses alone stands for ("the banker" → Danglars): the
    person named last before it, counted over the book, when one clearly leads (see
    MIN_REFERRED, ROLE_LIFT, and twice the count of the next person)."""

    def __init__(self, matcher: AliasMatcher, persons: set[str]) -> None:
        self.matcher, self.persons = matcher, persons
        self.votes: dict[str, dict[str, list[Fact]]] = defaultdict(dict)
        self.uses: dict[str, int] = defaultdict(int)

    def read(self, chunk: Chunk) -> None:
        found_roles = [m for pattern in _referring_patterns() for m in pattern.finditer(chunk.text)]
        if not found_roles:  # most passages: no names to look up
            return
        spans = [(e, name) for _, e, name in self.matcher.find_spans(chunk.text)
                 if name in self.persons]
        opens = [start for start, _, _ in sentences(chunk.text)]
        for found in found_roles:
            role = found.group("role")
            self.uses[role] += 1
            before = [(e, name) for e, name in spans if e <= found.start()]
            if not before:
                continue
            last_end, name = before[-1]
            # another role between: the banker smiled at the clerk — the clerk is not Danglars
            if any(last_end <= other.start() < found.start() for other in found_roles):
                continue
            # named in the same English sentence, not right before: Dantès looked at the
            # jailer (a Chinese sentence runs on through its clauses: 曹操…丞相 is one man)
            opened = max((at for at in opens if at <= found.start()), default=0)
            if (last_end > opened and chunk.text[last_end:found.start()].strip(" ,")
                    and not has_han(role)):
                continue
            facts = self.votes[role].setdefault(name, [])
            if not facts:
                facts.append(Fact("office", role, chunk.id, chunk.chapter, 0.0))
            facts[0].weight += 1

    def roles(self, mentions: Mapping[str, int]) -> list[tuple[str, Fact]]:
        """(person, the role fact) for each role noun one person leads; `mentions` are how often
        the story names each person."""
        total = sum(n for name, n in mentions.items() if name in self.persons) or 1
        found = []
        for role, by_name in self.votes.items():
            ranked = sorted(by_name.items(), key=lambda kv: -kv[1][0].weight)
            name, (fact,) = ranked[0]
            second = ranked[1][1][0].weight if len(ranked) > 1 else 0.0
            share = mentions.get(name, 0) / total
            lift = fact.weight / self.uses[role] / share if share else 0.0
            if fact.weight >= MIN_REFERRED and lift >= ROLE_LIFT and fact.weight >= 2 * second:
                found.append((name, fact))
        return found


@cache
def _referring_patterns() -> list[re.Pattern[str]]:
    return [re.compile(language(code).referring_role) for code in LANGUAGES
            if language(code).referring_role]


def _strongest(facts: list[Fact]) -> list[Fact]:
    """The strongest defining sentences, earliest first among equals, each once."""
    chosen: list[Fact] = []
    for fact in sorted(facts, key=lambda f: (-f.weight, f.chapter)):
        if all(fact.text != other.text for other in chosen):
            chosen.append(fact)
        if len(chosen) == MAX_DEFINING:
            break
    return chosen


def one_relative_each(relations: Sequence[Relation],
                      genders: Mapping[str, str]) -> dict[tuple[str, str], str]:
    """(person, husband / wife / father / mother) → their one such relative, where the
    relations give exactly one: a spouse, a parent of the gender the titles give."""
    found: dict[tuple[str, str], set[str]] = defaultdict(set)
    for r in relations:
        if r.type == "spouse":
            for one, other in ((r.source, r.target), (r.target, r.source)):
                found[(one, "husband" if genders.get(other) == "m" else "wife"
                       if genders.get(other) == "f" else "")].add(other)
        elif r.type == "parent_of" and genders.get(r.source) in ("m", "f"):
            found[(r.target, "father" if genders[r.source] == "m" else "mother")].add(r.source)
    return {key: next(iter(who)) for key, who in found.items() if key[1] and len(who) == 1}
