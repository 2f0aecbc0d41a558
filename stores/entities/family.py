"""Kin a story names by a pronoun or a possessive and leaves the reader to place: "Emma … her
father", "Mr. Knightley … his brother", "Mrs. Weston's husband". English writes most kin this way
and names both people in one sentence far less often (stores/entities/kinship.py reads those).

The word is bound to a person only when the book leaves one: the one of the subject's family name
(a married woman goes by her husband's) who is not the subject and whose titles give the word's
gender and standing (a wife or a mother is titled as married, a daughter or a sister is not). A
family with two such people (a father and a grown son for "her father") binds nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from stores.entities.english_forms import OF_PLACE, bare_name, bare_surname, is_full, split_title
from stores.entities.kinship import DIRECTED, Statement, stated_in, wives_by_full_name
from stores.entities.speakers import speeches
from stores.entities.surnames import surname_of
from stores.lang import en, has_han
from stores.lang.gender import title_gender
from stores.lang.text import sentences
from stores.models import NOT_PEOPLE, Entity

_WORDS = "|".join(sorted({*en.FAMILY_KIN, *en.NAMED_KIN}, key=len, reverse=True))
_SPOKEN_WORDS = "|".join(sorted({*en.FAMILY_KIN, *en.NAMED_KIN, *en.IN_LAW_KIN, *(
    w for w, (kind, _) in en.KIN.items() if kind == "grandparent_of")}, key=len, reverse=True))
"""A speaker's own kin words: "my grandfather, George Wimbush" (Crome Yellow)."""
_AFTER_PRONOUN = re.compile(
    rf"\b(?P<pronoun>{'|'.join(en.POSSESSIVE_PRONOUNS)}) {en.KIN_QUALIFIER}(?P<word>{_WORDS})"
    r"(?![\w-])", re.I)
_MY_KIN = re.compile(rf"{en.MY_KIN}{en.KIN_QUALIFIER}(?P<word>{_SPOKEN_WORDS})(?![\w-])", re.I)
_SPOKEN_TO = re.compile(r"[,.!?;—-]*\s*$")
"""What stands between a name and the end of the words: the one they are said to."""
_KIN_TITLE = re.compile(
    rf"\b(?P<word>{'|'.join(w.capitalize() for w in en.KIN_BEFORE_NAME)})(?= [A-Z])")
"""A kin word a speaker puts before a relative's name as a title (Uncle Henry, Aunt Priscilla)."""
_VOCATIVE_COMMA = re.compile(r"\s*[,!]")
_CALLED_FIRST = re.compile(en.CALLED_FIRST, re.I)
_CALLED_AFTER_COMMA = re.compile(r",\s*$")
_NAME_GOES_ON = re.compile(r"\s+(?:[A-Z]|[IVX]+\b)")
"""A capitalised word or a numeral right after a name: a longer name the matcher cut short."""
_AFTER_NAME = re.compile(rf"^{en.POSSESSIVE} {en.KIN_QUALIFIER}(?P<word>{_WORDS})(?![\w-])",
                         re.I)
_KIN_BEFORE = re.compile(rf"\b(?:{'|'.join(sorted(en.KIN, key=len, reverse=True))})\b", re.I)
_IS_BEFORE = re.compile(en.COPULA_BEFORE)
_PRONOUN_SUBJECT = re.compile(en.PRONOUN_SUBJECT)
_MARRIED = frozenset(en.MARRIED_TITLES)
_UNMARRIED = frozenset(en.UNMARRIED_TITLES)


