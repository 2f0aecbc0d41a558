"""English kinship: the words for relatives and how a sentence states kin ("Noirtier is the
father of Villefort", "his wife", Mercédès married Fernand), read by stores.entities.kinship and
family and by the librarian's relation answers."""

from __future__ import annotations

import re

ROLE_WORDS = {"child": r"child|son|daughter|boy|girl|baby|infant"}
"""A word for a child in a follow-up (the child) → the words next to a name that give it that
role (his son Albert), as an alternation."""
CHILD_NOUNS = ("boy", "girl", "son", "daughter", "baby", "infant")
"""Nouns a follow-up names a child with, besides child (that boy)."""
# A word for kin → (relation type, whether the one the word names is the relation's source):
# "A is the father of B" names A the father, so A parent_of B; "A is the daughter of B" names
# A the daughter, so B parent_of A. Spouse, kin and sworn siblings have no direction.
KIN = {
    **dict.fromkeys(("father", "mother"), ("parent_of", True)),
    **dict.fromkeys(("son", "daughter", "child"), ("parent_of", False)),
    **dict.fromkeys(("wife", "husband", "widow", "bride"), ("spouse", True)),
    # promised, not (yet) married: Mercédès was Edmond's betrothed, and married Fernand
    **dict.fromkeys(("betrothed", "fiancée", "fiancé", "intended"), ("engaged", True)),
    # Bertuccio, the count's steward: the one named serves the other
    **dict.fromkeys(("servant", "maid", "valet", "steward", "footman", "butler", "coachman",
                     "housekeeper", "attendant", "manservant", "man-servant", "maidservant",
                     "maid-servant"), ("serves", True)),
    **dict.fromkeys(("grandfather", "grandmother", "grandpapa", "grandmamma"),
                    ("grandparent_of", True)),
    **dict.fromkeys(("granddaughter", "grandson", "grandchild"), ("grandparent_of", False)),
    **dict.fromkeys(("brother", "sister"), ("sibling", True)),
    **dict.fromkeys(("uncle", "aunt", "nephew", "niece", "cousin", "brother-in-law",
                     "sister-in-law", "father-in-law", "mother-in-law", "son-in-law",
                     "daughter-in-law"), ("kin", True)),
}

KIN_BEFORE_NAME = {"aunt": "f", "uncle": "m", "cousin": "", "grandmamma": "f",
                   "grandpapa": "m"}
"""Kin words a family puts before a relative's name to call them (aunt Norris, my uncle
Gardiner, cousin Edmund), with the gender they give; '': either."""
NAMED_KIN = {**KIN_BEFORE_NAME, "niece": "f", "nephew": "m"}
"""Kin of another family name, bound only where the text names the relative right after the
word ("her aunt Norris", "his cousin Edmund"), with the gender it gives them."""
IN_LAW_KIN = {"father-in-law": "m", "mother-in-law": "f", "brother-in-law": "m",
              "sister-in-law": "f", "son-in-law": "m", "daughter-in-law": "f"}
"""Kin by marriage, with the gender the word gives the one it names; a relation of the wide
type kin keeps the word (Saint-Méran is Villefort's father-in-law)."""
SYMMETRIC_KIN = ("cousin",)
"""Kin words each of the two is to the other: Anne is Mr Elliot's cousin, so he is hers."""

MAIDEN_KIN = ("father", "mother", "brother", "sister")
"""Kin of a married woman's own family, whose name is not her husband's: her father, mother,
brothers and sisters are none of his family (Mary Musgrove's sister is no Miss Musgrove)."""
FAMILY_KIN = {"father": "m", "son": "m", "brother": "m", "husband": "m",
              "mother": "f", "daughter": "f", "sister": "f", "wife": "f"}
"""Kin of one family name (a married woman takes her husband's) → the gender of the one the
word names: "Emma … her father" is a Woodhouse man."""
POSSESSIVE_PRONOUNS = {"his": "m", "her": "f"}
"""The pronouns that say whose kin a word names, with that person's gender."""
NOMINATIVE_PRONOUNS = frozenset(("he", "she"))
"""A person's pronouns as the subject of a clause ("Who told Catherine she had to leave?")."""
SUBJECT_PRONOUNS = {"he": "m", "him": "m", "his": "m", "she": "f", "her": "f"}
"""The pronouns of a person the sentence does not name, with that person's gender."""

AGE_WORDS = frozenset(("old", "young", "elder", "younger", "eldest", "youngest", "little"))
"""Words before a surname that tell one of a family from another (old Dantès is the father)."""

KIN_QUALIFIER = r"(?:(?:own|eldest|elder|younger|youngest|only|single|unmarried|natural|adopted|late|future) )?"

POSSESSIVE = r"['’]s"
"""The possessive ending of a name (Villefort's, Villefort’s)."""
KIN_OWNER = r"\b(?:his|her|their)\s+"
"""A possessive pronoun before a word for kin, whose owner the passage names elsewhere ("His
brother-in-law, Mr. Hurst") (a pattern)."""
COPULA_BEFORE = r"[\s,]*(?:(?:is|was|had been|has been|became)\s+)?$"
"""What may stand between a name and the kin word that names that person ("This Noirtier was
his father": Noirtier is the father, not his son's)."""
LISTED_AFTER = r",?\s+(?:and|or|nor)\b|,\s*[A-Z]"
"""What follows a name in a list of people ("…, Marianne and Margaret", "…, Marianne, Sir
John"), not one apposed to a word for kin (a pattern)."""


