"""How a question asks, in both languages: its kind (about a relation, a time, the session), a
chapter it names, a death or a killing, a subject it describes instead of naming (the hops), and
the declared relation it asks for. The librarian's question analysis (agent/librarian/analysis.py)
reads questions with these."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache

from stores.lang import HAN_RANGES, en, is_han, zh
from stores.lang.referring import FEMALE_RELATIVE, MALE_RELATIVE
from stores.lang.text import fold_latin
from stores.lang.zh import COMMON_SURNAMES, COMPOUND_SURNAMES

RELATIONAL = re.compile(
    r"关系|什么人|是谁的|之间|结义|兄弟|义父|父亲|儿子|妻|夫人|主公|君臣|师徒|师父|徒弟|仇|敌|盟"
    r"|\brelat|\bfather\b|\bmother\b|\bson\b|\bdaughter\b|\bwife\b|\bhusband\b|\bbrother"
    r"|\bsister\b|\bmaster\b|\bservant\b|\benemy|\bfriend|\bfianc|\bbetroth|\bmarr(?:y|ied|iage)\b"
    r"|\bengaged to\b|\bengagement\b|未婚|订婚|定亲|许配"
    r"|\bdisciple|\bpupil|\bapprentice|\bmentor|\bteacher"
    r"|嫁|娶"
    r"|\bwho is .{1,40} to\b", re.I)
TEMPORAL = re.compile(
    r"哪一回|第几回|哪回|哪一章|第几章|什么时候|何时|最后|后来|之后|之前|先后|死|亡|去世|临终|结局"
    r"|\bwhich chapter\b|\bwhen\b|\bafter\b|\bbefore\b|\bfinally\b|\bin the end\b|\blater\b"
    r"|\bdie[ds]?\b|\bdeath\b|\bkilled\b|\bfirst time\b|\bbegin|\bend of\b", re.I)
SESSION = re.compile(
    r"之前问|前面说|你(?:刚才|之前)?说过|你刚才说|我(?:之前|刚才)?问过|说到哪"
    r"|我们(?:之前|刚才|上次|前面|先前)?(?:聊|谈|说|讲)(?:过|到|了)|(?:刚才|之前|上次)(?:聊|谈)(?:过|到|了)"
    r"|earlier (?:you|we)|\bwe (?:talked|discussed|spoke)|\b(?:did|have) we (?:talk|discuss|speak|mention)"
    r"|you (?:said|mentioned)|did i ask|\bwhat did (?:i|we) (?:ask|say)\b"
    r"|\bmy (?:first|last|previous) question|previous(?:ly)? (?:question|answer)", re.I)
"""A question about this conversation, not the story (我们之前聊过韩峥吗？, Did we talk about
Su Wan?): the librarian answers it from the session's memory. Only words that speak of the
talk itself: 刚才 or 上次 alone also tell the story's time (他刚才说了什么)."""

SESSION_START = re.compile(r"第一|最早|最先|一开始|开头|\bfirst\b|\bearliest\b|\bbeginning\b|\bstart\b",
                           re.I)
"""A question about the conversation that asks how it began (What did I ask first?)."""

CHAPTER_REF = re.compile(r"第([一二三四五六七八九十百零〇两\d]+)[回章]|\bchapter (\d+)\b", re.I)

