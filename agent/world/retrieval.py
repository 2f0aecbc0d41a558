"""Retrieval over one world: hybrid search, keyword search, graph, timeline and passage reading.

Pure functions of the stores: no pydantic-ai here, so the tools, the offline model and the
evaluation harness all share one implementation.
"""

from __future__ import annotations

import re
import threading
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from functools import cached_property, lru_cache

import anyio

from agent.schemas import ChapterRange, Passage, Relation, TimelineEvent
from agent.world.fusion import rrf
from agent.world.gist import gist
from agent.world.lexicon import Lexicon
from agent.world.spelling import spelled_like
from stores.cards import Card
from stores.config import RetrievalSettings
from stores.dedup import distinct
from stores.entities.english_forms import another_given_name
from stores.entities.family import Families
from stores.entities.kinship import says_kin
from stores.entities.matcher import AliasMatcher
from stores.errors import InputError, LoreError
from stores.lang import en, has_han, language
from stores.lang.gender import title_gender
from stores.lang.text import fold_latin, holds_word
from stores.models import BLOOD_TYPES, RELATION_TYPES, Chunk
from stores.models import Relation as StoredRelation
from stores.protocols import ChunkFilter, Hit
from stores.world import WorldStores


class UnknownEntity(LoreError):
    """A name that is neither an entity nor an alias of one in this world."""


