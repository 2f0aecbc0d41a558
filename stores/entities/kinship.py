"""Relations a story states in so many words: "Noirtier is the father of Villefort", "I am
Haydée, the daughter of Ali Tepelini", 孙坚之子孙策, 以妹嫁刘备.

Co-occurrence says two people share passages; a stated relation says how they are related and
which passage says so, which is what "Who was Haydée's father?" needs. The patterns read a
sentence with its entity mentions marked, so only a word for kin or marriage sitting right
between two names (or a name and "of" + name) counts; anything looser is left to co-occurrence.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from stores.entities.english_forms import split_title
from stores.entities.surnames import surname_of
from stores.lang import HAN_RANGES, en, has_han, zh
from stores.lang.en import KIN as _EN_KIN
from stores.lang.gender import title_gender
from stores.lang.text import sentences
from stores.lang.zh import KIN as _ZH_KIN
from stores.models import NOT_PEOPLE, Entity, Relation

_MARK = "\u2063"  # invisible separator: entity marks never clash with the story's text


DIRECTED = frozenset({"parent_of", "grandparent_of", "mentor", "serves"})
"""Relation types with a direction: the (grand)parent, the master, the servant first. The others are symmetric."""


@dataclass(frozen=True, slots=True)
class Statement:
    """One sentence that states a relation: `source` is `type` of `target` (the parent, the
    master first; spouse, kin and sworn siblings have no direction)."""

    source: str
    target: str
    type: str
    sentence: str
    told: tuple[str, str] = ("", "")
    """The one the kin word names and the gender it gives them (Renée, Valentine's mother:
    Renée, f), when it gives one."""
    word: str = ""
    """The kin word as the sentence writes it, which names told[0] (nephew, 外甥): what a
    relation of the wide type `kin` is."""

    def kin_word(self, who: str) -> str:
        """The word the sentence calls `who` by, "" when it calls the other one or none; a word
        each is to the other (cousin) calls both."""
        return self.word if self.word and (self.told[0] == who
                                           or self.word in en.SYMMETRIC_KIN) else ""



def _alternatives(words) -> str:
    return "|".join(sorted(map(re.escape, words), key=len, reverse=True))


def _entity(role: str) -> str:
    """A marked entity mention whose index is captured as `role`."""
    return f"{_MARK}(?P<{role}>\\d+){_MARK}"


_WORD_EN = f"(?P<word>{_alternatives(_EN_KIN)})"
_WORD_ZH = f"(?P<word>{_alternatives(_ZH_KIN)})"

_NAMED, _OF, _A, _B = _entity("named"), _entity("of"), _entity("a"), _entity("b")
# Patterns with `named`, `of` and `word`: `named` is the `word` of `of`. Patterns with `a` and
# `b` state a marriage. The forms are each language's (stores/lang).
_EN_PATTERNS = tuple(re.compile(p, re.I) for p in en.kin_statements(_NAMED, _OF, _A, _B, _WORD_EN))
_ZH_PATTERNS = tuple(re.compile(p) for p in zh.kin_statements(_NAMED, _OF, _A, _B, _WORD_ZH, _MARK))

_KIN_WORD = re.compile(rf"\b(?:{_alternatives(_EN_KIN)})\b|{zh.OF}(?:{_alternatives(_ZH_KIN)})",
                       re.I)


def says_kin(sentence: str) -> bool:
    """The sentence uses a word for kin the way a stated relation does (father, 之子, 的徒弟)."""
    return _KIN_WORD.search(sentence) is not None


_TIE_WORD = re.compile(rf"\b(?:{_alternatives(en.TIE_NOUNS)})s?\b(?!['’]s)", re.I)
"""Not a possessive: "the miller's boy" is somebody's, no word for what the two are."""
_CLAUSE_BREAK = re.compile(r"[;:]|--|—")
_NEAR = re.compile(r"^\W*(?:\w+\W+){0,3}$")
"""At most three words: a word this near a name is said of it ("Miss Bates's niece")."""


