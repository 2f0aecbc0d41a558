"""Entity cards: what the world says of each entity, built at ingest, readable as of any chapter.

A card gathers, each with the passage and chapter it stands on:
- the entity's lore entries (its glossary or lorebook description);
- the sentences that introduce or define it: a courtesy name (「姓刘名备字玄德」), a copula
  (「韩峥乃顾怀山之徒」, "Morrel was the owner of the Pharaon"), an apposition ("Caderousse, a
  tailor, …"), where someone comes from (「琅琊阳都人也」) — `Language.defining`;
- the offices and roles the text writes right before its name (丞相曹操, 军师孔明), counted, and
  the roles it calls them by ("the banker" after Danglars was named: `RoleVotes`);
- its typed relations (kin, mentor, serves …) with their evidence;
- the chapters it appears in, with how often (first and last appearance, where it matters most).

Nothing is lost to the spoiler horizon at build time: every fact keeps its chapter, and
`Card.as_of(horizon)` keeps only what the text says up to that chapter. A lore entry that names
no chapter has LORE_CHAPTER, so a horizon hides it (see the README).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import cache

from stores.entities.family import Families, statements_in
from stores.entities.kinship import Statement
from stores.entities.matcher import AliasMatcher, alias_map
from stores.lang import LANGUAGES, Language, clip_at, has_han, language
from stores.lang.en import (
    BOND_NOUNS,
    DESCRIBERS,
    NAME_TITLES,
    NOT_NAMES,
    PLACE_TITLES,
    ROLE_NOUNS,
    SURELY_APPOSED,
)
from stores.lang.gender import title_gender
from stores.lang.text import QUOTE_MARKS, in_someones_words, in_verse, sentences
from stores.models import LORE_CHAPTER, Chunk, Entity, Relation

MAX_DEFINING = 6
"""Defining sentences kept per entity (the strongest, earliest first)."""
MAX_OFFICES = 4
MIN_OPEN_ROLE = 3
"""An English role word ("the banker Danglars") must stand before the name this often: the
words are open-class (the door, the darkness), unlike the Chinese offices table."""
MAX_RELATIONS = 8
MAX_QUOTE = 160
"""A defining sentence longer than this is cut at a clause boundary."""
WEIGHTS = {"courtesy": 3.0, "kin": 3.0, "copula": 2.0, "origin": 2.0, "apposition": 2.5,
           "copula_vague": 1.0, "apposition_vague": 1.0}
"""How strongly each kind of defining pattern says who someone is."""
BY_PRONOUN = 0.75
"""A definition whose subject is a pronoun standing for the person the sentence before opened
with counts this much of the same definition under their name."""
SPOKEN = 0.5
"""A defining sentence inside quotation marks counts this much: the narrator's introduction
("Caderousse, a tailor, …") says who someone is more surely than a character's words."""
_VOCATIVE = re.compile(r",\s*$")
"""In a character's words, a name right after a comma and before another ("You will see,
Danglars, that…") is someone spoken to, not introduced; the narrator's (But before he had
finished, M. de Château-Renaud, a handsome young man of thirty, …) introduces."""
_QUOTED = re.compile(f"[{QUOTE_MARKS}]")
_SURELY_APPOSED = re.compile(SURELY_APPOSED)


@dataclass(slots=True)
class Fact:
    """One thing the world says of an entity, with the passage that says it."""

    kind: str
    """lore, defines, office or relation."""
    text: str
    """The lore entry or sentence as written, the office word, or the relation type."""
    chunk_id: str
    chapter: int
    weight: float = 1.0
    """How much it says who the entity is (an office: how often the text writes it)."""
    other: str = ""
    """A relation's other entity."""
    end: str = ""
    """A relation's end the entity is: source or target."""
    quote: str = ""
    """A relation's sentence that states it (Emma … till her father awoke), when one does."""
    word: str = ""
    """The kin word that sentence calls the entity by, for a relation of the wide type kin
    (Saint-Méran, Villefort's father-in-law: father-in-law on Saint-Méran's card)."""


