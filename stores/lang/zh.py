"""Chinese: the words and forms the rules read Chinese text with, one table per concept."""

from __future__ import annotations

import re

from stores.lang import HAN_RANGES, Language
from stores.lang.zh_roles import (  # given on: callers read them as zh.X
    ADOPTED_CHILD,  # noqa: F401
    ADOPTIVE,
    BORN_KIN,  # noqa: F401
    BROTHER_WORDS,  # noqa: F401
    DEFINING,
    DESCRIBED_BEFORE,
    INTRODUCTION,
    KIN,  # noqa: F401
    OF,  # noqa: F401
    OFFICES,  # noqa: F401
    ROLE_BEFORE,
    ROLE_WORDS,  # noqa: F401
    SPOKEN_KIN,
    SWORN,  # noqa: F401
    VERBS_ON_A_CHILD,  # noqa: F401
    WITH,  # noqa: F401
    kin_statements,  # noqa: F401
)

# -- names: surnames, courtesy names, titles, what the tagger takes for names ---------------------
# 百家姓 single-character surnames, with 糜/麋/祢/谯/阚/岑/吾/沮/逢/审/典/是/士/留/笮/眭/蹇/兀
# added because the novel's people carry them (法正, 逢纪 …).
_SINGLE_SURNAME_TEXT = (
    "赵钱孙李周吴郑王冯陈褚卫蒋沈韩杨朱秦尤许何吕施张孔曹严华金魏陶姜戚谢邹喻柏水窦章云苏潘"
    "葛奚范彭郎鲁韦昌马苗凤花方俞任袁柳酆鲍史唐费廉岑薛雷贺倪汤滕殷罗毕郝邬安常乐于时傅皮卞"
    "齐康伍余元卜顾孟平黄和穆萧尹姚邵湛汪祁毛禹狄米贝明臧计伏成戴谈宋茅庞熊纪舒屈项祝董梁杜"
    "阮蓝闵席季麻强贾路娄危江童颜郭梅盛林刁钟徐邱骆高夏蔡田樊胡凌霍虞万支柯昝管卢莫经房裘缪"
    "干解应宗丁宣贲邓郁单杭洪包诸左石崔吉钮龚程嵇邢滑裴陆荣翁荀羊於惠甄曲家封芮羿储靳汲邴糜"
    "松井段富巫乌焦巴弓牧隗山谷车侯宓蓬全郗班仰秋仲伊宫宁仇栾暴甘钭厉戎祖武符刘景詹束龙叶幸"
    "司韶郜黎蓟薄印宿白怀蒲邰从鄂索咸籍赖卓蔺屠蒙池乔阴郁胥能苍双闻莘党翟谭贡劳逄姬申扶堵冉"
    "宰郦雍却璩桑桂濮牛寿通边扈燕冀郏浦尚农温别庄晏柴瞿阎充慕连茹习宦艾鱼容向古易慎戈廖庾终"
    "暨居衡步都耿满弘匡国文寇广禄阙东欧殳沃利蔚越夔隆师巩厍聂晁勾敖融冷訾辛阚那简饶空曾毋沙"
    "乜养鞠须丰巢关蒯相查后荆红游竺权逯盖益桓公"
    "麋祢谯吾沮审典是士留笮眭蹇兀法逢郤"
)

# Two-character surnames (复姓). 毋丘 and 太史 matter for the novel (毋丘俭, 太史慈).
COMPOUND_SURNAMES: frozenset[str] = frozenset({
    "万俟", "司马", "上官", "欧阳", "夏侯", "诸葛", "闻人", "东方", "赫连", "皇甫", "尉迟",
    "公羊", "澹台", "公冶", "宗政", "濮阳", "淳于", "单于", "太叔", "申屠", "公孙", "仲孙",
    "轩辕", "令狐", "钟离", "宇文", "长孙", "慕容", "鲜于", "闾丘", "司徒", "司空", "司寇",
    "端木", "巫马", "公西", "漆雕", "乐正", "公良", "拓跋", "谷梁", "段干", "百里", "东郭",
    "南门", "呼延", "羊舌", "梁丘", "左丘", "东门", "西门", "南宫", "第五", "太史", "毋丘",
    "母丘", "胡母",
})

SINGLE_SURNAMES: frozenset[str] = frozenset(_SINGLE_SURNAME_TEXT)

COMMON_SURNAMES = frozenset("赵钱孙李周吴郑王冯陈褚卫蒋沈韩杨朱秦尤许何吕施张孔曹严华金魏陶姜谢邹喻柏水窦章"
                          "云苏潘葛范彭郎鲁韦昌马苗凤花方俞任袁柳鲍史唐费廉岑薛雷贺倪汤罗毕郝安常乐于傅齐"
                          "康伍余顾孟黄穆萧尹姚邵汪祁毛狄米贝明臧计伏成戴宋庞熊纪舒屈项祝董梁杜阮蓝闵席季"
                          "林钟徐邱骆高夏蔡田樊胡凌霍虞万柯管卢莫房解丁邓郁单杭洪包左石崔龚程邢裴陆荣翁荀"
                          "甄曲封储靳段富巫焦巴牧山谷车侯全班仰秋仲伊宫宁仇栾甘厉戎祖武符刘景龙叶司黎白蒲")
"""The frequent single surnames (of SINGLE_SURNAMES): an unknown two- or three-character word
starting with one looks like a name the world does not know (张三丰)."""

RULER_TITLE = f"[{HAN_RANGES}]主"
"""后主, 蜀主, 魏主: a two-character title ending in 主 ("ruler")."""

RANK_TITLE = f"[{HAN_RANGES}]{{1,2}}[侯王公]"
"""温侯, 武乡侯, 晋公, 蛮王: a noble's title of a place or a people, ending in 侯, 公 or 王."""

