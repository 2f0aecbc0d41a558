"""Names the text says are one person's (stores/entities/english.py groups them): a woman and
the married name she took ("Miss Hamilton, now Mrs Smith"; "Mrs. Weston (poor Miss Taylor that
was)"), and a name the telling says is another's ("Andrea Cavalcanti, or rather Benedetto";
"under the name of Lord Wilmore"), a name with the epithet the text always gives it
("Sinbad the Sailor"), and Miss with a surname alone and the first name of the woman the
telling calls the family's eldest daughter ("Elinor, this eldest daughter")."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping

from stores.entities.english_forms import Groups, is_full, split_title
from stores.entities.english_titles import family_plural
from stores.lang.en import (
    BECAME_WIFE,
    CAPITALISED_WORD,
    ELDEST_DAUGHTER,
    ELDEST_DAUGHTER_TITLES,
    KIN_BEFORE_NAME,
    MAIDEN_THAT_WAS,
    NAME_TITLES,
    NOT_YET,
    SAME_PERSON,
    SAME_PERSON_WORDS,
    UNMARRIED_TITLES,
)
from stores.lang.gender import title_gender
from stores.lang.text import in_someones_words

_MARRIED_NAMES = (re.compile(BECAME_WIFE), re.compile(MAIDEN_THAT_WAS))
UNMARRIED = frozenset(UNMARRIED_TITLES)


def married_names(text: str) -> list[tuple[str, str]]:
    """(a woman's name, the married name the text says she took), as en.BECAME_WIFE and
    en.MAIDEN_THAT_WAS read them; not a marriage to come, wished or denied (en.NOT_YET between
    the two)."""
    return [(" ".join(m["was"].split()), " ".join(m["now"].split()))
            for pattern in _MARRIED_NAMES for m in pattern.finditer(text)
            if not NOT_YET.search(m["between"])]


_SAME_PERSON = tuple(re.compile(p) for p in SAME_PERSON)
_MAY_SAY_SAME = re.compile(SAME_PERSON_WORDS)


def same_person_names(text: str) -> list[tuple[str, str]]:
    """(a name, another name) the text says are one person's, as en.SAME_PERSON reads them,
    read a paragraph (line) at a time: whether words are someone's is the paragraph's to say."""
    return [(" ".join(m["a"].split()), " ".join(m["b"].split()))
            for line in text.split("\n") if _MAY_SAY_SAME.search(line)
            for pattern in _SAME_PERSON for m in pattern.finditer(line)
            if m.groupdict().get("told") is None or not in_someones_words(line, m.start())]


def join_same_person(g: Groups, pairs: list[tuple[str, str]], counts: Mapping[str, int]) -> None:
    """Two names the text says are one person's are one group, named by the group written more
    (Andrea Cavalcanti, not Benedetto), when the first is a person's and their titles give no
    two genders (M. de Villefort is no Mademoiselle Valentine)."""
    for one, other in pairs:
        first, second = g.owner(one), g.owner(other)
        if first is None or first not in g.person or first == second:
            continue
        theirs = [second, *g.groups[second]] if second is not None else [other]
        if _two_genders([first, *g.groups[first]], theirs):
            continue
        if second is None:
            g.groups[first].append(other)
            continue
        keep, gone = sorted((first, second), key=lambda n: -sum(
            counts.get(form, 0) for form in (n, *g.groups[n])))
        g.move(gone, keep)
        g.person.add(keep)


def _two_genders(one: list[str], other: list[str]) -> bool:
    """The titles of the two sets of forms make one a man and the other a woman."""
    mine, theirs = title_gender(one), title_gender(other)
    return bool(mine and theirs and mine != theirs)


def join_married_names(g: Groups, married: list[tuple[str, str]], counts: Mapping[str, int]) -> None:
    """A woman's name and the married name the text says she took are one person, named by the
    form the text writes more (Mary, not Mrs Charles Musgrove; Mrs Smith, not Miss Hamilton).
    Only a name no title makes a man's, and not a family's name made plural (the two Milmans)."""
    for was, now in married:
        before, after = g.owner(was), g.owner(now)
        if (before is None and not split_title(was)[0]) or family_plural(was, g.groups):
            continue
        if before is not None and title_gender([before, *g.groups[before]]) == "m":
            continue
        if before is not None and after is not None and before != after:
            keep, other = sorted((before, after), key=lambda n: -counts.get(n, 0))
            g.move(other, keep)
            g.person.add(keep)
        elif before is not None and after is None:
            g.groups[before].append(now)
        elif after is not None and before is None:
            g.groups[after].append(was)


EPITHET_SHARE = 0.8
"""A word is a person's epithet when at least this share of its uses follow their name and
"the" (Sailor: 23 of 23, always in "Sinbad the Sailor")."""


def join_epithets(g: Groups, text: str) -> None:
    """A capitalised word the text writes (nearly) only after one person's name and "the" is
    part of that name, no one of its own: "Sinbad the Sailor" is Sinbad, and "Sailor" no
    entity."""
    words = {n for n in g.groups if " " not in n and n not in g.person}
    after: dict[str, Counter[str]] = {}
    for m in _NAME_THE_WORD.finditer(text):
        if m[2] in words:
            after.setdefault(m[2], Counter())[m[1]] += 1
    if not after:
        return
    uses = Counter(re.findall(r"\b(" + "|".join(map(re.escape, after)) + r")\b", text))
    for word, before in after.items():
        name, count = before.most_common(1)[0]
        owner = g.owner(name)
        if owner is None or owner not in g.person or count < EPITHET_SHARE * uses[word]:
            continue
        g.groups[owner] += [f"{name} the {word}", *g.groups.pop(word)]


_NAME_THE_WORD = re.compile(r"\b([A-ZÀ-Þ][\w’'-]+) the ([A-ZÀ-Þ][\w’'-]+)\b")


_ELDEST = re.compile(ELDEST_DAUGHTER)
_TITLED = "|".join(re.escape(t) for t in sorted(NAME_TITLES, key=len, reverse=True))
NEAR_FAMILY = 1500
"""How many characters before the words that call a woman the eldest daughter her family's
name is looked for: the paragraph or two that tell of the family."""


def join_eldest_daughters(g: Groups, text: str) -> None:
    """Miss and a surname alone name the family's eldest unmarried daughter (en.ELDEST_DAUGHTER_
    TITLES), and the telling may say which woman that is, by her first name: "So acutely did
    Mrs. Dashwood feel … Elinor, this eldest daughter, whose advice was so effectual" — Miss
    Dashwood is Elinor, whose sisters go by Miss Marianne and Miss Margaret. The family is the
    one whose name the text wrote last before those words, if its Miss is no one's yet; the
    woman is called by her first name only (no surname of another family) and no title makes
    her a man."""
    unclaimed = {split_title(n)[1][0]: n for n in g.groups if split_title(n)[0] in
                 ELDEST_DAUGHTER_TITLES and len(split_title(n)[1]) == 1}
    if not unclaimed:
        return
    surnames = sorted({n.split()[-1] for n in g.names() if " " in n}, key=len, reverse=True)
    family = re.compile(rf"\b(?:{_TITLED})\s+([A-Z][\w'’-]+)|\b("
                        + "|".join(map(re.escape, surnames)) + r")\b")
    for match in _ELDEST.finditer(text):
        if in_someones_words(text, match.start()):
            continue  # the telling's word, not a speaker's guess
        owner = g.owner(match["name"] or match["name2"])
        if owner is None:
            continue
        forms = [owner, *g.groups[owner]]
        if any(" " in f for f in forms) or title_gender(forms) == "m":
            continue
        named = list(family.finditer(text, max(0, match.start() - NEAR_FAMILY), match.start()))
        miss = unclaimed.get(named[-1][1] or named[-1][2]) if named else None
        if miss is not None and miss in g.groups:
            g.move(miss, owner)
            g.person.add(owner)


KIN_FORM_USES = 2
"""A kin word and a name (aunt Norris) must be written this often to be a form of its own."""
_KIN_FORM = re.compile(
    rf"\b(?P<kin>(?i:{'|'.join(KIN_BEFORE_NAME)}))\s+(?P<name>{CAPITALISED_WORD})\b")


def join_kin_forms(g: Groups, text: str) -> None:
    """A kin word a family puts before a relative's name (aunt Norris, cousin Edmund) names the
    one person of that name the word fits, and is that person's form: the bare surname is a
    man's (Mr. Norris, dead in chapter 3) where "aunt Norris" is his widow's, Mrs. Norris. A
    first name goes to the one person whose full name it begins (cousin Edmund; not cousin
    Charles, where Charles Musgrove and Charles Hayter are two); a surname to the one person
    titled with it whose title gives the word's gender, not a Miss where there are several
    (aunt Bertram: Lady Bertram, not Miss Bertram). Written KIN_FORM_USES times or more."""
    written: Counter[str] = Counter()
    for match in _KIN_FORM.finditer(text):
        if not match["name"].endswith(("'s", "’s")):  # cousin Anne's: whose, not who
            written[f"{match['kin']} {match['name']}"] += 1
    for form, uses in written.items():
        kin, name = form.split()
        if uses < KIN_FORM_USES or g.owner(form) is not None:
            continue
        holder = _kin_holder(g, name, KIN_BEFORE_NAME[kin.lower()])
        if holder is not None:
            g.groups[holder].append(form)


def _kin_holder(g: Groups, name: str, gender: str) -> str | None:
    """The one person `name` calls whom a kin word of `gender` fits (see `join_kin_forms`)."""
    first_of = [p for p, forms in g.groups.items() if name in {
        f.split()[0] for f in (p, *forms) if is_full(f) and not split_title(f)[0]}]
    if first_of:  # a first name: cousin Edmund; not cousin Charles, Musgrove's or Hayter's
        fits = len(first_of) == 1 and first_of[0] in g.person and (not gender or title_gender(
            [first_of[0], *g.groups[first_of[0]]]) in ("", gender))
        return first_of[0] if fits else None
    titled: dict[str, str] = {}  # person → the title they go by with `name`
    for person in g.person:
        for form in (person, *g.groups[person]):
            title, words = split_title(form)
            if title and words == [name] and (not gender or title_gender([form]) == gender):
                titled[person] = title
    if len(titled) > 1:  # an aunt is more often a married woman than a Miss of the family
        titled = {p: t for p, t in titled.items() if t not in UNMARRIED}
    return next(iter(titled)) if len(titled) == 1 else None
