"""Whom a married name makes someone's spouse: "Who is Mrs. Robert Ferrars?" (his wife), and a
follow-up that asks for her husband or his wife: Madame de Villefort's husband is Villefort
(M. de Villefort), Lady Bertram's the one knight of her surname (Sir Thomas Bertram), never a
relative by blood (Mansfield Park's Mrs. Rushworth is Mr. Rushworth's mother). How a follow-up
finds whom its "her" means is agent/librarian/candidates.py's."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from agent.librarian.identity import name_asked
from agent.librarian.known import with_quote
from agent.librarian.referring import Reference
from agent.schemas import Answer
from agent.world.gender import TITLES_EN
from agent.world.lexicon import Lexicon
from stores.cards import Card
from stores.entities.english_forms import is_full, split_title
from stores.entities.kinship import ladys_husbands
from stores.entities.matcher import AliasMatcher
from stores.lang import en
from stores.lang.gender import title_gender
from stores.lang.text import sentences
from stores.models import Chunk

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


def married_name_answer(question: str, chinese: bool, matcher: AliasMatcher,
                        card: Callable[[str], Card | None], story: Sequence[Chunk],
                        say: Callable[[str], str], horizon: int = 0) -> Answer | None:
    """"Who is Mrs. Robert Ferrars?", a name no entity bears: a wife's title before a man's
    full name is his wife (en.WIFE_BY_HIS_NAME), and his card names her where the world relates
    them as spouses (Lucy Steele), with the first sentence that writes the name, or else the
    one that states the marriage. None for any other question."""
    written = name_asked(question)
    if chinese or written is None or matcher.resolve(written):
        return None
    title, rest = split_title(written)
    husband = matcher.resolve(" ".join(rest)) if title in en.WIFE_BY_HIS_NAME else None
    if (husband is None or not is_full(" ".join(rest))
            or title_gender(matcher.forms(husband)) == "f"):
        return None
    his = card(husband)
    wives = [f for f in his.as_of(horizon).of_kind("relation") if f.text == "spouse"] if his else []
    wife = wives[0] if len(wives) == 1 else None
    lead = f"{written} is {say(husband)}'s wife" + (f", {say(wife.other)}." if wife else ".")
    found = _first_writing(story, written, horizon)
    if found is None and wife is not None and wife.quote:
        chunk = next((c for c in story if c.id == wife.chunk_id), None)
        found = (chunk, wife.quote) if chunk is not None else None
    return with_quote(lead, found, chinese, wife.other if wife else husband)


def _first_writing(story: Iterable[Chunk], name: str, horizon: int,
                   also: str = "") -> tuple[Chunk, str] | None:
    """The first sentence of the story (up to `horizon`) that writes `name`, and `also` if
    given, in any case (Mrs. ROBERT Ferrars)."""
    wanted = [w.casefold() for w in (name, also) if w]
    for chunk in story:
        if horizon and chunk.chapter > horizon:
            break
        if all(w in chunk.text.casefold() for w in wanted):
            for s in sentences(chunk.text, "quote"):
                if all(w in s.text.casefold() for w in wanted):
                    return chunk, s.text
    return None


def maiden_name_answer(question: str, chinese: bool, matcher: AliasMatcher,
                       aliases: dict[str, list[str]], story: Sequence[Chunk],
                       say: Callable[[str], str], horizon: int = 0) -> Answer | None:
    """"What was Mrs Smith's name before she married?" (en.MAIDEN_ASKED), of the one woman the
    question names: her one name under an unmarried title beside one under a married title
    (Mrs Smith, Miss Hamilton), with the first sentence that writes both, else the first that
    writes it, up to `horizon`. None when the world holds no such name of hers."""
    if chinese or not en.MAIDEN_ASKED.search(question):
        return None
    named = list(dict.fromkeys(name for *_, name in matcher.find_spans(question)))
    if len(named) != 1:
        return None
    forms = [named[0], *aliases.get(named[0], [])]
    married = [f for f in forms if split_title(f)[0] in en.MARRIED_TITLES]
    maiden = [f for f in forms if split_title(f)[0] in en.UNMARRIED_TITLES]
    if not married or len(maiden) != 1:
        return None
    found = next((found for wife in married
                  if (found := _first_writing(story, maiden[0], horizon, also=wife))), None)
    found = found or _first_writing(story, maiden[0], horizon)
    if found is None:
        return None
    return with_quote(f"{say(named[0])} was {maiden[0]} before she married.", found, chinese,
                      named[0])