CLAUSE_GOES_ON = (r"\s+(?:\w+ly\s+)?(?:was|were|is|are|had|has|have|would|could|should|will"
                  r"|shall|might|must|did|does|said|thought|felt|made|went|came|took|gave|began"
                  r"|seemed|looked)\b")
"""A verb right after a name: the name opens a clause of its own, not an apposition to the kin
word before the comma ("…invitation for his cousin, Mrs. Norris was too much vexed": Fanny,
not Mrs. Norris, is his cousin) (a pattern)."""


RELATIVE_BEFORE = re.compile(
    r"\b(?:his|her|their|its)\s+(?:[a-z]+\s+)?(?:"
    + "|".join(sorted((*KIN, "parent", "relation"), key=len, reverse=True)) + r")s?\s+$", re.I)
"""A relative named by a possessive right before a word (her parents died, his father's death
…): whose death a question tells is theirs, not the person named before ("Who brought Jane
Fairfax up after her parents died?" is no question about Jane's death)."""
UNREAL_BEFORE = re.compile(r"\b(?:wish(?:ed|es)?|if|would|should|could|might|hoped?|rather|"
                           r"whether)\b", re.I)
"""Words before a marriage in its sentence that make it wished or supposed, not made ("We do so
wish that Charles had married Anne instead")."""
ENDEARMENT_BEFORE = r"\b(?:my\s+)?dear(?:est)?\s*$"
"""What a speaker puts before the name of the one they speak to ("My dear Miss Woodhouse, a
vast deal may be done …"): no introduction of who that is (a pattern)."""
FIRST_PERSON = r"\b(?:I|me|my|mine|myself)\b"
"""Words of one who speaks or writes of themself: a sentence that holds them is someone's words
or letter, not the telling that introduces a person (a pattern)."""
MY_KIN = r"\bmy\s+(?:(?:dear|old|poor|good|little)\s+)?"
"""What opens a speaker's own kin, before the qualifier and the word ("my cousin Lucy", "my old
cousin, Mrs. Smith") (a pattern)."""
CALLED_FIRST = r"^\W*(?:(?:oh|ah|well|nay|my\s+dear(?:est)?|dear(?:est)?)\W+)?$"
"""What may open someone's words before the name of the one they are said to ("Oh! Miss
Dashwood, …", "My dear Edward, …") (a pattern, `re.I`)."""
CALLED_AFTER_COMMA = r",\s*(?:(?:my\s+)?dear(?:est)?\s+)?$"
"""What stands before a name said to someone inside their words: a comma ("It is hardly worth
while, Mr. Willoughby, for you to relate") (a pattern, `re.I`)."""
SPOKEN_TO_BEFORE = re.compile(rf"(?:[“\"‘]\s*$|{ENDEARMENT_BEFORE})", re.I)
"""What stands before a name that a character addresses, not introduces: an opening quotation
mark or "my dear" ("My dear Mrs Smith, Mr Elliot's wife has not been dead half a year")."""


def kin_statements(named: str, of: str, a: str, b: str, word: str) -> tuple[str, ...]:
    """How English states kin between two marked names: `named` is the `word` of `of`, or `a`
    married `b` (patterns; the marks and the word group come from the caller)."""
    return (
        # Noirtier is the father of Villefort; Haydée, the daughter of Ali Tepelini
        # (not the brother of Isabella's husband: the kin of someone's kin)
        named + r"[,\s]*(?:(?:who|that|which) )?(?:(?:is|was|being|had been|has been) )?"
        r"(?:(?:the|his|her|their) )?" + KIN_QUALIFIER + rf"\b{word} of (?:the )?" + of
        + rf"(?!{POSSESSIVE} (?:{KIN_QUALIFIER})?(?:[a-z-]+ )?(?:"
        + "|".join(sorted(KIN, key=len, reverse=True)) + r")\b)",
        # Villefort's father, Noirtier
        of + rf"{POSSESSIVE} {KIN_QUALIFIER}{word},?\s+(?:the )?" + named,
        # Noirtier, Villefort's father
        named + r",\s+(?:the )?" + of + rf"{POSSESSIVE} {KIN_QUALIFIER}{word}\b",
        # Mercédès was Fernand's wife; Valentine became Noirtier's sole heiress … (kin words only)
        named + r"\s+(?:is|was|had been|has been|became)\s+(?:now\s+)?" + of
        + rf"{POSSESSIVE} {KIN_QUALIFIER}{word}\b",
        # The name of Edmond's betrothed was Mercédès; Valentine's grandfather is Noirtier
        of + rf"{POSSESSIVE} {KIN_QUALIFIER}{word}\s+(?:was|is)\s+(?:the )?" + named,
        # Noirtier tenderly loves his granddaughter, Valentine: the subject's kin, named after
        # a few lower-case words (a comma or dash between: I love my sister Julie,—I love her
        # husband Emmanuel) and his or her; not a name "the" makes a word of a place or thing
        # ("rode north up the Ambrel valley with her brother Tobin": a writer's own world)
        r"(?<!\bthe )(?<!\bThe )" + of
        + r"[\s,;—–]+(?:(?:[a-z]+|I)[\s,;—–]+){1,4}(?:his|her)\s+" + KIN_QUALIFIER
        + rf"{word},?\s+(?:the )?" + named,
        # Fernand married Mercédès; Julie was married to Emmanuel. Not "the marriage of A and
        # B": a novel names that way a marriage planned, hoped for or broken off as often as one
        # made ("the marriage of Valentine and Franz would be broken off")
        a + r"\s+(?:(?:had|has) )?(?:(?:was|is|had been|has been|were) )?(?:married|wed)"
        r"(?: to| with)?\s+" + b,
    )
