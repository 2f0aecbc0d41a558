"""Answers from what the world knows, stated outright: no reading of passages is needed.

- Another name of someone (“阿瞒”是谁的小字？ Whom do they call the Count?): the alias table
  knows whose it is; the answer names them and quotes the sentence that gives the name. So is
  how two names of one person are related (Edmond Dantès and the Count of Monte Cristo).
- A 字 or 号 (韩峥的字是什么？): the name the world has for them, quoted where the text gives
  it with that word (字定远).
- In which chapter *that* is (那是第几回？ after an answer): the chapter of the story sentence
  the last answer quoted first.
Whom a "who is X" question asks about is agent/librarian/identity.py's.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from agent.schemas import Answer, Citation
from stores.entities.matcher import AliasMatcher
from stores.lang import clip_at, en, has_han, in_quotes, shown, zh
from stores.lang.asking import CITED_FIRST, UNSURE_CHAPTER, seen_also
from stores.lang.text import QUOTE_MARKS, inside_quotation, reading_rule, sentences
from stores.models import LORE_CHAPTER, Chunk, chapter_label

_ALIAS_OF = [re.compile(p) for p in zh.ALIAS_OF] + [re.compile(p, re.I) for p in en.ALIAS_OF]
_NAME_OF = [re.compile(p) for p in zh.NAME_OF]
_QUOTES = "“”「」\"'‘’"


def alias_asked(question: str) -> str | None:
    """The other name a question asks whose it is, or None."""
    for pattern in _ALIAS_OF:
        found = pattern.search(question.strip())
        if found:
            return found.group("alias").strip().strip(_QUOTES).strip()
    return None


def alias_answer(question: str, chinese: bool, matcher: AliasMatcher,
                 aliases: dict[str, list[str]], story: Iterable[Chunk],
                 say: Callable[[str], str] = str) -> Answer | None:
    """Whose other name the question asks about, from the alias table, with the sentence that
    gives the name; None when the question asks no such thing or the world knows no such name."""
    alias = alias_asked(question)
    if not alias:
        return None
    alias = alias if chinese else en.without_article(alias)
    name = matcher.resolve(alias)
    if name is None or name == alias:
        return None
    return alias_lead(alias, name, chinese, aliases, story, say)


def alias_lead(alias: str, name: str, chinese: bool, aliases: dict[str, list[str]],
               story: Iterable[Chunk], say: Callable[[str], str] = str, horizon: int = 0,
               quoted: Iterable[str] = ()) -> Answer | None:
    """“伯岩”指顾怀山 / "Monte Cristo" is Edmond Dantès, with the first sentence that gives the
    name (unless it is among the `quoted` already); None when a spoiler horizon comes before
    that sentence (or none gives it)."""
    forms = [f for f in (name, *aliases.get(name, [])) if f and f != alias]
    found = _first_sentence(story, alias, forms)
    if horizon and (found is None or found[0].chapter > horizon):
        return None
    if found is not None:
        chunk, sentence = found
        found = chunk, clip_at(sentence, sentence.find(alias), MAX_QUOTE)
        if any(q and (q in found[1] or found[1] in q) for q in quoted):
            found = None
    lead = (f"“{alias}”指{say(name)}。" if chinese else f"“{alias}” is {say(name)}.")
    return with_quote(lead, found, chinese, name)


def one_person_asked(mentions: Sequence[str], entities: Sequence[str],
                     matcher: AliasMatcher, shown: str = "") -> str | None:
    """The other name, when a question asks how two names are related that are one person's
    (How is Edmond Dantès related to the Count of Monte Cristo? Is Fernand the same person as
    the Count of Morcerf?), else None; not the name the answer calls the entity by (`shown`:
    Shen Yan, for 沈砚, in an English answer)."""
    if len(entities) != 1:
        return None
    names = [m for m in mentions if matcher.resolve(m) == entities[0]]
    others = [a for m in names if (a := alias_asked_for(m, entities[0], matcher)) and a != shown]
    if len(names) < 2 or not others:
        return None
    # the name apart, not a part of the entity's own (Count of Morcerf, not Fernand, of
    # Fernand Mondego)
    return next((a for a in others if names_apart(a, entities[0])), others[0])


MAX_QUOTE = 160
"""A sentence that gives a name is quoted at most this long, cut around the name."""


def alias_asked_for(written: str, entity: str, matcher: AliasMatcher) -> str | None:
    """The other name of `entity` a question writes (the Count, or Count, when the world knows
    it without its article), or None when it writes the entity's own name or another's."""
    for alias in (written, en.without_article(written)):
        # 阿Q for 阿Ｑ is the name in other letters, not another name
        if (alias and unicodedata.normalize("NFKC", alias) != unicodedata.normalize("NFKC", entity)
                and matcher.resolve(alias) == entity):
            return alias
    return None


def names_apart(alias: str, name: str) -> bool:
    """Whether an alias is more than a part of the name it stands for: 伯岩 of 顾怀山, the Count
    of Monte Cristo and the Count of Edmond Dantès; not 宝玉 of 贾宝玉, nor Albert or M. de
    Villefort of Albert de Morcerf and Villefort (a reader knows those)."""
    if alias in name or name in alias:
        return False
    if has_han(alias):
        return True
    # the names in it, titles and lower-case words aside: none (the Count) or one the name
    # does not hold (Monte Cristo) make it a name apart
    named = [w for w in alias.split() if w[0].isupper() and w.rstrip(".") not in _TITLES]
    return not named or not set(named) <= set(name.split())


_TITLES = frozenset(t.rstrip(".") for t in en.NAME_TITLES)


def led_by(lead: Answer, answer: Answer, keep: int | None = None) -> Answer:
    """`answer` after the line(s) of `lead`, its citations numbered on after the lead's; a line
    of it that quotes only what the lead quotes is left out (said once), and one that opened
    the answer (In chapter 9: …) is seen also after the lead (See also chapter 9: …). With
    `keep`, at most that many of its lines follow."""
    said = {(c.chunk_id, c.quote) for c in lead.citations}
    lines: list[str] = []
    kept = list(lead.citations)
    number: dict[int, int] = {}
    for line in answer.text.splitlines():
        if keep is not None and len(lines) >= keep:
            break
        marks = [int(m) for m in _CITE.findall(line)]
        cited = [answer.citations[m - 1] for m in marks if 0 < m <= len(answer.citations)]
        if cited and all((c.chunk_id, c.quote) in said for c in cited):
            continue
        for m in marks:
            if m not in number and 0 < m <= len(answer.citations):
                kept.append(answer.citations[m - 1])
                number[m] = len(kept)
        lines.append(_CITE.sub(lambda found: f"[{number.get(int(found.group(1)), 0)}]",
                               seen_also(line)))
    return answer.model_copy(update={
        "text": "\n".join([lead.text, *lines]), "citations": kept,
        "entities": list(dict.fromkeys([*lead.entities, *answer.entities]))})


_CITE = re.compile(r"\[(\d+)\]")


def name_answer(question: str, chinese: bool, matcher: AliasMatcher,
                aliases: dict[str, list[str]], story: Iterable[Chunk]) -> Answer | None:
    """A person's 字 or 号 the world knows, quoted where the text gives it (字定远)."""
    if not chinese:
        return None
    for pattern in _NAME_OF:
        found = pattern.search(question.strip())
        if found:
            break
    else:
        return None
    name = matcher.resolve(found.group("name"))
    if name is None:
        return None
    kind = found.group("kind")
    for alias in sorted(aliases.get(name, []), key=len):
        if len(alias) < 2 or alias == name:
            continue
        stated = _first_sentence(story, kind + alias, [], anywhere=True)
        if stated is not None:
            return with_quote(f"{name}{kind}{alias}。", stated, chinese, name)
    return None


