"""Who someone is to others, in Chinese: the words for kin and the offices written before a name
(孙坚长子孙策, 丞相曹操, 荆州刺史刘表), how a sentence states kin (孙坚之子孙策, 甘夫人生刘禅,
刘备娶孙夫人), and the words right after a name that say who someone is (，字玄德, 乃中山靖王之后,
琅琊阳都人也): read by the entities' kinship, the cards and the librarian."""

from __future__ import annotations

from stores.lang import HAN_RANGES

_H = f"[{HAN_RANGES}]"

ROLE_WORDS = {
    "孩子": "孩子|儿子|孩儿|幼子|长子|次子|之子|子|女儿|女",
    "儿子": "儿子|长子|次子|幼子|之子|子",
    "女儿": "女儿|之女|长女|次女|女",
}
"""A word for a child in a follow-up (这个孩子) → the words next to a name that give it that
role (长子孙策, 之女貂蝉), as an alternation."""
KIN = {
    **dict.fromkeys(("父", "父亲", "母", "母亲"), ("parent_of", True)),
    **dict.fromkeys(("子", "儿子", "长子", "次子", "三子", "四子", "幼子", "女", "女儿", "长女",
                     "次女", "义子", "义女"), ("parent_of", False)),
    **dict.fromkeys(("义父", "义母"), ("parent_of", True)),
    **dict.fromkeys(("妻", "妻子", "夫人", "夫", "丈夫", "夫君"), ("spouse", True)),
    **dict.fromkeys(("未婚妻", "未婚夫"), ("engaged", True)),
    **dict.fromkeys(("祖父", "祖母", "爷爷", "奶奶"), ("grandparent_of", True)),
    **dict.fromkeys(("孙子", "孙女", "孙儿", "外孙", "外孙女", "外孙子"), ("grandparent_of", False)),
    **dict.fromkeys(("外祖父", "外祖母", "外公", "外婆"), ("grandparent_of", True)),
    **dict.fromkeys(("兄", "弟", "妹", "姊", "姐", "哥哥", "弟弟", "姐姐", "妹妹"),
                    ("sibling", True)),
    **dict.fromkeys(("叔", "侄", "孙", "甥", "婿", "族弟", "堂弟", "从弟"), ("kin", True)),
    **dict.fromkeys(("结义兄弟", "结义弟", "结义兄", "义兄", "义弟"), ("sworn_sibling", True)),
    **dict.fromkeys(("师父", "师傅", "恩师"), ("mentor", True)),
    # 宝玉的丫头袭人: the one named serves the other
    **dict.fromkeys(("丫头", "丫鬟", "丫环", "小厮", "书童", "侍女", "奴才", "仆人", "家奴"),
                    ("serves", True)),
    **dict.fromkeys(("徒弟", "弟子", "门生"), ("mentor", False)),
}

SPOKEN_KIN = {"侄": "侄子", "甥": "外甥", "叔": "叔父", "婿": "女婿", "孙": "孙子",
              "兄": "哥哥", "弟": "弟弟", "姐": "姐姐", "妹": "妹妹"}
"""KIN's one-character words of the wide type kin, and of a sibling's seniority, as an answer
says them (see `Language.spoken_kin`)."""

BORN_KIN = "长子|次子|三子|四子|幼子|长女|次女|义子|义女|子|弟|兄"

ADOPTIVE = "义子|义女|义父|义母|养子|养女|养父|养母|螟蛉"
"""Words for a child or a parent by adoption (see `Language.adoptive`)."""
ADOPTED_CHILD = "义子"
"""What one who kneels to another as a father (关平拜关公为父) is to him."""
VERBS_ON_A_CHILD = frozenset("封立遣令命使教唤召差拜送携引带留托有生抱嘱谓")
"""One character before 长子 that is a verb taking the son as its object (封次子刘永为鲁王, 遂立
长子曹丕), not a father's one-character given name (操长子曹丕)."""

BROTHER_WORDS = frozenset({"兄", "弟", "哥哥", "弟弟"})
"""Words for a brother: between two full names of two surnames they tell sworn brothers
(刘玄德之弟关羽), as blood brothers share a surname."""

