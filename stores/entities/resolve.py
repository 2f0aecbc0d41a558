"""Entities for a whole world: names and aliases merged from every source, and co-occurrence.

Sources in priority order: glossary/lorebook > courtesy-name pattern > dialogue speaker >
tagger. A lower source that names a known entity (by its name or one of its aliases) merges
into it — 玄德 found by a tagger or as a speaker is 刘备, not a new person. An alias two entities
claim is ambiguous and dropped from both, unless exactly one of them has it from a glossary.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from stores.config import EntitySettings
from stores.entities.english import given_full_names, group_english_names
from stores.entities.english_tagger import english_names
from stores.entities.english_titles import is_titled, join_titled_entities, titled_mentions
from stores.entities.kinds_by_use import SPEAKS, places_by_use, type_by_use
from stores.entities.matcher import AliasMatcher, alias_map, count_mentions
from stores.entities.patterns import courtesy_names, english_aliases
from stores.entities.people import extend_cut_names, group_chinese
from stores.entities.surnames import COMPOUND_SURNAMES, SINGLE_SURNAMES, surname_of
from stores.entities.tagger import (
    chinese_household_names,
    chinese_listed_names,
    chinese_person_names,
    chinese_speakers,
    chinese_unknown_names,
)
from stores.entities.unnamed_roles import role_entities
from stores.lang import has_han
from stores.models import Entity, EntityType, GlossaryEntry, Relation

log = logging.getLogger(__name__)

SOURCE_RANK = {"glossary": 0, "lorebook": 0, "pattern": 1, "speaker": 2, "tagger": 3}
_LATIN = re.compile(r"[A-Za-z]")
_SAMPLE = 20_000


@dataclass(slots=True)
class Candidate:
    """A name one source proposes, with the aliases that source gives it."""

    name: str
    source: str
    aliases: list[str] = field(default_factory=list)
    type: EntityType = "other"
    description: str = ""


@dataclass(slots=True)
class AliasConflict:
    """An alias more than one entity claimed."""

    alias: str
    claimants: list[str]
    kept_by: str | None = None
    """The entity that keeps the alias (its glossary declared it), or None: dropped from all."""


@dataclass(slots=True)
class EntityBuild:
    """What `resolve_entities` made: the entities and the alias conflicts it settled."""

    entities: list[Entity]
    conflicts: list[AliasConflict]


def build_entities(glossary: list[GlossaryEntry], chunk_texts: list[str],
                   speakers: Counter[str], settings: EntitySettings,
                   chapters: Sequence[int] | None = None) -> list[Entity]:
    """The world's entities, most mentioned first; conflicts are logged (see resolve_entities)."""
    return resolve_entities(glossary, chunk_texts, speakers, settings, chapters).entities


def _as_written(label: str, text: str) -> str:
    """A script's speaker label in capitals (MAREN VELL: …) as the story writes the name
    elsewhere (Maren Vell), its most frequent such form; the label as it is when the story
    writes it no other way. A newcomer's lorebook world had each speaker twice, MAREN VELL
    and Maren Vell, and follow-ups read as "Who taught TOBIN VELL his letters?"."""
    if not label.isupper() or has_han(label):
        return label
    forms = Counter(m[0] for m in re.finditer(rf"\b{re.escape(label)}\b", text, re.I)
                    if not m[0].isupper())
    return forms.most_common(1)[0][0] if forms else label


def resolve_entities(glossary: list[GlossaryEntry], chunk_texts: list[str],
                     speakers: Counter[str], settings: EntitySettings,
                     chapters: Sequence[int] | None = None) -> EntityBuild:
    """Merge every source into entities, settle alias conflicts, count mentions.

    Names found only by a tagger must be mentioned `settings.min_mentions` times (counted by
    the alias matcher, so every alias counts); glossary, pattern and speaker entities stay.
    `Entity.mentions` is filled with the matcher's count over `chunk_texts`.
    """
    opening = "".join(chunk_texts[:50])
    # the text's English names, read once: for the tagger's candidates and the full names
    names = english_names(chunk_texts) if not has_han(opening) and _LATIN.search(opening) \
        else None
    candidates = gather_candidates(glossary, chunk_texts, speakers, settings, names)
    entities, conflicts = merge_candidates(candidates)
    for conflict in conflicts:
        log.debug("alias %r claimed by %s; kept by %s", conflict.alias, conflict.claimants,
                  conflict.kept_by or "nobody")
    if conflicts:
        log.info("%d ambiguous aliases settled", len(conflicts))
    counts = count_mentions(AliasMatcher(alias_map(entities)), chunk_texts)
    titled = titled_mentions(settings.min_mentions, sum(map(len, chunk_texts))) \
        if names is not None else settings.min_mentions
    kept = []
    for entity in entities:
        entity.mentions = counts[entity.name]
        least = titled if any(map(is_titled, (entity.name, *entity.aliases))) \
            else settings.min_mentions
        if entity.sources == ["tagger"] and entity.mentions < least:
            continue
        kept.append(entity)
    if has_han(opening):
        kept = places_by_use(group_chinese(kept, chunk_texts, chapters, settings.min_mentions),
                             "\n".join(chunk_texts))
    elif names is not None:
        text = "\n".join(chunk_texts)
        kept = given_full_names(type_by_use(join_titled_entities(kept, text), text), names, text)
        kept += role_entities(chunk_texts, kept)  # the chief clerk, whom no name holds
    kept.sort(key=lambda e: (-e.mentions, e.name))
    return EntityBuild(kept, conflicts)