@dataclass(slots=True)
class Appearance:
    """The entity's mentions in one chapter."""

    chapter: int
    mentions: int
    chunk_id: str
    """The chapter's first passage that mentions it."""


@dataclass(slots=True)
class Card:
    """What the world says of one entity."""

    entity: str
    type: str
    aliases: list[str] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    appearances: list[Appearance] = field(default_factory=list)

    def as_of(self, horizon: int) -> Card:
        """The card as a reader of chapters up to `horizon` may see it (0: the whole world)."""
        if not horizon:
            return self
        return Card(self.entity, self.type, self.aliases,
                    [f for f in self.facts if f.chapter <= horizon],
                    [a for a in self.appearances if a.chapter <= horizon])

    def of_kind(self, kind: str) -> list[Fact]:
        return [f for f in self.facts if f.kind == kind]

    @property
    def first(self) -> Appearance | None:
        return self.appearances[0] if self.appearances else None

    @property
    def last(self) -> Appearance | None:
        return self.appearances[-1] if self.appearances else None

    def key_chapters(self, count: int = 3) -> list[Appearance]:
        """The chapters that mention it most, in story order."""
        top = sorted(self.appearances, key=lambda a: (-a.mentions, a.chapter))[:count]
        return sorted(top, key=lambda a: a.chapter)

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Card:
        data = json.loads(text)
        return cls(data["entity"], data["type"], data["aliases"],
                   [Fact(**f) for f in data["facts"]],
                   [Appearance(**a) for a in data["appearances"]])


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
    votes = RoleVotes(matcher, {n for n, kind in kinds.items() if kind == "person"})
    genders = {e.name: gender for e in entities if (gender := title_gender([e.name, *e.aliases]))}
    read: dict[str, Chunk] = {}
    for chunk in chunks:
        read[chunk.id] = chunk
        if chunk.lore:
            owner = matcher.resolve(chunk.chapter_title)
            if owner in cards:
                cards[owner].facts.append(Fact("lore", chunk.text, chunk.id, chunk.chapter, 10.0))
            continue
        _read_sentences(chunk, matcher, defining, offices, seen, kinds, genders, narrated)
        votes.read(chunk)
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
        card.appearances = sorted(seen.get(name, {}).values(), key=lambda a: a.chapter)
    lore = {name: card.of_kind("lore")[0].chunk_id for name, card in cards.items()
            if card.of_kind("lore")}
    families = Families(entities)
    for relation in sorted(relations, key=lambda r: (not r.declared, -r.weight)):
        if relation.type == "co_occurs":
            continue
        # a declared relation is cited by the lore entry that declares it
        stated = [e for e in relation.evidence if ":" not in e] or [lore.get(relation.source, "")]
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


def _stating(chunk: Chunk | None, relation: Relation, matcher: AliasMatcher,
             families: Families) -> Statement | None:
    """The statement of `chunk` that states the relation, as the text's statements read it."""
    if chunk is None or chunk.lore:
        return None
    ends = {relation.source, relation.target}
    return next((s for s in statements_in(chunk.text, matcher.find_spans(chunk.text), families)
                 if {s.source, s.target} == ends), None)