def chapter_answer(cited: Sequence[dict[str, Any]], chinese: bool, chunks: dict[str, Chunk],
                   titles: dict[int, str], unsure: bool = False) -> Answer | None:
    """In which chapter the last answer's first quoted sentence of the story stands (那是第几回？):
    a glossary entry it cited first has no chapter ("Su Wan is Shen Yan's disciple (declared in
    the glossary)", then the passage that tells it). When that answer did not find what was
    asked (`unsure`), the chapter is said to be only that sentence's: a newcomer read "In ch. 14"
    as where Maria ran away, which the last answer had not found."""
    story = ((chunk, c) for c in cited
             if (chunk := chunks.get(str(c.get("chunk_id", "")))) is not None
             and chunk.chapter != LORE_CHAPTER)
    chunk, first = next(story, (None, {}))
    if chunk is None:
        return None
    quote = str(first.get("quote") or "")
    title = titles.get(chunk.chapter, "")
    where = chapter_label(chunk.chapter, chinese)
    named = (f"{where}「{title}」" if title else where) if chinese else (
        f"{where} ({title})" if title else where)
    lead = f"在{named}。" if chinese else f"In {named}."
    if unsure:
        lead = UNSURE_CHAPTER[chinese].format(where=named)
    return with_quote(lead, (chunk, quote or chunk.text[:80]), chinese, "", where=False)


