"""The text toolkit: sentences, Latin folding and English stems, in one place.

`sentences` is the one sentence splitter. Its rules differ where their callers' figures were
measured with the difference (a quote's gist ignores line breaks, the librarian's rules never end
a sentence at an English full stop); merging two rules moves those figures, so a rule is named
here rather than changed. `stem` is the one English stemmer, with the librarian's prefix match
beside Snowball.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any, Literal, NamedTuple

from stores.lang import LANGUAGES, has_han, language, zh

SentenceRule = Literal["story", "quote", "chunk", "clause", "between", "head", "mark"]
"""How `sentences` cuts a text:

- story: the sentences of a story as written (the default). 。！？…, .!? and the like end one,
  with one closing quote; a line break ends one too (a script's dialogue); a title's or an
  initial's full stop (M. Noirtier, Mr. Darcy) does not.
- quote: what a one-line gist or a quote is cut from. Line breaks are read as spaces; 。！？!?
  and ；; end a sentence or a clause, with the closing quotes and brackets after them; an
  English full stop ends one only before a space, and a title's or an initial's does not
  ("the wife of Mr. Collins" is one). Texts are stripped.
- chunk: where chunking may cut a long paragraph. Runs of 。！？!?；;… end one, and a full stop
  before a space or the end, but not a title's or an initial's (Mr. Rushworth); closing quotes
  and brackets and the spaces after stay with it (the pieces glue back into the paragraph).
  Line breaks do not end one.
- clause: the librarian's quoted sentences. A line break and 。！？!?；; end one, with one closing
  quote; an English full stop does not (its answer figures were measured so). Texts stripped.
- between: the librarian's test of what shares a sentence: the runs between 。！？!?；; and line
  breaks, without the marks (an English full stop does not end one either).
- head: an answer's leading statement. 。！？!?；; end one, and a full stop after two letters
  followed by a space; texts stripped.
- mark: a description's first sentences (who someone is). Every 。！？.!? ends one, titles'
  full stops too; line breaks do not; the pieces are as written, blank ones included (joined
  they give the text back).
"""


class Sentence(NamedTuple):
    """A sentence of a text: where it starts and ends in it, and its text as the rule gives it
    (stripped for some rules)."""

    start: int
    end: int
    text: str


_CLOSING = "”’」』）》\"'"
"""Closing quotes and brackets: they end the sentence they close, never begin the next one."""
_QUOTE_BREAK = re.compile(rf"(?<=[。！？!?；;])(?![{_CLOSING}])(?![ \t]*\.[ \t]\.)(?!(?:--|—)[a-z])|(?<=[。！？!?；;][{_CLOSING}])(?!,)"
                          rf"|(?<=[.!?])(?<!\.\s\.)\s+(?!\.)|(?<=\.\s\.)\s+(?=[A-Z“\"])"
                          rf"|(?<=[.!?][{_CLOSING}])\s+")
_CHUNK_SENTENCE = re.compile(
    r".*?(?:[。！？!?；;…]+|\.(?=\s|$))[”’」』\"'）)\]]*\s*|.+$", re.DOTALL)
_CLAUSE = re.compile(r"[^。！？!?；;\n]+[。！？!?；;]?[”」』\"']?|[^.!?\n]+[.!?]+[\"'”’]?")
_BETWEEN = re.compile(r"[^。！？!?；;\n]+|[^.!?\n]+")
_HEAD_BREAK = re.compile(r"(?<=[。！？!?；;])|(?<=[a-z]{2}\.)\s|(?<=[A-Z]{2}\.)\s")


def reading_rule(text: str) -> SentenceRule:
    """How the librarian cuts a passage it reads: a Chinese one by clauses (。！？；), an English
    one by the story's sentences (a full stop ends one)."""
    return "clause" if has_han(text) else "story"


def sentences(text: str, rule: SentenceRule = "story") -> list[Sentence]:
    """The sentences of `text`, in order, as `rule` cuts them (see `SentenceRule`); blank ones
    are left out, except by the `chunk`, `between` and `mark` rules, which give every piece."""
    if rule == "story":
        return [Sentence(start, end, text[start:end]) for start, end in _story(text)]
    if rule == "quote":
        flat = text.replace("\n", " ")
        abbreviation = _story_patterns()[1]
        return _split(flat, (cut for cut in _QUOTE_BREAK.finditer(flat) if not abbreviation.search(
            flat, max(0, cut.start() - 8), cut.start())))
    if rule == "head":
        return _split(text, _HEAD_BREAK.finditer(text))
    if rule == "mark":
        return _split(text, _mark_break().finditer(text), strip=False)
    if rule == "clause":
        return [Sentence(m.start(), m.end(), m.group(0).strip()) for m in _CLAUSE.finditer(text)]
    if rule == "chunk":
        return _chunk_sentences(text)
    return [Sentence(m.start(), m.end(), m.group(0)) for m in _BETWEEN.finditer(text)]


def _chunk_sentences(text: str) -> list[Sentence]:
    """The `chunk` rule's pieces; a title's or an initial's full stop ends none, so a passage
    never ends inside a sentence at "Mr." (Mansfield Park's "and as a marriage with Mr." ended
    one, and its answer quoted that much: a newcomer's trial)."""
    found: list[Sentence] = []
    start = 0
    for m in _CHUNK_SENTENCE.finditer(text):
        if m.end() < len(text) and ends_with_abbreviation(m.group(0).rstrip()):
            continue  # goes on into the next piece
        found.append(Sentence(start, m.end(), text[start:m.end()]))
        start = m.end()
    if start < len(text):
        found.append(Sentence(start, len(text), text[start:]))
    return found


@cache
def _story_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    marks = "".join(dict.fromkeys("".join(language(c).sentence_end for c in LANGUAGES)))
    words = "|".join(w for c in LANGUAGES for w in language(c).abbreviations)
    return (re.compile(f"[{re.escape(marks)}]+[”’\"']?|\n"),
            re.compile(rf"(?:^|\W)(?:{words}|[A-Z])\.$"))


def ends_with_abbreviation(text: str) -> bool:
    """Whether the text ends with a title's or an initial's full stop (Mr., M., Mrs.), which
    does not end a sentence."""
    return _story_patterns()[1].search(text, max(0, len(text) - 8)) is not None


_SPEECH_GOES_ON = re.compile(r"[?!][”’\"']?(?:\s+[a-z]|,)|[?!](?:--|—)[a-z]")
"""“What is that?” asked he: a question or a cry that the telling goes on after, in lower
case or after a comma ("Mr. Samsa!", shouted the middle gentleman), or after a dash ("that
fellow--what's his name?--the brickmaker, will make"), ends no sentence (quoted alone, “asked
he of Edmond.” says nothing, and "--the brickmaker, will make a readable report" is no one's)."""


_SPACED_ELLIPSIS = re.compile(r"\.(?:[ \t]\.){2,}")
"""An ellipsis written with spaces (". . .", Conrad's): one mark, not three full stops."""
_GOES_ON = re.compile(r"[ \t]*(?:[a-z,;—-]|$)")
"""What follows an ellipsis inside a sentence: lower case, a comma, or the end of a line."""
_ELLIPSIS_NEXT = re.compile(r"[ \t]*\.[ \t]\.")
"""A spaced ellipsis right after a mark ("Good Lord! . . . Here"): the mark ends nothing."""


def _story(text: str) -> Iterator[tuple[int, int]]:
    end_of_sentence, abbreviation = _story_patterns()
    # ". . . Russian . . . son of an arch-priest": each dot ended a sentence, and an answer
    # opened on "Russian ." (a newcomer's trial on Heart of Darkness)
    inside = {at for e in _SPACED_ELLIPSIS.finditer(text) for at in range(e.start(), e.end())
              if at < e.end() - 1 or _GOES_ON.match(text, e.end())}
    start = 0
    for end in end_of_sentence.finditer(text):
        if end.start() in inside or _ELLIPSIS_NEXT.match(text, end.end()):
            continue  # "Good Lord! . . . Here": the ellipsis after the cry ends it
        if abbreviation.search(text, max(0, end.end() - 8), end.end()):
            continue
        if _SPEECH_GOES_ON.match(text, end.start(), end.end() + 8):
            continue
        if text[start:end.end()].strip():
            yield start, end.end()
        start = end.end()
    if text[start:].strip():
        yield start, len(text)


@cache
def _mark_break() -> re.Pattern[str]:
    marks = "".join(dict.fromkeys("".join(language(c).sentence_end for c in LANGUAGES)))
    return re.compile(f"(?<=[{re.escape(marks)}])")


def _split(text: str, breaks: Iterable[re.Match[str]], strip: bool = True) -> list[Sentence]:
    """The pieces between the `breaks` (matches in `text`, as `re.split` cuts): stripped and
    non-blank, or (not `strip`) all of them as they are."""
    found, start = [], 0
    for cut in [*breaks, None]:
        end = len(text) if cut is None else cut.start()
        piece = text[start:end]
        if not strip:
            found.append(Sentence(start, end, piece))
        elif piece.strip():
            lead = len(piece) - len(piece.lstrip())
            stripped = piece.strip()
            found.append(Sentence(start + lead, start + lead + len(stripped), stripped))
        if cut is not None:
            start = cut.end()
    return found


# -- words ----------------------------------------------------------------------------------------
QUOTES = (("“", "”"), ("「", "」"), ("『", "』"), ('"', '"'))
"""Quotation marks, each opening one with its own closing one: the one table every rule that
finds a quotation reads. A book's title marks (《》) are not among them, nor English single
quotes, which are apostrophes as often (a rule that wants either says so)."""
OPENING_QUOTES = "".join(dict.fromkeys(opening for opening, _ in QUOTES))
CLOSING_QUOTES = "".join(dict.fromkeys(closing for _, closing in QUOTES))
QUOTE_MARKS = "".join(dict.fromkeys(OPENING_QUOTES + CLOSING_QUOTES))
QUOTATION = re.compile("|".join(f"{re.escape(opening)}([^{re.escape(closing)}]*)"
                                f"{re.escape(closing)}" for opening, closing in QUOTES))
"""A quotation, marks included, each closed by its own mark; `quoted_words` gives its words."""


_PAIRED = [(opening, closing) for opening, closing in QUOTES if opening != closing]


_CLAUSES = re.compile(r"[，。；！？、,;!?]")


def is_verse(text: str) -> bool:
    """Clauses all of five or of seven Han characters, two or more: a line of a poem (茅庐三顾心
    相知; a novel's poems sum a scene up in allusions rather than tell it)."""
    clauses = [c.strip("“”「」 ") for c in _CLAUSES.split(text) if c.strip("“”「」 ")]
    return len(clauses) >= 2 and len({len(c) for c in clauses}) == 1 and len(clauses[0]) in (5, 7)


_QUOTE_MARK = re.compile(r"[“”「」『』\"]")
_OPENING = "“「『\""
VERSE_LINES = 4
"""An unquoted stretch is verse only with this many lines (a quatrain)."""


def in_verse(text: str, at: int) -> bool:
    """The position stands in a line of verse: the stretch of the sentence between quotation
    marks that holds it is verse (`is_verse`: …诗曰：“鱼鸟犹疑畏简书，风云长为护储胥。” — the
    words that bring the poem in are not; 曹仁字子孝，曹洪字子廉：二人弓马熟娴 is prose)."""
    bounds = [0, *(m.end() for m in _QUOTE_MARK.finditer(text)), len(text) + 1]
    for start, end in zip(bounds, bounds[1:], strict=False):
        if start <= at < end:
            stretch = text[start:end]
            # quoted, or four lines or more: two clauses of seven side by side are often prose
            # (苏绾拔出断鸿剑，挡在了师父身前。)
            quoted = start > 0 and text[start - 1] in _OPENING
            return is_verse(stretch) and not any(c in zh.VERNACULAR for c in stretch) and (
                quoted or len(_CLAUSES.split(
                stretch.strip("“”「」『』\"。 "))) >= VERSE_LINES)
    return False


def in_verse_lines(text: str, at: int) -> bool:
    """The position of a passage stands in a poem written a couplet a line, unquoted
    (南阳三顾情何深，卧龙一见分寰宇；): its line is one of a run of verse lines of four lines or
    more, which `in_verse`, reading one sentence, does not see."""
    start = text.rfind("\n", 0, at) + 1  # the line holding `at`, read first: most are prose
    end = text.find("\n", at)
    if not _verse_line(text[start:end if end >= 0 else len(text)]):
        return False
    lines = text.split("\n")
    here = text.count("\n", 0, at)
    first, last = here, here
    while first > 0 and _verse_line(lines[first - 1]):
        first -= 1
    while last + 1 < len(lines) and _verse_line(lines[last + 1]):
        last += 1
    return sum(len(_CLAUSES.split(line.strip("。 "))) for line in lines[first:last + 1]) >= VERSE_LINES


def _verse_line(line: str) -> bool:
    return is_verse(line) and not any(c in zh.VERNACULAR for c in line)


def inside_quotation(text: str, at: int) -> bool:
    """Whether position `at` stands inside a quotation opened before it (someone's words, not
    the telling): more paired opening marks than closing ones before it (“「『 against ”」』;
    a straight quote opens and closes alike, so it is not counted)."""
    before = text[:at]
    return (sum(before.count(opening) for opening, _ in _PAIRED)
            > sum(before.count(closing) for _, closing in _PAIRED))


def in_someones_words(text: str, at: int) -> bool:
    """Whether position `at` of a passage stands inside a character's words: a quotation opened
    before it (`inside_quotation`), or an odd number of straight quotes before it (a passage
    opens in the telling), counted from the start of its paragraph (a passage's line). A speech
    of several paragraphs opens each with a quotation mark and closes only the last, so a mark
    left open at a paragraph's end says nothing of the next: Heart of Darkness, Marlow's tale
    told in quotes from end to end, closes it before "Marlow ceased, and sat apart", which was
    read as words of his and left out of his card's appearances."""
    start = text.rfind("\n", 0, at) + 1  # a passage's paragraph is a line
    return inside_quotation(text[start:at], at - start) or text.count('"', start, at) % 2 == 1




def quoted_words(match: re.Match[str]) -> str:
    """The words inside a `QUOTATION` match, without the marks."""
    return next((g for g in match.groups() if g is not None), "")


def first_quotation(text: str) -> re.Match[str] | None:
    """The first quotation in `text` with words in it."""
    return next((m for m in QUOTATION.finditer(text) if quoted_words(m)), None)


def sentence_start(text: str, pos: int) -> int:
    """Where the sentence holding `pos` starts, as the Chinese patterns read it: after the last
    。！？!? or line break before `pos` (an English full stop is a name's as often)."""
    return max(text.rfind(end, 0, pos) for end in "。！？!?\n") + 1


_SENTENCE_OPENS = re.compile(r"(?:^|[.!?:;\"“”‘—(\[]\s*|\n\s*)$")


def opens_sentence(before: str) -> bool:
    """Whether a word after `before` starts a sentence, a quotation or what follows a colon or a
    dash, where English capitalises any word (the name tagger then needs it seen elsewhere)."""
    return _SENTENCE_OPENS.search(before) is not None


_CLAUSE_END = re.compile(r"[。．；;！!？?\n]|[，,：:](?=\s*\S)|\.\s")


def first_clause(text: str) -> str:
    """`text` up to its first clause break (。；！？, a comma or colon with more after it, a full
    stop and a space): 关羽（关云长）。… → 关羽（关云长）; a title's full stop is no break
    (Mr. Collins, within days … → Mr. Collins)."""
    for match in _CLAUSE_END.finditer(text):
        if not (match.group(0).startswith(".") and ends_with_abbreviation(text[:match.start() + 1])):
            return text[:match.start()].strip()
    return text.strip()


def han_in(word: str, text: str) -> bool:
    """The Han word is in the text, or (two characters) both of them within three of each
    other in either order: classical Chinese splits and turns words (温酒 → 酒尚温时, 下场 →
    下得场来). On the whole 三国演义 this keeps 温酒, 下场 and 临死 and still misses 电脑,
    型号, 美国, 留学 and 专业."""
    if word in text:
        return True
    if len(word) != 2:
        return False
    a, b = map(re.escape, word)
    return re.search(f"{a}.{{0,2}}{b}|{b}.{{0,2}}{a}", text) is not None


def fold_latin(word: str) -> str:
    """Lowercase and strip accents: 'Dantès' → 'dantes', 'Mercédès' → 'mercedes'."""
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


PREFIX_STEM = 5
"""Latin words match on at least this many leading letters, and long words on all but their
last three (a cheap stemmer: marri-ed/-age, denounc-ing/-ed; smartphone is not smart)."""


class _Snowball(threading.local):
    """One PyStemmer stemmer per thread, made on first use: a stemmer keeps a cache and is not
    safe to share between threads."""

    stemmer: Any = None


_SNOWBALL = _Snowball()


def stem(word: str, *, prefix: bool = False) -> str:
    """The English stem of a folded word: Snowball's (what the keyword index and its queries
    store: married → marri, denouncing → denounc), or with `prefix` the leading letters a word
    is matched on against a world's words (died → die, married → marri, Pharaon → phara), which
    also folds it."""
    if prefix:
        word = fold_latin(word)
        if len(word) > PREFIX_STEM:  # long words keep more: smartphone is not smart
            return word[:max(PREFIX_STEM, len(word) - 3)]
        if len(word) <= 4:  # find is not fin- (fingers), kill not kil-: Snowball's (died → die)
            return stem(word) if len(stem(word)) >= 3 else word
        return word[:max(3, len(word) - 1)]
    if _SNOWBALL.stemmer is None:
        import Stemmer

        _SNOWBALL.stemmer = Stemmer.Stemmer("english")
    return str(_SNOWBALL.stemmer.stemWord(word))


def holds_word(text: str, word: str, folded: str | None = None) -> bool:
    """The text holds the word: a Han word as `han_in` finds it, a Latin word in any inflection
    (its leading letters, `stem(prefix=True)`, opening one of the text's words: celebration ←
    celebrated). `folded`: the text already folded (`fold_latin`), for a long text read often."""
    if has_han(word):
        return han_in(word, text)
    folded = fold_latin(text) if folded is None else folded
    return re.search(rf"\b{re.escape(stem(word, prefix=True))}", folded) is not None


def word_starts(text: str, word: str) -> list[int]:
    """Where the text holds the word as `holds_word` finds it (a Han word written whole)."""
    if has_han(word):
        return [m.start() for m in re.finditer(re.escape(word), text)]
    folded = fold_latin(text)
    if len(folded) != len(text):  # a letter that folds to two: offsets no longer line up
        folded = text.lower()
    return [m.start() for m in re.finditer(rf"\b{re.escape(stem(word, prefix=True))}", folded)]


_FULL_WIDTH_ALNUM = {code: code - 0xFEE0 for block in ((0xFF10, 0xFF1A), (0xFF21, 0xFF3B),
                                                       (0xFF41, 0xFF5B)) for code in range(*block)}
"""Full-width digits and Latin letters (Ｓｈｅｎ Ｙａｎ, ２) → ASCII."""
_FULL_WIDTH_ASCII = {**{code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}, 0x3000: 0x20}
"""Every full-width ASCII character and the ideographic space → ASCII: for a question without
Han, whose ？ and ， are no Chinese punctuation (Ｗｈｏ ｉｓ Ｓｕ Ｗａｎ？)."""
_ZWJ = "\u200d"


def normal_text(text: str) -> str:
    """What a user typed, as the world's text spells it: composed (NFC), full-width Latin
    letters and digits as ASCII (with Han about, full-width punctuation is how Chinese is
    written and stays; without, it goes to ASCII too), and no invisible format characters
    (zero-width spaces, word joiners, soft hyphens, bidi marks: Unicode's Cf) — inside a name
    they hid it from every search, and a question of nothing else was saved as an invisible
    turn. A zero-width joiner between two symbols (an emoji sequence) stays."""
    text = unicodedata.normalize("NFC", text)
    text = text.translate(_FULL_WIDTH_ALNUM if has_han(text) else _FULL_WIDTH_ASCII)
    kept = []
    for i, ch in enumerate(text):
        joins_symbols = (ch == _ZWJ and 0 < i < len(text) - 1 and not text[i - 1].isalnum()
                         and not text[i + 1].isalnum())
        if unicodedata.category(ch) != "Cf" or joins_symbols:
            kept.append(ch)
    return "".join(kept)
