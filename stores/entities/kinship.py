"""Relations a story states in so many words: "Noirtier is the father of Villefort", "I am
Haydée, the daughter of Ali Tepelini", 孙坚之子孙策, 以妹嫁刘备.

Co-occurrence says two people share passages; a stated relation says how they are related and
which passage says so, which is what "Who was Haydée's father?" needs. The patterns read a
sentence with its entity mentions marked, so only a word for kin or marriage sitting right
between two names (or a name and "of" + name) counts; anything looser is left to co-occurrence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

_MARK = "\u2063"  # invisible separator: entity marks never clash with the story's text


DIRECTED = frozenset({"parent_of", "mentor"})
"""Relation types with a direction: the parent, the master first. The others are symmetric."""


@dataclass(frozen=True, slots=True)
class Statement:
    """One sentence that states a relation: `source` is `type` of `target` (the parent, the
    master first; spouse, kin and sworn siblings have no direction)."""

    source: str
    target: str
    type: str
    sentence: str


# A word for kin → (relation type, whether the one the word names is the relation's source):
# "A is the father of B" names A the father, so A parent_of B; "A is the daughter of B" names
# A the daughter, so B parent_of A. Spouse, kin and sworn siblings have no direction.
_EN_KIN = {
    **dict.fromkeys(("father", "mother"), ("parent_of", True)),
    **dict.fromkeys(("son", "daughter", "child"), ("parent_of", False)),
    **dict.fromkeys(("wife", "husband", "widow", "bride", "betrothed", "fiancée", "fiancé"),
                    ("spouse", True)),
    **dict.fromkeys(("brother", "sister", "grandfather", "grandmother", "granddaughter",
                     "grandson", "uncle", "aunt", "nephew", "niece", "cousin", "brother-in-law",
                     "sister-in-law", "father-in-law", "mother-in-law", "son-in-law",
                     "daughter-in-law"), ("kin", True)),
}
_ZH_KIN = {
    **dict.fromkeys(("父", "父亲", "母", "母亲"), ("parent_of", True)),
    **dict.fromkeys(("子", "儿子", "长子", "次子", "三子", "四子", "幼子", "女", "女儿", "长女",
                     "次女"), ("parent_of", False)),
    **dict.fromkeys(("妻", "妻子", "夫人", "夫", "丈夫", "夫君"), ("spouse", True)),
    **dict.fromkeys(("兄", "弟", "妹", "姊", "姐", "哥哥", "弟弟", "姐姐", "妹妹", "叔", "侄",
                     "孙", "甥", "婿", "族弟", "堂弟", "从弟"), ("kin", True)),
    **dict.fromkeys(("结义兄弟", "结义弟", "结义兄", "义兄", "义弟"), ("sworn_sibling", True)),
    **dict.fromkeys(("师父", "师傅", "恩师"), ("mentor", True)),
    **dict.fromkeys(("徒弟", "弟子", "门生"), ("mentor", False)),
}


def _alternatives(words) -> str:
    return "|".join(sorted(map(re.escape, words), key=len, reverse=True))


def _entity(role: str) -> str:
    """A marked entity mention whose index is captured as `role`."""
    return f"{_MARK}(?P<{role}>\\d+){_MARK}"


_WORD_EN = f"(?P<word>{_alternatives(_EN_KIN)})"
_WORD_ZH = f"(?P<word>{_alternatives(_ZH_KIN)})"
_QUALIFIER = r"(?:(?:own|eldest|elder|younger|youngest|only|natural|adopted|late|future) )?"
_NAMED, _OF = _entity("named"), _entity("of")

# Patterns with `named`, `of` and `word`: `named` is the `word` of `of`. Patterns with `a` and
# `b` state a marriage.
_EN_PATTERNS = tuple(re.compile(p, re.I) for p in (
    # Noirtier is the father of Villefort; Haydée, the daughter of Ali Tepelini
    _NAMED + r"[,\s]*(?:(?:who|that|which) )?(?:(?:is|was|being|had been|has been) )?"
    r"(?:(?:the|his|her|their) )?" + _QUALIFIER + rf"\b{_WORD_EN} of (?:the )?" + _OF,
    # Villefort's father, Noirtier
    _OF + rf"['’]s {_QUALIFIER}{_WORD_EN},?\s+(?:the )?" + _NAMED,
    # Noirtier, Villefort's father
    _NAMED + r",\s+(?:the )?" + _OF + rf"['’]s {_QUALIFIER}{_WORD_EN}\b",
    # Fernand married Mercédès; Julie was married to Emmanuel; the marriage of A and B
    _entity("a") + r"\s+(?:(?:had|has) )?(?:(?:was|is|had been|has been|were) )?(?:married|wed)"
    r"(?: to| with)?\s+" + _entity("b"),
    r"\bmarriage (?:of|between) " + _entity("a") + r"\s+(?:and|with|to)\s+" + _entity("b"),
))
_BORN = "长子|次子|三子|四子|幼子|长女|次女|子|弟|兄"
_ZH_PATTERNS = tuple(re.compile(p) for p in (
    # 孙坚之子孙策, 沈砚的结义兄弟韩峥
    _OF + f"(?:之|的){_WORD_ZH}" + _NAMED,
    # 袁绍长子袁谭, 张辽子张虎, 孙权弟孙翊
    _OF + f"(?P<word>{_BORN})" + _NAMED,
    # 司马昭乃仲达之子, 韩峥是沈砚的结义兄弟
    _NAMED + r"(?:乃|是|为|即)" + _OF + f"(?:之|的){_WORD_ZH}",
    # 荀彧字文若，颍川颍阴人，荀绲之子也: the one introduced, then whose child
    _NAMED + f"[^{_MARK}。；]{{0,24}}?，" + _OF + f"之{_WORD_ZH}也",
    # 刘备娶孙夫人, 孙夫人嫁与刘备, 以妹嫁刘备
    _entity("a") + r"(?:娶|纳)了?" + _entity("b"),
    _entity("a") + r"(?:嫁|许配)(?:与|于|给)?了?" + _entity("b"),
))

_KIN_WORD = re.compile(rf"\b(?:{_alternatives(_EN_KIN)})\b|(?:之|的)(?:{_alternatives(_ZH_KIN)})",
                       re.I)


def says_kin(sentence: str) -> bool:
    """The sentence uses a word for kin the way a stated relation does (father, 之子, 的徒弟)."""
    return _KIN_WORD.search(sentence) is not None


_RELATIVE_OF = re.compile(rf"['’]s (?:{_alternatives(_EN_KIN)})\b|(?:之|的)(?:{_alternatives(_ZH_KIN)})",
                          re.I)


def names_a_relative(text: str, after: int) -> bool:
    """The name ending at `after` is followed by a word for kin, so the words stand for the
    relative: "Edmond's father", 刘备的妻子."""
    return _RELATIVE_OF.match(text, after) is not None


_SENTENCE_END = re.compile(r"[.!?。！？]+[”’\"']?|\n")
_ABBREVIATION = re.compile(r"(?:^|\W)(?:M|MM|Mr|Mrs|Ms|Dr|St|Mme|Mlle|Messrs|[A-Z])\.$")
"""M. Noirtier, Mr. Darcy: a title's full stop does not end the sentence."""


