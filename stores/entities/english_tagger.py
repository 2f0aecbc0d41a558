"""Name discovery by frequency, in English: capitalised name sequences (`Edmond Dantès`, `M.
Morrel`, `the Count of Monte Cristo`) by count, with the sentence's own first words left out.
Counts are rough; the caller keeps a name only when the alias matcher finds it often enough."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from stores.lang.en import CAPITALISED_WORD, KNIGHTED_TITLES, NAME_TITLES, PLACE_TITLES
from stores.lang.en import NOT_NAMES as EN_STOPWORDS
from stores.lang.en import PARTICLES as _PARTICLES
from stores.lang.text import opens_sentence

_HONORIFICS = tuple(NAME_TITLES)
_TITLE = "|".join(re.escape(h) for h in sorted(_HONORIFICS, key=len, reverse=True))
_ENGLISH_NAME = re.compile(
    # a sentence's first word before a knight's title is no part of the name (When Sir Thomas
    # came): without it "Sir" went with that word and the first name stood bare, as a name of
    # its own ("Thomas" ten times in Mansfield Park, which the pet name Tom then took)
    r"(?<![\w.])(?:" + CAPITALISED_WORD + r"\s+(?=(?:" + "|".join(KNIGHTED_TITLES) + r")\s+"
    + CAPITALISED_WORD
    + r"))?(?:(?P<title>" + _TITLE + r")\s+)?"
    r"(?P<name>(?:(?:" + "|".join(_PARTICLES) + r")\s*)?" + CAPITALISED_WORD
    + r"(?:\s+(?:(?:" + "|".join(_PARTICLES) + r")\s*)?" + CAPITALISED_WORD + r")*)"
)
_PLACE_TITLE = re.compile(
    r"(?<![\w.])(?:" + "|".join(map(re.escape, PLACE_TITLES)) + r")\s+(?:of|de)\s+"
    + CAPITALISED_WORD + r"(?:\s+" + CAPITALISED_WORD + r")?")
"""A title held of a place: the Count of Monte Cristo, the Countess of Morcerf."""
_POSSESSIVE = re.compile(r"['’]s?(?=\s|$)")


def english_names(texts: Iterable[str]) -> Counter[str]:
    """Capitalised name sequences (`Edmond Dantès`, `M. Morrel`, `Monsieur de Villefort`) by count.

    A sequence keeps its honorific (`M. Morrel`); a capitalised word that starts a sentence
    counts only if the same word also occurs capitalised in mid-sentence somewhere, and common
    sentence words (The, But, Then …) are dropped from the front of a sequence.
    """
    found: Counter[str] = Counter()
    sentence_initial: Counter[str] = Counter()
    mid_sentence: set[str] = set()
    texts_seen = list(texts)
    for text in texts_seen:
        for match in _ENGLISH_NAME.finditer(text):
            title, words = match["title"], _POSSESSIVE.sub("", match["name"]).split()
            popped = False
            while words and words[0] in EN_STOPWORDS:
                words.pop(0)
                title, popped = None, True
            while title is None and words and words[0] in _PARTICLES:
                words.pop(0)  # "said de Villefort" → Villefort
            if not words or words[0].startswith(("I’", "I'")):
                continue
            name = " ".join(words)
            if title is None and len(words) == 1 and not popped:
                before = text[max(0, match.start() - 3):match.start()]
                if opens_sentence(before) or match.start() == 0:
                    sentence_initial[name] += 1
                    continue
                mid_sentence.add(name)
            found[f"{title} {name}" if title else name] += 1
    for name, count in sentence_initial.items():
        if name in mid_sentence:
            found[name] += count
    for text in texts_seen:
        for match in _PLACE_TITLE.finditer(text):  # the Count of Monte Cristo’s carriage
            found[_POSSESSIVE.sub("", " ".join(match.group(0).split()))] += 1
    return found
