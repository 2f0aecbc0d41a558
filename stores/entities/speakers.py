"""Who says the words of an English story's dialogue, a paragraph (a line of a stored passage)
at a time:
- the one a speech tag names ("said Mrs. Jennings", "Elinor answered"), or the one person the
  clause right before the words names with a verb of speech ("Elinor, after a short silence,
  said"), also on a line of telling of its own before the words ("Emma laughed, and replied,");
- for a pronoun tag ("he replied"), the one person of its gender the paragraph's telling names,
  or the one of no known gender who opens a sentence of it ("Gombauld dropped his cigarette
  end"); a common given name gives a gender where no title does;
- in a line that opens with words, a beat between them that opens with the one person its
  telling names (“Did he?” Jenny lowered her voice. “Shall I tell you…”);
- where the telling names no one: the one the words before were said to by name ("…, Mr.
  Willoughby, for you to relate" — "he replied"), else the one who spoke two paragraphs
  before, when two people take turns;
- for a pronoun tag still open, the one person of its gender in the scene's last lines, the
  telling between them included ("he soon resumed", Mr. Knightley's, with Emma alone beside him).
Words that run on without a closing mark are followed by more of the same speaker's; a line of
telling ends the turns. Words no rule gives a speaker keep none (about half, on the novels
read: precision is what the readers of speakers need)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from stores.lang import en
from stores.lang.gender import person_gender

_QUOTE = re.compile(r"[\"“”]")
_LEAD = re.compile(rf"[\s,;:—-]*(?:(?P<verb>{en.SAYS_AFTER_QUOTE})\s+)?", re.I)
"""What stands between words and a tag's name after them: punctuation, and the verb when it
comes first (“…,” said Mrs. Jennings)."""
_NOT_SPEAKING = re.compile(rf"{en.SPEAKS}\s+{en.SAID_NOTHING}", re.I)
_SAYS_LAST = re.compile(rf"\b(?:{en.SAYS})\W*$", re.I)
_CLAUSE_END = re.compile(r"[.!?;]\s+")
_OPENS = re.compile(r"(?:^|[.!?\"”]\s+)$")
_NAMED_AFTER = re.compile(rf"{en.SPEAKS}|,?\s*(?:{en.SPEECH_ADVERB}\s+)?(?:{en.SAYS_AFTER_QUOTE})\b")
_PRONOUN_GENDER = {p: en.SUBJECT_PRONOUNS[p] for p in en.NOMINATIVE_PRONOUNS}
_PRONOUN = "|".join(sorted(_PRONOUN_GENDER))
_PRONOUN_AFTER_WORDS = re.compile(
    rf"[\s,;:—-]*(?:(?P<a>{_PRONOUN})\s+(?:{en.SPEECH_ADVERB}\s+)?(?:{en.SAYS_AFTER_QUOTE})"
    rf"|(?:{en.SAYS_AFTER_QUOTE})\s+(?P<b>{_PRONOUN}))\b", re.I)
_OPENING_PRONOUN = re.compile(rf"\s*({_PRONOUN})\b", re.I)


@dataclass(frozen=True, slots=True)
class Speech:
    """A paragraph's quoted words, `start`–`end` of its passage, and who says them ('')."""

    start: int
    end: int
    speaker: str


@dataclass(slots=True)
class _Paragraph:
    words: list[tuple[int, int]]
    """The quoted words, as (start, end) of the passage."""
    runs_on: bool
    """Its last words have no closing mark: the next paragraph goes on with them."""
    named: set[str]
    """The people a speech tag of the telling names."""
    pronoun: str
    """The gender of a pronoun speech tag ('he replied'), '' for none."""
    addressed: str
    """The one its last words call by name ("…, Miss Dashwood?"), '' for none."""
    acting: bool
    """Its telling names someone: who speaks is the telling's to say, not the turns'."""
    told: frozenset[str] = frozenset()
    """The people its telling names."""
    speaker: str = ""


def speeches(text: str, spans: Sequence[tuple[int, int, str]],
             gender: Mapping[str, str]) -> list[Speech]:
    """The quoted words of `text`, each with its speaker as far as the rules above tell;
    `spans` are the passage's mentions of people as (start, end, name) and `gender` their
    genders ('m', 'f', '' unknown; a common given name's gives one where titles give none:
    Jenny, of "Jenny caught the words. “It's about a ham,” she said")."""
    gender = {**{n: person_gender([n]) for *_, n in spans if n}, **{
        n: g for n, g in gender.items() if g}}
    paragraphs = _paragraphs(text, spans, gender)
    previous: list[_Paragraph] = []  # the speaking paragraphs just before, without telling between
    scene: list[tuple[str, frozenset[str]]] = []  # each line so far: (who spoke, whom it names)
    runs_on = False
    lead_in: _Paragraph | None = None
    for paragraph, named in zip(paragraphs, _named_by_line(text, spans), strict=True):
        if paragraph is None or not paragraph.words:
            # telling ends the turns; telling that ends "Emma laughed, and replied," opens
            # the next paragraph's words
            previous, runs_on, lead_in = [], False, paragraph
            scene.append(("-", named))
            continue
        if lead_in is not None and not paragraph.named:
            paragraph.named, paragraph.pronoun = lead_in.named, paragraph.pronoun or lead_in.pronoun
        lead_in = None
        paragraph.speaker = _speaker(paragraph, previous, runs_on, gender) or _of_the_scene(
            paragraph, scene, previous[-1].speaker if previous else "", gender)
        runs_on = paragraph.runs_on
        previous.append(paragraph)
        scene.append((paragraph.speaker, paragraph.told))
    return [Speech(start, end, p.speaker) for p in paragraphs if p is not None
            for start, end in p.words]


