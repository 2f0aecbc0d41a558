"""The entity stage of ingestion: names and aliases for the whole world, mentions per chunk,
co-occurrence, declared and stated relations. It runs over every chunk of the world each time, because
a courtesy name introduced in chapter 36 changes what chapter 1's mentions resolve to."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from stores.catalog import Catalog
from stores.config import Settings
from stores.entities.birth_order import unowned_children
from stores.entities.definite_titles import DefiniteTitles
from stores.entities.family import Families, family_relations
from stores.entities.kinship import DIRECTED, stated_relations, titled_spouses
from stores.entities.matcher import AliasMatcher, alias_map
from stores.entities.parents import one_parent_by_both_words, one_parent_each, reciprocal_kin
from stores.entities.relatives import kin_named
from stores.entities.resolve import build_entities, cooccurrence
from stores.entities.surnames import surname_of
from stores.models import (
    BLOOD_TYPES,
    NOT_PEOPLE,
    RELATION_TYPES,
    Entity,
    GlossaryEntry,
    Relation,
)


def resolve_world_entities(catalog: Catalog, world: str, settings: Settings,
                           progress: Callable[[str, int, int], None]) -> tuple[int, int, int]:
    """Rebuild the world's entities, chunk mentions and relations. Returns the counts of the
    entities, the relations, and of those the ones stated (not names seen together)."""
    rows = catalog.chunk_texts(world)
    progress("entities", 0, len(rows))
    glossary = catalog.glossary(world)
    speakers = Counter(s for *_, chunk_speakers, _ in rows for s in chunk_speakers)
    entities = build_entities(glossary, [text for _, _, text, _, _ in rows], speakers,
                              settings.entities, [chapter for _, chapter, *_ in rows])
    matcher = AliasMatcher(alias_map(entities))
    found = [matcher.find_spans(text) for _, _, text, _, _ in rows]
    # "the count": whom it names depends on where it stands, so it is read in story order
    titles = DefiniteTitles.fit(entities, [text for _, _, text, _, _ in rows],
                                [{name for *_, name in spans} for spans in found],
                                settings.entities.min_mentions)
    mentions: Counter[str] = Counter()
    per_chunk: list[tuple[str, int, list[str]]] = []
    spanned: list[tuple[str, int, str, list[tuple[int, int, str]]]] = []
    for (chunk_id, chapter, text, chunk_speakers, _), spans in zip(rows, found, strict=True):
        if spans:  # the passage may state how its people are related, or name one's kin
            spanned.append((chunk_id, chapter, text, spans))
        # whom "the count" names is the passage's people, not a kin statement's end
        counts = Counter(name for *_, name in titles.read(chapter, text, spans))
        for speaker in chunk_speakers:
            name = matcher.resolve(speaker)
            if name:
                counts[name] += 1
        mentions.update(counts)
        per_chunk.append((chunk_id, chapter, [name for name, _ in counts.most_common()]))
    for entity in entities:
        entity.mentions = mentions[entity.name]
    known = {entity.name for entity in entities}
    declared = declared_relations(glossary, matcher, known)
    stated = text_relations(spanned, declared, entities)
    titled = untold_spouses(titled_spouses(entities, per_chunk), declared, stated)
    typed = declared + between_people(stated, entities) + between_people(titled, entities)
    relations = cooccurrence(per_chunk) + typed
    # "his father" is Mr. Samsa where the relations just read leave no other: the passage is
    # his too (his timeline, the passages a search about him reads), after those it names
    kin = kin_named(spanned, Families(entities), typed)
    per_chunk = [(chunk_id, chapter, [*names, *kin.get(chunk_id, ())])
                 for chunk_id, chapter, names in per_chunk]
    called = Counter(name for names in kin.values() for name in names)
    for entity in entities:
        entity.mentions += called[entity.name]
    updates = [(chunk_id, names) for (chunk_id, _, names), (*_, old) in zip(per_chunk, rows,
                                                                         strict=True)
               if names != old]
    catalog.set_chunk_entities(updates)
    catalog.replace_entities(world, entities, relations)
    progress("entities", len(rows), len(rows))
    return len(entities), len(relations), sum(r.type != "co_occurs" for r in relations)


def untold_spouses(titled: list[Relation], declared: list[Relation],
                 stated: list[Relation], max_evidence: int = 10) -> list[Relation]:
    """The marriages titles show (Mrs. Elton and Mr. Elton) that no one declared or the text
    stated, nor belied by stating a kinship of blood between the two, or her children while it
    states none of his. One the text states too keeps its stating passages first and gains the
    passages where the two meet after them, so a hop to the wife reads where she is, not only
    the four sentences that say "his wife"."""
    declared_pairs = {frozenset((r.source, r.target)) for r in declared if r.type == "spouse"}
    stated_by_pair = {frozenset((r.source, r.target)): r for r in stated if r.type == "spouse"}
    # Mrs. Thorpe, a widow, is Mr. Thorpe's mother where the text says so: no wife of his
    other_kin = {frozenset((r.source, r.target)) for r in [*declared, *stated]
                 if r.type in BLOOD_TYPES}
    # Mrs. Ferrars, a widow whose son the text names, beside a Mr. Ferrars who is no one's
    # father: he may be that son (Sense and Sensibility's Edward), no husband by titles
    parents = {r.source for r in [*declared, *stated] if r.type == "parent_of"}
    new = []
    for relation in titled:
        pair = frozenset((relation.source, relation.target))
        if pair in declared_pairs or pair in other_kin or (
                relation.source in parents and relation.target not in parents):
            continue
        if (same := stated_by_pair.get(pair)) is None:
            new.append(relation)
            continue
        more = [chunk for chunk in relation.evidence if chunk not in same.evidence]
        same.evidence = [*same.evidence, *more][:max(max_evidence, len(same.evidence))]
        same.chapters = sorted({*same.chapters, *relation.chapters})
    return new


def between_people(relations: list[Relation], entities: list[Entity]) -> list[Relation]:
    """The relations the text states (kin, marriage) that are between people: a place or a
    thing at one end (a house's name read as a husband's) is a misreading."""
    not_people = {e.name for e in entities if e.type in NOT_PEOPLE}
    return [r for r in relations if not {r.source, r.target} & not_people]


def declared_relations(glossary: list[GlossaryEntry], matcher: AliasMatcher,
                       known: set[str]) -> list[Relation]:
    """Glossary relations between known entities, both ends resolved through aliases; a relation
    declared twice (the same glossary reached twice, or two glossaries) is one relation citing
    every declaration. The reverse pair is kept apart: for `serves` it says something else."""
    found: dict[tuple[str, str, str], Relation] = {}
    for entry in glossary:
        for rel_type, target in entry.relations:
            source = matcher.resolve(entry.name) or entry.name
            other = matcher.resolve(target) or target
            if rel_type not in RELATION_TYPES or source == other or not {source, other} <= known:
                continue
            relation = found.setdefault((source, other, rel_type), Relation(
                source=source, target=other, type=rel_type, weight=1.0, declared=True))
            if entry.source and entry.source not in relation.evidence:
                relation.evidence.append(entry.source)
    return list(found.values())


def text_relations(chunks: list[tuple[str, int, str, list[tuple[int, int, str]]]],
                   declared: list[Relation], entities: list[Entity],
                   max_evidence: int = 10) -> list[Relation]:
    """Relations the text states (Noirtier is the father of Villefort, 孙坚之子孙策) or names
    by a family's kin word (Emma … her father), with the passages that say so. A relation the
    glossary already declares is not repeated, and a pair a sentence names both of is read as
    that sentence says, not by the family's kin words."""
    have = {(r.source, r.target, r.type) for r in declared}
    have |= {(r.target, r.source, r.type) for r in declared if r.type not in DIRECTED}
    told: dict[str, Counter[str]] = {}
    families = Families(entities)
    stated = stated_relations(chunks, told, families.given_names, families.gender)
    named = {frozenset(key[:2]) for key in stated}
    family = family_relations(chunks, families)
    bound = {frozenset(key[:2]) for key in [*stated, *family]}
    mutual = reciprocal_kin(chunks, families)
    family |= {key: where for key, where in mutual.items() if frozenset(key[:2]) not in bound}
    family = one_parent_by_both_words(family, mutual, families)
    family = one_parent_each(family, stated, told, families)
    # a child the text gives a father of their surname keeps him (甘夫人, 刘禅's mother, is no
    # father: 先主 is named by birth order, 以幼子刘禅)
    fathered = {child for parent, child, kind in stated
                if kind == "parent_of" and surname_of(parent) == surname_of(child)}
    family |= {key: where for key, where in unowned_children(
        chunks, {e.name for e in entities if e.type == "person"}).items()
        if key[1] not in fathered and frozenset(key[:2]) not in bound}
    family = {key: where for key, where in family.items() if frozenset(key[:2]) not in named}
    relations = []
    for (source, target, kind), where in {**stated, **family}.items():
        if (source, target, kind) in have:
            continue
        relations.append(Relation(source=source, target=target, type=kind,
                                  weight=float(len(where)),
                                  chapters=sorted({chapter for _, chapter in where}),
                                  evidence=[chunk_id for chunk_id, _ in where[:max_evidence]]))
    return relations
