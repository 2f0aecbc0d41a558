"""One person, one entity (Chinese): the names a novel gives one person become one entity, each
join backed by the text and made only where the text leaves one candidate.

- A name the tagger cut short is extended to the form the text writes: 刘老 is followed by 老 in
  nearly all its uses, so the name is 刘老老.
- A given name used alone (宝玉, 湘云) joins the full name the text writes with it (贾宝玉,
  史湘云), and the entity is named by the full name. When two full names end with it (贾宝玉,
  甄宝玉), it joins the one the book writes in chapters across the story, if one clearly does.
- A form of address (凤姐, 林妹妹, 宝二爷) joins the one person it can be formed from
  (stores/entities/address.py).
- A name written without its surname (七爷 of 赵七爷) where the whole name is written is that
  person's, when no other name could be meant.
- Surname + 公 (关公) joins the surname's one well-known person (fold_honorifics).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence

from stores.entities.address import fold_address_forms, name_address_forms
from stores.entities.matcher import AliasMatcher, alias_map
from stores.entities.names import (
    DOMINANCE,
    PRESENCE_DOMINANCE,
    Story,
    absorb,
    full_name,
    occurrences,
    person_full_name,
    plain,
    rename,
)
from stores.entities.surnames import COMPOUND_SURNAMES, SINGLE_SURNAMES, surname_of
from stores.entities.tagger import grammar_character, one_word
from stores.entities.titles import fold_titles
from stores.lang import HAN_RANGES, is_han
from stores.lang.zh import (
    ASSUMED_NAME,
    COMMON_SURNAMES,
    DIMINUTIVE,
    FEMALE_NAME_ENDINGS,
    GLUED_AFTER_NAME,
    HONORIFIC,
    HOUSEHOLD_TITLES,
    IDENTITY_END,
    IDENTITY_LINKS,
    OFFICES,
    PROVINCE,
    SPOKEN_AFTER_NAME,
    SPOUSE_TITLES,
    STATE_NAMES,
)
from stores.models import Entity

EXTEND_SHARE = 0.9
"""A name is extended by the character that follows it in at least this share of its uses."""
EXTEND_MIN_USES = 10
CHAPTER_DOMINANCE = 2
"""Of two full names ending with one given name, the one written in this many times more
chapters owns the given name used alone."""


def group_chinese(entities: list[Entity], chunk_texts: Sequence[str],
                  chapters: Sequence[int] | None, min_mentions: int) -> list[Entity]:
    """One entity per person of a Chinese text (see the module); `chapters` gives each passage's
    chapter (None: every passage counts as a chapter of its own)."""
    story = Story.of(chunk_texts, chapters)
    grammar = _before_full_names(entities, story)
    entities = _one_per_name(entities)
    entities = join_given_names(entities, story, grammar)
    entities = join_name_endings(entities)
    entities = add_names_without_surname(entities, story)
    entities = join_stated_identities(entities, story.text)
    entities = name_address_forms(entities, story, grammar)
    entities = fold_address_forms(entities, story.text, min_mentions, chunk_texts)
    entities = fold_titled_surnames(entities, chunk_texts, min_mentions)
    return _one_per_name(fold_titles(fold_honorifics(entities, story.text, min_mentions),
                                      story.text, chunk_texts))


def _one_per_name(entities: list[Entity]) -> list[Entity]:
    """Entities that came to bear one name (two forms named by one full name) are one."""
    first: dict[str, Entity] = {}
    kept = []
    for entity in entities:
        if entity.name in first:
            absorb(first[entity.name], entity)
            continue
        first[entity.name] = entity
        kept.append(entity)
    return kept


# -- names the tagger cut short ---------------------------------------------------------------


def extend_cut_names(names: Counter[str], text: str, least: int) -> Counter[str]:
    """The names counted at least `least` times, each extended by the character that follows it
    in nearly every use (刘老 → 刘老老), with its count."""
    final = {name: name for name, count in names.items() if count >= least}
    growing = set(final)
    while growing:
        where = occurrences(growing, text)
        longer = {}
        for name in growing:
            after = Counter(text[at + len(name):at + len(name) + 1] for at in where.get(name, []))
            char = _extension(name, after)
            if char:
                longer[name] = name + char
        for start, name in final.items():
            if name in longer:
                final[start] = longer[name]
        growing = {name for name in longer.values() if len(name) < 4}
    out: Counter[str] = Counter()
    for start, name in final.items():
        out[name] += names[start]
    return out


def _extension(name: str, after: Counter[str]) -> str:
    """The Han character that follows `name` in at least EXTEND_SHARE of its (at least
    EXTEND_MIN_USES) uses and is no verb glued after names, else ''."""
    uses = sum(after.values())
    if uses < EXTEND_MIN_USES:
        return ""
    char, count = after.most_common(1)[0]
    if (count < EXTEND_SHARE * uses or not is_han(char) or char in GLUED_AFTER_NAME
            or char in SPOKEN_AFTER_NAME or char == DIMINUTIVE):
        return ""
    return char


# -- the full name of a given name used alone ---------------------------------------------------


def join_given_names(entities: list[Entity], story: Story,
                     not_surnames: set[str] | None = None) -> list[Entity]:
    """Name a person known by the given name alone (宝玉, 雨村, 熙凤 — a speaker) by the full name
    the text writes with it (贾宝玉, 贾雨村, 王熙凤), folding in the full name's own entity: a
    novel writes the full name where it introduces someone and the given name after.

    A full name is surname + the given name, read as one word where the text writes it (贾宝玉
    in 「知贾宝玉的为人」, not 于刘备 in 「降于刘备」), at least twice. Where two full names end
    with the given name (贾宝玉, 甄宝玉), it joins the one the book writes in CHAPTER_DOMINANCE
    times more chapters, else none."""
    by_name = {e.name: e for e in entities}
    given = [e for e in entities if e.type == "person" and len(e.name) == 2
             and e.name[0] not in COMMON_SURNAMES  # a full name itself (张飞)
             and e.name not in FEMALE_NAME_ENDINGS  # a title many hold (太后: 何, 董, 郭太后)
             and not any(full_name(a) and a.endswith(e.name) for a in e.aliases)]  # 孔明
    if not_surnames is None:
        not_surnames = _before_full_names(entities, story)
    spreads = full_forms([e.name for e in given], story, not_surnames)
    gone: set[int] = set()
    for entity in given:
        best = _dominant(spreads.get(entity.name, {}))
        if best is None or id(entity) in gone:
            continue
        owner = by_name.get(best)
        if owner is not None and owner is not entity and owner.type == "person":
            absorb(owner, entity)
            gone.add(id(entity))
        elif owner is None:
            rename(entity, best)
            by_name[best] = entity
    return [e for e in entities if id(e) not in gone]


def join_name_endings(entities: list[Entity]) -> list[Entity]:
    """A name (two characters or more) that one other person's name ends with, and no third
    person's, is that person's: 呐喊's 阿五 is 蓝皮阿五 (an epithet before the name), 三国演义's
    士仁 and 子服 are 傅士仁 and 王子服 (a surname the segmenter did not read as one). Two names
    ending with it (贾宝玉, 甄宝玉) leave it apart, and so does a title or an office (夫人 of 王夫人:
    zh.HOUSEHOLD_TITLES, OFFICES), which many can bear."""
    people = [e for e in entities if e.type == "person"]
    gone: set[int] = set()
    for short in people:
        name = short.name
        if len(name) < 2 or name in HOUSEHOLD_TITLES or name in OFFICES:
            continue
        longer = [e for e in people if e is not short and id(e) not in gone and any(
            len(form) > len(name) and form.endswith(name) for form in (e.name, *e.aliases))]
        if len(longer) == 1:
            absorb(longer[0], short)
            gone.add(id(short))
    return [e for e in entities if id(e) not in gone]


BARE_MIN_USES = 2
"""A name without its surname is a person's alias when the text writes it alone this often."""
BARE_SAME_CHAPTERS = 0.8
"""...and at least this share of those uses falls in chapters that write the whole name."""


