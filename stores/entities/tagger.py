"""Name discovery by frequency: Chinese person names from rjieba's part-of-speech tags (the
capitalised English name sequences are stores/entities/english_tagger.py's).

jieba's dictionary tags many ordinary words as person names (伏兵, 马匹, 明白 are `nr`), and its
segmenter glues a name to the verb after it (孔明曰, 玄德闻). So a tagged word only counts as a
name when it starts with a surname, its given-name part is not a common noun or title, and a
trailing verb is peeled back onto the name it follows. Counts are rough; the caller keeps a
name only when the alias matcher finds it often enough.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from functools import cache
from typing import Any

from stores.entities.surnames import COMPOUND_SURNAMES, SINGLE_SURNAMES
from stores.lang import is_han
from stores.lang.zh import ACTS_AFTER as _ACTS_AFTER
from stores.lang.zh import ADDRESS_RANKS as _ADDRESS_RANKS
from stores.lang.zh import DEMONSTRATIVES as _DEMONSTRATIVES
from stores.lang.zh import DIMINUTIVE as _DIMINUTIVE
from stores.lang.zh import FUNCTION_TAGS as _FUNCTION_TAGS
from stores.lang.zh import GLUED_AFTER_NAME as _GLUED_AFTER
from stores.lang.zh import GRAMMAR_CHARS as _FUNCTION_CHARS
from stores.lang.zh import HONORIFIC as _HONORIFIC
from stores.lang.zh import HOUSEHOLD_TITLES as _HOUSEHOLD_TITLES
from stores.lang.zh import LETTERED_NAME as _LETTERED_NAME
from stores.lang.zh import LOCALIZER_TAG as _LOCALIZER
from stores.lang.zh import LOCALIZERS as _LOCALIZERS
from stores.lang.zh import NAME_SIZED_WORD as _HAN_WORD
from stores.lang.zh import NAME_TAGS as _PERSON_TAGS
from stores.lang.zh import NOT_ADDRESS_STEMS as _NOT_ADDRESS_STEMS
from stores.lang.zh import NOT_NAME_END as _NOT_NAME_END
from stores.lang.zh import NOT_NAME_TAGS as _NOT_NAME_TAGS
from stores.lang.zh import NOT_NAMES as _NOT_NAMES
from stores.lang.zh import NOUN_TAGS as _NOUN_TAGS
from stores.lang.zh import NUMERALS as _NUMERALS
from stores.lang.zh import PLACE_END as _PLACE_END
from stores.lang.zh import PLACE_NOUNS as _PLACE_WORDS
from stores.lang.zh import RANKED_HOUSEHOLD_TITLES as _RANKED_HOUSEHOLD_TITLES
from stores.lang.zh import RULER_TITLE as _RULER_TITLE
from stores.lang.zh import SPEAKER_CLAUSE as _SPEAKER_CLAUSE
from stores.lang.zh import SPOKEN_AFTER_NAME as _SPOKEN_AFTER
from stores.lang.zh import UNNAMED_SPEAKERS as _UNNAMED
from stores.lang.zh import VERB_END as _VERB_END
from stores.lang.zh import VERNACULAR as _VERNACULAR
from stores.lang.zh import WEAK_SURNAMES as _WEAK_SURNAMES
from stores.models import EntityType

PLACED_SHARE = 2
"""A tagged word is a place or thing when at least 1/PLACED_SHARE of its uses take a localizer."""


@cache
def _jieba() -> Any:
    """A private rjieba instance: other modules add words to the shared default dictionary
    (for BM25), which would change what this tagger finds from one ingest to the next."""
    import rjieba

    return rjieba.Jieba()


def _has_surname(word: str) -> bool:
    if word[:2] in COMPOUND_SURNAMES:
        return len(word) >= 3  # 司马 / 诸葛 alone is a surname, not a person
    # Single surname + three characters is almost always a phrase (金环三结).
    return word[0] in SINGLE_SURNAMES and word[0] not in _WEAK_SURNAMES and len(word) <= 3


def _looks_like_name(word: str) -> bool:
    return (
        _HAN_WORD.fullmatch(word) is not None
        and _has_surname(word)
        and word not in _NOT_NAMES
        and word[-1] not in _NOT_NAME_END
        and word[0] != word[1]  # 徐徐, 常常
        and "主" not in word  # 魏主曹, 吴主孙: a title glued to a surname
        and not (len(word) == 2 and word[1] in _VERB_END)
    )


def chinese_person_names(texts: Iterable[str]) -> Counter[str]:
    """Chinese person names found by rjieba's tagger (nr/nrfg/nrt), with how often each is tagged.

    Names are 2–4 characters, start with a surname, and have their glued verb removed
    (孔明曰 counts for 孔明). Courtesy names without a surname (玄德) are not returned here;
    they come from the patterns and merge into their person there.
    """
    raw: Counter[str] = Counter()
    placed: Counter[str] = Counter()  # tagged words followed by a localizer (松树下)
    tagger = _jieba()
    for text in texts:
        tagged = tagger.tag(text)
        for i, (word, tag) in enumerate(tagged):
            if tag in _PERSON_TAGS and 2 <= len(word) <= 5:
                raw[word] += 1
                if i + 1 < len(tagged) and tagged[i + 1][1] == _LOCALIZER:
                    placed[word] += 1
    names: Counter[str] = Counter()
    for word, count in raw.items():
        if placed[word] * PLACED_SHARE >= count:
            continue  # mostly 'X下 / X上 / X里': a place or a thing, not a person
        stem = word
        # Peel glued verbs (玄德大 → 玄德, 司马懿见 → 司马懿), but never into a bare 复姓.
        while len(stem) > 2 and stem[-1] in _GLUED_AFTER and not (
                len(stem) == 3 and stem[:2] in COMPOUND_SURNAMES):
            stem = stem[:-1]
        if stem != word and stem not in raw and len(stem) < 3:
            continue  # 班师回 → 班师: the stem was never tagged on its own, so it is no name
        if 2 <= len(stem) <= 4 and _looks_like_name(stem):
            names[_regroup(stem, raw)] += count
    names.pop("", None)
    return names


def chinese_household_names(texts: Iterable[str], least: int) -> Counter[str]:
    """People a story calls by a household's or a village's words, each written at least
    `least` times, with how often: a familiar prefix and a Latin letter (阿Ｑ, 小Ｄ), and a
    surname, or a name the text writes alone as often, before a household title (赵太爷, 方太太,
    赵七爷, 杨二嫂; 七斤嫂 beside 七斤, 九斤老太 beside 九斤). Such a form is a person of its own:
    七斤嫂 is 七斤's wife, 赵太爷 his son 赵秀才's father; and so is the name before the title,
    where the text writes it alone at least `least` times (七斤: no dictionary's name, a weight)."""
    text = "\n".join(texts)
    found: Counter[str] = Counter(_LETTERED_NAME.findall(text))
    titles = "|".join(sorted(_HOUSEHOLD_TITLES, key=len, reverse=True))
    ranked = "|".join(_RANKED_HOUSEHOLD_TITLES)
    titled = re.compile(f"[{_ADDRESS_RANKS}](?:{ranked})|{titles}")
    stems: Counter[tuple[str, str]] = Counter()
    for match in titled.finditer(text):
        for size in (1, 2):
            stem = text[max(0, match.start() - size):match.start()]
            if len(stem) == size and all(is_han(c) for c in stem):
                stems[(stem, match[0])] += 1
    for (stem, title), count in stems.items():
        # a numeral may open a name, with any word after it (七斤, 九斤: named by the weight
        # at birth); no other word of grammar may stand in one
        numbered = stem[0] in _NUMERALS and len(stem) == 2
        if count < least or (not numbered and any(grammar_character(c) for c in stem)):
            continue
        if len(stem) == 1:
            named = (stem in SINGLE_SURNAMES and stem not in _WEAK_SURNAMES
                     and stem not in _NOT_ADDRESS_STEMS)
        else:  # 七斤 is written alone too, and 斤嫂 is never without 七
            named = (text.count(stem) - count >= least
                     and stems.get((stem[1:], title), 0) <= count)
        if named:
            found[stem + title] += count
            if len(stem) == 2:  # 七斤嫂 is 七斤's wife: 七斤, written alone as often, is someone
                found[stem] += text.count(stem) - count
    return Counter({name: n for name, n in found.items() if n >= least})


def chinese_unknown_names(texts: Iterable[str], least: int) -> list[tuple[str, EntityType]]:
    """People and places a modern story names by words no dictionary knows (闰土, 老栓, 宏儿,
    方玄绰; 未庄, 赵府), each written at least `least` times, as (name, "person" or "place"),
    the most written first. A vernacular text's frequent strings of two to four characters
    that the segmenter's dictionary lacks are its own names, or its phrases. A name here is
    one the text bounds on both sides (many different characters before and after it, not
    always the same longer string: 未庄 in 未庄人), whose words are all names or nouns to the
    segmenter (闰土, 赵白眼; not 却又, 吃人, 子里). A place's ends in a word for one (赵府,
    鲁镇) or is one to the segmenter (未庄); a person's the segmenter tags as a name opening
    with a surname (赵白眼; not 老松, an old pine), or the text makes act (宏儿也, 老栓便; not
    绸裙, 角上). Classical text is left to the tagger: its phrases are no dictionary's words
    either (引军, 人报)."""
    text = "\n".join(texts)
    if not vernacular(text):
        return []
    tagger = _jieba()
    counts: Counter[str] = Counter()
    for size in (2, 3, 4):
        for at in range(len(text) - size + 1):
            counts[text[at:at + size]] += 1
    found: list[tuple[int, str, EntityType]] = []
    for word, count in counts.items():
        if count < least or not all(is_han(c) for c in word) or tagger.has_word(word):
            continue
        if (any(c in _FUNCTION_CHARS for c in word) or word in _NOT_NAMES
                or word[0] in _DEMONSTRATIVES or word[-1] in _LOCALIZERS):
            continue
        tags = [tag for _, tag in tagger.tag(word)]
        # nouns and names only (华大妈: 华 and 大妈), not a count
        if not set(tags) <= _NOUN_TAGS or set(tags) <= {"m"}:
            continue
        kind: EntityType
        if word[-1] in _PLACE_END or tags == ["ns"]:
            kind = "place"
        elif word[-1] in _NOT_NAME_END and word[-1] != _DIMINUTIVE:  # 宝儿 is a name
            continue
        elif (set(tags) & _PERSON_TAGS and _has_surname(word)  # 赵白眼, not 老松
              or _acts(word, text) >= ACTING_SHARE * count):
            kind = "person"
        else:
            continue
        if _bounded(word, count, text, counts):
            if kind == "person" and _names_a_place(word, text, count):
                kind = "place"  # 咸亨 acts (咸亨也关上了门) as 咸亨酒店
            found.append((count, word, kind))
    return [(word, kind) for _, word, kind in sorted(found, key=lambda f: (-f[0], f[1]))]


def chinese_listed_names(texts: Iterable[str], people: Iterable[str], least: int) -> list[str]:
    """People a story lists beside people it knows (李傕、郭汜; 袁绍、审配), whom the segmenter
    splits or reads as words (李傕 is 李 + 傕, 典韦 a noun, 文丑 a dictionary word), the most
    written first: a string of two or three characters opening with a surname, written at least
    `least` times, bounded by the text, holding no known name (魏延领) and no word of grammar,
    and listed with 、 right beside a known person at least LISTED_BESIDE times; not a word the
    segmenter knows as a verb or another word of no name (从事). Each round's
    finds are known to the next (樊稠 beside 李傕), up to LISTED_ROUNDS rounds."""
    text = "\n".join(texts)
    tagger = _jieba()
    known = {p for p in people if len(p) >= 2}
    counts: Counter[str] = Counter(text[at:at + size] for size in (2, 3)
                                   for at in range(len(text) - size + 1))
    found: list[str] = []
    for _ in range(LISTED_ROUNDS):
        beside: Counter[str] = Counter()
        for mark in re.finditer("、", text):
            at = mark.start()
            before = [text[at - n:at] for n in (2, 3)]
            after = [text[at + 1:at + 1 + n] for n in (2, 3)]
            for near, other in ((before, after), (after, before)):
                if any(w in known for w in near):
                    beside.update(w for w in other if w not in known)
        new = [w for w, n in beside.items()
               if n >= LISTED_BESIDE and counts[w] >= least and _looks_like_name(w)
               and not any(c in _FUNCTION_CHARS for c in w)
               and not (tagger.has_word(w) and common_word(w))  # 从事: a verb, not 从 + 事
               and not any(k in w for k in known) and _bounded(w, counts[w], text, counts)]
        if not new:
            break
        new.sort(key=lambda w: (-counts[w], w))
        found += new
        known.update(new)
    return found


LISTED_BESIDE = 2
"""How often a new name must stand in a list right beside a known person."""
LISTED_ROUNDS = 3
VERNACULAR_SHARE = 0.03
"""A text whose Han characters are at least this share words of the spoken language (的, 了,
们: zh.VERNACULAR) is vernacular: 呐喊 0.10, 红楼梦 0.09, the demo 0.08, 三国演义 0.005."""
ACTING_SHARE = 0.15
"""A name no segmenter tags as one acts at least this share of its uses: a verb or an adverb of
the subject follows it (闰土 0.19, 老栓 0.38, 宏儿 0.56; 绸裙 and 角上 0, 芦荡 0)."""
BOUND_ENTROPY = 1.0
"""The entropy (nats) of the characters before, and of those after, a string the text bounds."""
ABSORBED_SHARE = 0.7
"""A string written inside one longer string this share of its uses is part of it (未庄 of
未庄人 is not, 庄人 is)."""


def vernacular(text: str) -> bool:
    """The text is written in the spoken language (VERNACULAR_SHARE), not the classical."""
    han = sum(1 for c in text if is_han(c))
    return bool(han) and sum(text.count(c) for c in _VERNACULAR) >= VERNACULAR_SHARE * han


def _bounded(word: str, count: int, text: str, counts: Counter[str]) -> bool:
    """Whether the text bounds `word`: diverse characters on both sides, and no one longer
    string that holds it (ABSORBED_SHARE)."""
    before: Counter[str] = Counter()
    after: Counter[str] = Counter()
    for match in re.finditer(re.escape(word), text):
        before[text[match.start() - 1:match.start()]] += 1
        after[text[match.end():match.end() + 1]] += 1
    for side, grow in ((before, lambda c: c + word), (after, lambda c: word + c)):
        if _entropy(side) < BOUND_ENTROPY:
            return False
        if any(is_han(c) and counts[grow(c)] >= ABSORBED_SHARE * count for c in side if c):
            return False
    return True


def _entropy(counts: Counter[str]) -> float:
    total = sum(counts.values())
    return -sum(n / total * math.log(n / total) for n in counts.values()) if total else 0.0


NAMED_PLACE_SHARE = 1 / 3
"""A name written before a word for a place (咸亨酒店, 鲁镇) in at least this share of its uses is
that place's name."""


def _names_a_place(word: str, text: str, count: int) -> bool:
    """`word` is written before a word for a place in at least NAMED_PLACE_SHARE of its `count`
    uses: 咸亨 (the tavern of 《孔乙己》) is 咸亨酒店 in 5 of 12, and no person."""
    before = sum(1 for m in re.finditer(re.escape(word), text)
                 if text[m.end():m.end() + 2] in _PLACE_WORDS or text[m.end():m.end() + 1]
                 in _PLACE_END)
    return before >= NAMED_PLACE_SHARE * count


def _acts(word: str, text: str) -> int:
    """How often a verb or adverb of the subject follows `word` (闰土说, 老栓也)."""
    return sum(1 for m in re.finditer(re.escape(word), text)
               if text[m.end():m.end() + 1] in _ACTS_AFTER)


@cache
def dictionary_word(text: str) -> bool:
    """The segmenter's dictionary holds `text` as a word of four Han characters (an idiom)."""
    return len(text) == 4 and all(is_han(c) for c in text) and _jieba().has_word(text)


@cache
def common_noun(word: str) -> bool:
    """The segmenter's dictionary holds the word, as anything but a name (长生 n; not 王允 nr)."""
    tags = _jieba().tag(word)
    return _jieba().has_word(word) and len(tags) == 1 and tags[0][1] not in _PERSON_TAGS


def grammar_character(char: str) -> bool:
    """A character the segmenter takes for a word of grammar on its own (那, 向, 和, 的): not a
    surname where it stands before a name, however the 百家姓 lists it."""
    return _char_tag(char) in _FUNCTION_TAGS


def common_word(word: str) -> bool:
    """The segmenter knows the word as one of the language's, not a name (伏侍, 于是)."""
    return _char_tag(word) in _NOT_NAME_TAGS


@cache
def _char_tag(char: str) -> str:
    tags = _jieba().tag(char)
    return tags[0][1] if len(tags) == 1 else ""


def one_word(text: str, start: int, end: int, context: int = 4) -> bool:
    """Whether the segmenter reads text[start:end] as one word where it stands: 贾宝玉 in
    「贾宝玉听了」 is one name, 于刘备 in 「降于刘备」 is a preposition and a name."""
    left = max(0, start - context)
    at = left
    for word in _jieba().cut(text[left:end + context]):
        if at == start:
            return at + len(word) == end
        if at > start:
            return False
        at += len(word)
    return False


def chinese_speakers(texts: Iterable[str]) -> Counter[str]:
    """Names that open a clause of speech (宝玉笑道：“…”, 孔明曰：“…”), with how often each speaks.

    A novel calls its people by a given name alone (宝玉, 袭人, 孔明), which neither starts with
    a surname nor is tagged a name reliably, but such a name speaks: what stands before the verb
    of saying, with the adverbs and verbs glued to it peeled off, is the speaker. Crowds and
    roles (众人, 婆子, 左右) and phrases jieba reads as adverbs, verbs, pronouns or numerals
    (便问, 一面, 那人) are not names; a name + 儿 (凤姐儿) counts for the name.
    """
    found: Counter[str] = Counter()
    clause = re.compile(_SPEAKER_CLAUSE)
    for text in texts:
        for match in clause.finditer(text):
            word = match.group(1)
            while len(word) > 2 and (word[-1] in _GLUED_AFTER or word[-1] in _SPOKEN_AFTER):
                word = word[:-1]  # 宝玉忙笑 → 宝玉
            if 2 <= len(word) <= 4 and word[0] != word[1] and word[0] not in _DEMONSTRATIVES:
                found[word] += 1
    for word in [w for w in found if w.endswith("儿") and w[:-1] in found]:
        found[word[:-1]] += found.pop(word)
    tagger = _jieba()

    def named(word: str) -> bool:
        tags = tagger.tag(word)
        if any(tag in _NOT_NAME_TAGS for _, tag in tags):
            return False
        # A one-character name and its verb (懿大, 权大) unless the whole is a name (张飞).
        return not (len(word) == 2 and word[-1] in _GLUED_AFTER
                    and not (len(tags) == 1 and tags[0][1] in _PERSON_TAGS))

    return Counter({word: count for word, count in found.items()
                    if word not in _UNNAMED and word not in _NOT_NAMES and not _titled(word)
                    and named(word)})


def _titled(word: str) -> bool:
    """A title, not a name: a ruler's (后主, 汉中王), passed from one holder to the next, or
    surname + 公 (关公); titles.py and resolve.fold_honorifics give them to their holders."""
    return re.fullmatch(_RULER_TITLE, word) is not None or word.endswith(("王", _HONORIFIC))


def _regroup(word: str, raw: Counter[str]) -> str:
    """Split a three-character single-surname word that is a name plus one character.

    华歆奏 → 华歆 (the two-character name is tagged on its own more often); 王孟获 / 闻玄德
    → '' (a stray character before a tagged name).
    """
    if len(word) != 3 or word[:2] in COMPOUND_SURNAMES:
        return word
    if raw[word[:2]] >= raw[word] and _looks_like_name(word[:2]):
        return word[:2]
    if raw[word[1:]] >= raw[word]:
        return ""
    return word
