"""Entities of a world: discovery (patterns, taggers), alias resolution and mention matching.

Submodules import their heavy libraries (rjieba, pyahocorasick) only when first used.
"""

from stores.entities.english_tagger import english_names
from stores.entities.matcher import AliasMatcher, alias_map, count_mentions
from stores.entities.patterns import courtesy_names, english_aliases
from stores.entities.resolve import (
    AliasConflict,
    EntityBuild,
    build_entities,
    cooccurrence,
    resolve_entities,
)
from stores.entities.tagger import chinese_person_names

__all__ = [
    "AliasConflict", "AliasMatcher", "EntityBuild", "alias_map", "build_entities",
    "chinese_person_names", "cooccurrence", "count_mentions", "courtesy_names",
    "english_aliases", "english_names", "resolve_entities",
]