CHILDHOOD_NAME = re.compile(f"生(?P<name>[{HAN_RANGES}]{{2,3}})[。，；]"
                            f"[^生]{{0,100}}?(?:乳名|小名|小字)(?P<small>[{HAN_RANGES}]{{2}})")

_HAN = HAN_RANGES
_H = f"[{_HAN}]"

# What may follow a two-character 字: punctuation, a line end, or these words.
_AFTER_ZI = rf"(?=[^{_HAN}]|$|[者乃现官为也])"

_ZI = rf"[字宇](?P<zi>{_H}{{2}}){_AFTER_ZI}(?:[，,]后改(?P<zi2>{_H}{{2}}){_AFTER_ZI})?"

# 姓刘，名备，字玄德 · 姓曹名操字孟德 · 覆姓诸葛，名亮，字孔明 · 吾姓关名羽，字长生，后改云长
COURTESY_FULL = re.compile(
    rf"(?:[复覆]姓(?P<cs>{_H}{{2}})|姓(?P<ss>{_H}))[，,]?名(?P<given>{_H}{{1,2}}?)[，,]?{_ZI}"
)

# 名绍，字本初 — the surname must come from the same sentence (袁隗之侄：名绍…).
COURTESY_GIVEN = re.compile(rf"名(?P<given>{_H}{{1,2}}?)[，,]?{_ZI}")

# 颍川徐庶，字元直 · 沛国谯人夏侯惇，字元让 — the name ends right before the comma.
COURTESY_BARE = re.compile(rf"(?P<pre>{_H}{{2,3}})[，,]{_ZI}")

# 袁隗之侄 · 夏侯渊有四子 · 坚有一弟 · 马援之后: who the 名 in the rest of the sentence belongs to.
COURTESY_KIN = re.compile(
    rf"(?P<who>{_H}{{1,3}}?)(?:之[子侄弟孙后女]|[有生][一二三四五六七八九][子弟女])"
)

# 曹仁字子孝，曹洪字子廉 — a full name standing alone between punctuation and 字.
COURTESY_NAMED = re.compile(rf"(?:(?<=[，。：“；！？\s])|^)(?P<pre>{_H}{{2,3}})字(?P<zi>{_H}{{2}}){_AFTER_ZI}")

# 琳字孔璋 right after 陈琳 was named: a single given name, then 字.
COURTESY_SHORT = re.compile(rf"(?<=[，。：“；！？\s])(?P<given>{_H})字(?P<zi>{_H}{{2}}){_AFTER_ZI}")

DAOIST_STYLE = re.compile(rf"道号(?P<hao>{_H}{{2}})(?P<suffix>先生|居士|上人)?")
CALLED_BY_ALL = re.compile(rf"(?:时人|人皆|众人|人)(?:皆|都)?(?:呼|称)(?:之)?为[“「]?"
                           rf"(?P<hao>{_H}{{2,3}}?)(?P<suffix>)[”」]?(?=[，。；！？]|也)")
"""What everyone calls someone, right after their 字 (姓吉，名太，字称平，人皆呼为吉平)."""

CHILDHOOD_NAME_AFTER_FATHER = re.compile(rf"(?P<father>{_H}{{2,3}})生(?P<given>{_H})[，,](?:小字|乳名)(?P<small>{_H}{{2}})")

# 字 values that are ordinary words (字迹 "handwriting" …), and given-name characters that
# are really grammar (…之，字 / …也，字) — both reject a bare `X，字Y`.
NOT_COURTESY = frozenset({"字迹", "字样", "字号", "字画", "字句", "字眼", "一个", "不识", "不知"})

NOT_GIVEN_NAME = frozenset("之也人曰子公王侯兵军年岁者乎矣焉哉其此彼吾汝某一二三四五六七八九十")

NAME_SIZED_WORD = re.compile(f"[{HAN_RANGES}]{{2,4}}")

# Verbs and particles the segmenter glues to a preceding name (孔明曰 → 孔明).
GLUED_AFTER_NAME = frozenset("曰笑大喜怒叹问答等闻自见乃入引之领为遂教唤视亦回只谓先听辞坐来真至"
                         "于出谢到待亲前留恐既接取令拜同背请方正急便惊再守必皆分解病处提舞挺"
                         "向飞报兵军寨与")

# Characters that end words which are not personal names: troops, titles, ranks, kin terms,
# banners and goods (魏兵, 吴侯, 魏主, 都尉, 白旗, 马匹).
NOT_NAME_END = frozenset("兵军旗粮匹绶礼驾营寨城郡州主王侯帝后氏公人言民尉帅卿弩天宗庙帛阵"
                          "子孙父母兄弟叔侄儿女臣相将吏家之某山亭口风庐刀枪戟剑弓箭马甲牧"
                          "来哉乃室右妙道寺桥宫谷巾发府")

# Characters that end the names of places a story makes up (鲁镇, 赵府, 听雨阁, 白沙江): a word
# the dictionary lacks that ends so is a place (tagger.chinese_unknown_names).
PLACE_END = frozenset("镇庄村府阁江河湖楼渡店坊铺巷街园院塘荡池岭坡峰洞台殿堂馆")
PLACE_NOUNS = frozenset(("酒店", "酒楼", "酒馆", "茶馆", "茶楼", "饭店", "客店", "客栈", "当铺",
                         "药铺", "药店"))
"""Words for a house of trade that a place's name is written before (咸亨酒店)."""
# Localizers glued after a name (赵府上, 院子里): no name ends so.
LOCALIZERS = frozenset("上下里内外中")