class Families:
    """The people of a world by family name, with the gender and standing their titles give."""

    def __init__(self, entities: Iterable[Entity]) -> None:
        entities = list(entities)
        self.families: dict[str, set[str]] = {}
        self.members: dict[str, set[str]] = {}
        self.gender: dict[str, str] = {}
        self.married: set[str] = set()
        self.unmarried: set[str] = set()
        self.by_title_alone: set[str] = set()
        """People the book calls by a title and the family name, never by a first name (Mr.
        Morland, General Tilney): a family's head, where the sons go by theirs."""
        self.knighted: set[str] = set()
        """Men the book calls Sir (Sir Walter): a head of the family by his first name."""
        given: dict[tuple[str, str], set[str]] = {}
        for entity in entities:
            if entity.type in NOT_PEOPLE:
                continue
            surname = surname_of(entity.name) if has_han(entity.name) else ""
            if surname and len(entity.name) == len(surname) + 1:
                given.setdefault((surname, entity.name[-1]), set()).add(entity.name)
            forms = [f for f in (entity.name, *entity.aliases)
                     if f and not has_han(f) and not OF_PLACE.match(f)]
            self.gender[entity.name] = title_gender(forms)
            if _by_title_alone(forms):
                self.by_title_alone.add(entity.name)
            if any(split_title(f)[0] in en.KNIGHTED_TITLES for f in forms):
                self.knighted.add(entity.name)
            for form in forms:
                title, words = split_title(form)
                # a rank makes its holder a man of the family too (General Tilney)
                if title in en.ADDRESS_TITLES or title in _MARRIED or title in en.SERVICE_RANKS:
                    family = bare_name(words).split()[-1:] if words else []
                    (self.married if title in _MARRIED else
                     self.unmarried if title in _UNMARRIED else set()).add(entity.name)
                elif not title and is_full(form):
                    family = [bare_surname(form.split())]
                else:
                    continue
                for name in family:
                    if name:
                        self.families.setdefault(entity.name, set()).add(name)
                        self.members.setdefault(name, set()).add(entity.name)

        self.wife_by_name = wives_by_full_name(entities)
        """A man → the woman titled by his full name (kinship.wives_by_full_name)."""
        self.given_names = {key: next(iter(names)) for key, names in given.items()
                            if len(names) == 1}
        """(surname, one-character given name) → the one person so named (曹, 操 → 曹操): a
        Chinese text calls a man by his given name alone before his son's name (操长子曹丕)."""

    def relative(self, subject: str, word: str, present: set[str]) -> str | None:
        """The one person of `subject`'s family whom `word` (father, wife …) can name, if the
        book has exactly one. A daughter or a sister may be one of several Misses of the
        family: the one the passage (`present`: the names in it) names, if it names one."""
        gender = en.FAMILY_KIN[word]
        if word == "husband" and subject not in self.married:
            return None  # Miss Woodhouse has no husband: "her husband" is another woman's
        if word == "wife" and self.gender.get(subject) != "m":
            return None
        if word in en.MAIDEN_KIN and subject in self.married:
            # a wife's family name is her husband's, not her parents' or her sisters': Mary
            # Musgrove's sister is no Miss Musgrove (Louisa is her husband's sister)
            return None
        found = {person for family in self.families.get(subject, ())
                 for person in self.members[family]
                 if person != subject and self.gender[person] == gender
                 and (word not in ("wife", "mother") or person in self.married)
                 and (word not in ("daughter", "sister") or person not in self.married)
                 and (word != "husband" or self.wife_by_name.get(person, subject) == subject)}
        if len(found) > 1 and word in ("daughter", "sister"):
            found &= self.unmarried & present
        if len(found) > 1 and word == "father" and not found & self.knighted:
            # Mr. Morland, not James Morland, his son; but Sir Walter Elliot goes by his first
            # name, and Mr Elliot is his cousin
            found &= self.by_title_alone
        return found.pop() if len(found) == 1 else None


def _by_title_alone(forms: list[str]) -> bool:
    """The forms hold a title before the family name and no first name (Mr. Morland, General
    Tilney, M. de Villefort; not Mr. James Morland, nor a surname alone)."""
    titled = False
    for form in forms:
        title, words = split_title(form)
        if (title and len(bare_name(words).split()) > 1) or (not title and is_full(form)):
            return False
        titled = titled or bool(title and words)
    return titled


def family_name(name: str) -> str:
    """The family name a person's own name gives, titles and particles aside (Mr. Weston,
    M. de Villefort, Frank Churchill): not what a stray alias of theirs says ("F. C. Weston
    Churchill", the son's signature, is an alias of Mr. Weston's)."""
    words = bare_name(split_title(name)[1]).split()
    return words[-1] if words else ""


def known_family(name: str) -> str:
    """A person's family name where their name gives one for sure: an English name of two words
    or under a title (Eleanor Tilney, Mr. Allen → Tilney, Allen), a Chinese full name's surname
    (诸葛亮 → 诸葛); '' for a first name alone (Henry) or a name of no surname."""
    if has_han(name):
        surname = surname_of(name)
        return surname if surname and 1 <= len(name) - len(surname) <= 2 else ""
    title, words = split_title(name)
    return family_name(name) if title or len(words) > 1 else ""