def gather_candidates(glossary: list[GlossaryEntry], chunk_texts: list[str],
                      speakers: Counter[str], settings: EntitySettings,
                      names: Counter[str] | None = None) -> list[Candidate]:
    """Every source's proposals, highest priority first; `names` are the text's English names
    (`english_names`), when the caller has read them."""
    out = [Candidate(e.name.strip(), _glossary_source(e), [a.strip() for a in e.aliases],
                     e.type, e.description) for e in glossary if e.name.strip()]
    text = "\n".join(chunk_texts)
    sample = text[:_SAMPLE]
    chinese, latin = has_han(sample), bool(_LATIN.search(sample))
    if chinese:
        out += [Candidate(name, "pattern", aliases, "person") for name, aliases in courtesy_names(text)]
    if latin:
        out += [Candidate(name, "pattern", aliases, "person" if person else "other")
                for name, aliases, person in english_aliases(text)]
    for name, _ in speakers.most_common():
        if name.strip():
            written = _as_written(name.strip(), text)
            out.append(Candidate(written, "speaker", [name.strip()] if written != name.strip()
                                 else [], type="person"))
    if chinese and settings.name_tagging:
        # Tagged that often as a name, not just found that often as a string: 马入 occurs
        # in 兵马入城 many times but is tagged as a name once.
        tagged = chinese_person_names(chunk_texts)
        for name, count in extend_cut_names(tagged, text, settings.min_mentions).most_common():
            if count >= settings.min_mentions * _three_char_factor(name):
                out.append(Candidate(name, "tagger", type="person"))
        # Given names alone (宝玉, 袭人) speak that often: after the tagger's, so a courtesy
        # name the patterns already gave someone (孔明) joins that person.
        speaking = chinese_speakers(chunk_texts)
        for name, count in extend_cut_names(speaking, text, settings.min_mentions).most_common():
            if count >= settings.min_mentions:
                out.append(Candidate(name, "tagger", type="person"))
        for name, count in speaking.most_common():
            if count < settings.min_mentions and _named_often(name, count, text,
                                                               settings.min_mentions):
                out.append(Candidate(name, "tagger", type="person"))
        # 阿Ｑ, 赵太爷, 七斤嫂: a village's names for its people, which no dictionary tags
        for name, _ in chinese_household_names(chunk_texts, settings.min_mentions).most_common():
            out.append(Candidate(name, "tagger", type="person"))
        # 闰土, 老栓, 未庄: a modern story's names that no dictionary knows; not a known name
        # with a verb glued before it (见金桂: "saw 金桂"), as the tagger's _regroup
        known = {n for c in out for n in (c.name, *c.aliases)}
        for name, kind in chinese_unknown_names(chunk_texts, settings.min_mentions):
            if not (name[1:] in known and name[0] not in SINGLE_SURNAMES):
                out.append(Candidate(name, "tagger", type=kind))
        # 李傕、郭汜: people listed beside people found above, whom the segmenter misreads
        people = {n for c in out if c.type == "person" for n in (c.name, *c.aliases)}
        for name in chinese_listed_names(chunk_texts, people, settings.min_mentions):
            out.append(Candidate(name, "tagger", type="person"))
    if latin and settings.english_names:
        grouped = group_english_names(english_names(chunk_texts) if names is None else names,
                                      settings.min_mentions, text)
        for name, aliases, is_person in grouped:
            out.append(Candidate(name, "tagger", aliases, "person" if is_person else "other"))
    return out


SPEAKS_AND_NAMED = 4
"""A surname's name that speaks at least SPEAKS times but fewer than min_mentions is a person
when the text writes it this many times min_mentions: 关平 speaks 3 times and is written 75, 关兴
2 and 106, which the tagger takes for a noun and a place."""


def _named_often(name: str, speaks: int, text: str, min_mentions: int) -> bool:
    return (speaks >= SPEAKS and surname_of(name) != "" and 2 <= len(name) <= 3
            and text.count(name) >= SPEAKS_AND_NAMED * min_mentions)


