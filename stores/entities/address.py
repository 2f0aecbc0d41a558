"""Forms of address (Chinese): a character of the given name, or the surname, with a kin word or
an honorific (凤姐, 凤丫头, 宝兄弟, 林妹妹, 周郎), with a rank between (宝二爷) or 儿 after (蓉儿),
join the one person they can be formed from, or, of several, the one their passages name. A
rank alone (二爷, 三姑娘) and a married woman's title (琏二奶奶 is 贾琏's wife) never join on form
alone. A form no one's name makes (凤姐) is named by the one full name the text writes with its
character (王熙凤)."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from stores.entities.matcher import AliasMatcher, alias_map
from stores.entities.names import (
    DOMINANCE,
    MINOR,
    PRESENCE_DOMINANCE,
    FullName,
    Story,
    absorb,
    full_name,
    occurrences,
    person_full_name,
    plain,
    rename,
)
from stores.entities.tagger import common_word, grammar_character, one_word
from stores.lang.zh import (
    ADDRESS_KIN,
    ADDRESS_RANKS,
    COMMON_SURNAMES,
    DIMINUTIVE,
    NOT_ADDRESS_STEMS,
    OFFICES,
    RANKED_KIN,
    SPEAKER_CLAUSE,
    TITLED_NAME_ENDINGS,
    UNNAMED_SPEAKERS,
)
from stores.models import Entity


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
        elif (holder.name == form and by_name.get(form) is holder and plain(holder)
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
        if entity.type != "person" or not stem or not plain(entity) or any(
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