def kin_mentions(text: str, spans: list[tuple[int, int, str]],
                 families: Families) -> list[tuple[str, str, str, str]]:
    """(whose kin, the word, the sentence, the one named right after the word) for each
    "his/her WORD" or "NAME's WORD" of `text` whose owner the sentence, or the one the sentence
    before opened with, leaves sure; `spans` are its mentions as (start, end, name). The one
    named after is a person the word may name, written right after it ("her sister Anne",
    "his brother, Captain Wentworth"), else ''."""
    mentions: list[tuple[str, str, str, str]] = []
    opened_by = ""  # the one person the last sentence naming anyone opened with
    for start, end, _ in sentences(text):
        inside = [(a, b, n) for a, b, n in spans if start <= a and b <= end
                  and n in families.gender]
        said = text[start:end].strip()
        pronoun = _PRONOUN_SUBJECT.match(said)
        if not inside:
            # "Mrs. Bates, the widow of a former vicar of Highbury, was a very old lady. She
            # lived with her single daughter": she, and her, are the one named before
            gender = pronoun.lastgroup if pronoun else None
            if not (opened_by and gender and families.gender.get(opened_by) == gender):
                opened_by = ""
                continue
            found = [(opened_by, match["word"].lower(), match.end())
                     for match in _AFTER_PRONOUN.finditer(text, start, end)
                     if en.POSSESSIVE_PRONOUNS[match["pronoun"].lower()] == gender]
        else:
            opened_by = (inside[0][2] if text[start:inside[0][0]].strip() == ""
                         and len({n for *_, n in inside}) == 1 else "")
            found = [(subject, match["word"].lower(), match.end())
                     for match in _AFTER_PRONOUN.finditer(text, start, end)
                     if (subject := _whose(text, start, match, inside, families))]
        found += [(name, named["word"].lower(), b + named.end()) for _, b, name in inside
                  if (named := _AFTER_NAME.match(text[b:end]))]
        mentions += [(subject, word, said, _named_after(text, at, spans, families, word))
                     for subject, word, at in found]
    return mentions


def spoken_kin(text: str, spans: list[tuple[int, int, str]],
               families: Families) -> list[tuple[str, str, str, str]]:
    """`kin_mentions` of a speaker's own kin in words the story gives a speaker (stores/
    entities/speakers.py): one named right after the word ("…engaged above this twelvemonth to
    my cousin Lucy!" of Mrs. Jennings's, "the death of my old cousin, Mrs. Smith" of
    Willoughby's), or a word of one family ("My father certainly could mean nothing more" of
    John Dashwood's), bound as "his father" is. Not a word said to the relative ("I will not
    say that I am disappointed, my dear sister," said John to Elinor; "You are my son,
    Dantès"), nor one a longer name follows than the book's ("my brother, Louis XVI")."""
    if "my " not in text.lower() and not _KIN_TITLE.search(text):
        return []
    people = [(a, b, n) for a, b, n in spans if n in families.gender]
    found = []

    def said(at: int) -> str:
        return next(s.text for s in sentences(text) if s.start <= at < s.end).strip()

    for speech in speeches(text, people, families.gender):
        if not speech.speaker:
            continue
        for match in _MY_KIN.finditer(text, speech.start, speech.end):
            word = match["word"].lower()
            named = _named_after(text, match.end(), people, families, word)
            if named:
                start, end = next((a, b) for a, b, n in people if n == named and b > match.end())
                if (named == speech.speaker or _NAME_GOES_ON.match(text, end)
                        or ("," in text[match.end():start]
                            and _SPOKEN_TO.match(text, end, speech.end))):
                    continue
            elif word not in en.FAMILY_KIN or _said_to_name(
                    text, match.start(), match.end(), speech.start, speech.end):
                continue
            found.append((speech.speaker, word, said(match.start()), named))
        for match in _KIN_TITLE.finditer(text, speech.start, speech.end):
            # "Couldn't you put a stop to it, Uncle Henry?" (Anne's words): her uncle, said to
            # him; not one a speaker names for another ("they would fare much better with Uncle
            # Knightley", John Knightley of his boys' uncle, his brother)
            word = match["word"].lower()
            named = _named_after(text, match.start() + 1, people, families, word) or _named_after(
                text, match.end(), people, families, word)
            end = max((b for a, b, n in people if n == named and a <= match.end() + 1), default=0)
            if named and named != speech.speaker and _said_to_name(
                    text, match.start(), end, speech.start, speech.end):
                found.append((speech.speaker, word, said(match.start()), named))
    return found