class Retriever:
    """The world's passages and indexes behind the agent's tools."""

    def __init__(self, stores: WorldStores, settings: RetrievalSettings) -> None:
        self.stores = stores
        self.settings = settings
        # The stores are not meant for two threads at once: agent.world.blocking runs each blocking
        # call of this world through this limiter of one.
        self.limiter = anyio.CapacityLimiter(1)
        self._lexicon_lock = threading.Lock()

    # -- the world's passages in memory (a few thousand rows: cheap, and it makes every tool
    #    a dictionary lookup instead of a catalog query) -----------------------------------------
    @cached_property
    def chunks(self) -> dict[str, Chunk]:
        return {c.id: c for c in self.stores.catalog.chunks(self.stores.world)}

    @cached_property
    def story(self) -> list[Chunk]:
        return sorted(self.chunks.values(), key=lambda c: c.event_order)

    @cached_property
    def lore_entries(self) -> dict[str, Chunk]:
        """Entity → the first passage of its lore entry (a glossary's or a lorebook's)."""
        entries: dict[str, Chunk] = {}
        for chunk in self.story:
            if chunk.lore and (owner := self.matcher.resolve(chunk.chapter_title)):
                entries.setdefault(owner, chunk)
        return entries

    @cached_property
    def by_document(self) -> dict[str, list[Chunk]]:
        docs: dict[str, list[Chunk]] = defaultdict(list)
        for chunk in self.story:
            docs[chunk.document].append(chunk)
        for chunks in docs.values():
            chunks.sort(key=lambda c: c.chunk_order)
        return docs

    @cached_property
    def entities(self) -> dict[str, list[str]]:
        """Canonical name → aliases."""
        return {e.name: e.aliases for e in self.stores.catalog.entities(self.stores.world)}

    @cached_property
    def kinds(self) -> dict[str, str]:
        """Each entity's type (person, place, …)."""
        return {e.name: e.type for e in self.stores.catalog.entities(self.stores.world)}

    @cached_property
    def typed_relations(self) -> dict[str, list[StoredRelation]]:
        """Canonical name → the typed relations it is an end of (co-occurrence left out), as
        the catalog holds them: what the relations map is drawn from."""
        by_name: dict[str, list[StoredRelation]] = defaultdict(list)
        for relation in self.stores.catalog.relations(self.stores.world, typed=True):
            by_name[relation.source].append(relation)
            by_name[relation.target].append(relation)
        return dict(by_name)

    @cached_property
    def families(self) -> Families:
        """The world's people by family name, for the kin a text names by "her father"."""
        return Families(self.stores.catalog.entities(self.stores.world))

    @cached_property
    def matcher(self) -> AliasMatcher:
        from stores.entities.matcher import alias_map

        return AliasMatcher(alias_map(self.stores.catalog.entities(self.stores.world)))

    @property
    def lexicon(self) -> Lexicon:
        """The world's names as a conversation reads them (mentions, types, aliases, genders),
        built once and shared by the conversation (its stack) and the librarian (its rules):
        its genders are guessed from the text only once."""
        with self._lexicon_lock:
            return self._lexicon

    @cached_property
    def _lexicon(self) -> Lexicon:
        by_entity: dict[str, list[str]] = {}

        def passages(name: str) -> list[str]:
            if not by_entity:  # one pass over the story, on the first guess that needs the text
                for chunk in self.story:
                    for entity in chunk.entities[:3]:
                        by_entity.setdefault(entity, []).append(chunk.text)
            return by_entity.get(name, [])

        blood = [(r.source, r.target) for rs in self.typed_relations.values() for r in rs
                 if r.type in BLOOD_TYPES]
        return Lexicon.from_entities(self.stores.catalog.entities(self.stores.world), passages,
                                     self.spans, lambda: (chunk.text for chunk in self.story),
                                     blood)

    @cached_property
    def chapter_titles(self) -> dict[int, str]:
        """Each chapter's title; a document that names the chapter without a title (a dialogue
        script's `# Chapter 2`, a file numbered by its name) never blanks another's."""
        titles: dict[int, str] = {}
        for c in self.story:
            if not c.lore and (c.chapter_title or c.chapter not in titles):
                titles[c.chapter] = c.chapter_title
        return titles

    def within_story(self, chapter: int, where: str) -> int:
        """`chapter` as a spoiler horizon (0: none), or InputError naming `where` when the story
        ends before it: a horizon past the end hides nothing of the story, only the lore."""
        last = max(self.chapter_titles, default=0)
        if chapter > last > 0:
            raise InputError(f"chapter {chapter} is past the story's last chapter ({last})",
                             where=where, hint=f"give a chapter from 1 to {last}, or 0 for no "
                                               f"horizon")
        return chapter

    # -- names ----------------------------------------------------------------------------------
    def resolve(self, name: str) -> str:
        """Canonical name of an entity or alias (玄德 → 刘备); UnknownEntity otherwise."""
        canonical = self.matcher.resolve(name.strip())
        hint = (f"check the spelling; `lore entities --world {self.stores.world}` lists every "
                "name and alias")
        if canonical is None:
            spans = self.matcher.find_spans(name)
            found = {found for *_, found in spans}
            if len(found) == 1 and not self._someone_else(name, spans):
                canonical = next(iter(found))
            elif len(found) == 1:
                written = name[spans[0][0]:spans[0][1]]
                named = [n for n, aliases in self.entities.items()
                         if any(written in form for form in (n, *aliases))][:5]
                hint = (f"the names with {written!r}: {', '.join(named)}; `lore map "
                        f"{spans[0][2]!r} --world {self.stores.world}` lists the kin the "
                        "text states")
        if canonical is None and name.strip().casefold().startswith("the "):
            # "the general": the one person the book's title names (General Tilney)
            canonical = self.lexicon.title_holder(name.strip()) or None
        if canonical is None:
            close = spelled_like(name.strip(), self.entities)
            if close:
                hint = f"did you mean {' or '.join(map(repr, close))}? {hint}"
            raise UnknownEntity(f"no entity or alias named {name!r} in this world", hint=hint)
        return canonical

    def _someone_else(self, asked: str, spans: list[tuple[int, int, str]]) -> bool:
        """The words around the one name found in `asked` make it another person: a title of
        the other gender (Mrs Elton, of Elton), a word for kin (Villefort's wife, 刘备之子), an
        age that tells a family apart (old Dantès, of Edmond Dantès)."""
        name = spans[0][2]
        rest = asked
        for start, end, _ in reversed(spans):
            rest = f"{rest[:start]} {rest[end:]}"
        words = {w.lower() for w in re.findall(r"[\w.]+", rest)}
        titled = title_gender([f"{w} {name}" for w in words])
        known = title_gender([name, *self.entities.get(name, [])])
        if titled and known and titled != known:
            return True
        if another_given_name(rest.split(), [name, *self.entities.get(name, [])]):
            return True  # Henry Dashwood, of John Dashwood's "Dashwood": his father
        return bool(words & en.AGE_WORDS or words & set(en.KIN) or says_kin(rest))

    def spans(self, text: str) -> list[tuple[int, int, str]]:
        """Mentions in a text as (start, end, canonical name), in order.

        One turn reads the names of the same texts several times (the question by the
        follow-up rules, the analysis and the next stack; the last turns by each reference's
        candidates), so the mentions of the last few hundred texts are remembered."""
        return list(self._spans(text))

    @cached_property
    def _spans(self) -> Callable[[str], tuple[tuple[int, int, str], ...]]:
        matcher = self.matcher
        return lru_cache(maxsize=512)(lambda text: tuple(matcher.find_spans(text)))

    def mentioned(self, text: str) -> list[str]:
        """Canonical names mentioned in a text, most mentioned first."""
        return [name for name, _ in self.matcher.find(text).most_common()]

    # -- words ----------------------------------------------------------------------------------
    def uses(self, word: str) -> bool:
        """The world's text uses the word: a Han word as `han_in` finds it (温酒 in 酒尚温时), a
        Latin word in any inflection (celebration ← celebrated: the leading letters it is
        matched on, `stem(prefix=True)`). 电脑, Oxford and smartphone are not in 三国演义 or
        Monte Cristo."""
        return self._uses(word)

    def writes(self, word: str) -> bool:
        """The world's text writes the word as a word of its own, letter case and accents
        aside (Thorpe, not Thorp; a Han word as `uses` finds it)."""
        if has_han(word):
            return self._uses(word)
        return fold_latin(word).casefold().strip(".") in self._latin_words

    @cached_property
    def _story_text(self) -> tuple[str, str]:
        """The story's text, as written and with accents folded (`uses`, `writes`)."""
        raw = "\n".join(c.text for c in self.story)
        return raw, fold_latin(raw)

    @cached_property
    def _latin_words(self) -> frozenset[str]:
        return frozenset(re.findall(r"[^\W\d_]+", self._story_text[1].casefold()))

    @cached_property
    def _uses(self) -> Callable[[str], bool]:
        raw, folded = self._story_text

        def uses(word: str) -> bool:
            if not has_han(word) and fold_latin(word) in folded:  # also inside a word
                return True
            return holds_word(raw, word, folded)

        return lru_cache(maxsize=1024)(uses)

    # -- filters --------------------------------------------------------------------------------
    def window(self, chapters: ChapterRange | None = None, entity: str | None = None,
               horizon: int = 0) -> ChunkFilter:
        """The caller's chapter range capped by the spoiler horizon (0: none)."""
        start = chapters.start if chapters else None
        end = chapters.end if chapters else None
        if horizon:
            end = min(end, horizon) if end is not None else horizon
        return ChunkFilter(chapter_min=start, chapter_max=end, entity=entity)

    # -- tools ----------------------------------------------------------------------------------
    def hybrid(self, query: str, top_k: int = 5, chapters: ChapterRange | None = None,
               entity: str | None = None, horizon: int = 0) -> list[Passage]:
        """Dense + BM25 fused by RRF; names in the query are expanded with their aliases."""
        where = self.window(chapters, self.resolve(entity) if entity else None, horizon)
        fetch = top_k * self.settings.overfetch
        dense = self._dense_hits(query, fetch, where)
        sparse = self.stores.keywords.search(self.expand(query), fetch, where)
        rankings = [dense, sparse]
        if where.entity:  # an entity lookup: its lore entry and defining passages rank too
            rankings.append(self.card_hits(where))
        fused = rrf(rankings, self.settings.rrf_k, (self.settings.dense_weight,))
        return self._rerank(query, fused, top_k)[:top_k]

    def card(self, entity: str) -> Card | None:
        """The entity's card (canonical name or alias), whole: read it with `as_of(horizon)`."""
        return self.stores.catalog.card(self.stores.world, self.resolve(entity))

    def aliases_as_of(self, names: Iterable[str], horizon: int) -> dict[str, list[str]]:
        """The aliases of each entity a reader of chapters up to `horizon` may see: not a name
        the story gives it later (Edmond Dantès is no Monte Cristo at ch. 20)."""
        seen = {}
        for name in names:
            card = self.stores.catalog.card(self.stores.world, name)
            seen[name] = (card.as_of(horizon).aliases if card is not None
                          else self.entities.get(name, []))
        return seen

    def card_hits(self, where: ChunkFilter) -> list[Hit]:
        """The passages of the filter's entity's card that the filter admits: its lore entries,
        then the sentences that define it."""
        card = self.card(where.entity) if where.entity else None
        if card is None:
            return []
        ids = [f.chunk_id for kind in ("lore", "defines") for f in card.of_kind(kind)]
        return [Hit(cid, 0.0) for cid in dict.fromkeys(ids)
                if cid in self.chunks and where.admits(self.chunks[cid].chapter,
                                                       self.chunks[cid].entities)]

    def keyword(self, query: str, top_k: int = 5, chapters: ChapterRange | None = None,
                horizon: int = 0) -> list[Passage]:
        """BM25 only: exact names, titles and quotes."""
        fetch = top_k * self.settings.overfetch  # room for the near-copies passages() drops
        hits = self.stores.keywords.search(self.expand(query), fetch,
                                           self.window(chapters, horizon=horizon))
        return self.passages(hits, top_k)

    def dense(self, query: str, top_k: int = 5, chapters: ChapterRange | None = None,
              horizon: int = 0) -> list[Passage]:
        """Dense vectors only (for evaluation baselines)."""
        fetch = top_k * self.settings.overfetch
        where = self.window(chapters, horizon=horizon)
        return self.passages(self._dense_hits(query, fetch, where), top_k)

    def _dense_hits(self, query: str, limit: int, where: ChunkFilter) -> list[Hit]:
        """The vector index's hits, with the query embedded by the embedder that built it
        (none while a new world searches with BM25 alone: stores/upgrade.py)."""
        if not self.stores.has_vectors:
            return []
        vector = self.stores.embedder.embed_query(query)
        return self.stores.vectors.search(vector, limit, where)

    def expand(self, query: str) -> str:
        """Add each mentioned entity's canonical name, so 云长 also finds passages saying 关羽.

        Adding every alias too (诸葛亮 → 孔明, 卧龙 …) was measured and dropped: recall@5 on
        bench/questions/sanguo.jsonl fell from 0.84 to 0.75, the names drowning the other words."""
        names = [n for n in self.mentioned(query) if n not in query]
        return " ".join([query, *names])

    def graph(self, entity: str, relation: str | None = None, depth: int = 1,
              limit: int = 20, horizon: int = 0) -> list[Relation]:
        """Relations around an entity with their evidence passages."""
        if relation is not None and relation not in RELATION_TYPES:
            raise LoreError(f"unknown relation type {relation!r}",
                            hint=f"use one of: {', '.join(sorted(RELATION_TYPES))}")
        name = self.resolve(entity)
        found = self.stores.graph.neighbours(name, relation, depth=max(1, min(depth, 3)),
                                             limit=limit, chapter_max=horizon or None)
        return [self._relation(r) for r in found]

    def between(self, a: str, b: str, horizon: int = 0) -> list[Relation]:
        """Relations directly between two entities (or a short path when there is none)."""
        found = self.stores.graph.relations_between(self.resolve(a), self.resolve(b))
        return [self._relation(r) for r in found if _visible(r.chapters, horizon)]

    def track(self, entity: str, chapters: ChapterRange | None = None,
              horizon: int = 0) -> list[TimelineEvent]:
        """The entity's appearances in story order, one event per passage."""
        name = self.resolve(entity)
        where = self.window(chapters, name, horizon)
        aliases = [name, *self.entities.get(name, [])]
        kin = self.kin_words(name)
        return [TimelineEvent(chapter=c.chapter, chapter_title=c.chapter_title,
                              event_order=c.event_order, chunk_id=c.id,
                              gist=gist(c.text, aliases, kin), source=c.document,
                              lines=(c.line_start, c.line_end))
                for c in self.story if not c.lore and where.admits(c.chapter, c.entities)]

    def kin_words(self, name: str) -> list[str]:
        """The English words for what the entity is to the people the world relates them to
        (Mr. Samsa: father): how a passage that never names them may call them
        (stores/entities/relatives.py)."""
        english = language("en")
        gender = self.families.gender.get(name, "")
        words = [english.relative_word(r.type, "source" if r.source == name else "target",
                                       gender)
                 for r in self.typed_relations.get(name, [])]
        return [w for w in dict.fromkeys(words) if w]

    def read(self, chunk_id: str, before: int = 1, after: int = 1,
             horizon: int = 0) -> Passage:
        """The passage with up to 3 neighbours on each side from the same document."""
        chunk = self.chunks.get(chunk_id)
        if chunk is None:
            raise LoreError(f"no passage with id {chunk_id!r}",
                            hint="use a chunk_id returned by a search tool")
        siblings = self.by_document[chunk.document]
        at = siblings.index(chunk)
        lo, hi = max(0, at - min(before, 3)), min(len(siblings), at + min(after, 3) + 1)
        window = [c for c in siblings[lo:hi] if _visible([c.chapter], horizon)] or [chunk]
        passage = self.passage(chunk)
        passage.text = "\n".join(c.text for c in window)
        passage.lines = (window[0].line_start, window[-1].line_end)
        return passage

    # -- helpers --------------------------------------------------------------------------------
    def passages(self, hits: Sequence[Hit], top_k: int | None = None) -> list[Passage]:
        """The hits' passages in rank order, each text once: a near-copy of a better-ranked
        passage (another edition of a chapter, a repeated file) is dropped, never shown twice.
        With `top_k`, the first top_k of them: hits after those are not read."""
        found = (self.passage(self.chunks[h.chunk_id], h.score) for h in hits
                 if h.chunk_id in self.chunks)
        return distinct(found, lambda p: p.text, limit=top_k)

    def passage(self, c: Chunk, score: float = 0.0) -> Passage:
        return Passage(chunk_id=c.id, chapter=c.chapter, chapter_title=c.chapter_title,
                       event_order=c.event_order, source=c.document,
                       lines=(c.line_start, c.line_end), text=c.text, entities=c.entities,
                       score=round(score, 6))

    def _relation(self, r) -> Relation:
        evidence = self.passages([Hit(cid, 0.0) for cid in r.evidence[:3]])
        if not evidence and r.declared:  # a glossary's line: the lore entries of its ends
            evidence = self.passages([Hit(self.lore_entries[name].id, 0.0) for name in (
                r.source, r.target) if name in self.lore_entries])
        return Relation(source=r.source, target=r.target, type=r.type, weight=r.weight,
                        chapters=r.chapters, evidence=evidence, declared=r.declared)

    @cached_property
    def reranker(self):
        from stores.rerank import make_reranker

        return make_reranker(self.settings.reranker)

    def _rerank(self, query: str, fused: list[Hit], top_k: int) -> list[Passage]:
        if self.reranker is None:
            return self.passages(fused, top_k)
        passages = self.passages(fused)
        if not passages:
            return passages
        order = self.reranker.rerank(query, [(p.chunk_id, p.text) for p in passages])
        by_id = {p.chunk_id: p for p in passages}
        return [by_id[cid].model_copy(update={"score": s}) for cid, s in order]


def _visible(chapters: Sequence[int], horizon: int) -> bool:
    return not horizon or any(ch <= horizon for ch in chapters) or not chapters