def _speaker(paragraph: _Paragraph, previous: list[_Paragraph], runs_on: bool,
             gender: Mapping[str, str]) -> str:
    """Who says the paragraph's words, after the `previous` speaking paragraphs (see the module
    docstring); `runs_on`: the last one's words went on into this one."""
    if len(paragraph.named) == 1:
        return next(iter(paragraph.named))
    if paragraph.named:
        return ""  # two tags: words of two people in one paragraph
    if runs_on and previous:
        return previous[-1].speaker if not paragraph.pronoun else ""
    if paragraph.acting:
        return ""

    def fits(name: str) -> bool:  # "she said" is no man's
        return bool(name) and (not paragraph.pronoun or gender.get(name, "") in ("", paragraph.pronoun))

    last = previous[-1] if previous else None
    if last is not None and fits(last.addressed) and last.addressed != last.speaker:
        return last.addressed
    if len(previous) >= 2:
        before = previous[-2]
        if (before.speaker and last is not None and last.speaker
                and before.speaker != last.speaker and fits(before.speaker)):
            return before.speaker
    return ""


SCENE_LINES = 6
"""How many lines back (speaking or telling) a pronoun tag looks for the one person of its
gender."""


def _of_the_scene(paragraph: _Paragraph, scene: list[tuple[str, frozenset[str]]], last: str,
                  gender: Mapping[str, str]) -> str:
    """For a pronoun tag the rules above leave open, the one person of its gender in the scene:
    the last SCENE_LINES lines' speakers and the people their telling names. In Emma's ch. 49
    only Mr. Knightley speaks to Emma, so his is “I cannot make speeches, Emma:” he soon resumed.
    Not the one who spoke the words right before, with no telling between (turns alternate:
    "No; my feelings are not often shared …"--As she said this: Marianne answering Elinor), nor
    the one the words call by name ("No, dear Morcerf"); no one where the paragraph's telling
    names someone (its own to say), where two of that gender are in the scene ("Albert remained
    silent … Château-Renaud contented himself … “Are we not going?” said he"), or where words
    in it are nobody's yet (“Here is Barton valley,” said she: Marianne, whose words before
    were left open, not Elinor)."""
    window = scene[-SCENE_LINES:]
    if not paragraph.pronoun or paragraph.named or paragraph.acting or any(
            not who for who, _ in window):
        return ""
    people = {n for who, named in window for n in (who, *named)}
    same = {n for n in people if gender.get(n) == paragraph.pronoun and n != last}
    who = same.pop() if len(same) == 1 else ""
    return "" if who == paragraph.addressed else who


def _named_by_line(text: str, spans: Sequence[tuple[int, int, str]]) -> list[frozenset[str]]:
    """The people each line of `text` names (as `_paragraphs` reads lines)."""
    found, at = [], 0
    for line in text.split("\n"):
        start, at = at, at + len(line) + 1
        found.append(frozenset(n for a, b, n in spans if start <= a and b <= at - 1))
    return found


def _paragraphs(text: str, spans: Sequence[tuple[int, int, str]],
                gender: Mapping[str, str]) -> list[_Paragraph | None]:
    """Each line of `text` read as a paragraph; None for one with no quoted words, unless it
    ends with a verb of speech, which tags the next one's (Emma laughed, and replied,)."""
    found: list[_Paragraph | None] = []
    at = 0
    for line in text.split("\n"):
        start, at = at, at + len(line) + 1
        marks = [start + m.start() for m in _QUOTE.finditer(line)]
        if not marks:
            told = [(start, start + len(line))]
            people = [(a, b, n) for a, b, n in spans if start <= a and b <= start + len(line)]
            named, pronoun = _tags(text, told, people, gender, start, start + len(line) + 1)
            found.append(_Paragraph([], False, named, pronoun, "", bool(people))
                         if (named or pronoun) and _SAYS_LAST.search(line) else None)
            continue
        opening = marks[::2]
        closing = [*marks[1::2], start + len(line)][:len(opening)]  # the last may run on
        words = [(a + 1, b) for a, b in zip(opening, closing, strict=True)]
        told = _telling(start, start + len(line), words)
        people = [(a, b, n) for a, b, n in spans if start <= a and b <= start + len(line)
                  and any(x <= a and b <= y for x, y in told)]
        named, pronoun = _tags(text, told, people, gender, start, start + len(line))
        acting = {n for *_, n in people}
        if not named and pronoun:
            # "…this was opposed by Tom Bertram … “It falls …,” said he": the one man named
            named = {n for n in acting if gender.get(n) == pronoun}
            # one of no known gender, if they open a sentence of the telling ("Gombauld
            # dropped his cigarette end"; not "…they fell on Denis's upturned face")
            maybe = {n for a, _, n in people if not gender.get(n) and _OPENS.search(
                text, max(start, a - 3), a) or (not gender.get(n) and a == start)}
            named = named if len(named) == 1 and not maybe else (
                maybe if len(maybe) == 1 and not named else set())
        found.append(_Paragraph(words, len(marks) % 2 == 1, named, pronoun,
                                _addressed(text, words[-1], spans), bool(acting),
                                frozenset(acting)))
    return found