_CH_EN = r"(?:chapter|ch\.)\s*\d+"
_CH_ZH = r"第[一二三四五六七八九十百零〇两\d]+[回章]"
CHAPTER_EVENTS_ASKED = re.compile(
    rf"^(?:so\s+|and\s+)?(?:what\s+(?:happens|happened|goes\s+on|went\s+on|takes\s+place|took\s+place"
    rf"|is\s+told|was\s+told)\s+in\s+{_CH_EN}"
    rf"|what\s+(?:is|was)\s+{_CH_EN}\s+about"
    rf"|what\s+does\s+{_CH_EN}\s+(?:tell|say|cover|tell\s+us)"
    rf"|(?:summari[sz]e|sum\s+up|give\s+me\s+a\s+summary\s+of|tell\s+me\s+about|what\s+is\s+in)\s+{_CH_EN}"
    rf"|(?:what\s+is\s+)?the\s+(?:summary|gist|plot)\s+of\s+{_CH_EN})\s*[?.!]*$"
    rf"|^{_CH_ZH}(?:里|中)?(?:讲|写|说)(?:了|的是|的)?(?:什么|啥|些什么)(?:内容|事)?[？?。！!]*$"
    rf"|^{_CH_ZH}(?:里|中)?发生了(?:什么|哪些事|什么事)[？?。！!]*$"
    rf"|^{_CH_ZH}的?(?:主要)?(?:内容|情节|大意)(?:是什么)?[？?。！!]*$",
    re.I)
"""A question that asks what a chapter tells, and nothing more (What happens in chapter 2?,
第三回讲了什么？): the chapter's own sentences answer it, not a search for its words."""
CHAPTER_PEOPLE_ASKED = re.compile(
    rf"^(?:so\s+|and\s+)?(?:who\s+(?:is|are|was|were)\s+(?:the\s+)?(?:main|chief|principal|central)"
    rf"\s+(?:character|characters|person|people|figures?)\s+(?:in|of)\s+{_CH_EN}"
    rf"|who\s+(?:appears?|appeared|is|are|was|were)\s+in\s+{_CH_EN}"
    rf"|(?:which|what)\s+(?:characters|people|persons)\s+(?:appear|appeared|are|were)\s+in\s+{_CH_EN})"
    rf"\s*[?.!]*$"
    rf"|^{_CH_ZH}(?:里|中)?的?(?:主要人物|主角|主人公|出场人物|人物)(?:是谁|有谁|有哪些|都有谁)?[？?。！!]*$"
    rf"|^{_CH_ZH}(?:里|中)?(?:有)?(?:谁|哪些人)(?:出场|出现)(?:了)?[？?。！!]*$"
    rf"|^谁(?:在|于){_CH_ZH}(?:里|中)?(?:出场|出现)(?:了)?[？?。！!]*$",
    re.I)
"""A question that asks who a chapter is about (Who is the main character in chapter 2?,
第三回的主要人物是谁？): the people it names most."""

APPEARANCE_ASKED = re.compile(
    r"\b(?P<first>first|earliest)\s+(?:appears?|appeared|appearance|mentioned|named|introduced"
    r"|shows?\s+up|showed\s+up|comes?\s+in|came\s+in|enters?|entered)"
    r"|\b(?P<last>last)\s+(?:appears?|appeared|appearance|mentioned|named|seen|shows?\s+up)"
    r"|(?P<first_zh>第一次|首次|最早|最先|初次)(?:出场|出现|登场|提到)"
    r"|(?P<last_zh>最后一次|最后)(?:出场|出现|登场|提到)", re.I)
"""A question after the chapter someone first or last appears in (Which chapter does Mr. Yates
first appear in?, 韩峥第一次出场是在第几回？): the card's appearances say it."""

DEATH = re.compile(r"死|亡|去世|身故|临终|被杀|被害|杀害|斩杀|刺杀|被斩|遇害|下场|结局|怎么死"
                   r"|\bdie[ds]?\b|\bdeath\b|\bkill(?:ed|s)?\b|\bdead\b|\bsuicide\b"
                   r"|\bshoots? (?:him|her)self\b|\bpoison(?:ed|s)?\b|\bbecame of\b", re.I)
MULTI_HOP = re.compile(r"的那[位个名员]|那个人|那人|那位|此人|的人|\bthe (?:man|woman|one|person) who\b"
                       r"|\bwhose\b", re.I)

ASKS_RELATION = re.compile(r"关系|同一(?:个)?人|\brelat(?:ion|ed|ionship)\b|\bconnect(?:ion|ed)\b"
                           r"|\bsame\s+(?:person|man|woman|one)\b", re.I)
