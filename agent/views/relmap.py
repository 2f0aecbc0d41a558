"""An entity's relations map: its typed relations grouped by kind, one or two hops out, each with
the chapter and the sentence that states it, as of the spoiler horizon.

The map is built from the world's typed relations (the catalog's, held by the retriever) and
drawn by the app (tui/screens/relmap.py) and the exporters (agent/views/pictures.py) from the same
`RelationMap`, so a picture holds what the app shows. Co-occurrence is not a relation: the
names most often in the same passages are kept apart (`together`) and named as such.

Under a horizon a relation is drawn only when a chapter up to it states it. A glossary or
lorebook relation names no chapter: like its entry it is hidden under a horizon, unless the
entry carries `chapter = N` (its lore passage's chapter) and N is reached.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from stores.entities.family import statements_in
from stores.entities.kinship import Statement
from stores.lang import language
from stores.lang.text import sentences
from stores.models import LORE_CHAPTER, Chunk, Relation, chapter_label

if TYPE_CHECKING:
    from agent.world.retrieval import Retriever

MAX_HOPS = 2
MAX_SECOND = 8
"""Second-hop relations drawn under one first-hop person; the rest are counted."""
TOGETHER = 6
"""Names shown as most often in the same passages (co-occurrence)."""


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of relation as the map groups them, with the relation types it holds."""

    key: str
    title: str
    types: frozenset[str]


KINDS = (
    Kind("kin", "kin", frozenset({"kin", "parent_of", "child_of", "grandparent_of",
                                  "sibling"})),
    Kind("sworn", "sworn brothers", frozenset({"sworn_sibling"})),
    Kind("spouse", "spouses and betrothed", frozenset({"spouse", "engaged"})),
    Kind("mentor", "master and disciple", frozenset({"mentor"})),
    Kind("ally", "allies", frozenset({"ally"})),
    Kind("enemy", "enemies and rivals", frozenset({"enemy", "rival"})),
    # no such type on the allowlist yet (stores.models.RELATION_TYPES): ready when there is
    Kind("killed", "killed / killed by", frozenset({"killed", "killed_by"})),
    Kind("lord", "lords and followers", frozenset({"lord_of", "serves"})),
    Kind("member", "belongs to", frozenset({"member_of"})),
    Kind("place", "places and things", frozenset({"located_in", "owns"})),
)
"""The kinds in the order the map shows them; a type none holds goes to OTHER."""
OTHER = Kind("other", "other relations", frozenset())

SYMMETRIC = frozenset({"kin", "sibling", "sworn_sibling", "spouse", "engaged", "ally", "enemy", "rival"})
"""Relation types that read the same from either end."""
INVERSE = {"member_of": "has as member", "located_in": "has within it", "owns": "owned by",
           "lord_of": "follower of", "killed": "killed by", "killed_by": "killer of"}
"""What the target of a directed relation is to its source, where the language tables
(stores.lang RELATIVE_WORDS) have no word for it: the far end reads `far ROLE near`."""


def kind_of(relation_type: str) -> Kind:
    """The map's kind for a relation type (OTHER for a type no kind names)."""
    return next((k for k in KINDS if relation_type in k.types), OTHER)


@dataclass(frozen=True, slots=True)
class Tie:
    """One typed relation drawn on the map, read from its `near` end."""

    near: str
    far: str
    type: str
    source: str
    target: str
    role: str
    """What `far` is to `near`, in the app's words: disciple, sworn brother, member of …"""
    chapter: int
    """The first chapter that states it within the horizon (LORE_CHAPTER: only a lore entry)."""
    chunk_id: str
    """The passage that states it ("" when none is known)."""
    sentence: str
    """The sentence of that passage that states it."""
    declared: bool = False
    declared_in: str = ""
    """The glossary or lorebook line that declares it (file:line), for a declared relation."""

    @property
    def key(self) -> tuple[str, str, str]:
        """The relation itself, whichever end it is read from and whichever end declares a
        symmetric one: (source, type, target), a symmetric type's ends in name order."""
        if self.type in SYMMETRIC and self.target < self.source:
            return (self.target, self.type, self.source)
        return (self.source, self.type, self.target)

    @property
    def where(self) -> str:
        """`ch. 3`, or `lore` for a relation only a lore entry states."""
        return chapter_label(self.chapter, False)

    def statement(self) -> str:
        """The relation as a clause: `沈砚 mentor 苏绾`, `韩峥 sworn sibling 沈砚`."""
        return f"{self.source} {self.type.replace('_', ' ')} {self.target}"


@dataclass(slots=True)
class Link:
    """One person (or place, thing) on the map: the far end of one kind of ties from `near`."""

    near: str
    far: str
    kind: Kind
    ties: list[Tie]
    hop: int = 1
    onward: list[Link] = field(default_factory=list)
    """Second hop: the far person's own relations (without the centre)."""
    more: int = 0
    """Second-hop relations left out (MAX_SECOND)."""

    @property
    def roles(self) -> str:
        """Its roles, each once: `sworn brother`, `enemy · rival`."""
        return " · ".join(dict.fromkeys(t.role for t in self.ties))

    @property
    def where(self) -> str:
        """Where the earliest of its ties is stated."""
        return min(self.ties, key=lambda t: t.chapter).where


