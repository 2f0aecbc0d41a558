"""Name discovery by frequency: Chinese person names from rjieba's part-of-speech tags and
capitalised English name sequences.

jieba's dictionary tags many ordinary words as person names (伏兵, 马匹, 明白 are `nr`), and its
segmenter glues a name to the verb after it (孔明曰, 玄德闻). So a tagged word only counts as a
name when it starts with a surname, its given-name part is not a common noun or title, and a
trailing verb is peeled back onto the name it follows. Counts are rough; the caller keeps a
name only when the alias matcher finds it often enough.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import cache
from typing import Any

from stores.entities.surnames import COMPOUND_SURNAMES, SINGLE_SURNAMES

_PERSON_TAGS = frozenset({"nr", "nrfg", "nrt"})
_HAN_WORD = re.compile(r"[\u4e00-\u9fff]{2,4}")
# Verbs and particles the segmenter glues to a preceding name (孔明曰 → 孔明).
_GLUED_AFTER = frozenset("曰笑大喜怒叹问答等闻自见乃入引之领为遂教唤视亦回只谓先听辞坐来真至"
                         "于出谢到待亲前留恐既接取令拜同背请方正急便惊再守必皆分解病处提舞挺"
                         "向飞报兵军寨与")
# Characters that end words which are not personal names: troops, titles, ranks, kin terms,
# banners and goods (魏兵, 吴侯, 魏主, 都尉, 白旗, 马匹).
_NOT_NAME_END = frozenset("兵军旗粮匹绶礼驾营寨城郡州主王侯帝后氏公人言民尉帅卿弩天宗庙帛阵"
                          "子孙父母兄弟叔侄儿女臣相将吏家之某山亭口风庐刀枪戟剑弓箭马甲牧"
                          "来哉乃室右妙道寺桥宫谷巾发")
# A single given-name character glued to a verb (卓怒, 艾见, 权召) looks like a two-character name.
_VERB_END = frozenset("曰笑怒命引见召问叹谓等惊")
# Surnames that are far more often ordinary words at the start of a tagged word (吾 "I").
_WEAK_SURNAMES = frozenset("吾诸")
# Frequent words jieba tags as names that pass the rules above; generic, not novel-specific.
_NOT_NAMES = frozenset({
    "文武", "伏兵", "马匹", "钱粮", "士卒", "安民", "施礼", "车驾", "安营", "弓弩", "元帅",
    "公卿", "高祖", "金珠", "何策", "谢恩", "明公", "牛马", "齐声", "殷勤", "白虎", "阴云",
    "林木", "何足", "何谓", "金帛", "仰观", "明白", "冷笑", "徐图", "万幸", "安抚", "龙凤",
    "陈说", "洪福", "高明", "后嗣", "黄巾", "闻言", "仰天", "童谣", "金宝", "封爵", "养老",
    "苗裔", "匡扶", "宣谕", "红光", "宿卫", "容纳", "莫若", "何忧", "何言", "何异", "何干",
    "吉兆", "干戈", "屈膝", "齐备", "秋雨", "苍天", "荆棘", "宫殿", "汲水", "石阵", "何劳",
    "明言", "何曾", "何仪", "王命", "贺喜", "宁死", "盛德", "万岁", "于是", "于此", "毕竟",
    "许多", "常常", "时时", "和平", "安然", "平安", "明日", "明年", "周围", "高兴",
})


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
    tagger = _jieba()
    for text in texts:
        for word, tag in tagger.tag(text):
            if tag in _PERSON_TAGS and 2 <= len(word) <= 5:
                raw[word] += 1
    names: Counter[str] = Counter()
    for word, count in raw.items():
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


# --- English -------------------------------------------------------------------------------

_HONORIFICS = ("M.", "MM.", "Mr.", "Mrs.", "Ms.", "Dr.", "Mme.", "Mlle.", "St.", "Monsieur",
               "Madame", "Mademoiselle", "Signor", "Signora", "Sir", "Lady", "Lord", "Miss",
               "Captain", "Colonel", "Baron", "Baroness", "Count", "Countess", "Abbé", "Father")
_PARTICLES = ("de", "du", "des", "d'", "d’", "la", "le", "van", "von", "di", "da", "del")
_CAP_WORD = r"[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ'’]+(?:-[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ]+)?"
_ENGLISH_NAME = re.compile(
    r"(?<![\w.])(?:(?P<title>" + "|".join(re.escape(h) for h in _HONORIFICS) + r")\s+)?"
    r"(?P<name>(?:(?:" + "|".join(_PARTICLES) + r")\s*)?" + _CAP_WORD
    + r"(?:\s+(?:(?:" + "|".join(_PARTICLES) + r")\s*)?" + _CAP_WORD + r")*)"
)
_POSSESSIVE = re.compile(r"['’]s?(?=\s|$)")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;\"“”‘—(\[]\s*|\n\s*)$")
# Capitalised words that start sentences or are not names in running text.
_STOP_TEXT = """
I A An The This That These Those He She It We You They His Her Its Our Your Their Him Them
Me My Mine Who Whom Whose What Which When Where Why How But And Or Nor For So Yet If Then
Thus Though Although While As At By In Of On To Up With From Into Upon Out Over After Before
No Not Yes Oh Ah Well Now Here There Still Yet Only Even All Some Any Each Every One Two
Chapter Volume Book Part Mr Mrs Sir Madam Monsieur Madame Mademoiselle God Heaven Good Very
Let Do Does Did Is Are Was Were Be Been Have Has Had Will Would Shall Should May Might Must Can
Could Such Just Nothing Everything Something Perhaps Indeed Certainly Besides However Why
Alas Listen Tell Give Everyone Another Tis Am Five Six Three Four Ten Come Go See Look Pray
January February March April June July August September October November December
Monday Tuesday Wednesday Thursday Friday Saturday Sunday
French English Italian Spanish Greek Roman Parisian Corsican Catalan Catalans Englishman
Frenchman Parisians Genoese Venetian Arabian Nubian Spaniards Christian American British
Count Countess Baron Baroness Captain Colonel Abbé Signor Signora Lord Lady Miss Father
Rue Place Island Providence Excellency Majesty Highness Sire Ladyship Lordship
"""
EN_STOPWORDS = frozenset(_STOP_TEXT.split())


def english_names(texts: Iterable[str]) -> Counter[str]:
    """Capitalised name sequences (`Edmond Dantès`, `M. Morrel`, `Monsieur de Villefort`) by count.

    A sequence keeps its honorific (`M. Morrel`); a capitalised word that starts a sentence
    counts only if the same word also occurs capitalised in mid-sentence somewhere, and common
    sentence words (The, But, Then …) are dropped from the front of a sequence.
    """
    found: Counter[str] = Counter()
    sentence_initial: Counter[str] = Counter()
    mid_sentence: set[str] = set()
    for text in texts:
        for match in _ENGLISH_NAME.finditer(text):
            title, words = match["title"], _POSSESSIVE.sub("", match["name"]).split()
            popped = False
            while words and words[0] in EN_STOPWORDS:
                words.pop(0)
                title, popped = None, True
            while title is None and words and words[0] in _PARTICLES:
                words.pop(0)  # "said de Villefort" → Villefort
            if not words or words[0].startswith(("I’", "I'")):
                continue
            name = " ".join(words)
            if title is None and len(words) == 1 and not popped:
                before = text[max(0, match.start() - 3):match.start()]
                if _SENTENCE_START.search(before) is not None or match.start() == 0:
                    sentence_initial[name] += 1
                    continue
                mid_sentence.add(name)
            found[f"{title} {name}" if title else name] += 1
    for name, count in sentence_initial.items():
        if name in mid_sentence:
            found[name] += count
    return found