"""A question that asks how the people it names are related, or whether two names are one
person's (Is Fernand the same person as the Count of Morcerf? 孔明和诸葛亮是同一个人吗？)."""
WHAT_TO = re.compile(r"^\s*(?:what|who)\s+(?:is|was|are|were)\s+(?P<one>.+?)\s+to\s+"
                     r"(?P<other>.+?)(?:\s+(?:before|after|when|in)\b.*)?\s*\??\s*$", re.I)
"""What is Jane Fairfax to Miss Bates? Who is Su Wan to Shen Yan? — with a name on each side of
"to", a relation asked."""

KILLING = re.compile(r"杀害|刺杀|斩杀|杀|斩|害|\bkill(?:ed|s)?\b|\bmurder", re.I)
"""Death words whose victim comes after them."""

# 温酒斩华雄的 | 那位将军 | 最后败走…: a description, the person it stands for, then a later fate.
HOPS_ZH = re.compile(r"^(?P<desc>.{3,}?)的(?P<who>[^的，,。？?]{1,6}?)"
                     r"(?P<rest>(?:里|中|之中)?(?:最后|后来|最终|之后|终于|下场|结局).*)$")
# "The man who wrote …: what title …", "Who killed X's father, and what is that man's …",
# "The bandit who held … later captured which banker?"
# 温酒斩华雄的 | 那位将军 | 是在哪里结义的: "that one" marks a description whatever is asked.
HOPS_ZH_THAT = re.compile(r"^(?P<desc>.{3,}?)的(?P<who>那[位个名员]?[^的，,。？?]{0,4}?)"
                          r"(?P<rest>(?:是|在|最后|后来|最终|之后|终于|又|曾|为什么|为何|怎么|叫|姓|有).*)$")
HOPS_EN = re.compile(r"^(?P<desc>the \w+ (?:who|whom|that|[A-Z]).+?)(?::\s*|\s+(?=(?:later|afterwards|"
                     r"eventually|finally|turns? out)\b))(?P<rest>.+)$", re.I)
HOPS_EN_AND = re.compile(r"^(?P<desc>.+?),\s+and\s+(?P<rest>.*\b(?:that|this) (?:man|woman|person)"
                         r"\b.*)$", re.I)

# How people ask for a declared relation: (pattern, relation type, the asked-about entity's role).
# "沈砚的师父是谁" asks for the mentor OF 沈砚: 沈砚 is the target of a mentor edge.
RELATION_CUES: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (re.compile(r"师父|师傅|恩师|\b(?:master|teacher|mentor)s?\b", re.I), "mentor", "target"),
    (re.compile(r"徒弟|弟子|门生|\b(?:disciple|student|apprentice|pupil)s?\b", re.I), "mentor",
     "source"),
    # promised before married: "engaged to marry" asks for the promise
    (re.compile(r"未婚妻|未婚夫|订婚|定亲|\b(?:engaged|engagement|betrothed?|fianc[ée]e?s?)\b",
                re.I), "engaged", "either"),
    (re.compile(r"妻子|夫人|丈夫|夫君|嫁|娶|许配"
                r"|\b(?:wife|wives|husbands?|spouses?|marr(?:y|ied|iage)|brides?|bridegroom)\b",
                re.I), "spouse", "either"),
    (re.compile(r"主公|主人|效忠|\b(?:lord|serves?)\b", re.I), "serves", "source"),
    # 宝玉的丫头是谁, whose steward: the one asked about is served
    (re.compile(r"丫头|丫鬟|丫环|小厮|书童|侍女|仆人|\b(?:servants?|maids?|valets?|stewards?"
                r"|footm[ae]n|butlers?|coachm[ae]n|housekeepers?)\b", re.I), "serves", "target"),
    (re.compile(r"结义|义兄|义弟|\bsworn\b", re.I), "sworn_sibling", "either"),
    (re.compile(r"兄弟|哥哥|弟弟|姐姐|妹妹|兄长|\b(?:brothers?|sisters?|siblings?)\b", re.I),
     "sibling", "either"),
    (re.compile(r"祖父|祖母|爷爷|奶奶|\bgrand(?:father|mother|parent)s?\b", re.I),
     "grandparent_of", "target"),
    (re.compile(r"孙子|孙女|孙儿|\bgrand(?:sons?|daughters?|child|children)\b", re.I),
     "grandparent_of", "source"),
    (re.compile(r"(?<!祖)父亲|(?<!祖)母亲|\b(?:father|mother|parent)s?\b", re.I), "parent_of",
     "target"),
    (re.compile(r"儿子|女儿|之子|\b(?:sons?|daughters?|child|children)\b", re.I), "parent_of",
     "source"),
    (re.compile(r"仇人|敌人|\b(?:enem(?:y|ies)|foes?)\b", re.I), "enemy", "either"),
)

