"""One person, one entity (Chinese): the names a novel gives one person become one entity, each
join backed by the text and made only where the text leaves one candidate.

- A name the tagger cut short is extended to the form the text writes: 刘老 is followed by 老 in
  nearly all its uses, so the name is 刘老老.
- A given name used alone (宝玉, 湘云) joins the full name the text writes with it (贾宝玉,
  史湘云), and the entity is named by the full name. When two full names end with it (贾宝玉,
  甄宝玉), it joins the one the book writes in chapters across the story, if one clearly does.
- A form of address — a character of the given name, or the surname, with a kin word or an
  honorific (凤姐, 凤丫头, 宝兄弟, 林妹妹, 周郎), with a rank between (宝二爷) or 儿 after (蓉儿) —
  joins the one person it can be formed from. A rank alone (二爷, 三姑娘) and a married woman's
  title (琏二奶奶 is 贾琏's wife) never join on form alone.
- Surname + 公 (关公) joins the surname's one well-known person (fold_honorifics).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from stores.entities.matcher import AliasMatcher, alias_map
from stores.entities.surnames import COMPOUND_SURNAMES, SINGLE_SURNAMES, surname_of
from stores.entities.tagger import common_word, grammar_character, one_word
from stores.entities.titles import fold_titles
from stores.lang import HAN_RANGES, is_han
from stores.lang.zh import (
    ADDRESS_KIN,
    ADDRESS_RANKS,
    COMMON_SURNAMES,
    DIMINUTIVE,
    FEMALE_NAME_ENDINGS,
    GLUED_AFTER_NAME,
    HONORIFIC,
    IDENTITY_END,
    IDENTITY_LINKS,
    NOT_ADDRESS_STEMS,
    OFFICES,
    PROVINCE,
    RANKED_KIN,
    SPEAKER_CLAUSE,
    SPOKEN_AFTER_NAME,
    STATE_NAMES,
    TITLED_NAME_ENDINGS,
    UNNAMED_SPEAKERS,
)
from stores.models import Entity

EXTEND_SHARE = 0.9
"""A name is extended by the character that follows it in at least this share of its uses."""
EXTEND_MIN_USES = 10
MINOR = 10
"""A person mentioned this many times less than a form of address that speaks on its own (金凤
beside 凤姐's 1,756 mentions) is not whom the form calls."""
CHAPTER_DOMINANCE = 2
"""Of two full names ending with one given name, the one written in this many times more
chapters owns the given name used alone."""
DOMINANCE = 3
"""The surname's best-known person must be mentioned this many times more than the next."""


def group_chinese(entities: list[Entity], chunk_texts: Sequence[str],
                  chapters: Sequence[int] | None, min_mentions: int) -> list[Entity]:
    """One entity per person of a Chinese text (see the module); `chapters` gives each passage's
    chapter (None: every passage counts as a chapter of its own)."""
    story = Story.of(chunk_texts, chapters)
    grammar = _before_full_names(entities, story)
    entities = _one_per_name(entities)
    entities = join_given_names(entities, story, grammar)
    entities = join_stated_identities(entities, story.text)
    entities = name_address_forms(entities, story, grammar)
    entities = fold_address_forms(entities, story.text, min_mentions, chunk_texts)
    entities = fold_titled_surnames(entities, chunk_texts, min_mentions)
    return _one_per_name(fold_titles(fold_honorifics(entities, story.text, min_mentions),
                                      story.text))


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


@dataclass(frozen=True, slots=True)
class Story:
    """The world's text in one string, and where each chapter starts in it."""

    text: str
    starts: tuple[int, ...]
    """The offset of each chapter's first passage, ascending."""

    @classmethod
    def of(cls, chunk_texts: Sequence[str], chapters: Sequence[int] | None) -> Story:
        starts, at, last = [], 0, None
        for i, text in enumerate(chunk_texts):
            chapter = chapters[i] if chapters is not None else i
            if chapter != last:
                starts.append(at)
                last = chapter
            at += len(text) + 1
        return cls("\n".join(chunk_texts), tuple(starts))

    def chapter_at(self, offset: int) -> int:
        """The index of the chapter that holds `offset`."""
        return bisect_right(self.starts, offset) - 1


def occurrences(words: Iterable[str], text: str) -> dict[str, list[int]]:
    """Where each word starts in the text (overlapping occurrences too), in one pass."""
    import ahocorasick

    automaton = ahocorasick.Automaton()
    for word in words:
        automaton.add_word(word, word)
    found: dict[str, list[int]] = defaultdict(list)
    if len(automaton) == 0:
        return found
    automaton.make_automaton()
    for end, word in automaton.iter(text):
        found[word].append(end - len(word) + 1)
    return found


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


# -- the parts of a person's name ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FullName:
    """A Chinese name as surname + given name."""

    surname: str
    given: str

    @property
    def name(self) -> str:
        return self.surname + self.given


def full_name(name: str) -> FullName | None:
    """Surname + a one- or two-character given name (贾宝玉, 王熙凤, 司马懿), or None."""
    surname = surname_of(name)
    given = name[len(surname):]
    if not surname or not 1 <= len(given) <= 2 or not all(map(is_han, name)):
        return None
    return None if is_address_form(name) else FullName(surname, given)


def is_address_form(name: str) -> bool:
    """The name ends in a kin word or honorific (凤姐, 林妹妹, 宝二爷): a form of address."""
    return any(name.endswith(kin) and len(name) > len(kin) for kin in ADDRESS_KIN)


def person_full_name(entity: Entity) -> FullName | None:
    """The person's full name among their name and aliases: the entity's own name first, else
    the first full alias with a two-character given name; a person known only by a
    two-character given name (宝玉) has that, without a surname."""
    for name in (entity.name, *entity.aliases):
        parsed = full_name(name)
        if parsed is not None and (name == entity.name or len(parsed.given) == 2):
            return parsed
    name = entity.name
    if len(name) == 2 and all(map(is_han, name)) and not is_address_form(name):
        return FullName("", name)
    return None


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
    """For each given name: surname + it, as the text writes it as one word at least twice →
    the number of chapters it is written in; `not_surnames` are characters that are no surname
    here (`_before_full_names`)."""
    text = story.text
    uses: Counter[str] = Counter()
    chapters: dict[str, set[int]] = defaultdict(set)
    for given, starts in occurrences(given_names, text).items():
        for at in starts:
            for surname in (text[max(0, at - 2):at], text[at - 1:at]):
                known = surname in COMPOUND_SURNAMES or (
                    len(surname) == 1 and surname in SINGLE_SURNAMES
                    and surname not in not_surnames
                    and not grammar_character(surname))  # 那黛玉 is "that 黛玉"
                if known and at >= len(surname) and one_word(text, at - len(surname), at + len(given)):
                    uses[surname + given] += 1
                    chapters[surname + given].add(story.chapter_at(at))
                    break
    spreads: dict[str, dict[str, int]] = defaultdict(dict)
    for form, n in uses.items():
        if n >= 2:
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


def rename(entity: Entity, name: str) -> None:
    """Name the entity `name`, keeping its old name as an alias."""
    aliases = [a for a in entity.aliases if a != name]
    entity.aliases = [entity.name, *aliases]
    entity.name = name


def absorb(owner: Entity, other: Entity) -> None:
    """`other` is `owner` under another name: its names, mentions and sources join the owner."""
    for alias in (other.name, *other.aliases):
        if alias != owner.name and alias not in owner.aliases:
            owner.aliases.append(alias)
    owner.mentions += other.mentions
    owner.sources += [s for s in other.sources if s not in owner.sources]
    owner.description = owner.description or other.description


# -- forms of address -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Form:
    """How a form of address is made from a person's name."""

    by_surname: bool
    """Made from the surname (林妹妹), or from a given-name character that is a common surname
    (谯周's 周 reads as 周瑜's surname)."""
    gender: str
    """The gender its kin word gives ('m', 'f', or '' for 儿)."""


def address_forms(person: FullName) -> dict[str, Form]:
    """The forms of address a name makes: a given-name character or the whole given name +
    (rank) + kin word, a given-name character + 儿, the surname + kin word."""
    stems = [c for c in dict.fromkeys(person.given)
             if c not in NOT_ADDRESS_STEMS and not grammar_character(c)]
    if len(person.given) == 2:
        stems.append(person.given)
    forms: dict[str, Form] = {}
    for stem in stems:
        surname_like = stem in COMMON_SURNAMES
        for kin, gender in ADDRESS_KIN.items():
            forms[stem + kin] = Form(surname_like, gender)
            if kin in RANKED_KIN:
                for rank in ADDRESS_RANKS:
                    forms[stem + rank + kin] = Form(surname_like, gender)
        if len(stem) == 1:
            forms[stem + DIMINUTIVE] = Form(surname_like, "")
    for kin, gender in ADDRESS_KIN.items() if person.surname else ():
        forms[person.surname + kin] = Form(True, gender)
    return forms


def fold_address_forms(entities: list[Entity], text: str, min_uses: int,
                       chunk_texts: Sequence[str] = ()) -> list[Entity]:
    """Give each form of address the text uses at least `min_uses` times to the one person it can
    be formed from (see `addressee`), or, of several, to the one its passages name (see
    `addressed_in`); an entity of that name (凤姐, a speaker) joins the person."""
    makers: dict[str, list[tuple[Entity, Form]]] = defaultdict(list)
    for person in (e for e in entities if e.type == "person"):
        parsed = person_full_name(person)
        if parsed is None or person.name.endswith(TITLED_NAME_ENDINGS):
            continue  # 王夫人, 赵姨娘: a title, no given name to make a form of address from
        for form, made in address_forms(parsed).items():
            makers[form].append((person, made))
    claimed = {name: e for e in entities for name in (e.name, *e.aliases)}
    uses = standing_uses(makers, claimed, text)
    by_name = {e.name: e for e in entities}
    used = {form: who for form, who in makers.items()
            if uses[form] >= min_uses and form not in UNNAMED_SPEAKERS}
    kin_gender = {form: who[0][1].gender for form, who in used.items()}
    owners = _one_gender({form: addressee(who) for form, who in used.items()}, kin_gender)
    genders: dict[str, set[str]] = defaultdict(set)
    for form, owner in owners.items():
        if owner is not None and kin_gender[form]:
            genders[owner.name].add(kin_gender[form])
    shared = {form: [p for p, _ in who] for form, who in used.items() if owners[form] is None}
    owners.update(addressed_in(shared, chunk_texts, entities, kin_gender, genders))
    gone: set[int] = set()
    for form in used:
        owner = owners.get(form)
        holder = claimed.get(form)
        if owner is None or holder is owner:
            continue
        if holder is None:
            owner.aliases.append(form)
            owner.mentions += uses[form]
            claimed[form] = owner
        elif (holder.name == form and by_name.get(form) is holder and _plain(holder)
              and owner.mentions * MINOR >= holder.mentions):
            absorb(owner, holder)
            gone.add(id(holder))
            for name in (holder.name, *holder.aliases):
                claimed[name] = owner
    return [e for e in entities if id(e) not in gone]


def name_address_forms(entities: list[Entity], story: Story, not_surnames: set[str]) -> list[Entity]:
    """A person known only by a form of address no one's name makes (凤姐: the text never names
    熙凤 alone often enough to be anyone) is named by the one full name the text writes, at
    least twice as one word, with the form's character in its given name (王熙凤): the given
    name joins too (熙凤)."""
    by_name = {e.name: e for e in entities}
    givens = [(parsed.given, e.mentions) for e in entities if e.type == "person"
              and (parsed := person_full_name(e)) is not None]
    gone: set[int] = set()
    for entity in entities:
        stem = _stem_of(entity.name)
        if entity.type != "person" or not stem or not _plain(entity) or any(
                stem in given and mentions * MINOR >= entity.mentions
                for given, mentions in givens):
            continue  # a form someone's name makes is given to them (fold_address_forms)
        found: Counter[str] = Counter()
        for at in occurrences([stem], story.text).get(stem, []):
            for start in (at - 2, at - 1):
                form = story.text[start:start + 3] if start >= 0 else ""
                parsed = full_name(form)
                if (parsed is None or stem not in parsed.given or parsed.surname in not_surnames
                        or parsed.given in OFFICES  # 梅翰林: a surname and an office
                        or grammar_character(parsed.surname)
                        or form[:2] in by_name or form[1:] in by_name  # 贾母凤(姐): a list
                        or common_word(form[:2])  # 伏侍凤(姐): "serve"
                        or not one_word(story.text, start, start + 3)):
                    continue
                found[form] += 1
        names = [form for form, n in found.items() if n >= 2]
        if len(names) != 1:
            continue
        owner = by_name.get(names[0])
        if owner is not None and owner is not entity and owner.type == "person":
            absorb(owner, entity)
            gone.add(id(entity))
            continue
        own_given = names[0][1:]
        rename(entity, names[0])
        by_name[entity.name] = entity  # 凤丫头 after 凤姐 joins this one
        if story.text.count(own_given) >= 2 and own_given not in by_name:
            entity.aliases.append(own_given)
    return [e for e in entities if id(e) not in gone]


def _stem_of(name: str) -> str:
    """The given-name character of a form of address (凤姐 → 凤, 宝二爷 → 宝), or ''."""
    for kin in sorted(ADDRESS_KIN, key=len, reverse=True):
        if name.endswith(kin):
            stem = name[:-len(kin)].rstrip(ADDRESS_RANKS)
            if len(stem) == 1 and stem not in NOT_ADDRESS_STEMS and not grammar_character(stem):
                return stem
            return ""
    return ""


def standing_uses(forms: Iterable[str], names: Iterable[str], text: str) -> Counter[str]:
    """How often each form stands in the text as a name of its own: not inside a longer name
    (姜伯 inside 姜伯约 is no use of 姜伯)."""

    forms = set(forms)
    matcher = AliasMatcher({word: word for word in (*forms, *names)})
    return Counter(word for *_, word in matcher.find_spans(text) if word in forms)


def _one_gender(owners: dict[str, Entity | None],
                kin_gender: dict[str, str]) -> dict[str, Entity | None]:
    """The forms given a person whose other forms mostly give the other gender are taken back
    (王爷 beside 凤姐, 凤丫头, 凤姑娘: no one calls her 王爷)."""
    votes: dict[int, Counter[str]] = defaultdict(Counter)
    for form, owner in owners.items():
        if owner is not None and kin_gender[form]:
            votes[id(owner)][kin_gender[form]] += 1
    kept = dict(owners)
    for form, owner in owners.items():
        if owner is None or not kin_gender[form]:
            continue
        mine = votes[id(owner)]
        other = "f" if kin_gender[form] == "m" else "m"
        if mine[other] > mine[kin_gender[form]]:
            kept[form] = None
    return kept


def addressee(makers: list[tuple[Entity, Form]]) -> Entity | None:
    """The one person a form of address can be made from; of several who share the surname it is
    made from (周郎: 周瑜, 周泰, 周仓), the one mentioned DOMINANCE times more than the next."""
    people = list({id(p): (p, made) for p, made in makers}.values())
    if len(people) == 1:
        return people[0][0]
    if not all(made.by_surname for _, made in people):
        return None
    ranked = sorted((p for p, _ in people), key=lambda p: -p.mentions)
    return ranked[0] if ranked[0].mentions >= DOMINANCE * ranked[1].mentions else None


SPOKEN_SHARE = 0.2
"""A person who says a form of address in this share of its uses (at least twice) is not the one
it addresses: no one calls themself 宝兄弟."""


def addressed_in(shared: dict[str, list[Entity]], chunk_texts: Sequence[str],
                 entities: list[Entity], kin_gender: dict[str, str],
                 genders: dict[str, set[str]]) -> dict[str, Entity]:
    """For forms several people can be made from (宝姐姐: 宝玉, 宝钗, 宝琴): the one person the
    passages using the form name (by their other names) PRESENCE_DOMINANCE times more often than
    any other who could be meant, at least three times. A person who says the form in a quote
    (宝玉笑道：“宝姐姐…”) is not meant, nor one whose forms already give the other gender: the
    surest forms are given first (宝兄弟 and 宝二爷 make 宝玉 a man, so 宝丫头 is 宝钗's)."""
    if not shared or not chunk_texts:
        return {}
    import ahocorasick

    automaton = ahocorasick.Automaton()
    for form in shared:
        automaton.add_word(form, form)
    automaton.make_automaton()
    matcher = AliasMatcher(alias_map(e for e in entities if e.type == "person"))
    present: dict[str, Counter[str]] = defaultdict(Counter)
    speaking: dict[str, Counter[str]] = defaultdict(Counter)
    uses: Counter[str] = Counter()
    for text in chunk_texts:
        found = {form for _, form in automaton.iter(text)}
        if not found:
            continue
        named = {name for *_, name in matcher.find_spans(text)}
        for form in found:
            uses[form] += 1
            present[form].update(named)
        for speaker, quote in _speeches(text, matcher):
            for form in found:
                if form in quote:
                    speaking[form][speaker] += 1
    def choice(form: str) -> tuple[float, Entity | None]:
        """(how sure, whom) for a form, with what is known of genders now."""
        other = {"m": "f", "f": "m"}.get(kin_gender.get(form, ""), "")
        meant = [p for p in shared[form] if other not in genders[p.name]
                 and speaking[form][p.name] < max(2, SPOKEN_SHARE * uses[form])]
        ranked = sorted(meant, key=lambda p: -present[form][p.name])
        if not ranked or present[form][ranked[0].name] < 3:
            return 0.0, None
        best = present[form][ranked[0].name]
        rest = present[form][ranked[1].name] if len(ranked) > 1 else 0
        return (best / max(rest, 0.5), ranked[0]) if best >= PRESENCE_DOMINANCE * rest else (
            0.0, None)

    owners: dict[str, Entity] = {}
    left = set(shared)
    while left:
        sure, form = max((choice(f)[0], f) for f in left)
        if not sure:
            break
        left.discard(form)
        owner = choice(form)[1]
        if owner is None:
            continue
        owners[form] = owner
        if kin_gender.get(form):
            genders[owner.name].add(kin_gender[form])
    return owners


def _speeches(text: str, matcher: AliasMatcher) -> list[tuple[str, str]]:
    """(who speaks, what they say) for each 「X道：“…”」 in the passage whose speaker is known."""
    found = []
    for match in re.finditer(SPEAKER_CLAUSE, text):
        speakers = matcher.find_spans(match.group(1))
        if not speakers:
            continue
        end = text.find("”", match.end())
        found.append((speakers[0][2], text[match.end():end if end >= 0 else len(text)]))
    return found


def _plain(entity: Entity) -> bool:
    """An entity only a tagger or a speaker found: a glossary's or a pattern's entry stays."""
    return set(entity.sources) <= {"tagger", "speaker"}


# -- stated identity ----------------------------------------------------------------------------


def join_stated_identities(entities: list[Entity], text: str) -> list[Entity]:
    """Two people the text says are one (原来单福就是徐庶。: a name, 乃 / 即 / 就是, a name, and
    the clause's end) become one entity, named as the second (the name the statement gives).
    Nothing may stand between: 玄德乃问伊籍 asks 伊籍 something."""
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
    return [e for e in entities if e.name not in gone]


# -- surname + title -------------------------------------------------------------------------


PRESENCE_DOMINANCE = 2
"""Of the people of a form's surname named in the passages that use the form, the one named
this many times more often than the next takes the form."""


def fold_titled_surnames(entities: list[Entity], chunk_texts: Sequence[str],
                         min_uses: int) -> list[Entity]:
    """Give a surname + office form (曹丞相, 周都督, 刘皇叔; a province for its governor: 刘荆州)
    to the person of that surname the passages that use it name: named in at least three of
    them, and PRESENCE_DOMINANCE times more often than anyone else of that surname. A woman's
    title (孙夫人 is 孙权's sister) and offices alone (丞相, 军师: they pass from one holder to
    the next) stay apart."""
    people = {e.name: e for e in entities if e.type == "person"}
    surnames = {name: parsed.surname for name, e in people.items()
                if (parsed := person_full_name(e)) is not None and parsed.surname}
    by_name = {e.name: e for e in entities}
    claimed = {a for e in entities for a in e.aliases}
    pattern = re.compile("(" + "|".join(map(re.escape, sorted(set(surnames.values()), key=len,
                                                                reverse=True)))
                         + ")(" + "|".join(o for o in OFFICES if not o.endswith(FEMALE_NAME_ENDINGS))
                         + f"|[{HAN_RANGES}]{PROVINCE})")
    matcher = AliasMatcher(alias_map(people.values()))
    present: dict[str, Counter[str]] = defaultdict(Counter)
    uses: Counter[str] = Counter()
    for text in chunk_texts:
        forms = {m.group(0) for m in pattern.finditer(text)} - claimed
        if not forms:
            continue
        named = {name for *_, name in matcher.find_spans(text)}
        for form in forms:
            uses[form] += 1
            present[form].update(n for n in named if n != form and surnames.get(n)
                                 and form.startswith(surnames[n]))
    gone: set[int] = set()
    for form, passages in uses.items():
        holder = by_name.get(form)
        if passages < min_uses or not present[form] or holder is not None and not _plain(holder):
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
