"""Where a Chinese name's surname ends. The surnames themselves (the 百家姓 singles and
compounds plus a few the Three Kingdoms era uses) are stores/lang/zh.py's tables.

Patterns use them to find where a name starts when the text gives no 姓 marker
(`颍川徐庶，字元直`), and the tagger uses them to tell names from tagging noise.
"""

from __future__ import annotations

from stores.lang.zh import COMPOUND_SURNAMES, SINGLE_SURNAMES


def surname_of(name: str) -> str:
    """The surname a full name starts with ('' when it starts with none)."""
    if name[:2] in COMPOUND_SURNAMES and len(name) >= 3:
        return name[:2]
    if name[:1] in SINGLE_SURNAMES:
        return name[:1]
    return ""