def wanted_gender(text: str, mentions: Sequence[str] = ()) -> str:
    """The gender of the person a who-question asks for (周瑜的妻子是谁？ → f), if it says: not
    when it asks whose kin someone is (韩夫人是谁的女儿: the parent may be either), names kin of
    both genders (her father and mother), or writes the word before the relative's name ("Who
    is her sister Mary married to?" asks for a husband; `mentions`: the names as written)."""
    if ASKS_WHOSE.search(text):
        return ""
    said = set()
    for gender, pattern in (("f", _FEMALE_RELATIVE), ("m", _MALE_RELATIVE)):
        for word in pattern.finditer(text):
            after = text[word.end():].lstrip(" ,，")
            if not any(after.startswith(name) for name in mentions):
                said.add(gender)
    return said.pop() if len(said) == 1 else ""


_FEMALE_RELATIVE = re.compile(FEMALE_RELATIVE, re.I)
_MALE_RELATIVE = re.compile(MALE_RELATIVE, re.I)


def asked_relation_kind(question: str) -> str | None:
    """The relation type of the first RELATION_CUES word the question writes, if any."""
    return next((kind for pattern, kind, _ in RELATION_CUES if pattern.search(question)), None)


ELOPED = re.compile(r"\belop(?:e|es|ed|ing)\b|\b(?:ran|run|runs|running)\s+(?:away|off)\s+with\b"
                    r"|私奔", re.I)
"""A question about whom someone ran away with, as lovers do: no marriage asked, but the one
asked for is as little of the asker's family (Who did Julia elope with? — Yates)."""


RELATION_VERBS: tuple[tuple[re.Pattern[str], str, str], ...] = (
    # Who taught Su Wan swordsmanship? 谁教过苏绾剑法: the one named right after is the pupil
    (re.compile(r"\b(?:taught|trained|teach(?:es)?|trains?)\b|(?:教|传授)(?:了|过)?", re.I),
     "mentor", "target"),
)
"""Verbs that ask for a relation when a name follows them right away (pattern, relation type,
the named one's role), as RELATION_CUES' nouns do when a name owns them."""

OWNER_GAP = re.compile(f"(?:[{HAN_RANGES}]{{0,4}}的|之|['’]s?\\s+(?:[a-z]+\\s+){{0,2}}|\\s+)")
"""What stands between a name and its relative word: 沈砚的师父, 沈青崖唯一的弟子, Mira's father,
Mira's only living son, Miss Bates' mother, Mercédès marry."""
ASKED_OWNER = re.compile(r"(?:谁的|\bwhose\s+)$", re.I)
"""谁的师父, whose father: the relative word is the question's object."""

ORDERED_MARRIAGE = re.compile(
    r"\b(?:first|second|third|former|previous|earlier|late)\s+(?:wife|husband|marriage|spouse)\b"
    r"|\bmarr(?:y|ied|ies)\b[^?？]{0,30}?\b(?:first|second|again)\b"
    r"|前妻|原配|续弦|后妻|第[一二三四]任|先娶|再娶", re.I)