def _tags(text: str, told: list[tuple[int, int]], people: Sequence[tuple[int, int, str]],
          gender: Mapping[str, str], start: int, end: int) -> tuple[set[str], str]:
    """(the people a line's speech tags name, the gender of a pronoun tag or ''). A tag stands
    right after words (“…,” said Mrs. Jennings; “…,” Elinor answered; “…,” he replied), or
    ends the telling's clause right before them (Elinor, after a short silence, said, “…”), unless
    a pronoun opens that clause ("He coloured …, and giving a glance at Elinor, replied, “…”":
    he, not Elinor)."""
    named: set[str] = set()
    pronoun = ""
    for x, y in told:
        inside = [(a, b, n) for a, b, n in people if x <= a and b <= y]
        if x > start:  # right after words
            if (tag := _PRONOUN_AFTER_WORDS.match(text, x, y)) is not None:
                pronoun = pronoun or _PRONOUN_GENDER[(tag["a"] or tag["b"]).lower()]
            elif inside and (lead := _LEAD.fullmatch(text, x, inside[0][0])) is not None and (
                    lead["verb"] or (_NAMED_AFTER.match(text, inside[0][1])
                                     and not _NOT_SPEAKING.match(text, inside[0][1]))):
                named.add(inside[0][2])
        if (x > start and y < end and {n for *_, n in people} == {n for *_, n in inside}
                and len(inside) == 1 and told[0][0] > start
                and not text[x:inside[0][0]].strip(" ,;:—-")):
            # between words of a line that opens with them, a beat that opens with the one
            # person the line's telling names: “Did he?” Jenny lowered her voice. “Shall I tell
            # you what I think of that man?” (not a reaction after the last words, “…” Marianne
            # said no more; not a line of telling that quotes: “…”--Mr. Elton was appealed to)
            named.add(inside[0][2])
        if y < end and _SAYS_LAST.search(text, x, y):  # right before words
            clause = max([x, *(m.end() for m in _CLAUSE_END.finditer(text, x, y))])
            subject = _OPENING_PRONOUN.match(text, clause, y)
            who = {n for a, b, n in inside if a >= clause}
            if subject:  # "He …, glancing at Elinor, replied": he speaks, whoever else is named
                pronoun = pronoun or _PRONOUN_GENDER[subject[1].lower()]
            elif len(who) == 1:
                named |= who
    return named, pronoun


def _telling(start: int, end: int, words: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The stretches of a line between its quoted words."""
    edges = [start, *(x for pair in words for x in (pair[0] - 1, pair[1] + 1)), end]
    return [(a, b) for a, b in zip(edges[::2], edges[1::2], strict=True) if b > a]


_CALLED_FIRST = re.compile(en.CALLED_FIRST, re.I)
_CALLED_LAST = re.compile(r"^[\s?!.,]*$")
_LISTED = re.compile(en.LISTED_AFTER)
_GOES_ON = re.compile(r"[,;]\s*(?:[a-z]|I\b)")
"""A comma after a name and a word that goes on with the sentence ("…, Mr. Willoughby, for
you to relate"), unless it goes on with a list (`en.LISTED_AFTER`)."""
_CALLED_AFTER_COMMA = re.compile(en.CALLED_AFTER_COMMA, re.I)


def _addressed(text: str, words: tuple[int, int], spans: Sequence[tuple[int, int, str]]) -> str:
    """The one the words call by name: as their first words ("Miss Dashwood, you will…"), or
    after a comma, before another comma or the words' end ("It is hardly worth while, Mr.
    Willoughby, for you to relate", "…, Miss Dashwood?"); '' for none, or for two."""
    start, end = words
    called = set()
    for a, b, name in spans:
        if not (start <= a and b <= end):
            continue
        first = _CALLED_FIRST.match(text[start:a]) and text[b:b + 1] in (",", "!")
        between = _CALLED_AFTER_COMMA.search(text, start, a) and (
            _CALLED_LAST.match(text[b:end])
            or (_GOES_ON.match(text, b) and not _LISTED.match(text, b)))
        if first or between:
            called.add(name)
    return next(iter(called)) if len(called) == 1 else ""
