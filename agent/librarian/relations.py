"""What the librarian says of a relation: which relations a question asks for, the relatives
that answer it, and the line that names the relation in the question's language (Noirtier is
Villefort's father; 韩峥与沈砚——关系：仇敌、结义兄弟). Which of the evidence's sentences an
answer about a relation quotes first is agent/librarian/relation_quotes.py's."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from agent.librarian.analysis import QueryPlan
from agent.schemas import Relation
from stores.entities.kinship import (
    Statement,
)
from stores.entities.surnames import surname_of
from stores.lang import Language, adoptive, language, seniority
from stores.models import BOND_TYPES


def asked_relations(plan: QueryPlan, relations: Sequence[Relation]) -> list[Relation]:
    """The relations the line may name: for "what is their relation", those between the people
    the question names (What was Mrs. Weston to Emma? is not answered by Mrs. Weston's
    husband), and when none is typed the two through one person that join the first two
    (`linking_path`); else only those of the kind asked (the master of the Wayfarer asks for
    no one's mentor but the ship's)."""
    if plan.how_related and len(plan.entities) > 1:
        named = set(plan.entities[:MAX_PAIRED])
        between = [r for r in relations if {r.source, r.target} <= named]
        return between + linking_path(plan, relations)
    if plan.relation is None or plan.how_related:
        return list(relations)
    return [r for r in relations if r.type == plan.relation[0]]


def related_answers(plan: QueryPlan, relations: Sequence[Relation]) -> list[str]:
    """The other ends of the relation the question asks for, those the glossary declares
    first, then as often as the text states them (沈砚的师父 → 顾怀山; 顾怀山的徒弟 → 沈砚, 韩峥;
    Haydée's father → Ali Tepelini)."""
    cue = plan.relation
    if not cue or not plan.entities:
        return []
    kind, role = cue
    subject = plan.entities[0]
    found = []
    for rel in sorted(relations, key=lambda r: (not r.declared, -r.weight)):
        if rel.type != kind:
            continue
        if rel.target == subject and role in ("target", "either"):
            found.append(rel.source)
        elif rel.source == subject and role in ("source", "either"):
            found.append(rel.target)
    return list(dict.fromkeys(found))


MAX_PAIRED = 3
"""How many of the people a relation question names are paired with one another."""


def named_pairs(entities: Sequence[str]) -> list[tuple[str, str]]:
    """Each pair of the first MAX_PAIRED names, the first name's pairs first."""
    named = list(entities[:MAX_PAIRED])
    return [(a, b) for i, a in enumerate(named) for b in named[i + 1:]]


def linking_path(plan: QueryPlan, relations: Sequence[Relation]) -> list[Relation]:
    """For "how is A related to B" when no typed relation joins them: a bond of A's and one of
    B's through the same person (Mrs. Weston —wife— Weston —father— Frank Churchill), A's
    first; [] when there is none, or when a typed relation joins them. The one between is not
    named in the question: three people named get a line for each pair instead."""
    if not (plan.how_related and len(plan.entities) > 1):
        return []
    a, b = plan.entities[:2]
    named = set(plan.entities[:MAX_PAIRED])
    if any({r.source, r.target} == {a, b} for r in relations if r.type != "co_occurs"):
        return []
    bonds = [r for r in relations if r.type in BOND_TYPES]
    for first in bonds:
        if a in (first.source, first.target):
            middle = first.target if first.source == a else first.source
            second = next((r for r in bonds if {r.source, r.target} == {middle, b}), None)
            if second is not None and middle not in named:
                return [first, second]
    return []


PATH_ANSWERS = {("parent_of", "target"): "parent_or_step", ("parent_of", "source"): "child_or_step",
                ("sibling", "either"): "sibling", ("sibling", "source"): "sibling",
                ("sibling", "target"): "sibling", ("grandparent_of", "target"): "grandparent",
                ("grandparent_of", "source"): "grandchild"}
"""The relative a question asks for (its relation and the named one's role: agent/librarian/
analysis.py) → what two steps of kin must make the one found to the named one
(TWO_STEP_KIN)."""


def relative_by_path(plan: QueryPlan, relations: Sequence[Relation],
                     gender: Callable[[str], str], wanted: str,
                     ) -> tuple[str, list[Relation]] | None:
    """"Who is Henry Tilney's father?" where no relation of that kind joins him to anyone: the
    one person two steps of kin through a third make that relative (General Tilney is
    Eleanor's father, and Eleanor is Henry's sister: his father or stepfather), with the two
    steps from them to the named one; None unless exactly one person, of the `wanted` gender
    or none known, is reached so."""
    kin = PATH_ANSWERS.get(plan.relation) if plan.relation and len(plan.entities) == 1 else None
    if kin is None:
        return None
    subject = plan.entities[0]
    bonds = [r for r in relations if r.type in BOND_TYPES]
    found: dict[str, list[Relation]] = {}
    for second in (r for r in bonds if subject in (r.source, r.target)):
        middle = second.source if second.target == subject else second.target
        to_subject = _KIN_STEP.get((second.type, "source" if middle == second.source else "target"))
        for first in (r for r in bonds if r is not second and middle in (r.source, r.target)):
            far = first.source if first.target == middle else first.target
            step = _KIN_STEP.get((first.type, "source" if far == first.source else "target"))
            if (far != subject and TWO_STEP_KIN.get((step or "", to_subject or "")) == kin
                    and gender(far) in ("", wanted or gender(far))):
                found.setdefault(far, [first, second])
    return next(iter(found.items())) if len(found) == 1 else None


_KIN_STEP = {("parent_of", "source"): "parent", ("parent_of", "target"): "child",
             ("child_of", "source"): "child", ("child_of", "target"): "parent",
             ("spouse", "source"): "spouse", ("spouse", "target"): "spouse",
             ("sibling", "source"): "sibling", ("sibling", "target"): "sibling"}
"""What one end of a kin relation is to the other, whatever the language."""
TWO_STEP_KIN = {("parent", "parent"): "grandparent", ("child", "child"): "grandchild",
                ("child", "parent"): "sibling",
                ("sibling", "parent"): "uncle", ("child", "sibling"): "nephew",
                ("parent", "spouse"): "parent_in_law", ("spouse", "child"): "child_in_law",
                ("spouse", "sibling"): "sibling_in_law", ("sibling", "spouse"): "sibling_in_law",
                ("sibling", "sibling"): "sibling",
                ("spouse", "parent"): "parent_or_step", ("parent", "sibling"): "parent_or_step",
                ("child", "spouse"): "child_or_step", ("sibling", "child"): "child_or_step"}
"""(what A is to M, what M is to B) → what A is to B, where that follows whatever else is true
(a parent's parent is a grandparent; two children of one parent are siblings, half-siblings
among them). A father's wife, or a sister's mother, is a mother or a stepmother: the word says
both (Mrs. Weston is Frank Churchill's mother or stepmother), since no relation tells which.
Each language's words for these are its `kin_of_kin` (stores/lang)."""


def path_line(plan: QueryPlan, path: Sequence[Relation], gender: Callable[[str], str],
              say: Callable[[str], str] = str) -> str:
    """A and B through the one person between them, each step in the word the language has
    for it, led by what A is to B when that follows (Henry is Mr. Woodhouse's grandson: Henry
    is Isabella's son, and Isabella is Mr. Woodhouse's daughter); '' when a step has no word."""
    lang = language("zh" if plan.chinese else "en")
    a = plan.entities[0]
    first, second = path
    middle = first.target if first.source == a else first.source
    steps, words = [], []
    for who, whose, rel in ((a, middle, first), (middle, plan.entities[1], second)):
        end = "source" if who == rel.source else "target"
        steps.append(_KIN_STEP.get((rel.type, end), ""))
        told, word = gendered_end(lang, rel, who, {who: gender(who), whose: gender(whose)})
        if not word:
            return ""
        other = whose if told == who else who
        words.append(lang.relative_sentence.format(who=say(told), whose=say(other), word=word))
    said = lang.path_sentence.format(first=words[0], second=words[1])
    kin = TWO_STEP_KIN.get((steps[0], steps[1]), "")
    word = lang.kin_word(kin, gender(middle), gender(a)) if kin else ""
    if word:
        lead = lang.relative_sentence.format(who=say(a), whose=say(plan.entities[1]), word=word)
        said = lang.because_sentence.format(said=lead, why=said)
    shown = sorted({c for rel in path for c in rel.chapters[:3]})
    if plan.chinese:
        return f"{said}（第{'、'.join(map(str, shown))}回等）。" if shown else f"{said}。"
    return f"{said} (chapters {', '.join(map(str, shown))}…)." if shown else f"{said}."


def relation_lines(plan: QueryPlan, relations: Sequence[Relation], answer: str,
                   gender: Callable[[str], str], say: Callable[[str], str] = str,
                   said_in: Callable[[str], list[Statement]] = lambda text: []) -> list[str]:
    """The relation line; for three people named, one line for each pair the world relates
    (司马师、司马昭和司马懿是什么关系 → 司马师是司马懿的儿子, 司马懿是司马昭的父亲); for two
    that only a third person joins, the line through that person (`path_line`)."""
    if path := linking_path(plan, relations):
        return [path_line(plan, path, gender, say)]
    if len(plan.entities) > 2:
        lines = [relation_line(plan, [r for r in relations if {r.source, r.target} == {a, b}],
                               answer, gender, say, said_in)
                 for a, b in named_pairs(plan.entities)]
        if any(lines):
            return [line for line in lines if line]
    return [relation_line(plan, relations, answer, gender, say, said_in)]


def relation_line(plan: QueryPlan, relations: Sequence[Relation], answer: str,
                   gender: Callable[[str], str], say: Callable[[str], str] = str,
                   said_in: Callable[[str], list[Statement]] = lambda text: []) -> str:
    """The relation that answers the question (`answer` is its other end, if the question asks
    for one), else the best typed relation between the names, each named as `say` names it (an
    English answer: 顾青禾 as Gu Qinghe); '' when there is none. A relation of the wide type
    kin is named by the word of the sentence that states it (`said_in`: Saint-Méran is
    Villefort's father-in-law). That two names share passages says nothing of how they are
    related: a co-occurrence count is no answer, and leading with it ("刘备与刘封——同时出现于
    27段文字") pushed down the sentence that answers (寇封拜玄德为父)."""
    typed = _typed(plan, relations, answer)
    if not typed:
        return ""
    rel = typed[0]
    shown = [str(c) for c in rel.chapters[:6]]
    lang = language("zh" if plan.chinese else "en")
    if plan.chinese:
        where = f"（第{'、'.join(shown)}回等）" if shown else "（据设定集）"
    else:
        where = f" (chapters {', '.join(shown)}…)" if shown else " (declared in the glossary)"
    # sworn brothers who became enemies are both: every typed relation of the same pair
    pair = [r for r in typed if {r.source, r.target} == {rel.source, rel.target}]
    kinds = list(dict.fromkeys(lang.relation_words.get(r.type, r.type) for r in pair))
    if len(kinds) == 1:
        # one relation: say what the one asked about is to the other (Noirtier is Villefort's
        # father), in the word the question would use, not the graph's type (parent of)
        who = next((n for n in (answer, *plan.entities) if n in (rel.source, rel.target)),
                   rel.source)
        whose = rel.target if who == rel.source else rel.source
        end = "source" if who == rel.source else "target"
        # a gender the text does not show is the one the question asks with (Mira's father)
        sex = gender(who) or next((g for g in ("m", "f") if _says(
            plan.question, lang.relative_word(rel.type, end, g))), "")
        genders = {who: sex, whose: gender(whose)}
        if rel.type == "parent_of" and not genders[rel.source] and by_fathers_surname(lang, rel):
            genders[rel.source] = "m"  # 司马懿, father of 司马师: 二人是父子
        who, word = gendered_end(lang, rel, who, genders)
        whose = rel.target if who == rel.source else rel.source
        written = written_kin(rel, said_in)
        # the text's own word when the graph's says less: its kin (father-in-law), which of
        # two siblings is the younger (孙权弟孙翊: 孙翊是孙权的弟弟, not 孙权是孙翊的兄弟), or an
        # adoption (关平是关羽的义子, not 关羽是关平的父亲)
        if written[1] and (not word or seniority(written[1]) or adoptive(written[1])):
            who, word = written[0], lang.spoken_kin.get(written[1], written[1])
            whose = rel.target if who == rel.source else rel.source
        if word:
            said = lang.relative_sentence.format(who=say(who), whose=say(whose), word=word)
            # what the two are together, where the language has a word and it says more than
            # the word said already: 二人是父子 (not 关羽是刘备的结义兄弟，二人是结义兄弟)
            pair_word = lang.pair_word(rel.type, genders[rel.source], genders[rel.target])
            if pair_word and pair_word != word and lang.pair_sentence:
                said += "，" + lang.pair_sentence.format(pair=pair_word)
            return f"{said}{where}。" if plan.chinese else f"{said}{where}."
    listed = ("、" if plan.chinese else ", ").join(kinds)
    if plan.chinese:
        return f"{say(rel.source)}与{say(rel.target)}——关系：{listed}{where}。"
    return f"{say(rel.source)} and {say(rel.target)} — relation: {listed}{where}."


def by_fathers_surname(lang: Language, rel: Relation) -> bool:
    """The parent of a parent_of relation is the father by the language's naming
    (Language.fathers_surname): the child bears the parent's surname."""
    surname = surname_of(rel.source)
    return lang.fathers_surname and bool(surname) and surname == surname_of(rel.target)


def gendered_end(lang: Language, rel: Relation, who: str,
                 genders: dict[str, str]) -> tuple[str, str]:
    """Which end of the relation to say, and its word: `who` (the one asked about), unless the
    text shows no gender for them while it does for the other one (Language.telling_word:
    司马昭是司马懿的儿子, not 司马懿是司马昭的父母). ("", "") when the language has no word."""
    whose = rel.target if who == rel.source else rel.source
    end = "source" if who == rel.source else "target"
    word, turned = lang.telling_word(rel.type, end, genders.get(who, ""), genders.get(whose, ""))
    return ((whose if turned else who), word) if word else ("", "")


def written_kin(relation: Relation, said_in: Callable[[str], list[Statement]]
                ) -> tuple[str, str]:
    """(the one the kin word names, the word) as the first of the relation's passages that
    states it writes them — ("Saint-Méran", "father-in-law") —, ("", "") when none does."""
    pair = {relation.source, relation.target}
    for passage in relation.evidence:
        for s in said_in(passage.text):
            if {s.source, s.target} == pair and s.type == relation.type and s.word:
                return s.told[0], s.word
    return "", ""


def against_seniority(plan: QueryPlan, relation: Relation,
                      said_in: Callable[[str], list[Statement]]) -> bool:
    """The question asks for an elder (or a younger) relative of the one it names and the
    sentence that states the relation makes the other one the opposite: 孙权弟孙翊 says 孙翊 is
    no 哥哥 of 孙权's ("孙权是孙翊的兄弟" answered 孙权的哥哥是谁？)."""
    asked = seniority(plan.question)
    subject = plan.entities[0] if plan.entities else ""
    if not asked or subject not in (relation.source, relation.target):
        return False
    told, word = written_kin(relation, said_in)
    said = seniority(word) if told else ""
    if not said:
        return False
    # the word names the other one (弟 of 孙权's: 孙翊), or the one asked about (孙翊兄孙权)
    return said != asked if told != subject else said == asked


def answering_relation(plan: QueryPlan, relations: Sequence[Relation],
                       answer: str = "") -> Relation | None:
    """The typed relation `relation_line` states, or None."""
    typed = _typed(plan, relations, answer)
    return typed[0] if typed else None


def _typed(plan: QueryPlan, relations: Sequence[Relation], answer: str) -> list[Relation]:
    """The typed relations of someone the question names (or of the answer), the one that
    answers the question first (`answer` is its other end), then those between the entities
    named (declared before stated). Another pair's relation says nothing of the ones asked
    about: "What happened to his father?" (Edmond Dantès's) answered "Mercédès is Albert de
    Morcerf's mother", read among his fiancée's kin (a newcomer's trial on Monte Cristo)."""
    named = set(plan.entities)
    ends = named | {answer} - {""}
    return sorted((r for r in relations if r.type != "co_occurs"
                   and (not ends or {r.source, r.target} & ends)),
                  key=lambda r: (answer not in (r.source, r.target) or not answer,
                                 -len({r.source, r.target} & named), not r.declared))


def _says(question: str, word: str) -> bool:
    """The question uses the word (a whole word, for Latin text)."""
    if not word:
        return False
    if word.isascii():
        return re.search(rf"\b{re.escape(word)}\b", question, re.I) is not None
    return word in question