"""A question about one of someone's marriages (Whom did Captain Weston marry first? 他的前妻是谁):
the world's spouse relations do not say which came first, so they do not answer it."""

ASKS_WHOSE = re.compile(r"谁的|\bwhose\b", re.I)
"""The relative word is the named one's, not the asked one's (韩夫人是谁的女儿, whose son)."""

OWNER_AFTER = re.compile(r"^\s+(?:of|to)\s+(?:the\s+)?", re.I)

RELATIVE_BY_OWNER = {
    True: r"(?:的|之)(?P<word>{words})",
    False: r"['’]s?\s+(?P<word>{words})(?![\w-])",
}
"""A relative word right after the name that owns it (曹操的父亲, 曹操之女儿, Emma's father, Miss
Bates' mother; not "Emma's father-in-law" cut short, nor her fathers), by script (Han:
True); `{words}` is the alternation of the language's relative words."""
RELATIVE_BEFORE_OWNER = r"\bthe\s+(?P<word>{words})\s+of\s+$"
"""A relative word before the name that owns it: "the father of Emma" (English)."""
RELATIVE_ASKED = {
    True: (re.compile(r"^\W*(?:请问)?(?:(?:谁|哪位|哪一位|何人)是)?$"),
           re.compile(r"^(?:的?名字)?都?(?:是|叫|为|乃|有)?(?:谁|哪位|哪一位|哪个|哪些人?|哪几[位个]人?"
                      r"|何人|什么人|什么名字|什么|几[位个]人?)?(?:呢|啊|呀|吗)?[\s？?。！!]*$")),
    False: (re.compile(r"^\W*(?:(?:who|whom|what|which)(?:\s+(?:is|was|were|are|became)|['’]s)"
                       r"\s+(?:the\s+names?\s+of\s+)?)?$", re.I),
            re.compile(r"^(?:['’]s\s+(?:first\s+|christian\s+|full\s+)?name|\s+(?:called|named))?"
                       r"(?:\s+(?:is|was)\s+(?:who|whom|called\s+what|named\s+what))?"
                       r"[\s?.!]*$", re.I)),
}
"""What stands before and after a relative named by kin when the question asks who that
relative is (Who was Emma's father?, What is the name of Emma's father?, 曹操的父亲是谁？,
谁是曹操的父亲, 顾怀山的徒弟有谁): what is asked is the relative, not something of theirs. Any
other word around it (What did Emma's father eat?, 曹操的父亲是怎么死的) asks about the relative
(agent/librarian/relatives_named.py), by script (Han: True)."""


def killing(names: Sequence[str]) -> re.Pattern[str]:
    """A word for killing or dying with one of `names` right after it, in either language:
    the one named is the victim (一剑刺死韩峥, 杀了韩峥, killed Han Zheng; not 被韩峥毒死)."""
    from stores.lang import en, zh

    alternatives = "|".join(re.escape(n) for n in sorted(set(names), key=len, reverse=True))
    return re.compile(f"(?:{'|'.join(map(re.escape, zh.DYING_WORDS))})了?(?:{alternatives})"
                      f"|\\b(?:{'|'.join(map(re.escape, en.DYING_WORDS))})\\w*\\s+"
                      f"(?:{alternatives})\\b", re.I)


CITED_FIRST = {True: "见", False: "In "}
"""How the librarian's first evidence line opens (见第3回…, In chapter 8 …), by language
(Chinese: True) …"""
CITED_MORE = {True: "另见", False: "See also "}
"""… and how the lines after it open."""
CITED_NEAREST = {True: "最接近的一句见", False: "The nearest found, in "}
CITED_INTRODUCED = {True: "首次出现见", False: "First named in "}
"""How the first evidence line opens when it quotes where the story first names someone no
sentence says who they are: where they come in, not an answer to who they are ("Who is
Marlow?" opened "In chapter 1 (I): “Marlow sat cross-legged right aft…”", as if stated)."""
WHO_SAID = (r"^\W*(?:who|whom)\s+(?:(?:first|last)\s+)?(?:said|says|say|asks|asked|cried|exclaimed"
            r"|replied|replies|answered|answers|whispered|shouted|tells|told|remarked|observed)\b"
            r"|\bwho\s+(?:said|says)\s+(?:this|that|it)\b")