def tie_between(text: str, one: tuple[int, int], other: tuple[int, int]) -> str:
    """What a sentence says the two names at `one` and `other` ((start, end)) are to each other:
    "kin" when a word for kin, "tie" when another word for what one person is to another
    (governess, friend, apothecary: en.TIE_NOUNS) stands between them or within three words of
    either, in one clause ("Sixteen years had Miss Taylor been in Mr. Woodhouse's family, less
    as a governess than a friend, very fond of both daughters, but particularly of Emma"); ""
    when none does ("Frank turned instantly to Emma, to claim her former promise; and boasted
    himself an engaged man, which his father looked his most perfect approbation of"). Chinese
    writes kin right against a name (刘备之子), so its kin words count anywhere in the text."""
    (a, b), (c, d) = sorted((one, other))
    if has_han(text):
        return "kin" if says_kin(text) else ""
    if b > c or _CLAUSE_BREAK.search(text, b, c):
        return ""
    for pattern, kind in ((_KIN_WORD, "kin"), (_TIE_WORD, "tie")):
        for match in pattern.finditer(text):
            s, e = match.span()
            if ((b <= s and e <= c) or (e <= a and _NEAR.match(text[e:a]))
                    or (s >= d and _NEAR.match(text[d:s]))):
                return kind
    return ""


_RELATIVE_OF = re.compile(rf"{en.POSSESSIVE} (?:{_alternatives(_EN_KIN)})\b"
                          rf"|{zh.OF}(?:{_alternatives(_ZH_KIN)})", re.I)


def names_a_relative(text: str, after: int) -> bool:
    """The name ending at `after` is followed by a word for kin, so the words stand for the
    relative: "Edmond's father", 刘备的妻子."""
    return _RELATIVE_OF.match(text, after) is not None


_KIN_BEFORE = re.compile(rf"{en.KIN_OWNER}{en.KIN_QUALIFIER}(?:{_alternatives(_EN_KIN)}),?\s+"
                         r"(?:the\s+)?$", re.I)
_KIN_AFTER = re.compile(rf",\s+{en.KIN_OWNER}{en.KIN_QUALIFIER}(?:{_alternatives(_EN_KIN)})\b", re.I)


def apposed_to_kin(text: str, start: int, end: int) -> bool:
    """The name at `start`:`end` stands beside a word for someone's kin, its owner a pronoun:
    "His brother-in-law, Mr. Hurst", "Mr. Hurst, his brother-in-law". Whose kin, the sentence
    does not say, so no relation is read from it; it says the name is somebody's relative."""
    return (_KIN_BEFORE.search(text, max(0, start - 60), start) is not None
            or _KIN_AFTER.match(text, end) is not None)


_ROLE_AFTER = re.compile(rf",\s+(?:the|a|an)\s+(?:[a-z]+\s+)?(?:{_alternatives(en.ROLE_NOUNS)})"
                         r"\b(?!['’]s)", re.I)


def apposed_to_role(text: str, end: int) -> bool:
    """The name ending at `end` has its trade or role in apposition: "consulting Mr. Perry, the
    apothecary, on the subject" — what he is to the one the passage is about."""
    return _ROLE_AFTER.match(text, end) is not None


def stated_in(text: str, spans: list[tuple[int, int, str]],
              given_names: Mapping[tuple[str, str], str] | None = None,
              genders: Mapping[str, str] | None = None) -> list[Statement]:
    """The relations `text` states between the entities of `spans` ((start, end, name)); with
    `given_names` ((surname, one-character given name) → person: Families.given_names), also of
    a father the text calls by his given name alone before his son's name (操长子曹丕). A kin
    word of one gender is not read of a person whose titles give the other (`genders`: name →
    gender, Families.gender): "her aunt Bertram" does not make Mr. Bertram anyone's aunt."""
    statements: list[Statement] = []
    for start, end, _ in sentences(text):
        inside = [(a - start, b - start, n) for a, b, n in spans if start <= a and b <= end]
        sentence = text[start:end]
        if given_names and has_han(sentence):
            inside = sorted([*inside, *_fathers_by_given_name(sentence, inside, given_names)])
        if len({n for *_, n in inside}) < 2:
            continue
        marked, names = _mark(sentence, inside)
        chinese = has_han(sentence)
        words = _ZH_KIN if chinese else _EN_KIN
        written = [sentence[a:b] for a, b, _ in inside]
        if chinese:
            statements += _children_listed(marked, names, sentence.strip())
        for pattern in _ZH_PATTERNS if chinese else _EN_PATTERNS:
            for match in pattern.finditer(marked):
                statement = _read(match, names, words, sentence.strip())
                who, told = statement.told
                if (statement.source != statement.target and not _other_gender(match, written)
                        and not (told and (genders or {}).get(who, told) not in ("", told))
                        and not (not chinese and _not_told(match, marked))):
                    statements.append(statement)
    return statements


_CHILDREN, _CHILD = map(re.compile, zh.children_listing(_entity("parent"), _entity("child"),
                                                        HAN_RANGES))