def sentences(text: str) -> Iterable[tuple[int, int]]:
    """Sentence spans of a text (a line break ends one too: the dialogue of a script)."""
    start = 0
    for end in _SENTENCE_END.finditer(text):
        if _ABBREVIATION.search(text, max(0, end.end() - 8), end.end()):
            continue
        if text[start:end.end()].strip():
            yield start, end.end()
        start = end.end()
    if text[start:].strip():
        yield start, len(text)


def stated_in(text: str, spans: list[tuple[int, int, str]]) -> list[Statement]:
    """The relations `text` states between the entities of `spans` ((start, end, name))."""
    statements: list[Statement] = []
    for start, end in sentences(text):
        inside = [(a - start, b - start, n) for a, b, n in spans if start <= a and b <= end]
        if len({n for *_, n in inside}) < 2:
            continue
        sentence = text[start:end]
        marked, names = _mark(sentence, inside)
        chinese = bool(re.search(r"[\u4e00-\u9fff]", sentence))
        words = _ZH_KIN if chinese else _EN_KIN
        for pattern in _ZH_PATTERNS if chinese else _EN_PATTERNS:
            for match in pattern.finditer(marked):
                statement = _read(match, names, words, sentence.strip())
                if statement.source != statement.target:
                    statements.append(statement)
    return statements


def _mark(sentence: str, spans: list[tuple[int, int, str]]) -> tuple[str, list[str]]:
    parts: list[str] = []
    names: list[str] = []
    at = 0
    for a, b, name in spans:
        parts += [sentence[at:a], f"{_MARK}{len(names)}{_MARK}"]
        names.append(name)
        at = b
    parts.append(sentence[at:])
    return "".join(parts), names


def _read(match: re.Match[str], names: list[str], words: dict[str, tuple[str, bool]],
          sentence: str) -> Statement:
    found = match.groupdict()
    if found.get("a") is not None:
        return Statement(names[int(found["a"])], names[int(found["b"])], "spouse", sentence)
    named, of = names[int(found["named"])], names[int(found["of"])]
    kind, named_is_source = words.get(found["word"].lower(), ("kin", True))
    if named_is_source:
        return Statement(named, of, kind, sentence)
    return Statement(of, named, kind, sentence)


def stated_relations(chunks: Iterable[tuple[str, int, str, list[tuple[int, int, str]]]],
                     ) -> dict[tuple[str, str, str], list[tuple[str, int]]]:
    """(source, target, type) → the (chunk id, chapter) passages that state it, in story order;
    `chunks` are (id, chapter, text, the text's mentions as (start, end, name))."""
    found: dict[tuple[str, str, str], list[tuple[str, int]]] = {}
    for chunk_id, chapter, text, spans in chunks:
        for s in stated_in(text, spans):
            source, target = (s.source, s.target) if s.type in DIRECTED else sorted(
                (s.source, s.target))
            where = found.setdefault((source, target, s.type), [])
            if (chunk_id, chapter) not in where:
                where.append((chunk_id, chapter))
    return found