"""A question asking who says a line ("Who said \"It's about a ham\"?", "“We've got rid of the
stumbling block”: who says this?"), read with its quotation (a pattern, `re.I`)."""
WORDS_OF = "{who}'s words"
"""How a cite line says whose words its quote is: “…” (Willoughby's words) [1]."""
SAID_BY = "Said by {who}, in "
"""How the first evidence line opens when its sentence holds the asked line and the passage
says whose words they are: the answer to "who said" (Said by Jenny Mullion, in chapter 19: …)."""
"""How the first evidence line opens when the answer is quotes alone (evidence_only, agent/
librarian/evidence_answers.py): the nearest the evidence has, not a sentence known to say it,
since no score tells which; so a sentence that does answer is not said not to."""


def nearest(line: str) -> str:
    """The first evidence line (In chapter 9: …) as the nearest the evidence has."""
    for chinese in (True, False):
        if line.startswith(CITED_FIRST[chinese]):
            return CITED_NEAREST[chinese] + line[len(CITED_FIRST[chinese]):]
    return line


def first_named(line: str) -> str:
    """The first evidence line (In chapter 1: …) as where the story first names someone."""
    for chinese in (True, False):
        if line.startswith(CITED_FIRST[chinese]):
            return CITED_INTRODUCED[chinese] + line[len(CITED_FIRST[chinese]):]
    return line


def seen_also(line: str) -> str:
    """An evidence line that opened an answer (In chapter 9: …) as one after another lead
    (See also chapter 9: …); any other line as it is."""
    for chinese in (True, False):
        for lead in (CITED_NEAREST[chinese], CITED_INTRODUCED[chinese], CITED_FIRST[chinese]):
            if line.startswith(lead):
                return CITED_MORE[chinese] + line[len(lead):]
    return line


UNPICKED = {True: "我没能从原文中确定唯一的答案；最相关的句子如下：",
            False: "I could not pick out one answer; the sentences that bear on the question:"}
"""How an answer that states nothing opens (only the evidence follows): the reader's own words,
which name nothing a follow-up may mean."""


UNSURE_CHAPTER = {True: "上一个回答没有找到确切的答案；它最接近的一句在{where}。",
                  False: "The last answer did not find that for sure; the nearest sentence it "
                         "quoted is in {where}:"}
"""The chapter of an unsure answer's sentence (`unsure_lead`), said as no more than that."""


@cache
def reader_phrases() -> re.Pattern[str]:
    """The offline reader's own fixed words in an answer (上一个回答没有找到确切的答案…, The
    nearest found, in …): how it frames what it quotes, no claim of the story's (the 一 of
    上一个 is no number a cited passage must hold)."""
    parts = [part for table in (CITED_NEAREST, UNPICKED, UNSURE_CHAPTER) for text in
             table.values() for part in text.split("{where}") if len(part.strip()) >= 4]
    return re.compile("|".join(re.escape(p.strip()) for p in sorted(parts, key=len,
                                                                    reverse=True)))


def unsure_lead(answer: str) -> bool:
    """The answer opens with the nearest sentence the evidence had (`nearest`), or with the
    evidence alone (UNPICKED): it did not find what was asked."""
    return answer.lstrip().startswith((*CITED_NEAREST.values(), *UNPICKED.values()))


_QUOTES_FIRST = re.compile(r"\s*(?:见第\d+回|In chapter \d+)")


def quotes_only(asked: str, answer: str) -> bool:
    """An answer to a question after one thing (who, where, how many) that opens with its
    evidence (In chapter 7: “…”), naming nothing: like `unsure_lead`, it did not find what was
    asked, so the chapter of its sentence is that sentence's only ("Who is Isabella engaged
    to?", then "In which chapter does that happen?" was answered "In ch. 7.": a newcomer's
    trial on Northanger Abbey)."""
    from stores.lang import asked_thing

    return asked_thing(asked) is not None and quotes_first(answer)