@dataclass(slots=True)
class Together:
    """A name often in the same passages as the centre: co-occurrence, not a relation."""

    name: str
    passages: int
    chunk_id: str
    """The first passage they share."""


@dataclass(slots=True)
class RelationMap:
    """What the app draws and the exporters write for one centre, hop count and horizon."""

    centre: str
    hops: int
    horizon: int
    groups: list[tuple[Kind, list[Link]]]
    hidden: int = 0
    """Relations within the hops that the horizon hides."""
    together: list[Together] = field(default_factory=list)
    types: dict[str, str] = field(default_factory=dict)
    """Entity type of every name on the map (person, place …)."""

    @property
    def links(self) -> list[Link]:
        """Every link, first hop then its onward ones, in the order the app lists them."""
        return [x for _, links in self.groups for link in links for x in (link, *link.onward)]

    @property
    def ties(self) -> list[Tie]:
        """Every relation drawn, each once."""
        seen: dict[tuple[str, str, str], Tie] = {}
        for link in self.links:
            for tie in link.ties:
                seen.setdefault(tie.key, tie)
        return list(seen.values())

    def on_left(self, kind: Kind) -> bool:
        """Whether a kind is drawn on the centre's left: each kind goes to the side that holds
        fewer names so far, so the centre stands in the middle (the app and the pictures)."""
        counts = [0, 0]  # right, left
        for each, links in self.groups:
            side = counts[1] < counts[0]
            if each is kind:
                return side
            counts[side] += len(links)
        return False

    @property
    def names(self) -> list[str]:
        """Every name drawn: the centre, then the far ends in order."""
        return list(dict.fromkeys([self.centre, *(link.far for link in self.links)]))

    def heading(self) -> str:
        """`沈砚 · 1 hop · whole story · 13 relations`, with what the horizon hides."""
        hops = "1 hop" if self.hops == 1 else f"{self.hops} hops"
        count = len(self.ties)
        parts = [self.centre, hops, f"as of ch. {self.horizon}" if self.horizon else
                 "whole story", f"{count} relation{'s' if count != 1 else ''}"]
        if self.hidden:
            parts.append(f"{self.hidden} hidden beyond the horizon")
        return " · ".join(parts)


# -- building ----------------------------------------------------------------------------------
@dataclass
class _Reading:
    """What one map build reads of the world: passages, lore entries, genders, the horizon."""

    retriever: Retriever
    horizon: int
    lore: dict[str, Chunk]
    """Entity → its lore entry passage (a declared relation's only statement)."""

    def visible(self, chapter: int) -> bool:
        return not self.horizon or chapter <= self.horizon

    def tie(self, relation: Relation, near: str) -> Tie | None:
        """The relation read from `near`, as of the horizon; None when the horizon hides it."""
        chunk, chapter = self._statement(relation)
        if not self.visible(chapter):
            return None
        far = relation.target if relation.source == near else relation.source
        end = "target" if far == relation.target else "source"
        # kin of the wide type is labelled with the text's own word (father-in-law), if any
        statement = (self.statement(relation, chunk)
                     if chunk and not chunk.lore and relation.type == "kin" else None)
        role = (statement.kin_word(far) if statement else "") or self.role(relation.type, end, far)
        return Tie(near=near, far=far, type=relation.type, source=relation.source,
                   target=relation.target, role=role,
                   chapter=chapter, chunk_id=chunk.id if chunk else "",
                   sentence=self.sentence(relation, chunk) if chunk else "",
                   declared=relation.declared,
                   declared_in=next((Path(e).name for e in relation.evidence
                                     if e not in self.retriever.chunks and ":" in e), ""))

    def _statement(self, relation: Relation) -> tuple[Chunk | None, int]:
        """The first passage within the horizon that states the relation, and its chapter."""
        chunks = self.retriever.chunks
        stated = sorted((chunks[e] for e in relation.evidence if e in chunks),
                        key=lambda c: c.event_order)
        for chunk in stated:
            if self.visible(chunk.chapter):
                return chunk, chunk.chapter
        if stated:  # stated only after the horizon
            return None, stated[0].chapter
        if relation.declared:  # a glossary line: its entry's lore passage says it
            entry = self.lore.get(relation.source) or self.lore.get(relation.target)
            if entry is not None:
                return entry, entry.chapter
        return None, min(relation.chapters, default=LORE_CHAPTER)

    def role(self, relation_type: str, end: str, far: str) -> str:
        word = language("en").relative_word(relation_type, end, self.gender(far))
        if word:
            return word
        words = relation_type.replace("_", " ")
        if relation_type in SYMMETRIC or end == "source":
            return words
        return INVERSE.get(relation_type, f"← {words}")

    def gender(self, name: str) -> str:
        return self.retriever.lexicon.gender(name)

    def statement(self, relation: Relation, chunk: Chunk) -> Statement | None:
        """The statement of `chunk` that states the relation, as the kinship patterns or a
        family's kin words read it ("M. de Saint-Méran, Villefort's father-in-law")."""
        ends = {relation.source, relation.target}
        spans = self.retriever.spans(chunk.text)
        return next((s for s in statements_in(chunk.text, spans, self.retriever.families)
                     if {s.source, s.target} == ends), None)

    def sentence(self, relation: Relation, chunk: Chunk) -> str:
        """The sentence of `chunk` that states the relation: the one the kinship patterns or
        a family's kin words ("Emma … her father") read it from, else the first naming both
        ends — in a lore entry, the first naming the other end — else "" (a glossary's
        relations list declares it, no sentence says it)."""
        ends = {relation.source, relation.target}
        if not chunk.lore and (statement := self.statement(relation, chunk)) is not None:
            return statement.sentence
        forms = {name: [name, *self.retriever.entities.get(name, [])] for name in ends}
        found = [s.text.strip() for s in sentences(chunk.text, "quote")]

        def names(sentence: str, who: str) -> bool:
            return any(form and form in sentence for form in forms[who])

        # a lore entry is its owner's: the sentence naming the other end states it; a
        # glossary's relations list may declare what no sentence of the entry says
        owner = self.retriever.matcher.resolve(chunk.chapter_title) if chunk.lore else None
        wanted = ends - {owner} if owner in ends else ends
        return next((s for s in found if all(names(s, who) for who in wanted)), "")


