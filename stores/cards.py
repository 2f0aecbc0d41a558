"""Entity cards: what the world says of each entity, built at ingest, readable as of any chapter.

A card gathers, each with the passage and chapter it stands on:
- the entity's lore entries (its glossary or lorebook description);
- the sentences that introduce or define it: a courtesy name (「姓刘名备字玄德」), a copula
  (「韩峥乃顾怀山之徒」, "Morrel was the owner of the Pharaon"), an apposition ("Caderousse, a
  tailor, …"), where someone comes from (「琅琊阳都人也」) — `Language.defining`;
- the offices and roles the text writes right before its name (丞相曹操, 军师孔明), counted, and
  the roles it calls them by ("the banker" after Danglars was named: `card_build.RoleVotes`);
- its typed relations (kin, mentor, serves …) with their evidence;
- the chapters it appears in, with how often (first and last appearance, where it matters most).

Nothing is lost to the spoiler horizon at build time: every fact keeps its chapter, and
`Card.as_of(horizon)` keeps only what the text says up to that chapter. A lore entry that names
no chapter has LORE_CHAPTER, so a horizon hides it (see the README). The cards are built by
`stores.card_build`, from what `stores.card_sentences` reads in each sentence.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

KEY_SHARE = 0.25
"""A chapter is one a person is most present in when it mentions them at least this share as
often as the chapter that mentions them most (`Card.key_chapters`)."""


@dataclass(slots=True)
class Fact:
    """One thing the world says of an entity, with the passage that says it."""

    kind: str
    """lore, defines, office, home or relation."""
    text: str
    """The lore entry or sentence as written, the office word, the home's place, or the relation
    type."""
    chunk_id: str
    chapter: int
    weight: float = 1.0
    """How much it says who the entity is (an office: how often the text writes it)."""
    other: str = ""
    """A relation's other entity."""
    end: str = ""
    """A relation's end the entity is: source or target."""
    quote: str = ""
    """A relation's sentence that states it (Emma … till her father awoke), when one does; a
    home's that says it ("Sir Walter Elliot, of Kellynch Hall, …")."""
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
    told: bool = True
    """The telling names it in this chapter, not only someone's words: 关羽 recalled in a speech
    of ch. 110 (昔关云长威震华夏) does not appear there."""


@dataclass(slots=True)
class Card:
    """What the world says of one entity."""

    entity: str
    type: str
    aliases: list[str] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    appearances: list[Appearance] = field(default_factory=list)
    alias_chapters: dict[str, int] = field(default_factory=dict)
    """The chapter where the story first writes each alias of the entity's: a name it takes
    later (Edmond Dantès, the Count of Monte Cristo from ch. 35) is no name of his before. An
    alias the story never writes as such (a glossary's, or a form joined from others: Captain
    Frederick) has none, and is one from the entity's first appearance."""

    def as_of(self, horizon: int) -> Card:
        """The card as a reader of chapters up to `horizon` may see it (0: the whole world)."""
        if not horizon:
            return self
        met = self.first.chapter if self.first is not None else 0
        return Card(self.entity, self.type,
                    [a for a in self.aliases if self.alias_chapters.get(a, met) <= horizon],
                    [f for f in self.facts if f.chapter <= horizon],
                    [a for a in self.appearances if a.chapter <= horizon],
                    self.alias_chapters)

    def of_kind(self, kind: str) -> list[Fact]:
        return [f for f in self.facts if f.kind == kind]

    @property
    def first(self) -> Appearance | None:
        return self.appearances[0] if self.appearances else None

    @property
    def last(self) -> Appearance | None:
        """The last chapter the telling names it in (a dead man recalled in later speeches
        appears no more), else the last that names it at all."""
        told = [a for a in self.appearances if a.told]
        return told[-1] if told else self.appearances[-1] if self.appearances else None

    def key_chapters(self, count: int = 3) -> list[Appearance]:
        """The chapters that mention it most, in story order: up to `count`, each with at least
        KEY_SHARE of the most's mentions (单四嫂子 is named 37 times in 《明天》 and once in the
        preface, which is no chapter she is most present in)."""
        top = sorted(self.appearances, key=lambda a: (-a.mentions, a.chapter))[:count]
        top = [a for a in top if a.mentions >= KEY_SHARE * top[0].mentions]
        return sorted(top, key=lambda a: a.chapter)

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Card:
        data = json.loads(text)
        return cls(data["entity"], data["type"], data["aliases"],
                   [Fact(**f) for f in data["facts"]],
                   [Appearance(**a) for a in data["appearances"]],
                   data.get("alias_chapters", {}))