def quotes_first(answer: str) -> bool:
    """The answer opens with its evidence (In chapter 7: “…”), stating nothing of its own."""
    return _QUOTES_FIRST.match(answer) is not None


SUBJECT_PRONOUN = re.compile(r"(?:he|she|it|they)\s+", re.I)
"""An English sentence opening with its subject as a pronoun (She has the map deciphered)."""


# -- what a question asks about, without how it asks ---------------------------------------
QUESTION_WORDS_ZH = re.compile("|".join(zh.QUERY_FILLER))
QUESTION_WORDS_EN = re.compile(en.QUERY_FILLER, re.I)

# Words about the book rather than in it ("at the start of the novel", 书中): a story never
# calls itself a novel, so searching for them finds only noise (Monte Cristo "On what date does
# the Pharaon arrive … at the start of the novel?" lost chapter 1 to passages saying "start").
ABOUT_THE_BOOK = re.compile("|".join((en.ABOUT_THE_BOOK, *zh.ABOUT_THE_BOOK)), re.I)


def content_query(question: str) -> str:
    """The question without its question words: what a keyword search should look for."""
    text = ABOUT_THE_BOOK.sub(" ", question)
    text = QUESTION_WORDS_ZH.sub(" ", text)
    text = QUESTION_WORDS_EN.sub(" ", text)
    text = re.sub(r"[？?！!。，,、：:；;“”\"'（）()《》]", " ", text)
    return " ".join(text.split())


def question_terms(question: str, tokens: Callable[[str], list[str]]) -> list[str]:
    """The words a supporting passage should contain (no question words, no punctuation)."""
    terms = []
    for token in tokens(content_query(question)):
        if is_han(token[:1]):
            if len(token) >= 2:
                terms.append(token)
        elif len(token) >= 3:
            terms.append(token)
    return list(dict.fromkeys(terms))


# -- names the question writes ------------------------------------------------------------------
def name_like(term: str, question: str) -> bool:
    """A capitalised word inside the question (Oxford, Sherlock; the search terms are folded
    to lowercase, so the question says how it was written), or a Han surname and given name."""
    if term.isascii():
        words = re.findall(r"[^\W\d_]+", question)
        return any(fold_latin(w) == term and w[:1].isupper() for w in words[1:])
    if not re.fullmatch(f"[{HAN_RANGES}]{{2,4}}", term):
        return False
    if term[:2] in COMPOUND_SURNAMES:  # 诸葛亮, 司马懿
        return len(term) >= 3
    # 张三丰; a two-character name only where the question starts with it (曹操是怎么死的):
    # elsewhere 马上 and 高兴 would count as names.
    return term[0] in COMMON_SURNAMES and (len(term) == 3 or question.startswith(term))


def known_given_name(term: str, in_world: Callable[[str], bool]) -> bool:
    """A Han full name the text writes without its surname (贾宝玉 as 宝玉) is someone the
    world knows under a shorter name, not a stranger."""
    if term.isascii():
        return False
    surname = 2 if term[:2] in COMPOUND_SURNAMES else 1
    given = term[surname:]
    return len(given) >= 2 and in_world(given)


def asks_how_related(question: str, mentions: list[str]) -> bool:
    """The question asks what the relation is (什么关系, related, connection), or what one it
    names is to another ("What is Jane Fairfax to Miss Bates?": a name on each side of "to")."""
    if ASKS_RELATION.search(question):
        return True
    what_to = WHAT_TO.match(question)
    if what_to is None:
        return False
    one, other = (en.without_article(what_to[side]) for side in ("one", "other"))
    # the Count of Monte Cristo is written with its article, known without it
    return any(one.startswith(n) for n in mentions) and any(other.startswith(n) for n in mentions)
