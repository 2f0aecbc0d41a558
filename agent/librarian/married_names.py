"""Whom a married name makes someone's spouse, for a follow-up that asks for her husband or his
wife: Madame de Villefort's husband is Villefort (M. de Villefort), Lady Bertram's the one
knight of her surname (Sir Thomas Bertram), never a relative by blood (Mansfield Park's Mrs.
Rushworth is Mr. Rushworth's mother). How a follow-up finds whom its "her" means is
agent/librarian/candidates.py's."""

from __future__ import annotations

from agent.librarian.referring import Reference
from agent.world.gender import TITLES_EN
from agent.world.lexicon import Lexicon
from stores.entities.kinship import ladys_husbands
from stores.lang import en

_UNMARRIED = frozenset(form for title in en.UNMARRIED_TITLES
                       for form in (title.lower(), title.lower().rstrip(".")))


def spouse_by_name(lexicon: Lexicon, bearer: list[str], ref: Reference) -> list[str]:
    """Her husband when her name says it: Madame de Villefort → Villefort (M. de Villefort),
    and his wife the other way round. A married name is a title and the husband's name; it
    is no one's the world relates to the bearer by blood (Mansfield Park's Mrs. Rushworth
    is Mr. Rushworth's mother)."""
    if ref.family != "spouse" or len(bearer) != 1 or not ref.english:
        return []
    if (husband := _ladys_husband(lexicon, bearer[0])) is not None:
        return husband
    keys = {_untitled(n) for n in (bearer[0], *lexicon.aliases.get(bearer[0], ()))} - {None}
    found = [name for name, aliases in lexicon.aliases.items()
             if name != bearer[0] and lexicon.kind(name) in ("person", "other")
             and frozenset((name, bearer[0])) not in lexicon.blood
             and lexicon.gender(name) in ("", ref.relative_gender or lexicon.gender(name))
             and any((_untitled(a) or a) in keys for a in (name, *aliases)
                     if a.split()[0].lower() not in _UNMARRIED)]
    return found[:1] if len(found) == 1 else []


def _ladys_husband(lexicon: Lexicon, bearer: str) -> list[str] | None:
    """For Lady and a surname (Lady Bertram): the one man of that surname titled Sir or Lord
    (Sir Thomas Bertram), or no one — not Mr. Bertram, her son; None for anyone else
    (kinship.ladys_husbands)."""
    found = ladys_husbands((bearer, *lexicon.aliases.get(bearer, ())),
                           {name: aliases for name, aliases in lexicon.aliases.items()
                            if name != bearer and frozenset((name, bearer)) not in lexicon.blood})
    if found is None:
        return None
    return found if len(found) == 1 else []


def _untitled(name: str) -> str | None:
    """An English name without its title and particle (Madame de Villefort → Villefort), or
    None when it has no title or an unmarried one (Mademoiselle de Villefort is a daughter)."""
    words = name.split()
    if len(words) < 2 or words[0].lower() not in TITLES_EN or words[0].lower() in _UNMARRIED:
        return None
    rest = " ".join(words[1:])
    return rest[3:] if rest.startswith("de ") else rest