def death_chapter_answer(subject: str, forms: Sequence[str], story: Iterable[Chunk],
                         presence: dict[int, int], chinese: bool, titles: dict[int, str],
                         say: Callable[[str], str] = str, horizon: int = 0) -> Answer | None:
    """In which chapter someone dies (孙策死在哪一回？ In which chapter is Caderousse killed?):
    of the narrator's sentences that tell their death (a word for dying right after a name of
    theirs: see `_death_told`), the first in a chapter after which at most
    AFTER_DEATH of their mentions come: a rumour of it while they still act (孙策已死, ch. 15
    of 29) is not their death. `presence` is their mentions by chapter; None when no sentence
    tells it, or it lies past the horizon."""
    tells, near = _death_told([subject, *forms]), _death_near(subject)
    told: dict[int, tuple[Chunk, str]] = {}
    by_pronoun: dict[int, tuple[Chunk, str]] = {}
    named: dict[int, tuple[Chunk, str]] = {}
    for chunk in story:
        if chunk.chapter == LORE_CHAPTER or not any(f in chunk.text for f in (subject, *forms)):
            continue
        before: list[str] = []  # the narrator's last sentences
        for s in sentences(chunk.text, reading_rule(chunk.text)):
            if _in_speech(chunk.text, s.start, s.end):
                before = []
                continue
            if (death := tells.search(s.text)) and not _supposed(s.text, death.start()):
                told.setdefault(chunk.chapter, (chunk, s.text.strip()))
            elif _PRONOUN_DIED.search(s.text.strip()) and any(
                    f in " ".join(before) for f in (subject, *forms)):
                # "Caderousse sighed deeply, and fell back … He was dead.": the narrator's
                # sentences just before name them
                by_pronoun.setdefault(chunk.chapter, (chunk, " ".join([*before, s.text.strip()])))
            before = [*before, s.text.strip()][-PRONOUN_REACH:]
            if (death := near.search(s.text)) and not _supposed(s.text, death.start()):
                # 老楼主顾怀山就这样死在了听雨阁里: says more, by their name
                named.setdefault(chunk.chapter, (chunk, s.text.strip()))
    if not (told or by_pronoun) or not presence:
        return None
    total = sum(presence.values())

    def after(chapter: int) -> float:  # the share of their mentions later than the chapter
        return sum(n for c, n in presence.items() if c > chapter) / total

    # by their name first; by a pronoun only where their mentions end there (He was dead.)
    chapter = next((c for c in sorted(told) if after(c) <= AFTER_DEATH), None)
    if chapter is None:
        chapter = next((c for c in sorted(by_pronoun) if after(c) <= AFTER_DEATH), None)
        told = {**told, **by_pronoun} if chapter is not None else told
    if chapter is None:  # told only where they go on acting after: a rumour, a belief
        return None
    if horizon and chapter > horizon:
        return None
    title = titles.get(chapter, "")
    where = chapter_label(chapter, chinese)
    if chinese:
        lead = f"{say(subject)}死于{where}" + (f"「{title}」。" if title else "。")
    else:
        lead = f"{say(subject)}'s death is told in {where}" + (f" ({title})." if title else ".")
    chunk, sentence = named.get(chapter) or told[chapter]
    return with_quote(lead, (chunk, clip_at(sentence, 0, MAX_QUOTE)), chinese, subject,
                       where=False)


_PRONOUN_DIED = re.compile(en.PRONOUN_DIED)
_SUPPOSED = re.compile(en.DEATH_SUPPOSED, re.I)
SUPPOSED_REACH = 40
"""How far before the name a word may make its death supposed ("I suppose Mr. Kurtz is dead"),
in characters: not a clause earlier in a long sentence."""


def _supposed(sentence: str, name_at: int) -> bool:
    """The death told from the name at `name_at` on is supposed, feared or rumoured: a word
    of en.DEATH_SUPPOSED stands just before the name."""
    return _SUPPOSED.search(sentence, max(0, name_at - SUPPOSED_REACH), name_at) is not None
PRONOUN_REACH = 2
"""How many of the narrator's sentences before "He was dead." may name the one who died."""

AFTER_DEATH = 0.35
"""At most this share of someone's mentions comes after the chapter of their death (recalled,
mourned, avenged): 三国演义's 关羽, 孙策, 曹操 and 诸葛亮, the demo's 顾怀山."""


