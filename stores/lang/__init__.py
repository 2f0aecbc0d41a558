"""The words of the languages the stories are written in: one module per language.

Every rule that reads Chinese or English text (the ingest's name rules in stores/entities, the
readers' headings, the keyword index, the librarian's question analysis and follow-ups) takes
its words from here, so a kin word or a title is added in one place. `zh.py` and `en.py` each
hold one table per concept; `script_of` tells which one a text is written in, with the one
definition of a Han character; `text.py` holds the one sentence splitter and English stemmer;
`asking.py` and `referring.py` the librarian's grammar of questions and follow-ups, in both.

A third language is one new module with a `LANGUAGE` and its code in `LANGUAGES`.
This package imports nothing from the project: every layer may use it.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

Script = Literal["zh", "en"]

HAN_RANGES = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff"
"""Han characters: CJK unified ideographs (the basic block, extension A, extensions B and
beyond) and the compatibility ideographs. The one definition every rule uses."""
HAN = re.compile(f"[{HAN_RANGES}]")
WIDE = re.compile("[\u1100-\u115f\u2e80-\u303f\u3040-\ua4cf\uac00-\ud7a3\uf900-\ufaff"
                  "\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\U00020000-\U0003fffd]")
"""Characters a terminal draws two cells wide (Han, kana, hangul, full-width forms)."""


def is_han(ch: str) -> bool:
    """Whether one character is a Han character."""
    return HAN.match(ch) is not None


def has_han(text: str) -> bool:
    """Whether the text has a Han character in it."""
    return HAN.search(text) is not None


def script_of(text: str) -> Script:
    """The script a text is written in: 'zh' as soon as one Han character appears, else 'en'."""
    return "zh" if has_han(text) else "en"


@dataclass(frozen=True)
class Language:
    """The concept tables one language gives its rules. Words are plain strings or tuples, and
    patterns are regex sources without flags; each user builds its own set or pattern from
    them (see the modules for the grammar)."""

    code: Script
    kin_words: tuple[str, ...]
    """Words for how two people are related, searched within a pair's passages."""
    death_words: tuple[str, ...]
    """Ways a story says someone died."""
    dying_words: tuple[str, ...]
    """Death words plus the ways of being killed a passage tells a death with."""
    question_words: Mapping[str, str]
    """Patterns of the words that ask each kind of question: who (about a person: 谁, whose,
    叫什么名字), person_named (for a person's name as the answer: 谁, 哪个, who, whom), many
    (several people), where, what, which_chapter, dies, number (how many, 多少)."""
    sentence_end: str
    """Characters that end a sentence."""
    stopwords: frozenset[str] = frozenset()
    """Words too common to search for."""
    abbreviations: tuple[str, ...] = ()
    """Words whose full stop does not end a sentence (M. Noirtier, Mr. Darcy)."""
    not_in_text: str = ""
    """Pattern of what a reader writes to say the text does not tell (a model's refusal)."""
    relation_words: Mapping[str, str] = field(default_factory=dict)
    """How the language names each relation type of the graph (sworn_sibling → 结义兄弟)."""
    relative_words: Mapping[tuple[str, str, str], str] = field(default_factory=dict)
    """(relation type, which end: source / target / either, gender m / f / "") → the word for
    that end (parent_of, source, m → father; spouse, either, f → 妻子)."""
    relative_sentence: str = ""
    """How one says who someone is to another: "{who} is {whose}'s {word}"."""
    seniority: tuple[str, str] = ("", "")
    """Patterns of the words that make a sibling the elder and the younger (兄, 姐 / 弟, 妹;
    elder / younger): what 孙权的哥哥 asks for, and what 孙权弟孙翊 calls 孙翊."""
    adoptive: str = ""
    """A pattern of the words that make a parent or a child one by adoption (义子, 义父;
    adopted, foster): the text's word, which says more than 儿子 or father."""
    spoken_kin: Mapping[str, str] = field(default_factory=dict)
    """A kin word as a sentence of the text writes it → as an answer says it (侄 → 侄子)."""
    kin_of_kin: Mapping[tuple[str, str, str], str] = field(default_factory=dict)
    """(kin two steps away — grandparent, grandchild, uncle, nephew, parent_in_law,
    child_in_law, sibling_in_law, sibling —, the gender of the one between, the gender of the
    one named; "" for either) → the word (grandparent, m, f → 祖母; f, m → 外祖父): see
    agent/librarian/relations.py for the steps each stands for."""
    path_sentence: str = ""
    """How one says two relations through a third person: "{first}, and {second}"."""
    because_sentence: str = ""
    """How one says a relation, then the relations it follows from: "{said}: {why}"."""
    pair_words: Mapping[tuple[str, str, str], str] = field(default_factory=dict)
    """(relation type, the source's gender, the target's gender; "" unknown) → what the two
    are together, where the language says it in a word (parent_of, m, m → 父子; spouse → 夫妻)."""
    pair_sentence: str = ""
    """How one says what two are together after saying who one is to the other: "二人是{pair}"."""
    fathers_surname: bool = False
    """A child bears the father's surname and a mother keeps her own (Chinese: 王夫人's son is
    贾宝玉), so a parent of the child's surname whose gender the text does not show is the
    father. Not English, where a wife takes her husband's name."""
    role_before: str = ""
    """Pattern of an office, title, role or kinship written right before a name, ending where
    the name starts, (?P<role>…) the words to keep (丞相曹操, 孙坚长子孙策, the banker Danglars,
    neighbour Caderousse): what an entity card says someone is. (?P<whose>…), when present, is
    the relative named before the kin word."""
    referring_role: str = ""
    """Pattern of a role noun that stands for a person of the story, (?P<role>…) the noun (the
    banker, the steward: not 'the banker Danglars', which `role_before` reads)."""
    not_roles: frozenset[str] = frozenset()
    """Words the role pattern may catch that are not roles (the language's stopwords)."""
    introduction: str = ""
    """Pattern of a sentence that introduces a person by the parts of their name (姓刘名备字玄德),
    (?P<surname>…)(?P<given>…) giving the name it introduces."""
    defining: tuple[tuple[str, str], ...] = ()
    """(kind, pattern) of the words right after a name that introduce or define it: courtesy
    (「，字玄德」), copula (「乃…之子」, "is the daughter of…"), origin (「…人也」), apposition
    (", the banker of…"); each pattern's (?P<what>…) is the defining part."""
    described_before: str = ""
    """Pattern of a description written right before a name, ending where the name starts
    (Chinese: 间壁的单四嫂子): it says, weakly, who someone is."""
    pronoun_subject: str = ""
    """Pattern of a pronoun opening a sentence as its subject (He, She): such a sentence may go
    on introducing the person the sentence before opened with, when the group that matched, m
    or f, is that person's gender."""
    subordinate: str = ""
    """Pattern of a word opening a clause right before a name ("That Emma was …"): a copula
    after the name says what it is in that clause, not who it is."""
    governed: str = ""
    """Pattern of what stands right before a name that is the object of a preposition ("at a
    sign from Edmond, the rest …"): the words after it are no apposition of the name."""
    identity: str = ""
    """Pattern of a question that asks who or what a named entity is, (?P<name>…) the name
    (X是谁, 谁是X, who is X, tell me about X)."""
    chapter_reference: str = ""
    """Pattern of a reference to a chapter (chapter 8, 第8回): where, not what."""
    asked_noun: str = ""
    """Pattern of a question asking for one of a kind of person or place by its noun, (?P<noun>…)
    the noun (which teacher, which of her aunts, in which town, 哪个丫头)."""
    described_as: Callable[[str, str], str] | None = None
    """(noun, alternation of a name's spellings) → pattern of the name called by that noun
    beside it (Koga, teacher of English; the banker Danglars; 丫头晴雯)."""

    def pair_word(self, kind: str, source_gender: str, target_gender: str) -> str:
        """What the two ends of a relation are together ("" when the language has no word)."""
        return (self.pair_words.get((kind, source_gender, target_gender))
                or self.pair_words.get((kind, "", ""), ""))

    def kin_word(self, kin: str, between: str, gender: str) -> str:
        """The word for kin two steps away (`kin_of_kin`), "" when the language has none."""
        for key in ((kin, between, gender), (kin, "", gender), (kin, between, ""), (kin, "", "")):
            if key in self.kin_of_kin:
                return self.kin_of_kin[key]
        return ""

    def telling_word(self, kind: str, end: str, gender: str,
                     other_gender: str) -> tuple[str, bool]:
        """The word for one end of a relation, and False; or, when the text shows no gender
        for that end and does for the other, whose word then says more, the other end's word
        and True (儿子 from 司马昭's end, not 父母 from 司马懿's). ("", False) when the
        language has no word."""
        other = "target" if end == "source" else "source"
        if not gender and other_gender:
            theirs = self.relative_word(kind, other, other_gender)
            if theirs and theirs != self.relative_word(kind, other, ""):
                return theirs, True
        return self.relative_word(kind, end, gender), False

    def relative_word(self, kind: str, end: str, gender: str) -> str:
        """The word for one end of a relation, the gendered one when the gender is known
        ("" when the language has none for this relation)."""
        for key in ((kind, end, gender), (kind, end, ""), (kind, "either", gender),
                    (kind, "either", "")):
            if key in self.relative_words:
                return self.relative_words[key]
        return ""


