"""Which parent a family's kin words leave a child, where several readings bind one: a parent a
sentence names otherwise (one_parent_each), the parent both ends' words bind (reciprocal_kin:
Mr. Weston's "his son" is Frank, Frank's "his father" Mr. Weston; one_parent_by_both_words)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from stores.entities.family import AGREEING, Families, family_name, kin_mentions
from stores.entities.kinship import DIRECTED
from stores.lang import en


def one_parent_each(family: dict[tuple[str, str, str], list[tuple[str, int]]],
                    stated: dict[tuple[str, str, str], list[tuple[str, int]]],
                    told: dict[str, Counter[str]], families: Families,
                    ) -> dict[tuple[str, str, str], list[tuple[str, int]]]:
    """The family's kin without a parent the text names otherwise: where a sentence names
    someone else the child's mother ("poor Renée, Valentine's mother"), the family's married
    woman is no mother of hers (Madame de Villefort, her stepmother). A gender is the one the
    kin words give the name most (`told`), else its titles'."""
    def gender(name: str) -> str:
        said = told.get(name)
        return said.most_common(1)[0][0] if said else families.gender.get(name, "")

    named = {(child, gender(parent)) for parent, child, kind in stated if kind == "parent_of"}
    fathers: dict[str, set[str]] = {}
    for parent, child, kind in [*stated, *family]:
        if kind == "parent_of" and gender(parent) == "m":
            fathers.setdefault(child, set()).add(parent)

    def not_his_wife(mother: str, child: str) -> bool:
        """The child's father goes by another family name than the woman the child's own name
        bound: Frank Churchill's father is Mr. Weston, so Mrs. Churchill is not his mother."""
        theirs = families.families.get(mother, set())
        return bool(theirs) and any(
            (his := family_name(father)) and his not in theirs for father in fathers.get(child, ()))

    return {key: where for key, where in family.items()
            if key[2] != "parent_of" or not gender(key[0])
            or (key[0], key[1], "parent_of") in stated
            or ((key[1], gender(key[0])) not in named
                and not (gender(key[0]) == "f" and not_his_wife(key[0], key[1])))}


_PARENTS = frozenset(("father", "mother"))
RECIPROCAL = {"son": ("father", "mother"), "daughter": ("father", "mother"),
              "father": ("son", "daughter"), "mother": ("son", "daughter"),
              "brother": ("brother", "sister"), "sister": ("brother", "sister"),
              "husband": ("wife",), "wife": ("husband",)}
"""A word for kin → the words the one it names has for the owner (his son: her father)."""
TOGETHER_SHARE = 1 / 3
"""The share of the passages where one calls someone "his son" and no family name says whom,
that must name the same person (`reciprocal_kin`)."""


def reciprocal_kin(chunks: Iterable[tuple[str, int, str, list[tuple[int, int, str]]]],
                   families: Families,
                   ) -> dict[tuple[str, str, str], list[tuple[str, int]]]:
    """Kin no family name binds (or a parent, which a family name may bind to the wrong man:
    `one_parent_by_both_words`), bound by both ends' words: where Mr. Weston speaks of "his
    son", Frank Churchill is named (in 9 of 14 passages), and where Frank speaks of "his
    father", Mr. Weston is (Frank bears his uncle's name, so the family names say nothing); a
    married daughter's "her mother" and her mother's "her daughter" alike. Each end's word must
    name the other more often than anyone else, in AGREEING passages or more and in at least
    TOGETHER_SHARE of those where the word is unbound; the passages where both are named are
    the evidence. (source, target, type) → (chunk id, chapter), as `family_relations` gives."""
    unbound: Counter[tuple[str, str]] = Counter()
    named_with: dict[tuple[str, str], Counter[str]] = {}
    where: dict[tuple[str, str, str], list[tuple[str, int]]] = {}
    passages: Counter[str] = Counter()  # how many passages name each person
    total = 0
    for chunk_id, chapter, text, spans in chunks:
        present = {name for *_, name in spans if name in families.gender}
        passages.update(present)
        total += 1
        for owner, word in {(o, w) for o, w, *_ in kin_mentions(text, spans, families)
                            if w in en.FAMILY_KIN}:  # kin of one family name only
            if word not in _PARENTS and families.relative(owner, word, present):
                continue  # a family name binds it (a father it binds may be an uncle's name)
            unbound[(owner, word)] += 1
            for person in present - {owner}:
                if families.gender[person] in ("", en.FAMILY_KIN[word]):
                    named_with.setdefault((owner, word), Counter())[person] += 1
                    where.setdefault((owner, word, person), []).append((chunk_id, chapter))

    def calls(owner: str, word: str) -> str:
        """The one person the owner's word names, by the passages (`reciprocal_kin`): the one
        named there most often for how often the book names them at all (the heroine, named
        in most passages, is no one's kin for being there too)."""
        people = named_with.get((owner, word), Counter())
        lift = sorted(((count * total / passages[person], person) for person, count in
                       people.items() if count >= AGREEING
                       and count >= TOGETHER_SHARE * unbound[(owner, word)]), reverse=True)
        if not lift or (len(lift) > 1 and lift[1][0] == lift[0][0]):
            return ""
        return lift[0][1]

    found: dict[tuple[str, str, str], list[tuple[str, int]]] = {}
    for owner, word in named_with:
        other = calls(owner, word)
        back = [w for w in RECIPROCAL.get(word, ())
                if families.gender[owner] in ("", en.FAMILY_KIN[w])]
        if not other or not any(calls(other, w) == owner for w in back):
            continue
        kind, named_is_source = en.KIN[word]
        source, target = (other, owner) if named_is_source else (owner, other)
        if kind not in DIRECTED:
            source, target = sorted((source, target))
        evidence = where[(owner, word, other)] + [
            w for b in back for w in where.get((other, b, owner), [])]
        found[(source, target, kind)] = sorted(set(evidence), key=evidence.index)
    return found


def one_parent_by_both_words(family: dict[tuple[str, str, str], list[tuple[str, int]]],
                             mutual: dict[tuple[str, str, str], list[tuple[str, int]]],
                             families: Families,
                             ) -> dict[tuple[str, str, str], list[tuple[str, int]]]:
    """A child's parent both ends' words bind (`reciprocal_kin`: Mr. Weston's "his son" is
    Frank, Frank's "his father" Mr. Weston) is the one of that gender: the family's man a
    family name bound instead is another relative who shares the child's name (Frank Churchill
    bears his uncle's, Mr. Churchill's)."""
    both = {(child, families.gender.get(parent, "")) for parent, child, kind in mutual
            if kind == "parent_of"}
    return {key: where for key, where in family.items()
            if key[2] != "parent_of" or key in mutual
            or (key[1], families.gender.get(key[0], "")) not in both}