def relation_map(retriever: Retriever, entity: str, hops: int = 1,
                 horizon: int = 0) -> RelationMap:
    """The map of `entity` (any of its names) with `hops` (1 or 2) hops of typed relations, as
    of the spoiler horizon (0: the whole story); UnknownEntity for a name the world lacks."""
    centre = retriever.resolve(entity)
    hops = max(1, min(int(hops), MAX_HOPS))
    reading = _Reading(retriever, horizon, retriever.lore_entries)
    hidden: Counter[str] = Counter()
    first = _links(reading, centre, set(), hidden, hop=1)
    if hops > 1:
        for link in first:
            onward = _links(reading, link.far, {centre}, hidden, hop=2)
            link.onward, link.more = onward[:MAX_SECOND], max(0, len(onward) - MAX_SECOND)
    groups = [(kind, [link for link in first if link.kind is kind]) for kind in (*KINDS, OTHER)]
    found = RelationMap(centre=centre, hops=hops, horizon=horizon,
                        groups=[(kind, links) for kind, links in groups if links],
                        hidden=len(hidden), together=_together(retriever, centre, horizon))
    types = retriever.lexicon.types
    found.types = {name: types.get(name, "other")
                   for name in [*found.names, *(t.name for t in found.together)]}
    return found


def _links(reading: _Reading, near: str, leave_out: set[str], hidden: Counter[str],
           hop: int) -> list[Link]:
    """`near`'s relations as links, one per far end and kind, strongest kinds first."""
    by_far: dict[tuple[str, str], Link] = {}
    for relation in reading.retriever.typed_relations.get(near, []):
        far = relation.target if relation.source == near else relation.source
        if far in leave_out:
            continue
        tie = reading.tie(relation, near)
        if tie is None:
            hidden[f"{relation.source}\x1f{relation.type}\x1f{relation.target}"] += 1
            continue
        kind = kind_of(relation.type)
        link = by_far.setdefault((kind.key, far), Link(near, far, kind, [], hop))
        same = next((i for i, t in enumerate(link.ties) if t.key == tie.key), None)
        if same is None:
            link.ties.append(tie)
        elif _better(tie, link.ties[same]):  # A ally B and B ally A: one relation, its best
            link.ties[same] = tie
    order = {kind.key: i for i, kind in enumerate((*KINDS, OTHER))}
    return sorted(by_far.values(), key=lambda link: (order[link.kind.key],
                                                     min(t.chapter for t in link.ties),
                                                     link.far))


def _better(tie: Tie, other: Tie) -> bool:
    """Of two statements of one relation: the earlier, then the one with a sentence."""
    return (tie.chapter, not tie.sentence) < (other.chapter, not other.sentence)


def _together(retriever: Retriever, centre: str, horizon: int,
              count: int = TOGETHER) -> list[Together]:
    """The names most often in the same passages as the centre, up to the horizon."""
    shared: Counter[str] = Counter()
    first: dict[str, str] = {}
    for chunk in retriever.story:
        if chunk.lore or centre not in chunk.entities or (horizon and chunk.chapter > horizon):
            continue
        for name in chunk.entities:
            if name != centre:
                shared[name] += 1
                first.setdefault(name, chunk.id)
    return [Together(name, n, first[name]) for name, n in shared.most_common(count)]