def _read_sentences(chunk: Chunk, matcher: AliasMatcher, defining: dict[str, list[Fact]],
                    offices: dict[str, dict[str, Fact]],
                    seen: dict[str, dict[int, Appearance]], places: Mapping[str, str],
                    genders: Mapping[str, str], narrated: set[tuple[str, int]]) -> None:
    """Count the passage's mentions; keep its sentences that define a name and the offices
    written before names. A chapter's appearance cites its first passage that names someone in
    the telling, not in a character's words (`narrated`: the (name, chapter) pairs found so):
    the story introduces its people there ("There was a numerous family; but the only two grown
    up, excepting Charles, were Henrietta and Louisa, young ladies of nineteen and twenty"), not
    in "So, there was I, crowded into the back seat with Henrietta and Louisa" before it."""
    opened_by: str | None = None  # the one person the last sentence naming anyone opened with
    for read in sentences(chunk.text, "quote"):
        sentence = read.text
        asking = sentence.rstrip("”’\"'」』）)").endswith(("？", "?"))
        spans = matcher.find_spans(sentence)
        pronoun = _pronoun_subject(sentence) if opened_by else None
        if (opened_by and pronoun is not None and pronoun.lastgroup == genders.get(opened_by)
                and (weight := _defines(sentence[pronoun.end():]))):
            defining[opened_by].append(Fact("defines", _quote(sentence), chunk.id,
                                            chunk.chapter, weight * BY_PRONOUN))
        if spans or pronoun is not None:  # a clause naming no one keeps the subject
            opened_by = (spans[0][2] if spans and spans[0][0] == 0
                         and len({name for *_, name in spans}) == 1
                         and places.get(spans[0][2]) == "person"
                         and not _QUOTED.search(sentence) else None)
        for start, end, name in spans:
            at = seen[name].get(chunk.chapter)
            verse = in_verse(sentence, start)
            if verse:  # 风云长为护储胥: a poem's words, not 云长 appearing
                pass
            elif at is None:
                seen[name][chunk.chapter] = Appearance(chunk.chapter, 1, chunk.id)
            else:
                at.mentions += 1
            spoken = _QUOTED.search(sentence) is not None
            if (not verse and (name, chunk.chapter) not in narrated
                    and not in_someones_words(chunk.text, read.start + start)):
                narrated.add((name, chunk.chapter))
                seen[name][chunk.chapter].chunk_id = chunk.id
            before, after = sentence[:start], sentence[end:]
            # 王夫人宝玉: 夫人 ends another name written right before, no office of 宝玉's
            role = "" if any(e == start for _, e, _ in spans) else _role_before(before)
            # 荆州刺史刘表: the place an office is of, when the world knows it as a place
            place = next((s for s, e, other in spans if e == start - len(role) and
                          places.get(other) == "place"), None) if role else None
            if place is not None:
                role = sentence[place:start]
            if role:
                known = offices[name].get(role)
                if known is None:
                    offices[name][role] = Fact("office", role, chunk.id, chunk.chapter)
                else:
                    known.weight += 1
            # a line of verse (芳气袭人是酒香) uses a name's characters as words, defines nothing
            weight = 0.0 if (asking or verse or (spoken and _VOCATIVE.search(before))
                             or _ends_longer_name(before)) else _defines(
                after, governed=_governed(before), clause=_subordinate(before))
            if weight and spoken:
                weight *= SPOKEN  # a character's words, not the narrator's introduction
            if weight:
                defining[name].append(Fact("defines", _quote(sentence, start), chunk.id,
                                           chunk.chapter, weight))
        # 「姓刘，名备，字玄德」 introduces 刘备 without writing his name
        for named in _introduced(sentence, matcher):
            defining[named].append(Fact("defines", _quote(sentence), chunk.id, chunk.chapter,
                                        WEIGHTS["courtesy"]))


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


def _ends_longer_name(before: str) -> bool:
    """The name ends a longer one the world does not know (Policar Morrel is not Morrel; Fanny
    Harville, his sister, is not Captain Harville): a capitalised word stands right before it
    that is no title, nor, where it opens the sentence, a word a sentence opens with (But
    Morrel, Poor Harville)."""
    found = _WORD_BEFORE.search(before)
    if found is None or found["word"] in _NOT_NAME_WORDS:
        return False
    opens = not before[:found.start("word")].strip(f" {QUOTE_MARKS}‘'(")
    return not opens or found["word"] not in DESCRIBERS


_WORD_BEFORE = re.compile(r"(?<![\w.’'])(?P<word>[A-Z][a-zà-ÿ’'-]+)\s+$")
_NOT_NAME_WORDS = frozenset(NOT_NAMES) | frozenset(t.rstrip(".") for t in NAME_TITLES) | (
    frozenset(PLACE_TITLES))


def _governed(before: str) -> bool:
    """The name is the object of a preposition (see `Language.governed`)."""
    return any(p.search(before) for p in _governed_patterns())