def _children_listed(marked: str, names: list[str], sentence: str) -> list[Statement]:
    """A parent's children, listed by birth order (孙坚有四子…：长子名策，字伯符；次子名权，…;
    德有四子：长子韩瑛，次子韩瑶): each one named is their child."""
    found = []
    for listing in _CHILDREN.finditer(marked):
        parent = names[int(listing["parent"])]
        for child in _CHILD.finditer(marked, listing.end("kind"), listing.end()):
            name = names[int(child["child"])]
            if name != parent:
                found.append(Statement(parent, name, "parent_of", sentence,
                                       (name, "f" if listing["kind"] in zh.DAUGHTERS else "m")))
    return found


_CHILD_BEFORE = re.compile(rf"(?P<given>[{HAN_RANGES}]){zh.OF}?(?:{zh.BORN_KIN})$")


def _fathers_by_given_name(sentence: str, inside: list[tuple[int, int, str]],
                           given_names: Mapping[tuple[str, str], str]) -> list[tuple[int, int, str]]:
    """Mentions of a father by his one-character given name right before a word for his child
    and a name of his surname (操长子曹丕, 艾之子邓忠, 懿长子司马师): the surname's one person so
    named, where no name is written there already."""
    found = []
    for a, _, child in inside:
        before = _CHILD_BEFORE.search(sentence, 0, a)
        surname = surname_of(child)
        if before is None or not surname:
            continue
        at = before.start("given")
        if before["given"] in zh.VERBS_ON_A_CHILD:
            continue
        father = given_names.get((surname, before["given"]))
        if father and father != child and not any(s <= at < e for s, e, _ in inside):
            found.append((at, at + 1, father))
    return found


def _not_told(match: re.Match[str], marked: str) -> bool:
    """An English sentence that does not tell the relation it seems to: a marriage wished or
    supposed (en.UNREAL_BEFORE before it), or a name spoken to, not introduced ("My dear Mrs
    Smith, Mr Elliot's wife …": en.SPOKEN_TO_BEFORE)."""
    before = marked[:match.start()]
    if match.groupdict().get("a") is not None:
        return en.UNREAL_BEFORE.search(before) is not None
    return en.SPOKEN_TO_BEFORE.search(before) is not None and marked[match.start():].startswith(
        _MARK) and "," in marked[match.start():match.end()][:20]


_WORD_GENDER = {**{word: gender for gender, words in (("m", en.MALE_KIN), ("f", en.FEMALE_KIN))
                   for word in words.split("|")},
                **{word.lower(): gender for lang in (en.LANGUAGE, zh.LANGUAGE)
                   for (_, _, gender), word in lang.relative_words.items() if gender}}
"""A kin word's gender (father → m, daughter → f, aunt → f; 父亲 → m, 女儿 → f)."""


def _other_gender(match: re.Match[str], written: list[str]) -> bool:
    """The kin word and the name it calls so are of two genders, as the name is written: "the
    marquis his father, Madame Danglars, …" is a list, not his father named."""
    found = match.groupdict()
    if found.get("named") is None or found.get("word") is None:
        return False
    word = _WORD_GENDER.get(found["word"].lower(), "")
    name = written[int(found["named"])]
    return bool(word) and title_gender([name]) not in ("", word)


def _mark(sentence: str, spans: list[tuple[int, int, str]]) -> tuple[str, list[str]]:
    parts: list[str] = []
    names: list[str] = []
    at = 0
    for a, b, name in spans:
        parts += [sentence[at:a], f"{_MARK}{len(names)}{_MARK}"]
        names.append(name)
        at = b
    parts.append(sentence[at:])
    return "".join(parts), names


def _read(match: re.Match[str], names: list[str], words: dict[str, tuple[str, bool]],
          sentence: str) -> Statement:
    found = match.groupdict()
    if found.get("a") is not None:
        return Statement(names[int(found["a"])], names[int(found["b"])], "spouse", sentence)
    if found.get("sa") is not None:
        return Statement(names[int(found["sa"])], names[int(found["sb"])], "sworn_sibling",
                         sentence)
    named, of = names[int(found["named"])], names[int(found["of"])]
    if found.get("born") is not None:  # 甘夫人生刘禅
        return Statement(of, named, "parent_of", sentence)
    if found.get("adopted") is not None:  # 关平拜关公为父: 关平 is his 义子
        return Statement(of, named, "parent_of", sentence, (named, ""), zh.ADOPTED_CHILD)
    kind, named_is_source = words.get(found["word"].lower(), ("kin", True))
    if found["word"] in zh.BROTHER_WORDS and _other_surnames(named, of):
        kind = "sworn_sibling"  # 刘玄德之弟关羽: brothers of two surnames swore it
    told = (named, _WORD_GENDER.get(found["word"].lower(), ""))
    word = found["word"].lower()
    if named_is_source:
        return Statement(named, of, kind, sentence, told, word)
    return Statement(of, named, kind, sentence, told, word)


