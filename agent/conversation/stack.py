"""The entity stack of a conversation.

`next_stack` is the stack after a turn, from the question as typed, the question answered (a
`Resolution`, read once into `Asked` with the world's `Lexicon`: agent.world.lexicon) and the
answer's entities. Every reader's turns update the stack the same way; only the librarian makes
the question explicit by rules (agent.librarian.followup).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from agent.world.lexicon import Lexicon, Resolution
from sessions.records import StackEntry
from stores.entities.english_forms import split_title
from stores.entities.family import known_family
from stores.lang import asked_thing
from stores.lang.asking import ELOPED, asked_relation_kind, asks_how_related, wanted_gender
from stores.lang.en import LADY_TITLES, WIFE_RANK_TITLES, WIFE_TITLES
from stores.models import BOND_TYPES, Relation, may_answer

STACK_CAP = 20
"""Entities kept on the stack."""


@dataclass(frozen=True)
class Asked:
    """A turn's question as the stack reads it, its names found once (`Asked.read`)."""

    typed: dict[str, str]
    """Canonical name → the words the user typed for it this turn (a name, an alias, a pronoun)."""
    named: list[str]
    """The names of the question as resolved, in order of first appearance."""
    names: list[str]
    """`named`, then the names its references were taken to mean: what the question gives."""
    written: list[str]
    """The names as the resolved question writes them, in order."""

    @classmethod
    def read(cls, resolution: Resolution, lexicon: Lexicon) -> Asked:
        """The question as typed and as resolved, each scanned for names once (the same scan
        when nothing needed resolving)."""
        typed_spans = lexicon.spans(resolution.question)
        typed = {name: resolution.question[start:end] for start, end, name in typed_spans}
        for surface, names in resolution.referents:
            for name in names:
                typed[name] = surface
        spans = typed_spans if resolution.text == resolution.question else lexicon.spans(
            resolution.text)
        named = list(dict.fromkeys(name for _, _, name in spans))
        referred = (n for _, names in resolution.referents for n in names)
        return cls(typed, named, list(dict.fromkeys([*named, *referred])),
                   [resolution.text[start:end] for start, end, _ in spans])


def likely_answer(asked: Asked, answer_entities: Sequence[str],
                  kind: Callable[[str], str] | None = None, thing: str = "",
                  gender: Callable[[str], str] | None = None, wanted: str = "") -> str:
    """The first of an unstated answer's entities that the question did not name, and of a
    type that answers the `thing` asked for when both are given ('' if none): the candidate the
    reader found most likely, which the stack shows as a guess. Where-questions get no person
    as their likely answer (顾青禾在哪里找到了蚀心散？ — its evidence opens on 顾怀山's name), and
    only one known to be a woman is a guess at a wife (诸葛亮的妻子是谁？ — its quote names 周瑜
    beside him, then 黄盖): `wanted` is the gender the kin asked for gives, `gender` a name's."""
    given = set(asked.names)
    fitting = [n for n in answer_entities if n and n not in given
               and (kind is None or not thing or may_answer(kind(n), thing))
               and (gender is None or not wanted or gender(n) == wanted)]
    # a name of unknown type answers only when none of the asked type does ("Who killed the
    # helmsman?" guessed the Company before the manager: Heart of Darkness, a newcomer's trial)
    typed = [n for n in fitting if kind is None or not thing or kind(n) != "other"]
    return (typed or fitting or [""])[0]


def next_stack(asked: Asked, answer_entities: Sequence[str], old: Sequence[StackEntry],
               cap: int = STACK_CAP, *, guess: str = "", stated: bool = True,
               ) -> list[StackEntry]:
    """The stack after a turn: the question's entities, then the answer's, then the old stack.

    Each entry keeps how the user referred to it: the pronoun or alias typed this turn, else
    what was said before, unless those words were typed this turn for another. `guess` is the
    answer the reader found likely but did not state (`likely_answer`); its entry is marked as
    a guess where it stands, unless the question named it. Marks are made afresh each turn:
    a guess named or stated later is no longer one.
    An answer that states nothing (not `stated`: only quotes) names no one the conversation
    is about: its other entities come after the old stack ("Which chapter is the wedding in?"
    moved the timeline to Mr. Elton, named in its quote: a newcomer's trial on Emma).
    """
    # a word the user typed for one entity this turn no longer labels another: two rows of
    # "as 她" read as two people 她 could mean (a TUI trial)
    retyped = set(asked.typed.values())
    said = {e.entity: "" if e.referred_as in retyped else e.referred_as for e in old} | asked.typed
    guessed = "" if guess in asked.names else guess
    answered = [n for n in answer_entities if n and (stated or n == guess)]
    order = asked.named + answered + [e.entity for e in old]
    order += [n for n in answer_entities if n]
    entries = [StackEntry(entity=name, referred_as=said.get(name, ""), guess=name == guessed)
               for name in dict.fromkeys(order)]
    return entries[:cap]