GRAMMAR_CHARS = frozenset("的了是在不也这那我你他她它们着个一有和就都而及与之其以为于所得地么吗呢吧啊呀")
"""Words of grammar (particles, pronouns, copulas, adverbs) no name found as a word the
dictionary lacks holds (却又, 他们: tagger.chinese_unknown_names)."""
NOUN_TAGS = frozenset({"n", "nr", "ns", "nz", "nrfg", "nrt", "m"})
"""jieba tags of nouns, names and numerals: all a new name's words are (闰土 n, 华大妈 ns + n)."""
ACTS_AFTER = frozenset("说道问笑哭叫喊答想看听走跑坐站便也又却就都")
"""Verbs and adverbs of a subject written right after it (闰土说, 老栓便): a name acts."""
AT_PLACE = frozenset("在到往回去进离从入至赴屯")
"""Words for being at or going to a place, written right before its name (到鲁镇, 回许昌):
stores/entities/kinds_by_use.places_by_use."""
PLACE_AFTER = frozenset("城县郡")
"""Words for a town written right after its name (陈仓城, 安众县): stores/entities/resolve."""

# A single given-name character glued to a verb (卓怒, 艾见, 权召) looks like a two-character name.
VERB_END = frozenset("曰笑怒命引见召问叹谓等惊")

# Surnames that are far more often ordinary words at the start of a tagged word (吾 "I").
WEAK_SURNAMES = frozenset("吾诸")

# Frequent words jieba tags as names that pass the rules above; generic, not novel-specific.
NOT_NAMES = frozenset({
    "文武", "伏兵", "马匹", "钱粮", "士卒", "安民", "施礼", "车驾", "安营", "弓弩", "元帅",
    "公卿", "高祖", "金珠", "何策", "谢恩", "明公", "牛马", "齐声", "殷勤", "白虎", "阴云",
    "林木", "何足", "何谓", "金帛", "仰观", "明白", "冷笑", "徐图", "万幸", "安抚", "龙凤",
    "陈说", "洪福", "高明", "后嗣", "黄巾", "闻言", "仰天", "童谣", "金宝", "封爵", "养老",
    "苗裔", "匡扶", "宣谕", "红光", "宿卫", "容纳", "莫若", "何忧", "何言", "何异", "何干",
    "吉兆", "干戈", "屈膝", "齐备", "秋雨", "苍天", "荆棘", "宫殿", "汲水", "石阵", "何劳",
    "明言", "何曾", "何仪", "王命", "贺喜", "宁死", "盛德", "万岁", "于是", "于此", "毕竟",
    "许多", "常常", "时时", "和平", "安然", "平安", "明日", "明年", "周围", "高兴",
    "索薪", "胡说", "张开", "花白", "白光", "和尚",
})

ADDRESS_KIN: dict[str, str] = {
    **dict.fromkeys(("姐", "姐姐", "姐儿", "妹", "妹妹", "妹子", "丫头", "姑娘", "姨"), "f"),
    **dict.fromkeys(("哥", "哥哥", "哥儿", "兄", "兄弟", "弟", "弟弟", "爷", "郎", "叔", "伯"), "m"),
}
"""Kin words and honorifics a novel adds to a character of a person's given name or to the
surname when it addresses or speaks of them (凤姐, 凤丫头, 宝兄弟, 林妹妹, 周郎), with the gender
they give the person."""
SPOUSE_TITLES = ("奶奶", "太太", "嫂子", "嫂", "夫人", "娘子")
"""Titles that name a married woman by her husband's name (琏二奶奶 is 贾琏's wife, not 贾琏)."""
NAME_SUFFIXES = ("氏", "公")
"""What turns a surname into a way of calling someone (孙氏, 关公), not a full name."""
ADDRESS_RANKS = "大二三四五六七八九十"
"""A rank in the family written between the name and the kin word (宝二爷, 薛大姑娘)."""
RANKED_KIN = ("爷", "姑娘", "姐", "哥", "妹妹")
"""The kin words a rank stands before."""
NOT_ADDRESS_STEMS = frozenset("小老大阿之子儿女人家氏公王侯的" + ADDRESS_RANKS)
"""Characters that make no form of address with a kin word: 小姐, 老爷, 大哥 are words, and
a rank alone (二爷, 三姑娘) names whoever holds it in the household."""
PROVINCE = "州"
"""A surname + a province (刘荆州, 刘豫州) names the province's governor."""
FUNCTION_TAGS = frozenset({"r", "p", "c", "d", "dg", "u", "uj", "ul", "uz", "ug", "uv", "ud",
                           "a", "ad", "ag", "y", "e", "m", "f", "t", "s"})
"""jieba tags of a single character that is a word of grammar (那, 向, 和, 明, 的), no surname
and no part of a given name, though the 百家姓 lists some of them: 那黛玉 is "that 黛玉"."""
DIMINUTIVE = "儿"
"""A given name's character + 儿 calls someone fondly (蓉儿, 颦儿)."""
IDENTITY_LINKS = ("即是", "就是", "便是", "乃是", "正是", "即", "乃")
"""Words that state two names are one person when a name stands on each side and the sentence
ends there (凤雏乃襄阳庞统也, 原来单福就是徐庶。, 伏龙正是诸葛孔明。)."""
ASSUMED_NAME = re.compile("(?:乃|即|是|为)其(?:托名|化名|假名|诈名|伪名)")
"""Right after a name, that it is the assumed name of the one named just before (此人乃颍川徐庶，
字元直。单福乃其托名耳)."""
IDENTITY_END = "也。，！；"
"""What may follow the second name of an identity statement."""

HONORIFIC = "公"
"""Novels call a man by surname + 公 (关公, 曹公); the tagger rightly skips such words."""

STATE_NAMES = frozenset("周魏吴汉晋齐楚秦燕宋鲁郑卫蜀")
"""Surnames that are also states: 魏公 and 周公 are dukes' titles, not 魏延 or 周瑜."""

