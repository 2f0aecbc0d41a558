"""Which sentence of a passage a card quotes (agent/views/card_text.py): the one that holds the
words it cites, or the telling's first sentence that opens with the person as its subject."""

from __future__ import annotations

import re
from collections.abc import Sequence

from stores.lang import has_han
from stores.lang.en import SAYS
from stores.lang.text import Sentence, in_someones_words, sentences


def sentence_with(text: str, words: Sequence[str], about: Sequence[str] = ()) -> str:
    """The passage's first sentence holding one of the words and one of `about`, else one of
    `about`, else one holding the first of the words it holds, in the telling before in a
    character's words (else its first sentence)."""
    read = sentences(text, "quote")
    found = [s.text for s in read]

    def holds(sentence: str, of: Sequence[str]) -> bool:
        return any(w and w in sentence for w in of)

    def spoken(s: Sentence) -> bool:  # where the sentence first names one of the words
        at = min(i for w in words if w and (i := s.text.find(w)) >= 0)
        return in_someones_words(text, s.start + at)

    # the words in the order given, the surest first (将军刘备 before 将军 alone, which the
    # passage also writes before 董承's name)
    naming = next((sorted(held, key=spoken) for w in words
                   if (held := [s for s in read if w and w in s.text])), [])
    return next((s for s in found if holds(s, words) and holds(s, about)),
                next((s for s in found if holds(s, about)),
                     naming[0].text if naming else found[0] if found else text[:80]))


SUBJECT_AFTER = 2
"""Words (Chinese: characters) a sentence may open with before the name it is about: "Mr and Mrs
Musgrove were …", not "Sixteen years had Miss Taylor been in Mr. Woodhouse's family"."""


_SPEECH_TAG = re.compile(rf"^\W*(?:{SAYS})\s+[^,;:!?]*?(?:,\s+[a-z]+(?:ing|ly)\b[^,;:!?]*)?"
                         r"[.!?]?\W*$", re.I)
"""A sentence that only says who spoke the quote before it ("said Lucy Steele.", "replied Mr.
Elton, laughing."): it tells nothing of them."""


def opened_with(text: str, forms: Sequence[str]) -> str:
    """The passage's first sentence in the telling that opens with one of the names as its
    subject (not its possessive: "Madame Danglars' footman"), or ""."""
    for read in sentences(text, "quote"):
        for form in sorted(filter(None, forms), key=len, reverse=True):
            at = read.text.find(form)
            if at < 0 or in_someones_words(text, read.start + at):
                continue
            before, after = read.text[:at].strip(" “‘\"'"), read.text[at + len(form):]
            opens = (len(before) <= SUBJECT_AFTER if has_han(form[:1]) else
                     len(before.split()) <= SUBJECT_AFTER and "," not in before)
            if opens and not re.match(r"[’']", after) and not _SPEECH_TAG.match(read.text):
                told = read.text.strip()
                return told.strip('"') if told.count('"') % 2 else told
            break
    return ""