LANGUAGES = ("zh", "en")
"""The languages with a module here; a third is one module with a `LANGUAGE` and its code."""


def language(code: str) -> Language:
    """A language by its code ('zh', 'en')."""
    if code not in LANGUAGES:
        raise KeyError(f"no stores.lang module for {code!r}; known: {', '.join(LANGUAGES)}")
    return importlib.import_module(f"stores.lang.{code}").LANGUAGE


def language_for(text: str) -> Language:
    """The language whose rules read this text."""
    return language(script_of(text))


@cache
def says_not_in_text() -> re.Pattern[str]:
    """What a reader writes, in any of the languages, to say the text does not tell."""
    return re.compile("|".join(p for code in LANGUAGES if (p := language(code).not_in_text)),
                      re.I)


@cache
def asks(kind: str) -> re.Pattern[str]:
    """The words that ask a kind of question (who, person_named, many, where, what,
    which_chapter, dies) in any of the languages, case-insensitive."""
    if kind == "identity":
        return re.compile("|".join(f"(?:{language(code).identity})" for code in LANGUAGES),
                          re.I)
    return re.compile("|".join(language(code).question_words[kind] for code in LANGUAGES), re.I)


@cache
def chapter_references() -> re.Pattern[str]:
    """Chapter references in any of the languages (chapter 8, ch. 7, 第8回), case-insensitive."""
    return re.compile("|".join(f"(?:{language(code).chapter_reference})" for code in LANGUAGES),
                      re.I)