def _said_to_name(text: str, at: int, end: int, start: int, stop: int) -> bool:
    """The name or kin word `at`–`end` calls the one the words `start`–`stop` are said to: it
    opens them, or a comma stands before it, and a comma, a cry or their end after it ("I
    will not say that I am disappointed, my dear sister," said John; not "I shall ask my
    father," said Clara)."""
    before = text[start:at]
    return bool(end and (_CALLED_FIRST.match(before) or _CALLED_AFTER_COMMA.search(before))
                and (_SPOKEN_TO.match(text, end, stop) or _VOCATIVE_COMMA.match(text, end)))


_APPOSED = re.compile(r",? ")
"""What stands between a word for kin and the name of the one it names ("her sister Anne",
"his brother, Captain Wentworth")."""


_LISTED = re.compile(en.LISTED_AFTER)
_CLAUSE_GOES_ON = re.compile(en.CLAUSE_GOES_ON)


def _named_after(text: str, at: int, spans: list[tuple[int, int, str]], families: Families,
                 word: str) -> str:
    """The person named right after the kin word ending at `at`, when the word may name them
    (a sister is no man), else ''; or the one whose name the word begins, the book's own form
    of them ("her aunt Norris": stores/entities/english_identity.join_kin_forms)."""
    within = next((n for a, b, n in spans if a < at < b), "")
    if within:
        return within if _may_name(word, families.gender.get(within, "")) else ""
    gap = _APPOSED.match(text, at)
    if gap is None:
        return ""
    name, end = next(((n, b) for a, b, n in spans if a == gap.end()), ("", 0))
    if "," in gap[0] and (_LISTED.match(text, end) or _CLAUSE_GOES_ON.match(text, end)):
        return ""  # a list ("her mother, Marianne and Margaret"), or a clause of its own ("for
        # his cousin, Mrs. Norris was too much vexed": Fanny is the cousin)
    return name if _may_name(word, families.gender.get(name, "")) else ""


def _may_name(word: str, gender: str) -> bool:
    """A kin word may name one of `gender`: a sister no man, a cousin anyone."""
    wanted = _word_gender(word)
    return not wanted or gender in ("", wanted)


def _word_gender(word: str) -> str:
    """The gender a kin word gives the one it names ('' for either: cousin)."""
    return en.FAMILY_KIN.get(word, en.NAMED_KIN.get(word, en.IN_LAW_KIN.get(word, "")))


def family_statements(text: str, spans: list[tuple[int, int, str]],
                      families: Families) -> list[tuple[Statement, bool]]:
    """The kin `text` names by "his/her WORD" or "NAME's WORD" that the book's families bind to
    one person, each with whether the text names that person too (so a reader can check it
    there); `spans` are its mentions as (start, end, name)."""
    statements: list[tuple[Statement, bool]] = []
    present = {name for *_, name in spans}
    # a speaker's own kin binds as the telling's does; the reciprocal reading (stores/entities/
    # parents.py) is the telling's alone: "my father", said of one away, names him less often
    for subject, word, sentence, named in [*kin_mentions(text, spans, families),
                                           *spoken_kin(text, spans, families)]:
        # kin of another family name ("her aunt Norris") only where the text names them
        relative = (named if named != subject else "") or (
            families.relative(subject, word, present) if word in en.FAMILY_KIN else None)
        if relative and not _other_blood(subject, relative, word, families):
            kind, named_is_source = en.KIN[word]
            source, target = (relative, subject) if named_is_source else (subject, relative)
            # kin of another family keeps its word: "relation: kin" says nothing of an aunt
            said = (Statement(source, target, kind, sentence, (relative, _word_gender(word)), word)
                    if word in en.NAMED_KIN or word in en.IN_LAW_KIN
                    else Statement(source, target, kind, sentence))
            statements.append((said, relative in present))
    return statements