def add_names_without_surname(entities: list[Entity], story: Story) -> list[Entity]:
    """A person's name without its surname (赵七爷 → 七爷, 陈老五 → 老五), written alone in
    chapters that write the whole name, is that person's alias: the story names them in full
    and then, among people who know them, without the surname. Only where the text leaves one
    candidate: no other name ends with it, no other surname is written before it, and it is no
    title or office many hold (太爷, 秀才, 夫人)."""
    text = story.text
    claimed = {form for e in entities for form in (e.name, *e.aliases)}
    people = [e for e in entities if e.type == "person" and plain(e)]
    endings: Counter[str] = Counter()
    for entity in entities:
        for form in {f[i:] for f in (entity.name, *entity.aliases) for i in range(1, len(f) - 1)}:
            endings[form] += 1
    wanted: dict[str, Entity] = {}
    for entity in people:
        surname = surname_of(entity.name)
        rest = entity.name[len(surname):]
        if (not surname or len(rest) < 2 or not all(map(is_han, rest)) or rest in claimed
                or endings[rest] != 1 or rest in HOUSEHOLD_TITLES or rest in OFFICES
                or rest.endswith(PROVINCE) or rest in wanted):
            continue
        wanted[rest] = entity
    where = occurrences([*wanted, *(e.name for e in wanted.values())], text)
    for rest, entity in wanted.items():
        whole = {story.chapter_at(at) for at in where.get(entity.name, [])}
        surname = surname_of(entity.name)
        bare = [at for at in where.get(rest, [])  # not text[:at]: a copy per use
                if not (at >= len(surname) and text.startswith(surname, at - len(surname)))]
        others = {text[at - 1] for at in bare if at and text[at - 1] in SINGLE_SURNAMES
                  and not grammar_character(text[at - 1])}  # 张老五 beside 陈老五
        inside = sum(story.chapter_at(at) in whole for at in bare)
        if (len(bare) >= BARE_MIN_USES and not others
                and inside >= BARE_SAME_CHAPTERS * len(bare)):
            entity.aliases.append(rest)
    return entities


