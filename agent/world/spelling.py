"""Names of a world spelled like one it does not know, to offer in an error ("did you mean
'Captain Benwick'?" for Captain Benwik)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping, Sequence

from stores.lang.en import STOPWORDS
from stores.lang.text import fold_latin

SPELLED_LIKE = 0.8
"""How alike a name must be spelled to be offered for a name the world does not know (difflib's
ratio: Benwik and Benwick 0.92; Anne and Jane 0.75, not offered)."""


def spelled_like(name: str, entities: Mapping[str, Sequence[str]]) -> list[str]:
    """Up to three names or aliases of `entities` (canonical name → aliases) spelled like
    `name`, letter case and accents aside, the closest first."""
    forms = {fold_latin(f).casefold(): f for n, aliases in entities.items() for f in (n, *aliases)}
    found = difflib.get_close_matches(fold_latin(name).casefold(), list(forms), n=3,
                                      cutoff=SPELLED_LIKE)
    return [forms[f] for f in found]


_NAME_RUN = re.compile(r"\b[A-Z][\w’'-]*\.?(?:[ \t]+[A-Z][\w’'-]*\.?)*")
"""Capitalised words in a row (Isabela Thorp, Mr. Knightly), each with a title's full stop."""
SHORTEST = 4
"""Letters a name must have to be spelled like another: a short word is like too many."""


def respelled(question: str, spans: Callable[[str], Sequence[tuple[int, int, str]]],
              entities: Mapping[str, Sequence[str]], writes: Callable[[str], bool]) -> str:
    """The question with each name the world does not know, spelled like one it does, written
    as that one (Who is Isabela Thorp? → Who is Isabella Thorpe?): a newcomer's misspelt names
    got quotes about something else, though `lore card` offered the name. Only words the text
    never `writes` change: Henry Dashwood, Mrs. Robert Ferrars and the Pont du Gard are the
    book's own words for what the world has no entity of (Harry Dashwood, Mr. Robert Ferrars
    and the Pont du Gérard are others)."""
    out, at = [], 0
    for run in _NAME_RUN.finditer(question):
        words = run.group(0).split()
        while words and words[0].rstrip(".").lower() in STOPWORDS:  # Who, Is, The
            words.pop(0)
        name = re.sub(r"['’]s?$", "", " ".join(words).rstrip("."))  # Haydée's: Haydée
        if len(name) < SHORTEST or any(e - s == len(name) for s, e, _ in spans(name)):
            continue
        close = spelled_like(name, entities)
        # a name the text writes word for word is no misspelling, though a title makes it a
        # name of the world's ("Wentworth" was read as "Mr Wentworth", the curate, in "Who
        # persuaded Anne to break off her engagement to Wentworth?": a newcomer's trial)
        if not close or close[0] == name or all(writes(w) for w in name.split()) or any(
                writes(w) for w in name.split() if w not in close[0].split()):
            continue
        start = run.start() + run.group(0).index(name)
        out += [question[at:start], close[0]]
        at = start + len(name)
    return "".join(out) + question[at:] if out else question