def _other_surnames(one: str, other: str) -> bool:
    """Both are Chinese full names (a surname, then one or two characters) of two surnames, not
    a name and a form of address (凤姐, 孙夫人, 关公)."""
    first, second = surname_of(one), surname_of(other)
    return bool(first and second and first != second
                and 1 <= len(one) - len(first) <= 2 and 1 <= len(other) - len(second) <= 2
                and not any(name.endswith(word) for name in (one, other)
                            for word in (*zh.ADDRESS_KIN, *zh.SPOUSE_TITLES, *zh.NAME_SUFFIXES)))


def stated_relations(chunks: Iterable[tuple[str, int, str, list[tuple[int, int, str]]]],
                     told: dict[str, Counter[str]] | None = None,
                     given_names: Mapping[tuple[str, str], str] | None = None,
                     genders: Mapping[str, str] | None = None,
                     ) -> dict[tuple[str, str, str], list[tuple[str, int]]]:
    """(source, target, type) → the (chunk id, chapter) passages that state it, in story order;
    `chunks` are (id, chapter, text, the text's mentions as (start, end, name)). `told`, when
    given, counts the genders the kin words give the people they name (Renée: f, once);
    `given_names` and `genders` as for `stated_in`."""
    found: dict[tuple[str, str, str], list[tuple[str, int]]] = {}
    for chunk_id, chapter, text, spans in chunks:
        for s in stated_in(text, spans, given_names, genders):
            if told is not None and s.told[1]:
                told.setdefault(s.told[0], Counter())[s.told[1]] += 1
            source, target = (s.source, s.target) if s.type in DIRECTED else sorted(
                (s.source, s.target))
            where = found.setdefault((source, target, s.type), [])
            if (chunk_id, chapter) not in where:
                where.append((chunk_id, chapter))
    return found


def wives_by_full_name(entities: Iterable[Entity]) -> dict[str, str]:
    """A man → the woman titled by his full name (John Dashwood → Mrs. John Dashwood): his
    wife, so the family's other married woman (Mrs. Dashwood, his father's widow) is not."""
    full_names: dict[str, set[str]] = {}  # a full name (John Dashwood) → who goes by it
    titled_wives: dict[str, str] = {}  # a full name → the woman titled by it
    for entity in entities:
        if entity.type in NOT_PEOPLE:
            continue
        for form in (entity.name, *entity.aliases):
            title, words = split_title(form)
            if len(words) > 1 and not has_han(form):
                if title in en.MARRIED_TITLES:
                    titled_wives.setdefault(" ".join(words), entity.name)
                else:
                    full_names.setdefault(" ".join(words), set()).add(entity.name)
    return {man: wife for name, wife in titled_wives.items()
            for man in full_names.get(name, ()) if man != wife}


def ladys_husbands(forms: Iterable[str], people: Mapping[str, Iterable[str]]) -> list[str] | None:
    """For a woman called Lady and a surname (Lady Bertram): the men of that surname titled Sir
    or Lord (Sir Thomas Bertram; en.LADY_HUSBAND_TITLES), her husband when there is one;
    `people` is each other person's name → their other names. None for anyone else: Lady
    Catherine, a given name, is an earl's daughter, and says nothing of a husband."""
    lady = [f.split()[1] for f in forms if len(f.split()) == 2 and f.split()[0] == "Lady"
            and f.split()[1] not in en.GIVEN_NAMES]
    if not lady:
        return None
    return [name for name, aliases in people.items()
            if any(f.split()[0] in en.LADY_HUSBAND_TITLES and f.split()[-1] == lady[0]
                   for f in (name, *aliases) if len(f.split()) > 1)]


def _a_son_of_the_house(man: str, surname: str, entities: list[Entity]) -> bool:
    """The man goes by his first name and `surname` too, and the family has a Miss of that
    surname or another member named in full, no wife: a son or nephew of the house beside its
    daughters (Henry and Miss Crawford, Robert Martin and his sisters), whom "Mr." and the
    surname name while Mrs. and the surname is his mother or his aunt (Mansfield Park's Mrs. Crawford, the Admiral's wife; Emma's Mrs. Martin).
    A husband by titles alone is a man the text knows by the title and surname only (Mr. Elton,
    M. Danglars), or one whose wife goes by his full name (Mrs. John Dashwood)."""
    if len(surname.split()) != 1:
        return False
    own = next((e for e in entities if e.name == man), None)
    forms = (man, *own.aliases) if own is not None else (man,)
    full = any(not split_title(f)[0] and len(f.split()) > 1 and f.split()[-1] == surname
               for f in forms)
    if not full:
        return False
    for other in entities:
        if other.type in NOT_PEOPLE or other.name == man:
            continue
        titled = [split_title(f) for f in (other.name, *other.aliases)]
        if any(title in en.UNMARRIED_TITLES and words == [surname] for title, words in titled):
            return True  # Miss Crawford
        if any(title in en.MARRIED_TITLES for title, _ in titled):
            continue
        if any(not title and len(words) > 1 and words[-1] == surname for title, words in titled):
            return True  # his sister Elizabeth Martin
    return False