WITH = "与|并|同|及|和|携|引|带"
"""Words by which one goes with another (超与弟马岱, 马超并弟马岱): the kin word after them is
the first one's."""

OF = "(?:之|的)"
"""The particle between a name and what belongs to it (孙坚之子, 刘备的妻子)."""


SWORN = "结为兄弟|结拜为兄弟|结为异姓兄弟|结为弟兄|结义为兄弟|八拜之交"
"""How a text says two people swore brotherhood."""


def kin_statements(named: str, of: str, a: str, b: str, word: str, mark: str) -> tuple[str, ...]:
    """How Chinese states kin between two marked names: `named` is the `word` of `of` (or
    `of` gave birth to `named`: group `born`), `a`
    married `b` (or wed them), or `sa` and `sb` swore brotherhood (patterns; `mark` is the character around a
    marked name)."""
    sa, sb = a.replace("?P<a>", "?P<sa>"), b.replace("?P<b>", "?P<sb>")
    return (
        # 孙坚之子孙策, 沈砚的结义兄弟韩峥
        of + f"{OF}{word}" + named,
        # 袁绍长子袁谭, 张辽子张虎, 孙权弟孙翊; one who goes with his kin: 马超并弟马岱; an
        # office between: 司马懿长子骠骑将军司马师
        of + f"(?:{WITH})?(?P<word>{BORN_KIN})(?:{_H}{{0,4}}?(?:{'|'.join(OFFICES)}))?" + named,
        # 司马昭乃仲达之子, 韩峥是沈砚的结义兄弟
        named + r"(?:乃|是|为|即)" + of + f"{OF}{word}",
        # 荀彧字文若，颍川颍阴人，荀绲之子也: the one introduced, then whose child
        named + f"[^{mark}。；]{{0,24}}?，" + of + f"之{word}也",
        # 甘夫人生刘禅, 王夫人生了宝玉: a birth, the parent first, the child named right after
        of + r"(?P<born>生了|生下|生)" + named + r"(?![之的]?气)",
        # 关平拜关公为父: an adoption, the child first, the parent in `of`
        named + r"拜" + of + r"为(?P<adopted>义?[父母])",
        # 刘备娶孙夫人, 孙夫人嫁与刘备, 以妹嫁刘备
        a + r"(?:娶|纳)了?" + b,
        a + r"(?:嫁|许配)(?:与|于|给)?了?" + b,
        # 当夜玄德与孙夫人成亲: the wedding itself
        a + r"(?:与|和|同)" + b + r"(?:成亲|成婚|完婚|结为夫妇|结为夫妻)",
        # sworn siblings (groups sa, sb): 玄德与吕布结为兄弟, 关羽、张飞……结为兄弟
        sa + r"(?:与|和|同|、)" + sb + f"[^{mark}。；]{{0,12}}?(?:{SWORN})",
    )

OFFICES = (
    "大将军", "丞相", "军师", "将军", "太守", "刺史", "州牧", "大都督", "都督", "太尉", "司徒", "司空",
    "尚书", "侍中", "中郎将", "校尉", "都尉", "先锋", "元帅", "主簿", "参军", "长史", "谋士", "县令",
    "皇帝", "天子", "皇叔", "皇后", "太后", "贵妃", "太子", "世子", "国舅", "王爷", "侯爷", "老爷",
    "使君", "太太", "奶奶", "夫人", "姑娘", "小姐", "公子", "少爷", "丫鬟", "丫头", "嬷嬷", "管家",
    "小厮",
    "和尚", "道士", "尼姑", "先生", "秀才", "知府", "知县", "员外", "楼主", "掌门", "首座", "侍卫",
    "总管", "大夫", "郎中", "掌柜", "船家", "渔夫", "书生", "使者", "刺客",
    # the court's and the provinces' offices of later dynasties
    "太师", "太傅", "太保", "御史", "翰林", "学士", "侍郎", "知州", "通判", "总督", "巡抚", "提督",
    "节度使", "主事", "员外郎",
)
"""Offices, titles and roles written right before a name (丞相曹操, 军师孔明, 丫鬟袭人)."""