def _three_char_factor(name: str) -> int:
    """Tagged three-character words with a one-character surname are mostly phrases
    (师伐魏, 顾谓众); the few real ones (傅士仁, 乔国老) are frequent, so ask twice as much."""
    return 2 if len(name) == 3 and name[:2] not in COMPOUND_SURNAMES else 1


def _glossary_source(entry: GlossaryEntry) -> str:
    return "lorebook" if "lorebook" in entry.source.lower() else "glossary"


def merge_candidates(candidates: Iterable[Candidate]) -> tuple[list[Entity], list[AliasConflict]]:
    """Fold candidates (highest priority first) into entities and settle shared aliases."""
    entities: dict[str, Entity] = {}
    owners: dict[str, set[str]] = {}  # name or alias → canonical names that have it
    alias_rank: dict[tuple[str, str], int] = {}  # (canonical, alias) → best source rank
    for cand in candidates:
        rank = SOURCE_RANK.get(cand.source, len(SOURCE_RANK))
        target = _target(cand, entities, owners)
        if target is None:
            continue
        entity = entities.get(target)
        if entity is None:
            entity = entities[target] = Entity(name=target, type=cand.type,
                                               description=cand.description)
            owners.setdefault(target, set()).add(target)
        if cand.source not in entity.sources:
            entity.sources.append(cand.source)
        if entity.type == "other" and cand.type != "other":
            entity.type = cand.type
        if not entity.description and cand.description:
            entity.description = cand.description
        for alias in [cand.name, *cand.aliases]:
            if not alias or alias == target:
                continue
            if alias not in entity.aliases:
                entity.aliases.append(alias)
                owners.setdefault(alias, set()).add(target)
            key = (target, alias)
            alias_rank[key] = min(alias_rank.get(key, rank), rank)
    conflicts = _settle(entities, owners, alias_rank)
    return list(entities.values()), conflicts


def _target(cand: Candidate, entities: dict[str, Entity],
            owners: dict[str, set[str]]) -> str | None:
    """The entity a candidate merges into, its own new name, or None when it is ambiguous."""
    known = owners.get(cand.name, set())
    if cand.name in entities or SOURCE_RANK.get(cand.source) == 0:
        return cand.name  # a glossary entry is its own entity, whatever others call it
    if len(known) == 1:
        return next(iter(known))
    if len(known) > 1:
        return None  # an alias of several entities: not a person of its own either
    # A lower source may know the person by an alias only (a speaker called 孔明 …).
    via_alias = {o for alias in cand.aliases for o in owners.get(alias, ())}
    if len(via_alias) == 1 and cand.source in ("speaker", "tagger"):
        return next(iter(via_alias))
    return cand.name


def _settle(entities: dict[str, Entity], owners: dict[str, set[str]],
            alias_rank: dict[tuple[str, str], int]) -> list[AliasConflict]:
    conflicts = []
    glossary_rank = SOURCE_RANK["glossary"]
    for alias, names in owners.items():
        claimants = sorted(n for n in names if n != alias and alias in entities[n].aliases)
        if alias in entities and claimants:
            kept_by: str | None = alias  # an entity's own name is never another's alias
        elif len(claimants) > 1:
            declared = [n for n in claimants if alias_rank.get((n, alias)) == glossary_rank]
            kept_by = declared[0] if len(declared) == 1 else None
        else:
            continue
        for name in claimants:
            if name != kept_by:
                entities[name].aliases.remove(alias)
        conflicts.append(AliasConflict(alias, sorted({*claimants, *names}), kept_by))
    return conflicts


def cooccurrence(chunks: list[tuple[str, int, list[str]]], min_weight: int = 2,
                 max_evidence: int = 10) -> list[Relation]:
    """`co_occurs` edges between entities named in the same chunk.

    `chunks` are (chunk id, chapter, entity names) in story order. Weight is the number of
    chunks the pair shares, chapters the sorted distinct chapters, evidence the first
    `max_evidence` chunk ids. Pairs sharing fewer than `min_weight` chunks are left out.
    """
    weight: Counter[tuple[str, str]] = Counter()
    chapters: dict[tuple[str, str], set[int]] = {}
    evidence: dict[tuple[str, str], list[str]] = {}
    for chunk_id, chapter, names in chunks:
        for pair in combinations(sorted(set(names)), 2):
            weight[pair] += 1
            chapters.setdefault(pair, set()).add(chapter)
            ids = evidence.setdefault(pair, [])
            if len(ids) < max_evidence:
                ids.append(chunk_id)
    return [
        Relation(source=a, target=b, type="co_occurs", weight=float(count),
                 chapters=sorted(chapters[(a, b)]), evidence=evidence[(a, b)])
        for (a, b), count in sorted(weight.items(), key=lambda item: (-item[1], item[0]))
        if count >= min_weight
    ]