# -- chapters and scenes --------------------------------------------------------------------------
NUMERAL_DIGITS = {"零": 0, "〇": 0, "○": 0, "Ｏ": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3,
              "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}

NUMERAL_UNITS = {"十": 10, "百": 100, "千": 1000}

NUMERALS = "0-9０-９零〇○Ｏ一二三四五六七八九十百千两兩廿卅"
COUNTED = f"(?:[{NUMERALS}]|\\d)+(?:[余多])?[个人位匹员名年岁日天次回里斤两万千百骑匹口张座件只头]?"
"""A number as a story writes it, with what it counts: 三千余骑, 十八年, 2匹 (a pattern)."""

# 第N回 / 第N章 / 第N节 (節), optionally followed by a title; the title may not be a sentence.
CHAPTER_HEADING = re.compile(
    rf"^第\s*([{NUMERALS}]+)\s*([回章节節])(?:[\s:：.．、，,·\-—]*)(.*)$")

FULL_STOP = "。"
SENTENCE_END = "。！？"
"""The marks that end a Chinese sentence."""

SCENE_HEADINGS = (
    re.compile(r"^\[\s*(?:场景|場景)\s*[:：]\s*(?P<title>[^\]]*)\]$"),
    re.compile(r"^(?:场景|場景)\s*[:：]\s*(?P<title>.*)$"),
    re.compile(r"^(?P<title>第\s*[0-9零〇一二三四五六七八九十百两兩]+\s*幕.*)$"),
)
"""Scene headings of a Chinese script: [场景：…], 场景：…, 第一幕 …"""

# -- glossaries and encodings ---------------------------------------------------------------------
ENTITY_TYPE_WORDS: dict[str, tuple[str, ...]] = {
    "person": ("人物", "角色", "人"),
    "place": ("地点", "地點", "地名", "地方", "城市"),
    "faction": ("势力", "勢力", "门派", "門派", "组织", "組織", "国家", "國家"),
    "item": ("物品", "道具", "武器", "宝物", "寶物"),
    "event": ("事件", "战役", "戰役"),
    "other": ("其他",),
}
"""Words glossaries and lorebooks use for each entity type, simplified and traditional."""

# The most frequent Han characters of modern and classical Chinese, simplified and traditional.
# A correct decoding of Chinese text is 30–60 % these; a GBK/Big5 mix-up yields ~2 %.
COMMON_HAN = frozenset(
    "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对"
    "可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公"
    "同三已老从动两长知民样现分将外但身些与高意进把法此实回二理点月明其种声全工己话儿者向情部正名"
    "定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内"
    "加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目报立马命张活难神数件安表原车"
    "白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干"
    "接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远"
    "资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量"
    "空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友"
    "孩站广改议形委早房音火际则首单据导影失拿网香似专石若兵弟谁校读志飞观争究包组造落视济喜离虽坏"
    "兴切朝卫曰乃遂皆欲吾汝矣兮乎焉哉耶谓於亦莫曹操刘备关羽孔云翼袁绍吕布董卓孙权瑜丞陛臣帝奏引营"
    "杀斩退追攻守策汉魏蜀吴"
    # traditional forms of the above where they differ
    "這們來國個說為時會著過學對裡後麼見經頭長從動兩樣現將實點種聲話兒機給幾業間東門問開還發當無與"
    "進書義風戰許覺統識極黃臉錢黨設雙歷專導網單據視濟離雖壞興衛謂劉備關雲張呂孫權將軍殺斬營馬計邊"
    "傳變聯該領運達辦遠資隊帶條語滿寫漢讓認論術結記電車報難數氣處總師員場親產讀觀爭組紹眾輕萬體別"
    "應問題聽兒愛裏請議強區轉廣際則紅決連員歡魏蜀吳曹")

# -- conversations: other sessions, genders, pronouns ---------------------------------------------
OTHER_SESSIONS = r"上次|上一次|以前的会话|别的会话|其他会话|之前的对话|以前聊|另一次"
"""Words with which a user asks to recall other sessions of the world too."""

VERNACULAR = "的了吗吧呢么哪啊呀着们这那"
"""Characters of the spoken language that classical verse does not use: 'quoted words of five
characters, two clauses' (师父去哪里，我便去哪里) are speech, not a poem."""

FEMALE_NAME_ENDINGS = ("夫人", "姑娘", "小姐", "娘娘", "皇后", "太后", "公主", "国太", "娘", "姬", "妃",
                       "氏", "女", "姐", "妹", "婆", "嫂", "母", "妈", "嬷嬷", "姥姥", "老老", "家的")
"""Endings of a woman's name or form of address (韩夫人, 貂蝉姑娘; someone's mother, 徐母; a
servant's wife, 周瑞家的)."""
MALE_NAME_ENDINGS = ("先生", "公子", "将军", "楼主", "师兄", "师叔", "师伯", "大哥", "丞相", "侯爷",
                     "皇叔", "都督", "太守", "翁", "郎", "公", "侯", "王", "伯", "叔", "兄", "爷")
"""Endings of a man's name or form of address (孔明先生, 关公)."""
FEMALE_DESCRIPTION = (r"之女|的女儿|义女|独女|长女|次女|之妻|的妻子|妻子|之母|的母亲|姑娘|夫人|小姐")
"""Kinship words that describe a woman (…之女，…之妻)."""
TITLED_NAME_ENDINGS = (*FEMALE_NAME_ENDINGS, *MALE_NAME_ENDINGS, "家的", "姨妈", "老老", "姥姥",
                       "妈", "嬷嬷")
"""Endings that make a name a title or a household role (王夫人, 赵姨娘, 周瑞家的), with no given
name of its own to call the person by."""
MALE_DESCRIPTION = r"之夫|的丈夫|之子|的儿子|长子|次子|之父|的父亲|大哥|兄长|之弟|师兄"
"""Kinship words that describe a man (…之子，…之父)."""
SHE = r"她(?!们)"
"""The pronoun of a woman (not 她们)."""
HE = r"(?<![其吉])他(?![们人乡日])"
"""The pronoun of a man (not 其他, 他们, 他人, 他乡, 他日)."""
CHAPTER_REFERENCE = rf"第[{NUMERALS}、，,\s至到—–-]+[回章节]"
"""Where in the story, not a claim about it: 第8回, 第七、八回, 第3至5章."""
SPEAKS = r"[^，。！？“”「」]{0,3}?(?:曰|道|说|问|答|叹|喝|叫|骂)"
"""A name followed by how it speaks (孔明曰, 宝玉笑道): the one who says the next words."""

# -- questions, and the Language the shared rules read --------------------------------------------
CHAPTER_CITED = r"(?:另见|见)?第\s*[\d一二三四五六七八九十百零]+\s*[回章节](?:\s*「[^」]*」)?"
"""A chapter an answer cites (见第3回「…」), to be taken out of what it says (a pattern)."""
IDENTITY_QUESTION = (r"^(?P<x>.+?)(?:指的|说的|讲的|又)?(?:究竟|到底)?是(?:谁|何人|什么人|哪位|哪一位)"
                     r"[？?。！!]*$")
"""A question asking who or what something is (那个人究竟是谁？): the thing is group x."""
QUERY_FILLER = ("有谁", "是谁", "是哪位", "哪一位", "哪位", "哪一回", "第几回", "哪一章", "第几章", "哪回",
                "哪里", "哪儿", "哪个", "哪座", "哪家", "哪些", "什么时候", "何时", "几时", "什么",
                "怎么样", "怎么", "怎样", "如何",
                "为什么", "为何", "多少", "几个", "是否", "有没有", "什么关系", "关系", "吗", "呢", "谁",
                "哪", "请问", "后来", "最后", "发生", "的", "了", "是", "在", "和")
"""The question words and fillers a content search leaves out of a question (the librarian), in
the order its alternation tries them."""
ABOUT_THE_BOOK = ("书中", "书里", "小说中", "小说里", "故事里", "原文中")
"""Words about the book rather than in it: a story never calls itself a novel."""
POINTING = ("那位", "那个", "那名", "那人", "那些")
"""那位, 那个: a question pointing at someone, not a word the story should contain."""

BIRTH_ORDER = "长|次|三|四|五|六|七|八|幼|少"
"""Words for a child's place among a parent's children (长子名策, 次名威): a pattern."""
DAUGHTERS = "女"
"""What a list of a parent's children counts when they are daughters (有二女)."""
BY_BIRTH_ORDER = rf"(?:第)?(?:{BIRTH_ORDER})(?P<kind>[子{DAUGHTERS}])$"
"""A word for a child by birth order, right before the child's name (长子, 次子, 第三子, 幼女)."""


def children_listing(parent: str, child: str, han: str) -> tuple[str, str]:
    """How a story lists a parent's children by birth order (孙坚有四子…：长子名策，字伯符；次子名
    权，…; 德有四子：长子韩瑛，次子韩瑶), with the marked `parent` and `child` patterns and `han`,
    a character class's ranges: the listing's opening (group `kind`: 子 or 女, then the rest of
    the sentence) and one child in it (stores.entities.kinship)."""
    return (rf"{parent}有[{NUMERALS}]{{1,2}}(?P<kind>[子{DAUGHTERS}])[^。]*",
            rf"(?:{BIRTH_ORDER})[子{DAUGHTERS}]?(?:名|曰)?(?:[{han}]{{1,2}}[，,]字)?" + child)
AGE_ASKED = re.compile(r"多大(?:年纪|岁数)?|几岁|多少岁|年纪|年龄|岁数|年方几")
"""A question after someone's age (诸葛亮出山时多大年纪？ 曹丕几岁？)."""
AGE_TOLD = re.compile(r"(?<![亡死卒终])(?:时年|年方|今年|年)[方约仅才已近]?(?P<age>[一二三四五六七八九十]{1,3})来?岁"
                      r"|(?P<about>[一二三四五六七八九十]{1,3})来?岁(?:年纪|上下)")
"""Where a sentence gives someone's age: 时年十八岁, 年方十七岁, 年仅三十一岁, 三十来岁年纪; not
亡年五十八岁 (the age they died at: the story's death, told elsewhere)."""

DEATH_WORDS = ("死", "亡", "卒", "殁", "薨", "崩", "逝", "寿", "亡年", "归天", "归神", "遇害", "被害",
               "身死", "而亡", "气绝")
"""Ways a story says someone died."""
DEATH_ADVERBS = "已既遂乃亦竟忽便因病身旋随即又俱皆"
"""Adverbs that may stand between someone and a word for their death (孙策既死, 曹操身亡)."""
NOT_DYING_AFTER = "战守斗拒据罪命士力心地敌生节活病然"
"""Characters after a word for dying that make it no death (死战, 死守, 死罪, 卒病, 卒然)."""
BY = "被"
"""The passive's 被, before the one who does it (被云长砍死: 云长 killed)."""
DEATH_MANNERS = "缢勒射刺砍斩打烧溺饿病冻毒杀"
"""How someone is put to death, before 死 (吕布缢死, 被箭射死)."""
DIED_BY_MANNER = rf"[{DEATH_MANNERS}]死(?=[，。；！？”」])"
"""A manner of death that ends its clause (吕布缢死，), not one that goes on to whom it killed
(关羽砍死华雄): a pattern."""
DEATH_ADVERB_WORDS = ("就这样", "这样", "终于", "已经", "竟然", "到底", "还是", "就")
"""The spoken language's adverbs that may stand there too (韩峥就这样死在了落星崖上)."""

PERSON_NOUNS = ("丫头", "丫鬟", "丫环", "家人", "小厮", "女子", "女孩", "孩子", "儿子", "女儿", "姑娘",
                "和尚", "道士", "尼姑", "婆子", "奴才", "仆人", "将军", "大将", "谋士", "官员", "太监",
                "老师", "先生", "夫人", "小姐", "妻子", "丈夫", "兄弟", "姐妹", "哥哥", "姐姐", "弟弟",
                "妹妹", "徒弟", "弟子", "师父", "朋友", "大臣", "武将", "文官", "皇帝", "大夫", "太医",
                "医生", "奶妈", "媳妇", "使者", "书生", "客人")
"""Nouns for a person that 哪个 asks for (哪个丫头, 哪个家人: a person, as 谁 asks)."""

ASKED_NOUN = rf"哪[一]?[个位名员]?(?P<noun>{'|'.join(PERSON_NOUNS)})"
"""The noun a 哪个 question asks for (哪个丫头 → 丫头, 哪位夫人 → 夫人)."""


def described_as(noun: str, forms: str) -> str:
    """A name (`forms`, an alternation of its spellings) called by a noun beside it: 丫头晴雯,
    晴雯这丫头, 贾母的丫头鸳鸯."""
    between = "[^，。！？；：“”「」\\s]"
    return rf"(?:{forms}){between}{{0,3}}?{noun}|{noun}{between}{{0,2}}?(?:{forms})"


CLEFT_ASKING = r"的[^，,。？?！!的]{0,4}?(?:是|乃)(?:谁|何人|哪)"
"""在定军山斩了夏侯渊的|是谁: the question word stands last for the one the clause before it
describes, who did what the clause says."""
PASSIVE_ASKING = r"被(?=谁|何人|哪)"
"""魏延是被谁斩杀的: the one asked for did it, so the story tells it 马岱斩魏延."""
OPENING_NAME = (f"^([{''.join(sorted(COMMON_SURNAMES))}][\u4e00-\u9fff]{{2}})"
                r"(?=是|在|的|和|与|跟|怎|为|被|对|把|有|说|曾|后来|最后|一生)")
"""A three-character name a question opens with, its verb or particle right after it (王大锤|是
怎么死的): the segmenter cuts a name it does not know into pieces (王 / 大锤), so this is how
a question about someone the text never mentions shows it."""


QUESTION_WORDS = {
    "who": r"谁|哪位|哪员|哪个人|哪一位|哪一个人|何人|什么人|叫什么|名叫|名字",
    # 哪几个 asks for people only as 哪几个人 (韩峥墓旁的松树上刻了哪几个字 asks for words)
    "person_named": r"谁|哪[一二三四五六七八九两几]?(?:位|名|员|个人)|什么人"
                    rf"|哪一?个(?:{'|'.join(PERSON_NOUNS)})",
    "many": r"哪[二三四五六七八九两几]|哪些|几个|有谁|都有",
    "where": r"哪里|哪儿|何处|何地|什么地方|哪座|哪个城|哪一城|哪个地方|在哪|去哪",
    "what": r"什么|何物|哪件|哪把|哪匹|哪口",
    "which_chapter": r"哪一回|第几回|哪回|哪一章|第几章",
    "dies": r"死|去世|身故",
    "manner": r"怎么|如何|怎样|怎地",
    "number": r"多少|几[个人位匹员名员年岁日天次回里斤两十百千万]|几何|多大|多久|多远|多重|多长",
    "name_part": r"的(?:字|表字|小字|号|道号|别号|外号|绰号|乳名|小名)(?:是|叫|为)",
}
"""The words that ask each kind of question (who: 谁, 哪位, 什么人; many: 哪些, 有谁 …)."""

KIN_WORDS = ("父", "子", "母", "妻", "夫", "兄", "弟", "妹", "姊", "叔", "侄", "孙", "女", "婿", "义父",
             "义子", "结义", "拜", "主公", "军师", "臣", "师")
"""Words for how two people are related, searched within a pair's passages."""
DYING_WORDS = (*DEATH_WORDS, "斩", "杀", "缢", "自刎")
KILLING_MANNERS = ("毒", "刺", "斩", "杀", "射", "缢", "刎", "溺", "病", "砍", "焚", "勒")
"""Words that tell how someone died (一剑刺死, 用蚀心散毒死), not only that or where (死于落星崖)."""
"""The death words and the ways of being killed a passage tells a death with."""
TIME_ENDS = "前后时年日初间"
"""What ends a time phrase that may open a sentence before its subject (五年前沈砚……)."""
CLAUSE_ENDS = "；，、：;,:"
"""Marks that end a clause, not a sentence: a clause cut out to stand alone ends with 。."""
AFTER_ONES_OWN_DEATH = "了在于时后前去得的也过矣"
"""What follows a death word that tells the subject's own death (死在落星崖, 死了, 死于); another
character after it makes the subject the killer (毒死师父: the master died)."""

NOT_IN_TEXT = r"文本中没有|原文中?没有|文中(?:没有|未)提"
"""How a reader says the text does not tell."""

RELATION_WORDS = {
    "kin": "亲属", "sworn_sibling": "结义兄弟", "lord_of": "君臣", "serves": "效力", "ally": "盟友",
    "enemy": "仇敌", "member_of": "所属", "spouse": "夫妻", "mentor": "师徒", "rival": "对手",
    "located_in": "位于", "owns": "拥有", "parent_of": "亲子", "child_of": "亲子",
    "grandparent_of": "祖孙", "sibling": "兄弟姐妹", "engaged": "婚约",
}
"""The graph's relation types as an answer names them."""

RELATIVE_WORDS = {
    ("parent_of", "source", "m"): "父亲", ("parent_of", "source", "f"): "母亲",
    ("parent_of", "source", ""): "父母", ("parent_of", "target", "m"): "儿子",
    ("parent_of", "target", "f"): "女儿", ("parent_of", "target", ""): "子女",
    ("child_of", "target", "m"): "父亲", ("child_of", "target", "f"): "母亲",
    ("child_of", "target", ""): "父母", ("child_of", "source", "m"): "儿子",
    ("child_of", "source", "f"): "女儿", ("child_of", "source", ""): "子女",
    ("spouse", "either", "m"): "丈夫", ("spouse", "either", "f"): "妻子",
    ("spouse", "either", ""): "配偶",
    ("mentor", "source", ""): "师父", ("mentor", "target", ""): "徒弟",
    ("sworn_sibling", "either", ""): "结义兄弟",
    ("serves", "target", ""): "主公", ("lord_of", "source", ""): "主公",
    ("serves", "target", "f"): "主人",
    ("serves", "source", "f"): "丫鬟", ("serves", "source", "m"): "仆人",
    ("serves", "source", ""): "仆人",
    ("sibling", "either", "m"): "兄弟", ("sibling", "either", "f"): "姐妹",
    ("engaged", "either", "m"): "未婚夫", ("engaged", "either", "f"): "未婚妻",
    ("engaged", "either", ""): "未婚配偶",
    ("sibling", "either", ""): "兄弟姐妹",
    ("grandparent_of", "source", "m"): "祖父", ("grandparent_of", "source", "f"): "祖母",
    ("grandparent_of", "source", ""): "祖父母", ("grandparent_of", "target", "m"): "孙子",
    ("grandparent_of", "target", "f"): "孙女", ("grandparent_of", "target", ""): "孙辈",
}
"""What one end of a relation is to the other (see `Language.relative_words`)."""

KIN_OF_KIN = {
    ("grandparent", "m", "m"): "祖父", ("grandparent", "m", "f"): "祖母",
    ("grandparent", "f", "m"): "外祖父", ("grandparent", "f", "f"): "外祖母",
    ("grandchild", "m", "m"): "孙子", ("grandchild", "m", "f"): "孙女",
    ("grandchild", "f", "m"): "外孙", ("grandchild", "f", "f"): "外孙女",
    ("uncle", "f", "m"): "舅父", ("uncle", "f", "f"): "姨母", ("uncle", "m", "f"): "姑母",
    ("nephew", "m", "m"): "侄子", ("nephew", "m", "f"): "侄女",
    ("nephew", "f", "m"): "外甥", ("nephew", "f", "f"): "外甥女",
    ("parent_in_law", "m", "m"): "公公", ("parent_in_law", "m", "f"): "婆婆",
    ("parent_in_law", "f", "m"): "岳父", ("parent_in_law", "f", "f"): "岳母",
    ("child_in_law", "", "m"): "女婿", ("child_in_law", "", "f"): "儿媳",
    ("sibling", "", "m"): "兄弟", ("sibling", "", "f"): "姐妹",
    ("parent_or_step", "", "m"): "父亲或继父", ("parent_or_step", "", "f"): "母亲或继母",
    ("child_or_step", "", "m"): "儿子或继子", ("child_or_step", "", "f"): "女儿或继女",
}
"""Kin two steps away (see `Language.kin_of_kin`): the side of the family the one between is
on names it (祖父, 外祖父); a father's brother is 伯父 or 叔父 by age, which no relation says,
and the in-laws of a sibling's marriage have a word for each age and side: neither is here."""

PAIR_WORDS = {
    ("parent_of", "m", "m"): "父子", ("parent_of", "m", "f"): "父女",
    ("parent_of", "f", "m"): "母子", ("parent_of", "f", "f"): "母女",
    ("spouse", "", ""): "夫妻", ("sibling", "m", "m"): "兄弟", ("sibling", "f", "f"): "姐妹",
    ("grandparent_of", "", ""): "祖孙", ("mentor", "", ""): "师徒",
    ("sworn_sibling", "", ""): "结义兄弟",
}
"""What two related people are together (see `Language.pair_words`)."""

IDENTITY = (rf"^(?:请)?(?:介绍一下|说说|讲讲)?[“「\"]?(?P<name>{_H}[^，。？?！“”「」]{{0,12}}?)[”」\"]?(?:指的|说的|讲的|又)?(?:是谁|是何人|是什么人|是什么|是哪位|何许人也?|是?(?:做|干)什么的)[？?。！]*$"
            rf"|^谁是(?P<name2>{_H}[^，。？?！]{{0,12}})[？?。！]*$"
            rf"|^(?:请)?(?:介绍一下|说说|讲讲)(?P<name3>{_H}[^，。？?！]{{0,12}}?)(?:这个人|其人)?[吧。？?！]*$")
"""A question asking who or what a named entity is (沈砚是谁？ 谁是韩峥？ 介绍一下苏绾, “卧龙”指的是谁？,
赵七爷是做什么的？: what someone does is who they are)."""
NAME_KINDS = ("字", "表字", "小字", "号", "道号", "别号", "外号", "绰号", "诨名", "乳名", "小名", "别名",
              "称号", "名号", "封号")
"""The kinds of name a person is given besides their own (字, 号, 小字 …)."""
GIVES_NAME = "(?:" + "|".join(NAME_KINDS) + r"|名|称|叫|唤)\s*$"
"""What stands right before a name the sentence gives (字孔明, 人称卧龙, 唤作…) (a pattern)."""
ALIAS_OF = (rf"^[“「\"]?(?P<alias>[^“”「」\"，。？?]{{1,12}}?)[”」\"]?是谁的(?:{'|'.join(NAME_KINDS)})",
            rf"^谁(?:的(?:{'|'.join(NAME_KINDS)}))?(?:叫|号|字|被称为|被叫做|人称)[“「\"]?(?P<alias>[^“”「」\"，。？?]{{1,12}}?)[”」\"]?[？?。]*$",
            r"^[“「\"]?(?P<alias>[^“”「」\"，。？?的]{1,12}?)[”」\"]?的?(?:真名|本名|原名|真实姓名)"
            r"(?:是什么|是谁|叫什么|是)?[？?。]*$")
"""Questions asking whose other name a name is (“阿瞒”是谁的小字？ 谁号卧龙？ 伯岩的真名是什么？):
group `alias`."""
NAME_OF = (rf"^(?P<name>[^，。？?的]{{1,12}}?)的(?P<kind>{'|'.join(NAME_KINDS)})(?:是什么|是|叫什么|为何)",
           rf"^(?P<name>{_H}{{2,4}}?)(?P<kind>字|号)(?:什么|为何|是什么)")
"""Questions asking a person's 字, 号 or other name (韩峥的字是什么？ 曹操字什么？): groups `name`
and `kind`."""

LANGUAGE = Language("zh", KIN_WORDS, DEATH_WORDS, DYING_WORDS, QUESTION_WORDS, SENTENCE_END,
                    not_in_text=NOT_IN_TEXT, relation_words=RELATION_WORDS,
                    relative_words=RELATIVE_WORDS, relative_sentence="{who}是{whose}的{word}",
                    seniority=("[兄哥姐]", "[弟妹]"), adoptive=ADOPTIVE,
                    spoken_kin=SPOKEN_KIN, kin_of_kin=KIN_OF_KIN,
                    path_sentence="{first}，{second}",
                    because_sentence="{said}：{why}",
                    pair_words=PAIR_WORDS, pair_sentence="二人是{pair}",
                    fathers_surname=True,
                    role_before=ROLE_BEFORE, defining=DEFINING,
                    described_before=DESCRIBED_BEFORE, identity=IDENTITY,
                    introduction=INTRODUCTION,
                    chapter_reference=CHAPTER_REFERENCE, asked_noun=ASKED_NOUN,
                    described_as=described_as)

SPEAKER_CLAUSE = r"(?:^|(?<=[。！？；，：”」\n]))([\u4e00-\u9fff]{2,6}?)(?:说道|问道|道|曰)[：:，]?[“「]"
"""A clause that opens with who speaks and ends in a verb of saying and an opening quote
(宝玉笑道：“, 孔明曰：“): group 1 is the speaker with any adverb or verb glued after it."""
SPOKEN_AFTER_NAME = frozenset("说又也都冷忙因便奏")
"""Characters written between a speaker and the verb of saying (宝玉忙笑道, 袭人冷笑道), beside
GLUED_AFTER_NAME's."""
NOT_NAME_TAGS = frozenset({"d", "dg", "c", "p", "v", "vd", "vg", "vn", "vi", "u", "r", "f", "s",
                           "t", "m", "a", "ad", "ag", "y", "e"})
"""jieba tags of words that are no part of a personal name (adverbs, conjunctions, verbs,
pronouns, places and localizers, time, numerals, adjectives): 便问, 那人, 一面, 口内, 诧异."""
DEMONSTRATIVES = frozenset("那这此其该")
"""A word that starts with one points at someone unnamed (那丫头, 此人, 其人)."""
PEOPLE_COUNTED = r"(?P<count>[二两三四五六七八九])(?:人|位)"
"""A count of people (二人, 三位): where the words name that many, it counts them (沈砚是顾怀山的
徒弟，二人是师徒), and is no number the answer claims."""
UNNAMED_SPEAKERS = frozenset({
    "众人", "大家", "左右", "众将", "诸将", "众官", "众臣", "二将", "二人", "三人", "四人", "其人",
    "此人", "那人", "土人", "使者", "军士", "童子", "老人", "婆子", "丫头", "小丫头", "丫鬟",
    "小厮", "门子", "家人", "下人", "众丫头", "众婆子", "太监", "和尚", "道士", "夫人", "老爷",
    "太太", "奶奶", "姑娘", "嬷嬷", "大夫", "先生", "将军", "小人", "后人", "旁人", "近臣",
    "侍臣", "众军", "众官皆", "从人",
})
"""Those who speak in a novel without being anyone in particular: the crowd, a servant, a
role (众人道, 左右曰, 婆子笑道)."""
NAME_TAGS = frozenset({"nr", "nrfg", "nrt"})
LETTERED_NAME = re.compile(r"(?<![A-Za-zＡ-Ｚａ-ｚ])[阿小老][A-ZＡ-Ｚ](?![A-Za-zＡ-Ｚａ-ｚ])")
"""A familiar prefix and one Latin capital, as a modern story names its people (阿Q, 小D; the
text may write the letter full-width: 阿Ｑ)."""
HOUSEHOLD_TITLES = {
    **dict.fromkeys(("太爷", "老爷", "少爷", "秀才", "举人", "大叔", "公公", "先生"), "m"),
    **dict.fromkeys(("太太", "奶奶", "大妈", "大娘", "大婶", "大嫂", "嫂子", "嫂", "老太",
                     "老太太", "姨妈", "姑娘", "小姐"), "f"),
}
"""What a household or a village calls its people after their surname, or after a husband's or
a son's name (赵太爷, 方太太, 华大妈, 七斤嫂, 九斤老太), with the gender it gives; a rank may stand
before 爷, 嫂 and 奶奶 (赵七爷, 杨二嫂)."""
RANKED_HOUSEHOLD_TITLES = ("奶奶", "嫂子", "嫂", "爷")
"""The part-of-speech tags jieba gives personal names."""
LOCALIZER_TAG = "f"
"""jieba's tag for a localizer (下, 上, 里, 旁): 松树下, 侯府里. A word tagged as a name that is
mostly followed by one is a place or a thing (jieba's dictionary tags 松树 `nr`), not a person."""
