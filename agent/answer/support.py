"""What an answer states, and whether its citations hold it.

Every reader's answer is read the same way: its own words are what is left once its evidence
lines, the quotes it cites, quoted and bracketed text are taken out. The names (the world's,
alias-aware) and numbers in those words are its claims. A claim that no cited passage holds is
unsupported — a small model's confident invention looks exactly like this — and the answer is
shown as such, with what the cited passages do say; `lore eval answers` counts these. So is a
name in the question that the world's text never mentions, when the answer says it again:
"Edmond Dantès studied at Oxford" and 张三丰教了赵云… take the question's premise for a fact no
passage can hold.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence

from agent.schemas import Answer
from stores.keyword.segment import stock_tokens
from stores.lang import chapter_references, has_han, in_quotes, shown
from stores.lang.asking import known_given_name, name_like, question_terms, reader_phrases
from stores.lang.text import QUOTATION, fold_latin, stem
from stores.lang.zh import PEOPLE_COUNTED
from stores.models import Chunk
from stores.readers.headings import CJK_NUMERAL, parse_cjk_number

QUOTED = re.compile(f"{QUOTATION.pattern}|《[^》]*》")
"""A quotation, or a title in a book's title marks."""
BRACKETED = re.compile(r"\([^)]*\)|（[^）]*）|【[^】]*】|\[[^\]]*\]")
PUNCT = re.compile(r"[\W_]+")
_CJK_NUMBER = re.compile(f"[{CJK_NUMERAL}]+")
_ARABIC = re.compile(r"(?<!\d)\d+(?!\d)")
_LATIN_WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ]+")

EVIDENCE_LEAD = 16
"""What an evidence line may say besides its quote, in letters: 另见第26回, See also chapter 12."""


def answer_lines(answer: Answer) -> str:
    """The answer without its evidence lines and without the cited quotes.

    An evidence line cites a quote and says little else: what is left once the quote, quoted
    and bracketed text, markers and punctuation are gone is at most EVIDENCE_LEAD letters or
    under 40% of the line (见第5回「…」：<quote>[1], In chapter 9 (…): “<quote>” [1]; a short
    quote such as 少顷，周瑜入见。 leaves a lead longer than itself). A line that states something
    and cites keeps its words.
    """
    quotes = [c.quote.strip() for c in answer.citations if len(c.quote.strip()) >= 4]
    kept = []
    for line in answer.text.splitlines():
        bare = line
        for quote in quotes:  # as a line shows it (stores.lang: in_quotes, shown), or as cited
            for form in (in_quotes(quote), shown(quote), quote):
                bare = bare.replace(form, " ")
        rest = len(residue(bare))
        if bare != line and (rest <= EVIDENCE_LEAD or rest < 0.4 * len(residue(line))):
            continue
        kept.append(bare)
    return "\n".join(kept)


def residue(text: str) -> str:
    return PUNCT.sub("", BRACKETED.sub("", QUOTED.sub("", text)))


def stated_text(answer: Answer) -> str:
    """The answer's own words: no evidence lines, cited quotes, quoted or bracketed text."""
    return BRACKETED.sub(" ", QUOTED.sub(" ", answer_lines(answer)))


def with_arabic(text: str) -> str:
    """Chinese numerals as digits (第三回 → 第3回), so either way of writing a number matches."""
    def convert(m: re.Match[str]) -> str:
        value = parse_cjk_number(m.group(0))
        return str(value) if value is not None else m.group(0)
    return _CJK_NUMBER.sub(convert, text)


def unsupported(answer: Answer, cited: Sequence[Chunk], question: str,
                spans: Callable[[str], list[tuple[int, int, str]]],
                forms: Callable[[str], list[str]], uses: Callable[[str], bool],
                recalled: Sequence[str] = (), bound: Collection[str] = ()) -> list[str]:
    """The names and numbers the answer states that no cited passage holds, as the answer
    writes them (the question's own names and numbers are not claims), and the names of the
    question that the world's text never uses (`uses`) when the answer says them again. `spans`
    finds the world's names in a text; `forms` gives a name's every written form. What the
    conversation's memory gave (`recalled`) holds claims too: "we talked about 韩峥 in turn 2"
    stands on it. `bound`: the people a cited passage names by a kin word the world reads as
    theirs ("Henry … his sister" is Eleanor Tilney's passage too)."""
    if answer.stop_reason != "answered":
        return []
    own = stated_text(answer)
    if not residue(own):
        return []
    missing = _untold_premise(own, question, uses)
    texts = [c.text for c in cited] + list(recalled)
    held = {name for c in cited for name in c.entities} | set(bound)
    asked = {name for _, _, name in spans(question)}
    for start, end, name in spans(own):
        if name in asked or name in held:
            continue
        if not any(form and form in text for form in forms(name) for text in texts):
            missing.append(own[start:end])
    # "in chapters 8, 9": where, not a claim; nor are the reader's own framing words
    told = chapter_references().sub(" ", reader_phrases().sub(" ", own))
    told = _people_counted_out(told, len({name for *_, name in spans(own)}))
    numbers = set(_ARABIC.findall(with_arabic(told))) - set(_ARABIC.findall(with_arabic(question)))
    if numbers:
        in_cited = {n for text in texts for n in _ARABIC.findall(with_arabic(text))}
        missing += sorted(n for n in numbers if n not in in_cited)
    return list(dict.fromkeys(missing))


_PEOPLE_COUNTED = re.compile(PEOPLE_COUNTED)


def _people_counted_out(text: str, named: int) -> str:
    """`text` without the counts of people that count no more than the `named` people it names:
    沈砚是顾怀山的徒弟，二人是师徒 says "the two of them", not a number of 2 the passages must
    hold."""
    def out(m: re.Match[str]) -> str:
        count = parse_cjk_number(m["count"])
        return " " if count is not None and count <= named else m[0]
    return _PEOPLE_COUNTED.sub(out, text)


def _untold_premise(own: str, question: str, uses: Callable[[str], bool]) -> list[str]:
    """The names in the question that the world's text never mentions (Oxford, 张三丰: the
    librarian's strangers) and the answer's own words say again, as the answer writes them. Only
    names: a question's common words that the text never uses (出现, appear) are a reader's own
    way of asking, and an answer says them again without taking anything for a fact."""
    latin = {stem(fold_latin(w)): w for w in reversed(_LATIN_WORD.findall(own))}
    found = []
    for word in question_terms(question, stock_tokens):  # Han words, and Latin ones as stems
        if uses(word) or not name_like(word, question) or known_given_name(word, uses):
            continue
        if has_han(word) and word in own:
            found.append(word)
        elif word in latin:
            found.append(latin[word])
    # 张三丰, not also 三丰
    return [w for w in found if not any(w != other and w in other for other in found)]


def marked(answer: Answer, missing: Sequence[str]) -> Answer:
    """The answer shown as unsupported: a first line that says what its citations do not hold,
    then the answer, then what the first cited passage does say."""
    chinese = has_han(answer.text)
    listed = ("、" if chinese else ", ").join(missing)
    lead = (f"（无依据：所引原文中没有{listed}。）" if chinese else
            f"(Unsupported: the cited passages do not mention {listed}.)")
    said = next((c.quote for c in answer.citations if c.quote.strip()), "")
    tail = ([f"所引原文只说：{in_quotes(said)} [1]" if chinese else
             f"What the text cited says: {in_quotes(said)} [1]"]
            if said else [])
    return answer.model_copy(update={"text": "\n".join([lead, answer.text, *tail])})