BEFORE_NAMES = 3
"""A character written this often right before a name that has its surname already (连贾母,
向王夫人) is a word of this book's grammar, whatever the 百家姓 says: 连平儿 is "even 平儿"."""


def _before_full_names(entities: list[Entity], story: Story) -> set[str]:
    """The characters written BEFORE_NAMES times or more right before someone's full name."""
    fulls = [e.name for e in entities if e.type == "person" and full_name(e.name) is not None
             and not grammar_character(e.name[0])]
    before: Counter[str] = Counter()
    for starts in occurrences(fulls, story.text).values():
        before.update(story.text[at - 1] for at in starts if at > 0)
    return {char for char, n in before.items() if n >= BEFORE_NAMES}


def full_forms(given_names: Sequence[str], story: Story,
               not_surnames: frozenset[str] | set[str] = frozenset()) -> dict[str, dict[str, int]]:
    """For each given name: surname + it, as the text writes it as one word at least twice, or
    once where it introduces the given name (华老栓 at 老栓's first use, 老栓 alone after) →
    the number of chapters it is written in; `not_surnames` are characters that are no surname
    here (`_before_full_names`)."""
    text = story.text
    uses: Counter[str] = Counter()
    chapters: dict[str, set[int]] = defaultdict(set)
    introducing: set[str] = set()
    for given, starts in occurrences(given_names, text).items():
        for nth, at in enumerate(starts):
            for surname in (text[max(0, at - 2):at], text[at - 1:at]):
                known = surname in COMPOUND_SURNAMES or (
                    len(surname) == 1 and surname in SINGLE_SURNAMES
                    and surname not in not_surnames
                    and not grammar_character(surname))  # 那黛玉 is "that 黛玉"
                if known and at >= len(surname) and one_word(text, at - len(surname), at + len(given)):
                    uses[surname + given] += 1
                    chapters[surname + given].add(story.chapter_at(at))
                    if nth == 0:
                        introducing.add(surname + given)
                    break
    spreads: dict[str, dict[str, int]] = defaultdict(dict)
    for form, n in uses.items():
        if n >= 2 or form in introducing:
            spreads[form[-2:]][form] = len(chapters[form])
    return spreads


def _dominant(spread: dict[str, int]) -> str | None:
    """The one form, or the form written in CHAPTER_DOMINANCE times more chapters than any."""
    if not spread:
        return None
    ranked = sorted(spread.items(), key=lambda item: -item[1])
    if len(ranked) == 1 or ranked[0][1] >= CHAPTER_DOMINANCE * ranked[1][1]:
        return ranked[0][0]
    return None


# -- stated identity ----------------------------------------------------------------------------


def join_stated_identities(entities: list[Entity], text: str) -> list[Entity]:
    """Two people the text says are one (原来单福就是徐庶。: a name, 乃 / 即 / 就是, a name, and
    the clause's end) become one entity, named as the second (the name the statement gives).
    Nothing may stand between: 玄德乃问伊籍 asks 伊籍 something. A name said to be the assumed
    name of the one named just before (元直。单福乃其托名耳) joins that one."""
    people = {e.name: e for e in entities if e.type == "person"}
    matcher = AliasMatcher(alias_map(people.values()))
    links = "|".join(IDENTITY_LINKS)
    between = re.compile(f"^(?:{links})$")
    gone: set[str] = set()
    spans = matcher.find_spans(text)
    for (_, a_end, a), (b_start, b_end, b) in zip(spans, spans[1:], strict=False):
        if (a == b or a in gone or b in gone or not between.match(text[a_end:b_start])
                or text[b_end:b_end + 1] not in IDENTITY_END):
            continue
        absorb(people[b], people[a])
        gone.add(a)
    # 此人乃颍川徐庶，字元直。单福乃其托名耳: the one named just before (within ASSUMED_REACH)
    for (_, a_end, a), (b_start, b_end, b) in zip(spans, spans[1:], strict=False):
        if (a != b and a not in gone and b not in gone and b_start - a_end <= ASSUMED_REACH
                and ASSUMED_NAME.match(text, b_end)):
            absorb(people[a], people[b])
            gone.add(b)
    return [e for e in entities if e.name not in gone]