_MANY_OF = re.compile(r"哪[几二三四五六七八九两]")
"""哪几个人, 哪三位: several people, though 几 also asks for a number."""


def asked_thing(question: str) -> str | None:
    """What one thing the question asks for — "person" (谁, who), "place" (哪里, where),
    "number" (多少, how many) or "name" (叫什么, what is … called) — or None when it asks for
    no one thing (why, how, what happened, which several people, which chapter, a part of
    someone's own name)."""
    if asks("which_chapter").search(question) or asks("name_part").search(question):
        return None  # a chapter, or a part of someone's own name (his first name, 曹操的字)
    if asks("number").search(question) and not _MANY_OF.search(question):
        return "number"
    if asks("many").search(question):
        return None
    if asks("where").search(question):
        return "place"
    if asks("person_named").search(question):
        return "person"
    if asks("who").search(question):
        return "name"
    return None


def asked_noun(question: str) -> str | None:
    """The noun of the person or place a question asks for (Which teacher …? → teacher, Which of
    Elizabeth's aunts …? → aunt, 哪个丫头 → 丫头), lower-cased; None when it names none."""
    found = re.search(language_for(question).asked_noun or "(?!)", question, re.I)
    noun = found.group("noun") if found else None
    return noun.lower() if noun else None


def described_as(noun: str, forms: Sequence[str], script: Script) -> re.Pattern[str]:
    """A name, in any of its `forms`, called by `noun` beside it, in text of `script`."""
    build = language(script).described_as
    if build is None or not forms:
        return re.compile("(?!)")
    spelled = "|".join(re.escape(f) for f in sorted(set(forms), key=len, reverse=True))
    return re.compile(build(re.escape(noun), spelled), re.I)


_CLAUSE_END = re.compile(r"[，,；;：:、—]")