ROLE_BEFORE = (rf"(?:(?P<whose>{_H}{{2,3}}?)?(?:之|的)?(?P<kin>长子|次子|三子|幼子|长女|次女|之子|之弟|之兄"
               rf"|之侄|之女|之妻|之孙|之婿)|(?P<office>{'|'.join(OFFICES)}))$")
"""An office (荆州刺史刘表) or a kinship (孙坚长子孙策, 袁绍之弟袁术) right before a name."""

INTRODUCTION = (rf"(?:(?:[复覆]姓(?P<cs>{_H}{{2}})|姓(?P<ss>{_H}))[，,]?)?名(?P<given>{_H}{{1,2}}?)"
                rf"(?:(?=[，,。]|字|$)(?:[，,]?字(?P<zi>{_H}{{2}}))?)")
"""A sentence that introduces someone by surname and given name (姓刘，名备，字玄德), or by given
name and 字 alone, whose owner the 字 tells (孙坚…长子名策，字伯符)."""

_NOT_QUESTION = "(?!谁|否|不|什么|很|会|要|在|因为|为了)"
"""What after 是 makes no definition: a question (是谁, 是不是), a judgement (是不会错的, 是很好的)
or a place or cause (是在城里, 是因为)."""
DEFINING = (
    # 「，字玄德」「姓刘，名备，字玄德」: a courtesy name is how the text introduces someone
    # (not 名字, "name": 阿Ｑ的名字是怎么写的)
    ("courtesy", rf"^(?P<what>[，,]?\s*(?:复姓|姓)?{_H}{{0,2}}[，,]?(?:名{_H}{{1,2}}[，,]?)?(?<!名)字"
                 rf"(?!是|叫|怎|什|为){_H}{{2}}[^。！？]{{0,40}})"),
    # 「是一个粗笨女人」: a person of a sort — it defines, weakly (是邻村茂源酒店的主人 says more)
    ("copula_vague", rf"^[，,]?\s*(?P<what>是(?:一个|一位|个){_H}{{0,10}}?(?:人|女人|男人|汉子|孩子|"
                     rf"老头子|东西))(?=[，。！？；]|$)"),
    # 「没有家，住在未庄的土谷祠里」「家住金陵」: where someone lives
    ("origin", rf"^[，,]?\s*(?P<what>[^。！？；“”]{{0,6}}?(?:住在|住于|家住|寄住在|住着){_H}[^。！？；]{{1,30}})"),
    # 「乃中山靖王之后」「是雁回楼的首座弟子」「即曹操也」: a copula (not 即刻, 即使: at once, even if)
    ("copula", rf"^[，,]?\s*(?P<what>(?:乃|系|即(?![刻使便日时将位])|本是|原是|便是|就是|是){_NOT_QUESTION}[^。！？；]{{2,40}})"),
    # 「，琅琊阳都人也」「，金陵人氏」: where someone comes from
    ("origin", rf"^[，,]\s*(?P<what>{_H}{{2,8}}人(?:也|氏))"),
    # 「，顾怀山之徒」「，贾政之子」: an apposition naming a relative or office
    ("apposition", rf"^[，,]\s*(?P<what>{_H}{{2,6}}(?:之|的)(?:{'|'.join(OFFICES)}|{BORN_KIN}|徒|妻|夫|女|母|父)[^。！？；]{{0,20}})"),
)
"""What introduces or defines a name, right after it (see `Language.defining`)."""

DESCRIBED_BEFORE = (r"(?:^|[，,。！？；：、“”‘’…—\s])(?P<what>"
                    r"[^，,。！？；：、“”‘’…—\s这那此该]{1,13}(?<![他她伊我你它们家前后时])的)$")
"""A description written before a name, as the spoken language introduces someone: a clause of
its own ending in 的 right before the name (间壁的单四嫂子, 又矮又胖的赵七爷, 将近五十岁的邹七嫂,
住在我们后进院子里的三太太). Not whose they are (他的宝儿, 我家的宝儿, 我们的阿Ｑ), a time (廿年前的闰土,
先前的阿Ｑ), or one pointed at (这断子绝孙的阿Ｑ)."""