def _death_near(name: str) -> re.Pattern[str]:
    """Their own name with a word for dying shortly after it in the clause (顾怀山就这样死在了,
    Caderousse … was dead): in the chapter that tells the death, the sentence to quote."""
    words = "|".join(map(re.escape, sorted((*zh.DEATH_WORDS, *en.DEATH_WORDS), key=len,
                                           reverse=True)))
    return re.compile(f"{re.escape(name)}[^，。；！？,.;!?]{{0,12}}?(?:{words})", re.I)


def _in_speech(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] holds or stands inside a character's words: a quotation mark in
    it, or one opened before it and not closed."""
    return any(mark in text[start:end] for mark in QUOTE_MARKS) or inside_quotation(text, start)


def _death_told(names: Sequence[str]) -> re.Pattern[str]:
    """A sentence telling the death of one of `names` as its subject: the name, at most two
    adverbs (已, 既, 遂), then a word for dying (孙策既死, 曹操身亡, 关公亡年五十八岁; not 孔明怜郝昭之
    死 nor 被云长砍死, where another dies; a manner of dying ends its clause: 吕布缢死，), or
    "was dead", "died", "was killed", "shot himself"
    right after it. A word for killing before the name is left out: 来杀曹操 may be an attempt."""
    alternatives = "|".join(re.escape(n) for n in sorted(set(names), key=len, reverse=True))
    zh_words = "|".join(map(re.escape, sorted(zh.DEATH_WORDS, key=len, reverse=True)))
    adverb = "|".join([f"[{zh.DEATH_ADVERBS}]", *map(re.escape, zh.DEATH_ADVERB_WORDS)])
    # not 死战 or 卒病 (fought to the death, fell ill); 吕布缢死， ends the clause where he dies,
    # 关羽砍死华雄 goes on to whom he killed, and 被云长砍死 is another's death by his hand
    return re.compile(f"(?<!{zh.BY})(?:{alternatives})(?:{adverb}){{0,2}}(?:(?:{zh_words})"
                      f"(?![{zh.NOT_DYING_AFTER}])|{zh.DIED_BY_MANNER})"
                      f"|(?:{alternatives}){en.DIED_AFTER_NAME}", re.I)


def _first_sentence(story: Iterable[Chunk], words: str, forms: list[str],
                    anywhere: bool = False) -> tuple[Chunk, str] | None:
    """The first sentence of the story (story order) that gives `words` as a name (小字阿瞒,
    called Clown) — else the first that holds them and one of `forms` (or, `anywhere`, the
    first that holds them)."""
    fallback: tuple[Chunk, str] | None = None
    for chunk in story:
        if words not in chunk.text:
            continue
        for s in sentences(chunk.text, "quote"):
            if words not in s.text:
                continue
            if anywhere or _GIVES_NAME.search(s.text[:s.text.find(words)]):
                return chunk, s.text
            # a form inside the name itself (Monte Cristo in Count of Monte Cristo) ties nothing
            if fallback is None and any(f in s.text.replace(words, "") for f in forms):
                fallback = chunk, s.text
    return fallback


_GIVES_NAME = re.compile(zh.GIVES_NAME + "|" + en.GIVES_NAME, re.I)


def with_quote(lead: str, found: tuple[Chunk, str] | None, chinese: bool,
                entity: str, where: bool = True) -> Answer:
    """The statement, on one line with the sentence that says it (and, `where`, its chapter),
    cited."""
    if found is None:
        return Answer(text=lead, entities=[entity] if entity else [], stop_reason="answered")
    chunk, sentence = found
    quote = sentence.strip()
    citation = Citation(chunk_id=chunk.id, chapter=chunk.chapter, source=chunk.document,
                        lines=(chunk.line_start, chunk.line_end), quote=quote)
    place = chapter_label(chunk.chapter, chinese) if chunk.chapter != LORE_CHAPTER else (
        "设定" if chinese else "the lore")
    if chinese:
        line = f"{CITED_FIRST[True]}{place}：{shown(quote)}[1]" if where else (
            f"「{shown(quote)}」[1]")
    else:
        line = f"{CITED_FIRST[False]}{place}: {in_quotes(quote)} [1]" if where else (
            f"{in_quotes(quote)} [1]")
    return Answer(text=f"{lead}{line}" if chinese else f"{lead} {line}", citations=[citation],
                  entities=[entity] if entity else [], stop_reason="answered")