def _subordinate(before: str) -> bool:
    """A word opening a clause stands right before the name (see `Language.subordinate`)."""
    return any(p.search(before) for p in _subordinate_patterns())


@cache
def _subordinate_patterns() -> list[re.Pattern[str]]:
    return [re.compile(language(code).subordinate) for code in LANGUAGES
            if language(code).subordinate]


@cache
def _governed_patterns() -> list[re.Pattern[str]]:
    return [re.compile(language(code).governed, re.I) for code in LANGUAGES
            if language(code).governed]


APPOSITION_WORDS = 4
"""An apposition that ends its sentence or clause is at most this many words: a longer one is the
rest of the sentence ("when he saw Franz, the servant came up to him."; "The older a person
grows, Harriet, the more important it is that their manners should not be bad; …")."""


def _defines(after: str, governed: bool = False, clause: bool = False) -> float:
    """How strongly the words right after a name define it (0: they do not). After a
    preposition's object, what follows a comma mostly belongs to the sentence (at a sign from
    Edmond, the rest ranged themselves; the nourishment of Danglars, the giant, went on), so
    only an apposition that is surely about the name counts: a role of someone (to Louise
    d’Armilly, her singing teacher) or of a named thing (to Signor Pastrini, the proprietor of
    the Hôtel de Londres)."""
    for kind, pattern in _defining_patterns():
        found = pattern.match(after)
        if found is None or (governed and (kind != "apposition"
                                           or not _SURELY_APPOSED.search(found.group("what")))):
            continue
        if clause and not kind.startswith("apposition"):
            continue  # That Emma was his object …: the clause's subject, not an introduction
        if (kind == "apposition" and after[found.end():found.end() + 1] in ".!?;:"
                and len(found.group("what").split()) > APPOSITION_WORDS):
            continue
        return WEIGHTS[kind]
    return 0.0


def _role_before(before: str) -> str:
    """The office, role or kinship written right before a name (丞相曹操 → 丞相, 孙坚长子孙策 →
    孙坚长子, the banker Danglars → banker), or ""."""
    for language_, pattern in _role_patterns():
        found = pattern.search(before)
        if found is None:
            continue
        if found.group("office"):
            role = found.group("office")
            return "" if role in language_.not_roles else role
        return found.group(0)  # a kinship: whose kin, and which
    return ""


def _introduced(sentence: str, matcher: AliasMatcher) -> list[str]:
    """The people a sentence introduces by the parts of their name (姓刘名备 → 刘备)."""
    found = []
    for pattern in _introductions():
        for match in pattern.finditer(sentence):
            surname = match.group("cs") or match.group("ss") or ""
            name = matcher.resolve(surname + match.group("given"))
            if name:
                found.append(name)
    return found


def _pronoun_subject(sentence: str) -> re.Match[str] | None:
    """The pronoun a sentence opens with as its subject (see `Language.pronoun_subject`)."""
    return next((m for p in _pronoun_patterns() if (m := p.match(sentence))), None)


@cache
def _pronoun_patterns() -> list[re.Pattern[str]]:
    return [re.compile(language(code).pronoun_subject) for code in LANGUAGES
            if language(code).pronoun_subject]


@cache
def _defining_patterns() -> list[tuple[str, re.Pattern[str]]]:
    """Every language's defining patterns, each with its kind."""
    return [(kind, re.compile(source)) for code in LANGUAGES
            for kind, source in language(code).defining]


@cache
def _role_patterns() -> list[tuple[Language, re.Pattern[str]]]:
    return [(language(code), re.compile(language(code).role_before)) for code in LANGUAGES
            if language(code).role_before]


@cache
def _introductions() -> list[re.Pattern[str]]:
    return [re.compile(language(code).introduction) for code in LANGUAGES
            if language(code).introduction]


def _quote(sentence: str, name_at: int = 0) -> str:
    """The sentence, cut to MAX_QUOTE characters around what defines the name at `name_at`
    (…to think that Albert de Morcerf, the most admired …: the cut keeps who he is)."""
    return clip_at(sentence, name_at, MAX_QUOTE)