def titled_spouses(entities: Iterable[Entity],
                   chunks: Iterable[tuple[str, int, list[str]]]) -> list[Relation]:
    """A married woman's title before another entity's name makes her his wife (Madame Danglars
    and M. Danglars, Mrs. Hurst and Mr. Hurst), cited by the passages that name both; one
    titled by his full name (Mrs. John Dashwood) is the one wife titles give him, and Lady and a
    surname the wife of the one knight or lord of it (`ladys_husbands`).

    `chunks` are (chunk id, chapter, entity names) in story order. Only a name the other entity
    goes by untitled, or under a man's title of address, counts: Lady Catherine is no one's wife
    by this, nor is Madame de Morcerf the wife of her son, the Vicomte de Morcerf. A rank in the
    services or the title of a calling is a man's own (en.SERVICE_RANKS, en.CALLING_TITLES): with
    no Mr Croft, Admiral Croft is the husband, and Dr. Grant Mrs. Grant's; with a Mr. Tilney and a
    General Tilney, neither is surely."""
    entities = list(entities)
    married = {t.lower() for t in en.MARRIED_TITLES}
    # a title of address, not a rank: the son is the Vicomte de Morcerf, Madame de Morcerf's
    # husband is M. de Morcerf
    male = {t.lower() for t, gender in en.NAME_TITLES.items()
            if gender == "m" and t in en.ADDRESS_TITLES}
    ranked = {t.lower() for t in (*en.SERVICE_RANKS, *en.CALLING_TITLES)}
    husbands: dict[str, str] = {}
    officers: dict[str, set[str]] = {}
    wives: dict[str, str] = {}
    for entity in entities:
        for form in (entity.name, *entity.aliases):
            title, _, rest = form.partition(" ")
            if not rest or has_han(form):
                if form and not has_han(form):
                    husbands.setdefault(form, entity.name)
                continue
            if title.lower() in married:
                wives.setdefault(rest, entity.name)
            elif title.lower() in male:
                husbands.setdefault(rest, entity.name)
            elif title.lower() in ranked:
                officers.setdefault(rest, set()).add(entity.name)
    # no Mr Croft written: the one officer of the name (Admiral Croft) is Mrs Croft's husband;
    # Mr. Tilney beside General Tilney may be the son, so neither is surely Mrs. Tilney's
    husbands |= {rest: next(iter(found)) for rest, found in officers.items()
                 if rest not in husbands and len(found) == 1}
    husbands = {rest: man for rest, man in husbands.items()
                if rest not in officers or officers[rest] == {man}}
    pairs = {(wife, husbands[rest]) for rest, wife in wives.items()
             if rest in husbands and husbands[rest] != wife
             and not _a_son_of_the_house(husbands[rest], rest, entities)}
    # Mrs. John Dashwood is John Dashwood's wife: Mrs. Dashwood, by the surname alone, is
    # another woman of the family (Sense and Sensibility: his father's widow)
    by_full_name = wives_by_full_name(entities)
    pairs = {(wife, man) for wife, man in pairs if by_full_name.get(man, wife) == wife}
    # Lady Middleton is the wife of the one Sir of her surname (Sir John Middleton)
    people = {e.name: e.aliases for e in entities if e.type not in NOT_PEOPLE}
    for entity in entities:
        found = ladys_husbands((entity.name, *entity.aliases),
                               {n: a for n, a in people.items() if n != entity.name})
        if found is not None and len(found) == 1:
            pairs.add((entity.name, found[0]))
    where: dict[tuple[str, str], list[tuple[str, int]]] = {pair: [] for pair in pairs}
    for chunk_id, chapter, names in chunks:
        present = set(names)
        for pair in pairs:
            if set(pair) <= present and len(where[pair]) < 10:
                where[pair].append((chunk_id, chapter))
    return [Relation(source=wife, target=husband, type="spouse", weight=float(len(found)),
                     chapters=sorted({ch for _, ch in found}),
                     evidence=[cid for cid, _ in found])
            for (wife, husband), found in sorted(where.items()) if found]