def clip(sentence: str, limit: int) -> str:
    """A sentence of at most `limit` characters for a quote, as written (so it stays words of
    the passage): whole when it fits, else cut at its last clause boundary (a comma, a
    semicolon) or space before the limit, never inside a word. `shown` marks the cut."""
    if len(sentence) <= limit:
        return sentence
    cuts = [m.start() for m in _CLAUSE_END.finditer(sentence, limit // 3, limit)]
    cut = cuts[-1] if cuts else max(sentence.rfind(" ", limit // 3, limit),
                                    sentence.rfind("\n", limit // 3, limit))
    return sentence[:cut if cut > 0 else limit].rstrip()


_CLAUSE_START = re.compile(r"(?:[，,；;：:—]|--)\s*")
_CLAUSE_OR_SENTENCE = re.compile(r"[，,；;：:—]|--|[。.!?！？](?=\s|$)")
"""Where a clause may start: after a comma, a semicolon, a colon or a dash (— or, in a plain-text
edition, --: "--Robert Martin and Harriet Smith, the latest couple engaged of the three, were
the first to be married" was quoted from "Harriet Smith", who married no one in it)."""


def seniority(text: str) -> str:
    """"elder" or "younger" when the text's kin words make someone the one (哥哥, the elder
    sister, 弟), "" when they make neither or both (兄弟, brothers)."""
    lang = language("zh" if has_han(text) else "en")
    elder, younger = (bool(p and re.search(p, text, re.I)) for p in lang.seniority)
    return "elder" if elder and not younger else "younger" if younger and not elder else ""


def adoptive(word: str) -> bool:
    """Whether a kin word makes someone a parent or a child by adoption (义子, adopted son)."""
    lang = language("zh" if has_han(word) else "en")
    return bool(lang.adoptive and re.search(lang.adoptive, word, re.I))


def clip_through(sentence: str, end: int, limit: int) -> str:
    """The sentence from its start through the clause that holds position `end`: cut at the
    first place a clause may start (`_CLAUSE_START`) or the sentence end after it, else at a
    space, within `limit` characters; whole when it is no longer."""
    cap = min(len(sentence), limit)
    after = _CLAUSE_OR_SENTENCE.search(sentence, end, cap)
    if after:
        return sentence[:after.start()].rstrip()
    return sentence[:cap if cap == len(sentence) else max(sentence.rfind(" ", end, cap),
                                                          end)].rstrip()



def clip_at(sentence: str, at: int, limit: int) -> str:
    """`clip`, keeping what follows position `at` (a name) in a long sentence that writes it
    late: it is quoted from a clause that starts at most half the limit before it."""
    if len(sentence) <= limit or at <= limit // 2:
        return clip(sentence, limit)
    starts = [m.end() for m in _CLAUSE_START.finditer(sentence, at - limit // 2, at)]
    return clip(sentence[starts[0] if starts else at:], limit)


def without_label(sentence: str, label: str) -> str:
    """An entry's sentence without the label it opens with (苏绾：字若汀 → 字若汀), as written
    otherwise (so it stays words of the entry)."""
    for mark in ("：", ":"):
        if label and sentence.startswith(label + mark):
            return sentence[len(label) + 1:].strip()
    return sentence


_WHOLE = re.compile(r"[。！？!?.…；;][”’\"'」』）)\]]*\s*$")


def shown(quote: str) -> str:
    """A quote as a reader sees it: on one line, with "…" where `clip` cut a sentence short,
    and the speech it opened closed (又道：“泓州侯裴昭要这幅图，不是为了祖师的剑。” — the
    sentence ends inside a longer speech)."""
    flat = " ".join(quote.split())
    if flat.endswith(("；", ";")):  # a clause of a longer sentence: 沈砚挂剑五年…
        flat = flat[:-1]
    text = flat if _WHOLE.search(flat) else flat + "…"
    return text + _unclosed(text)


_PAIRS = {"“": "”", "「": "」", "『": "』"}


def _unclosed(text: str) -> str:
    """The closing marks of the quotations `text` opens and does not close, innermost first."""
    open_marks: list[str] = []
    for char in text:
        if char in _PAIRS:
            open_marks.append(char)
        elif open_marks and char == _PAIRS[open_marks[-1]]:
            open_marks.pop()
    return "".join(_PAIRS[mark] for mark in reversed(open_marks))


_INNER_QUOTES = str.maketrans("“”", "‘’")


def in_quotes(quote: str) -> str:
    """A quote as `shown`, in “…”. A line of speech that opens with its own “ is not wrapped
    again (no ““Well,” said he”), and is closed where `clip` cut it inside the speech; speech
    inside a wrapped quote is marked ‘…’, as a quotation within a quotation is (孔明笑曰：‘此计
    大妙。’, not a doubled ”” at the end). A text written with straight quotes opens its speech
    with " as well, its marks taken in turns ("In your language, the Lone Swan. → “In your
    language, the Lone Swan.”; "Yes," said he. → “Yes,” said he., not “"Yes," said he.”)."""
    text = shown(quote)
    if text.startswith('"'):  # "Yes," said he, "I know." → “Yes,” said he, “I know.”
        text = "".join(part + ("“" if n % 2 == 0 else "”")
                       for n, part in enumerate(text.split('"')[:-1])) + text.split('"')[-1]
    if not text.startswith("“"):
        if text.count('"') % 2 and text.endswith('"'):  # the speech it ends: 'sinister."'
            text = text[:-1]
        return "“" + text.translate(_INNER_QUOTES) + "”"
    return text if text.count("“") <= text.count("”") else text + "”"