def stack_after(resolution: Resolution, entities: Sequence[str], stated: bool,
                old: Sequence[StackEntry], lexicon: Lexicon,
                relations: Mapping[str, Sequence[Relation]]) -> list[StackEntry]:
    """The stack after an answer about `entities` (`stated`: it states something, not only
    evidence). An answer that states nothing to a question after one thing (who, where, how
    many) puts the candidate it found most likely first; that one is marked as a guess. (How
    someone died asks for no one thing: the names its evidence gives are no guess at an
    answer.) `relations` are the world's typed relations by name."""
    asked = Asked.read(resolution, lexicon)
    # "Who is Su Wan to Shen Yan?" asks for no one: the answer's others are no guess
    thing = "" if len(asked.named) > 1 and asks_how_related(
        resolution.text, asked.written) else asked_thing(resolution.question)
    names = list(entities)
    others = (related_otherwise(asked, resolution.text, relations)
              | of_another_family(asked, resolution.text, names)
              | of_own_family(asked, resolution.text, names,
                              lambda name: lexicon.aliases.get(name, ())))
    guess = (likely_answer(asked, [e for e in names if e not in others], lexicon.kind, thing,
                           lexicon.gender, wanted_gender(resolution.text, asked.written))
             if not stated and thing else "")
    return next_stack(asked, names, old, guess=guess, stated=stated)


def related_otherwise(asked: Asked, question: str,
                      relations: Mapping[str, Sequence[Relation]]) -> set[str]:
    """Who the world relates to a person the question names, by a bond of another kind than
    the one it asks for: no guess at it. Walter Elliot, Anne's father, was the likely answer
    to "Who did Anne Elliot marry?" (a newcomer's trial); a relation the world knows of the
    kind asked is stated, not guessed."""
    asked_kind = asked_relation_kind(question)
    if asked_kind is None:
        return set()
    return {r.target if r.source == name else r.source
            for name in asked.names for r in relations.get(name, [])
            if r.type in BOND_TYPES and r.type != asked_kind}


_PARTNERS = frozenset({"spouse", "engaged"})
"""Relations a person makes outside their own family (whom someone married or was engaged to)."""


def of_own_family(asked: Asked, question: str, names: list[str],
                  aliases: Callable[[str], Sequence[str]]) -> set[str]:
    """The names of the family of the one whose husband, wife or betrothed the question asks
    for: Julia Bertram, Maria's sister, was the likely answer to "Who did Maria Bertram
    marry?", and Lady Bertram, her mother, to "Who did she elope with?" of Julia (a newcomer's
    trial on Mansfield Park). Only where both family names are known, and not for a woman who may
    have her husband's name already (Mrs. Norris, Lady Bertram: `aliases` gives her forms)."""
    if (asked_relation_kind(question) not in _PARTNERS and not ELOPED.search(question)) \
            or len(asked.names) != 1:
        return set()
    person = asked.names[0]
    theirs = known_family(person)
    if not theirs or any(split_title(f)[0] in _MAY_BE_WIVES for f in (person, *aliases(person))):
        return set()
    return {n for n in names if n != person and known_family(n) == theirs}


_MAY_BE_WIVES = frozenset({*WIFE_TITLES, *WIFE_RANK_TITLES, *LADY_TITLES})
"""Titles a woman may bear by her husband's name."""


_BLOOD = frozenset({"parent_of", "sibling", "grandparent_of"})
"""Kin who share a man's family name: his father, his brother, her son."""


def of_another_family(asked: Asked, question: str, names: list[str]) -> set[str]:
    """The names of another family than the one whose father, son or brother the question asks
    for: Mr. Allen was the likely answer to Eleanor Tilney's "Who is her father?" (a newcomer's
    trial on Northanger Abbey). Only where both family names are known (Eleanor Tilney, Mr.
    Allen; 诸葛亮, 周瑜), and not for a woman asked for, who may have married out."""
    if asked_relation_kind(question) not in _BLOOD or wanted_gender(question, asked.written) != "m" or not asked.names:
        return set()
    theirs = known_family(asked.names[0])
    return {n for n in names if theirs and (other := known_family(n)) and other != theirs}

