"""Chinese surnames: the 百家姓 singles and compounds plus a few the Three Kingdoms era uses.

Patterns use them to find where a name starts when the text gives no 姓 marker
(`颍川徐庶，字元直`), and the tagger uses them to tell names from tagging noise.
"""

from __future__ import annotations

# 百家姓 single-character surnames, with 糜/麋/祢/谯/阚/岑/吾/沮/逢/审/典/是/士/留/笮/眭/蹇/兀
# added because the novel's people carry them (法正, 逢纪 …).
_SINGLE = (
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

SINGLE_SURNAMES: frozenset[str] = frozenset(_SINGLE)


def surname_of(name: str) -> str:
    """The surname a full name starts with ('' when it starts with none)."""
    if name[:2] in COMPOUND_SURNAMES and len(name) >= 3:
        return name[:2]
    if name[:1] in SINGLE_SURNAMES:
        return name[:1]
    return ""
