"""Where the story says someone lives, read for the cards (stores/card_homes.py)."""

from __future__ import annotations

from stores.card_homes import HomeReader
from stores.entities.matcher import AliasMatcher
from stores.models import Chunk

NAMES = {"Sir Walter Elliot": "Sir Walter Elliot", "Sir Walter": "Sir Walter Elliot",
         "Lady Russell": "Lady Russell", "Mr. Pratt": "Mr. Pratt", "Brandon": "Brandon",
         "Kellynch Hall": "Kellynch Hall", "Uppercross": "Uppercross", "Park": "Park",
         "Longstaple": "Longstaple", "Delaford": "Delaford", "Camden Place": "Camden Place"}
KINDS = {"Sir Walter Elliot": "person", "Lady Russell": "person", "Mr. Pratt": "person",
         "Brandon": "person", "Kellynch Hall": "place", "Uppercross": "place", "Park": "place",
         "Longstaple": "place", "Delaford": "place", "Camden Place": "place"}


def chunk(n: int, text: str) -> Chunk:
    return Chunk(id=f"c{n}", world="w", document="book.txt", chapter=n, chapter_title="",
                 scene=0, chunk_order=n, text=text, line_start=1, line_end=1)


def homes(*texts: str) -> dict[str, list[tuple[str, int]]]:
    reader = HomeReader(AliasMatcher(NAMES), KINDS)
    for n, text in enumerate(texts, start=1):
        reader.read(chunk(n, text))
    return {p: [(f.text, f.chapter) for f in reader.homes(p)] for p in KINDS
            if reader.homes(p)}


def test_a_home_is_read_where_the_words_between_two_names_say_it() -> None:
    # Persuasion: "Sir Walter Elliot, of Kellynch Hall, in Somersetshire"; Sense and
    # Sensibility: "my uncle, Mr. Pratt, who lives at Longstaple", "Delaford, the seat of
    # Brandon"; a later home follows the first
    found = homes("Sir Walter Elliot, of Kellynch Hall, in Somersetshire, was vain.",
                  "My uncle, Mr. Pratt, who lives at Longstaple, taught him.",
                  "They drove to Delaford, the seat of Brandon, at noon.",
                  "Sir Walter's house in Camden Place was a good one.")
    assert found == {"Sir Walter Elliot": [("Kellynch Hall", 1), ("Camden Place", 4)],
                     "Mr. Pratt": [("Longstaple", 2)], "Brandon": [("Delaford", 3)]}


def test_a_wish_a_pronoun_or_a_longer_place_name_is_no_home() -> None:
    found = homes("\"I wish Lady Russell lived at Uppercross,\" said Henrietta.",
                  "He lives at Uppercross now.",  # names no one
                  "Mrs. Ferrars, of Park Street, was proud. Mr. Pratt, of Park Lane, too.",
                  "Does Lady Russell live at Uppercross?")
    assert found == {}