ASSUMED_REACH = 12
"""How near before an assumed name (单福乃其托名) the one whose it is must be named."""


# -- surname + title -------------------------------------------------------------------------




def fold_titled_surnames(entities: list[Entity], chunk_texts: Sequence[str],
                         min_uses: int) -> list[Entity]:
    """Give a surname + office form (曹丞相, 周都督, 刘皇叔; a province for its governor: 刘荆州)
    to the person of that surname the passages that use it name (each with the passage before
    it: 董太师 is named where 董卓 was just before): named in at least three of them, and
    PRESENCE_DOMINANCE times more often than anyone else of that surname. A woman's
    title (孙夫人 is 孙权's sister; 方太太 is 方玄绰's wife) and offices alone (丞相, 军师: they pass from one holder to
    the next) stay apart."""
    people = {e.name: e for e in entities if e.type == "person"}
    surnames = {name: parsed.surname for name, e in people.items()
                if (parsed := person_full_name(e)) is not None and parsed.surname}
    by_name = {e.name: e for e in entities}
    claimed = {a for e in entities for a in e.aliases}
    pattern = re.compile("(" + "|".join(map(re.escape, sorted(set(surnames.values()), key=len,
                                                                reverse=True)))
                         + ")(" + "|".join(o for o in OFFICES if not o.endswith(FEMALE_NAME_ENDINGS)
                                           and o not in SPOUSE_TITLES)
                         + f"|[{HAN_RANGES}]{PROVINCE})")
    matcher = AliasMatcher(alias_map(people.values()))
    present: dict[str, Counter[str]] = defaultdict(Counter)
    uses: Counter[str] = Counter()
    named_before: set[str] = set()
    for text in chunk_texts:
        named_here = {name for *_, name in matcher.find_spans(text)}
        named, named_before = named_here | named_before, named_here
        forms = {m.group(0) for m in pattern.finditer(text)} - claimed
        if not forms:
            continue
        for form in forms:
            uses[form] += 1
            present[form].update(n for n in named if n != form and surnames.get(n)
                                 and form.startswith(surnames[n]))
    gone: set[int] = set()
    for form, passages in uses.items():
        holder = by_name.get(form)
        if passages < min_uses or not present[form] or holder is not None and not plain(holder):
            continue
        ranked = present[form].most_common(2)
        owner, count = ranked[0]
        if count >= 3 and (len(ranked) == 1 or count >= PRESENCE_DOMINANCE * ranked[1][1]):
            if holder is not None:
                absorb(people[owner], holder)
                gone.add(id(holder))
            else:
                people[owner].aliases.append(form)
                people[owner].mentions += passages
    return [e for e in entities if id(e) not in gone]


# -- surname + 公 -----------------------------------------------------------------------------


def fold_honorifics(entities: list[Entity], text: str, min_mentions: int) -> list[Entity]:
    """Give 关公 to 关羽 when one person clearly owns the surname (关羽 ~450 mentions against
    关平's ~100) and the text uses the form at least twice `min_mentions` times.

    Measured on 三国演义 this yields exactly 关公 → 关羽 and 曹公 → 曹操; the rarer forms
    (吕公, 于公, 马公: under ten uses each) are mostly other people or phrases (荐之于公)."""
    claimed = {a for e in entities for a in (e.name, *e.aliases)}
    by_surname: dict[str, list[Entity]] = {}
    for entity in entities:
        surname = surname_of(entity.name)
        if (entity.type == "person" and len(surname) == 1 and surname not in STATE_NAMES
                and len(entity.name) in (2, 3)):
            by_surname.setdefault(surname, []).append(entity)
    for surname, kin in by_surname.items():
        alias = surname + HONORIFIC
        if alias in claimed:
            continue
        kin.sort(key=lambda e: -e.mentions)
        if len(kin) > 1 and kin[0].mentions < DOMINANCE * kin[1].mentions:
            continue
        count = text.count(alias)
        if count >= 2 * min_mentions:
            kin[0].aliases.append(alias)
            kin[0].mentions += count
    return entities