def _other_blood(subject: str, relative: str, word: str, families: Families) -> bool:
    """A brother or sister of another family name, neither a married woman who took a husband's:
    kin by marriage, whatever a speaker says (Mary Crawford's "my own brother, Dr. Grant" is her
    sister's husband, no sibling of hers or of her brother Henry's)."""
    if en.KIN.get(word, ("",))[0] != "sibling":
        return False
    mine, theirs = known_family(subject), known_family(relative)
    return bool(mine and theirs and mine != theirs
                and not {subject, relative} & families.married)


def statements_in(text: str, spans: list[tuple[int, int, str]],
                  families: Families) -> list[Statement]:
    """Every relation `text` states: in so many words (Noirtier is the father of Villefort),
    then by a family's kin word (Emma … her father)."""
    return [*stated_in(text, spans, families.given_names, families.gender),
            *(s for s, _ in family_statements(text, spans, families))]


def _whose(text: str, start: int, match: re.Match[str], inside: list[tuple[int, int, str]],
           families: Families) -> str | None:
    """The one person the sentence names before "his/her WORD" whom the pronoun fits, if the
    sentence leaves no one else it could be."""
    if _KIN_BEFORE.search(text, start, match.start()):
        return None  # "Villefort's father … his son": the pronoun may be the relative's
    wanted = en.POSSESSIVE_PRONOUNS[match["pronoun"].lower()]
    before = [(b, n) for _, b, n in inside
              if b <= match.start() and families.gender[n] in ("", wanted)]
    if len({n for _, n in before}) != 1:
        return None
    if _IS_BEFORE.fullmatch(text, before[-1][0], match.start()):
        return None  # "This Noirtier was his father": Noirtier is the father
    if _pronoun_first(text, start, before[0][0], wanted):
        return None
    return before[0][1]


def _pronoun_first(text: str, start: int, name_end: int, gender: str) -> bool:
    """A pronoun of `gender` comes before the name in its sentence, so "his" may be that
    one's: "he had joined Mr. Knightley … his wife" is not Mr. Knightley's wife."""
    words = {w for w, g in en.SUBJECT_PRONOUNS.items() if g == gender}
    return any(w.lower() in words for w in re.findall(r"\w+", text[start:name_end]))


AGREEING = 2
"""Kin no passage names the relative of is kept when this many passages bind it alike ("It is
Mr. Tilney's sister", "Mr. Tilney and his sister": Eleanor): each cites a sentence the reader can
follow, and two agreeing are seldom a misreading. Not for a pair some passage binds while naming
both: Henry Tilney's brother, named beside "his brother", is no father by nine "his father"s."""


def family_relations(chunks: Iterable[tuple[str, int, str, list[tuple[int, int, str]]]],
                     families: Families,
                     ) -> dict[tuple[str, str, str], list[tuple[str, int]]]:
    """(source, target, type) → the (chunk id, chapter) passages that name the kin, in story
    order, as `kinship.stated_relations` gives them, those that name the relative first. Kin
    no passage names the relative of is left out, unless AGREEING passages bind it. A pair
    the passages bind two ways (his father in sixteen, his son in five) keeps the way most of
    them say, and none on a tie."""
    found: dict[tuple[str, str, str], list[tuple[str, int]]] = {}
    checkable: dict[tuple[str, str, str], list[tuple[str, int]]] = {}
    for chunk_id, chapter, text, spans in chunks:
        for s, named in family_statements(text, spans, families):
            source, target = (s.source, s.target) if s.type in DIRECTED else sorted(
                (s.source, s.target))
            where = found.setdefault((source, target, s.type), [])
            if (chunk_id, chapter) not in where:
                where.append((chunk_id, chapter))
                if named:
                    checkable.setdefault((source, target, s.type), []).append((chunk_id, chapter))
    checked_pairs = {frozenset(key[:2]) for key in checkable}
    found = {key: [*checkable.get(key, []), *(w for w in where if w not in checkable.get(key, []))]
             for key, where in found.items()
             if key in checkable or (len(where) >= AGREEING
                                     and frozenset(key[:2]) not in checked_pairs)}
    ways: dict[frozenset[str], list[int]] = {}
    for (source, target, _), where in found.items():
        ways.setdefault(frozenset((source, target)), []).append(len(where))
    return {key: where for key, where in found.items()
            if max(counts := ways[frozenset(key[:2])]) == len(where)
            and counts.count(len(where)) == 1}
