"""Where the story says someone lives, for the cards (`stores.card_build`): a person's name and
a place's written together in one of English's ways of saying a home ("Sir Walter Elliot, of
Kellynch Hall"; "my uncle Pratt, who lives at Longstaple"; "Mrs. Ferrars's house in Park
Street"; "Delaford, the seat of Colonel Brandon": en.HOME_AFTER_PERSON, en.HOME_BEFORE_PERSON),
each home once, with the first sentence that says it. Only the words between the two names
count: "he lives at Barton" names no one, and is left unread."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping

from stores.cards import Fact
from stores.entities.matcher import AliasMatcher
from stores.lang import has_han
from stores.lang.en import HOME_AFTER_PERSON, HOME_BEFORE_PERSON, HOME_CUES, UNREAL_BEFORE
from stores.lang.text import sentences
from stores.models import Chunk

MAX_HOMES = 3
"""Homes kept per person (the first the story names, in story order)."""
_NAME_GOES_ON = re.compile(r"\s+[A-ZÀ-Þ]")


class HomeReader:
    """Reads the passages in story order; `homes()` gives each person's home facts."""

    def __init__(self, matcher: AliasMatcher, kinds: Mapping[str, str]) -> None:
        self.matcher, self.kinds = matcher, kinds
        self.found: dict[str, dict[str, Fact]] = defaultdict(dict)

    def read(self, chunk: Chunk) -> None:
        if has_han(chunk.text[:200]) or not HOME_CUES.search(chunk.text):
            return  # most passages: no home to look for
        for read in sentences(chunk.text, "quote"):
            sentence = read.text
            if sentence.rstrip("”’\"'").endswith("?") or not HOME_CUES.search(sentence):
                continue
            spans = self.matcher.find_spans(sentence)
            for (first, end, one), (start, last, other) in zip(spans, spans[1:], strict=False):
                gap = sentence[end:start]
                # a wish is no home ("I wish Lady Russell lived at Uppercross"), nor a place
                # whose name goes on past the one the world knows (Park of "Park Street")
                if UNREAL_BEFORE.search(sentence, 0, first) or _NAME_GOES_ON.match(sentence, last):
                    continue
                if self._kind(one, other) and HOME_AFTER_PERSON.fullmatch(gap):
                    self._add(one, other, chunk, sentence)
                elif self._kind(other, one) and HOME_BEFORE_PERSON.fullmatch(gap):
                    self._add(other, one, chunk, sentence)

    def _kind(self, person: str, place: str) -> bool:
        return self.kinds.get(person) == "person" and self.kinds.get(place) == "place"

    def _add(self, person: str, place: str, chunk: Chunk, sentence: str) -> None:
        known = self.found[person].get(place)
        if known is None:
            self.found[person][place] = Fact("home", place, chunk.id, chunk.chapter, 1.0,
                                             quote=" ".join(sentence.split()))
        else:
            known.weight += 1

    def homes(self, person: str) -> list[Fact]:
        """The person's homes, the first the story names first (at most MAX_HOMES)."""
        return sorted(self.found.get(person, {}).values(), key=lambda f: f.chapter)[:MAX_HOMES]
