"""English: the words and forms the rules read English text with, one table per concept."""

from __future__ import annotations

import re

from stores.lang import Language
from stores.lang.en_titles import (  # given on: callers read them as en.X
    ADDRESS_TITLES,  # noqa: F401
    BECAME_WIFE,  # noqa: F401
    COMMON_TITLES,  # noqa: F401
    ELDEST_DAUGHTER_TITLES,  # noqa: F401
    KNIGHTED_TITLES,  # noqa: F401
    MAIDEN_THAT_WAS,  # noqa: F401
    MARRIED_TITLES,  # noqa: F401
    NAME_TITLES,  # noqa: F401
    NOT_YET,  # noqa: F401
    PARTICLES,  # noqa: F401
    PLACE_TITLES,
    SAME_PERSON,  # noqa: F401
    SAME_RANK,  # noqa: F401
    SERVICE_RANKS,  # noqa: F401
    TITLES_AFTER,  # noqa: F401
    UNDOTTED,  # noqa: F401
    UNMARRIED_TITLES,  # noqa: F401
    WIFE_BY_HIS_NAME,  # noqa: F401
    WIFE_RANK_TITLES,  # noqa: F401
    WIFE_TITLES,  # noqa: F401
)

# -- names: aliases, capitalised names, titles, pet names, speech and places ----------------------
_CAP = r"[A-Z][\w'’-]*"

_NAME = rf"{_CAP}(?:\s+(?:(?:de|du|d'|d’|van|von|la|le)\s*)?{_CAP}){{0,3}}"

KNOWN_AS = re.compile(
    rf"\b(?P<name>{_NAME}),\s+(?:also\s+)?(?:known\s+as|called|nicknamed|surnamed)\s+"
    rf"(?P<alias>{_NAME})"  # "known as the King of …" is a title, not a name: no "the"
    rf"|\b(?P<name2>{_NAME})(?:\s+(?:is|was)\s+(?:the|a|an|our|my)\s+[a-z][a-z\s'’-]{{0,40}}?)?"
    rf",?\s+whom\s+(?:I|we|he|she|they|everybody|everyone|people)\s+(?:had\s+)?"
    rf"(?:nicknamed|named|called|dubbed)\s+(?:him\s+|her\s+)?(?P<alias2>{_NAME})"
)
"""A name and another it is known by: "Peppino, called Rocca Priori"; "Mr. Yoshikawa is the
teacher of drawing whom I had nicknamed Clown"."""

CAPITALISED_WORD = r"[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ'’]+(?:-[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ]+)?"

# Capitalised words that start sentences or are not names in running text.
_NOT_NAME_TEXT = """
I A An The This That These Those He She It We You They His Her Its Our Your Their Him Them
Me My Mine Who Whom Whose What Which When Where Why How But And Or Nor For So Yet If Then
Thus Though Although While As At By In Of On To Up With From Into Upon Out Over After Before
No Not Yes Oh Ah Well Now Here There Still Yet Only Even All Some Any Each Every One Two
Chapter Volume Book Part Mr Mrs Sir Madam Monsieur Madame Mademoiselle God Heaven Good Very Esq
Let Do Does Did Is Are Was Were Be Been Have Has Had Will Would Shall Should May Might Must Can
Could Such Just Nothing Everything Something Perhaps Indeed Certainly Besides However Why
Alas Listen Tell Give Everyone Another Tis Am Five Six Three Four Ten Come Go See Look Pray
January February March April June July August September October November December
Monday Tuesday Wednesday Thursday Friday Saturday Sunday
French English Italian Spanish Greek Roman Parisian Corsican Catalan Catalans Englishman
Frenchman Parisians Genoese Venetian Arabian Nubian Spaniards Christian American British
Count Countess Baron Baroness Captain Colonel Abbé Signor Signora Lord Lady Miss Father
Mother Mama Mamma Papa Grandmamma Grandpapa
Rue Place Island Providence Excellency Majesty Highness Sire Ladyship Lordship
"""

NOT_NAMES = frozenset(_NOT_NAME_TEXT.split())

# First words that describe rather than name (Old Dantès, Poor Dantès).
DESCRIBERS = frozenset({"Old", "Young", "Little", "Poor", "Dear", "Good", "Great"})

PET_NAMES = {
    **dict.fromkeys(("Lizzy", "Lizzie", "Eliza", "Liz", "Bess", "Betsy", "Betty"), "Elizabeth"),
    **dict.fromkeys(("Kitty", "Kate", "Katie"), "Catherine"),
    **dict.fromkeys(("Polly", "Molly", "Mamie"), "Mary"),
    **dict.fromkeys(("Peggy", "Meg", "Maggie"), "Margaret"),
    **dict.fromkeys(("Jack", "Johnny"), "John"),
    **dict.fromkeys(("Bill", "Billy", "Will", "Willy"), "William"),
    **dict.fromkeys(("Bob", "Bobby"), "Robert"),
    **dict.fromkeys(("Tom", "Tommy"), "Thomas"),
    **dict.fromkeys(("Jim", "Jimmy", "Jem"), "James"),
    **dict.fromkeys(("Harry", "Hal"), "Henry"),
    "Sally": "Sarah", "Fanny": "Frances", "Patty": "Martha", "Dolly": "Dorothy",
    "Nancy": "Anne", "Dick": "Richard", "Ned": "Edward", "Teddy": "Edward", "Charlie": "Charles",
    "Fred": "Frederick", "Sam": "Samuel", "Ben": "Benjamin", "Nick": "Nicholas",
}
"""English pet names (hypocorisms) and the given name each is formed from."""

_GIVEN_NAME_TEXT = """
Abraham Adam Agnes Albert Alexander Alfred Alice Amelia Amy Andrew Ann Anna Anne Annie Anthony
Arabella Arthur Augusta Augustus Barbara Bartholomew Beatrice Bridget Caroline Cecilia Cecily
Charles Charlotte Christopher Clara Clarissa Constance Daniel David Diana Dorothea Edgar Edith
Edmund Edward Edwin Eleanor Elinor Eliza Elizabeth Ellen Emily Emma Esther Evelyn Francis
Frank Frederick Geoffrey George Georgiana Gerald Gilbert Hannah Harriet Hector Helen
Henrietta Henry Herbert Hester Horace Hugh Isaac Isabel Isabella Jacob James Jane Jemima Joan
John Jonathan Joseph Josephine Judith Julia Juliet Kate Laura Lavinia Leonard Lewis Louisa
Lucy Lydia Mabel Margaret Maria Marianne Martha Mary Matilda Matthew Michael Miriam Nathaniel
Nicholas Olivia Oliver Patrick Penelope Peter Philip Phoebe Rachel Ralph Rebecca Richard
Robert Rosamond Ruth Samuel Sarah Selina Sophia Sophy Stephen Susan Susanna Thomas
Timothy Walter William
"""
GIVEN_NAMES = frozenset(_GIVEN_NAME_TEXT.split()) | frozenset(PET_NAMES) | frozenset(
    PET_NAMES.values())
"""Common English given names: a name the text writes alone, or first in a full name, that is
one of them is a person's (Fanny, Nancy, Elizabeth Martin), though no title or verb of speech
says so."""

AT_PLACE = re.compile(r"\b(?:in|at|from|near|towards?|through|into|leave|left|reach(?:ed)?"
                       r"|quit(?:ted)?)\s+(?:the\s+)?$", re.I)

SAYS = "said|replied|cried|asked|exclaimed|answered|whispered|shouted|murmured|inquired"
"""Verbs of speech that only a person is the subject of, whichever side of the name."""

SAYS_AFTER_QUOTE = SAYS + "|continued|returned|added|resumed|observed|rejoined|interrupted|repeated"
"""… and those that are speech only right after a quote (“…,” returned Morrel; the Pharaon
returned to port)."""

SAYS_AFTER_QUOTE_PATTERN = re.compile(rf"[,!?—]\s*[”\"’']\s*(?:{SAYS_AFTER_QUOTE})\s+(?:the\s+)?$", re.I)

SAYS_BEFORE = re.compile(rf"\s+(?:{SAYS})\b", re.I)

_STOPWORD_TEXT = """
a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further
had has have having he her here hers herself him himself his how i if in into is it its itself
just me more most my myself no nor not now of off on once only or other our ours ourselves out
over own same she should so some such than that the their theirs them themselves then there
these they this those through to too under until up very was we were what when where which
while who whom why will with would you your yours yourself yourselves s t d ll m o re ve y
"""

STOPWORDS: frozenset[str] = frozenset(_STOPWORD_TEXT.split())

# Words that make a multi-word alias unsafe to match case-insensitively.
_COMMON_TEXT = """
the a an of and or in on at to for with by from de du des la le d' d’ van von di da del
old young little great good poor dear father mother brother sister uncle aunt son daughter
king queen prince princess lord lady sir mr mrs ms miss dr st m. mme. mlle. monsieur madame
mademoiselle count countess baron baroness captain colonel general doctor abbé signor
"""

COMMON_NAME_WORDS = frozenset(_COMMON_TEXT.split())


# -- kinship: words for relatives and how a sentence states kin -----------------------------------
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
                     "housekeeper"), ("serves", True)),
    **dict.fromkeys(("grandfather", "grandmother"), ("grandparent_of", True)),
    **dict.fromkeys(("granddaughter", "grandson", "grandchild"), ("grandparent_of", False)),
    **dict.fromkeys(("brother", "sister"), ("sibling", True)),
    **dict.fromkeys(("uncle", "aunt", "nephew", "niece", "cousin", "brother-in-law",
                     "sister-in-law", "father-in-law", "mother-in-law", "son-in-law",
                     "daughter-in-law"), ("kin", True)),
}

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


UNREAL_BEFORE = re.compile(r"\b(?:wish(?:ed|es)?|if|would|should|could|might|hoped?|rather|"
                           r"whether)\b", re.I)
"""Words before a marriage in its sentence that make it wished or supposed, not made ("We do so
wish that Charles had married Anne instead")."""
SPOKEN_TO_BEFORE = re.compile(r"(?:[“\"‘]|\b(?:my\s+)?dear(?:est)?)\s*$", re.I)
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
        # husband Emmanuel) and his or her
        of + r"[\s,;—–]+(?:(?:[a-z]+|I)[\s,;—–]+){1,4}(?:his|her)\s+" + KIN_QUALIFIER
        + rf"{word},?\s+(?:the )?" + named,
        # Fernand married Mercédès; Julie was married to Emmanuel. Not "the marriage of A and
        # B": a novel names that way a marriage planned, hoped for or broken off as often as one
        # made ("the marriage of Valentine and Franz would be broken off")
        a + r"\s+(?:(?:had|has) )?(?:(?:was|is|had been|has been|were) )?(?:married|wed)"
        r"(?: to| with)?\s+" + b,
    )

# -- places, titles and things in an answer (the librarian's follow-up phrases) --------------------
LOCATIVE = r"\b(?:in|at|into|inside|near|from|towards?|reached|reach)\s+(?:(?:the|this|that)\s+)?$"
"""What stands before a place (in the, near, reached …), at the end of a text (a pattern)."""
LOOK_AT = (r"\b(?:look(?:ed|ing)?|glanc\w*|star\w*|gaz\w*|smil\w*|laugh\w*|aim\w*|"
           r"point\w*|nodd\w*|shout\w*|arriv\w*|angry|surprised|amazed)\s+at\s+$")
"""'at' that is no place: looked at, smiled at, angry at (a pattern)."""
PLACE_PARTICLE = r"(?:of|de|du|des|la|le|di|del|d’|d'|the)"
"""A small word inside a place's name (Château d’If, Isle of Elba) (a pattern)."""
DEFINITE = "the|this|that"
"""What a named place is introduced with (the Château d’If, this island)."""
PLACE_TAILS = ("Abbey", "Castle", "Manor", "Priory", "Rectory", "Vicarage", "Parsonage", "Cottage",
               "Street", "Square", "Road", "Bridge", "Cathedral", "Palace", "Gardens", "Terrace",
               "Crescent", "Common", "Hall", "Park", "Lodge", "Grange", "Farm", "Buildings")
"""Words that end a place's name and hardly anyone's surname (Donwell Abbey, Brunswick Square,
Kellynch Hall, Mansfield Park, Westgate Buildings: an estate's "Hall" is no person's)."""
PLACE_HEADS = ("Château", "Chateau", "Fort", "Castle", "Isle", "Island", "Mount", "Mont", "Port",
               "Cape", "Gulf", "Lake", "River", "Bay", "Pont", "Rue", "Hôtel", "Hotel", "Palace",
               "Church", "Abbey", "Tower", "Prison", "Inn", "Bridge", "Street", "Place", "Quai",
               "Boulevard", "Villa", "Cathedral", "Monastery", "Convent", "Forest", "Valley",
               "Harbour", "Harbor", "Café", "Cafe", "Restaurant", "Theatre", "Théâtre", "Theater",
               "Opera", "Opéra", "Hospital", "College", "Academy", "Museum", "Square", "Avenue",
               "Market", "Chapel", "Temple", "Gardens")
"""Words a place's name begins with (the Château d’If, Fort Saint-Nicolas)."""
PLACE_NOUN_AFTER = (r"^\s+(?:inn|hotel|house|bridge|prison|fortress|island|castle|"
                    r"church|tavern|estate|harbour|harbor|port|quay|road|street)\b")
"""A place noun after a name (the Morrel house, the Pont du Gard bridge) (a pattern)."""
TITLES_ALONE = {
    "m": "Count|Baron|Abbé|Abbe|Captain|General|King|Prince|Duke|Marquis|Emperor|Pope|Cardinal|"
         "Major|Colonel|Doctor|Governor|Mayor|Lord|Sultan|Pasha|Vizier|Earl|Viscount",
    "f": "Countess|Baroness|Queen|Princess|Duchess|Marquise|Empress|Lady",
}
"""Titles that name a person alone (the Count, the Queen), by gender, as alternations."""
NOT_PLACE_TEXT = ("I He She It They We You His Her Its Their My Your Our The This That What Who "
                  "When Where Why How Yes No Oh Ah Sir Madame Monsieur M.")
"""Capitalised words that begin no place name (after 'in': In He …), space-separated."""
DETERMINERS = "a|an|the|one|his|her|their|its|some"
"""What a noun phrase an answer leads with begins with (A diamond, His sword)."""
POINTING_DETERMINERS = "a|an|the|this|that|his|her|their|its"
"""What a phrase naming a thing begins with (a beautiful diamond, that sword)."""
NOT_THING_TEXT = ("man woman men women boy girl child son daughter father mother husband wife "
                  "brother sister friend person people one end time day way")
"""Nouns an answer leads with that are no thing to follow up on (A man …), space-separated."""

CHAPTER_CITED = r"(?:(?:in|see also)\s+)?chapter\s+\d+(?:\s*\([^)]*\))?"
"""A chapter an answer cites (see also chapter 3 (…)), to be taken out of what it says."""

# -- chapters and scenes --------------------------------------------------------------------------
ONE_AS_PRONOUN = (r"one(?=\s*[,.;:!?\"”)]|\s+(?:of|another|who|which|that|by|after|and|or|but"
                  r"|is|was|has|had|would|could|should|must|may|might|can|will|does|did|day"
                  r"|night|morning|evening|thing|another)\b)")
""""one" standing for a thing or a person, not counting (If he finds one, …; one of them)."""
NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}

CHAPTER_HEADING = re.compile(
    r"^(?:chapter|chap\.)\s+(\d+|[ivxlcdm]+|[a-z]+(?:-[a-z]+)?)\b\.?"
    r"(?:\s*[:.\-—–]\s*|\s+|$)(.*)$", re.IGNORECASE)

# Book-division lines ("VOLUME ONE", "BOOK II.") sit between chapters and carry no story text.
VOLUME_HEADING = re.compile(r"^(?:VOLUME|BOOK|PART)\s+([IVXLC]+|\d+|[A-Z]+(?:[- ][A-Z]+)?)\.?$")

SCENE_HEADINGS = (
    re.compile(r"^\[\s*scene\s*[:：]\s*(?P<title>[^\]]*)\]$", re.IGNORECASE),
    re.compile(r"^(?P<title>(?:INT|EXT|INT\./EXT|I/E)\.\s.*)$"),
)
"""Scene headings of an English script: [Scene: …], INT. / EXT. lines."""

# -- glossaries -----------------------------------------------------------------------------------
ENTITY_TYPE_WORDS: dict[str, tuple[str, ...]] = {
    "person": ("person", "character", "char", "npc", "people", "human"),
    "place": ("place", "location", "loc", "city", "region", "area"),
    "faction": ("faction", "organization", "organisation", "org", "group", "guild", "clan",
                "kingdom", "nation"),
    "item": ("item", "object", "artifact", "artefact", "weapon"),
    "event": ("event", "battle"),
    "other": ("other", "misc", "concept"),
}
"""Words glossaries and lorebooks use for each entity type."""

# -- conversations: other sessions, genders, pronouns ---------------------------------------------
OTHER_SESSIONS = (r"last time|another session|other sessions?|previous sessions?"
                  r"|earlier sessions?|other conversations?")
"""Words with which a user asks to recall other sessions of the world too."""

FEMALE_TITLE_WORDS = frozenset((
    "madame", "mme", "mme.", "mlle", "mlle.", "mademoiselle", "miss", "mrs", "mrs.", "lady",
    "countess", "baroness", "mistress", "queen", "princess", "duchess", "marquise", "signora",
    "sister"))
"""Lowercased titles and forms of address that say a woman (Miss Vance, Queen …)."""
MALE_TITLE_WORDS = frozenset((
    "m.", "monsieur", "mr", "mr.", "sir", "lord", "count", "baron", "captain", "abbé", "abbe",
    "general", "king", "prince", "duke", "marquis", "father", "signor", "major", "colonel", "dr",
    "dr.", "doctor", "master"))
"""Lowercased titles and forms of address that say a man (Mr. Shen, Count …)."""
FEMALE_DESCRIPTION = r"\b(?:daughter|wife|mother|woman|girl|widow|sister|she|her)\b"
"""Words that describe a woman."""
MALE_DESCRIPTION = r"\b(?:son|husband|father|man|boy|brother|he|his|him)\b"
"""Words that describe a man."""
FEMALE_KIN = "wife|daughter|mother|sister|widow|bride|aunt|niece|grandmother|granddaughter|fiancée"
MALE_KIN = "husband|son|father|brother|uncle|nephew|grandfather|grandson|fiancé"
"""Kin words of a woman and of a man."""


def kin_before_name(words: str) -> str:
    """Pattern of one of the kin `words` said of the name right after it (her daughter Haydée,
    the old father, Louis; my mother, who was called Vasiliki)."""
    # no comma alone between: "his father, Mercédès, Fernand" is a list
    return (rf"\b(?:his|her|their|my|your|the)\s+(?:[a-z]+\s+)?(?:{words})"
            r"(?:,?\s+(?:who\s+(?:was|is)\s+)?(?:called|named))?\s+$")


def kin_after_name(words: str) -> str:
    """Pattern of one of the kin `words` said of the name right before it (Vasiliki, his
    beloved wife)."""
    # and the apposition ends there: "Mercédès, his father, Fernand" is a list
    return (rf"^,\s+(?:his|her|their|my|your|the)\s+(?:[a-z]+\s+)?(?:{words})"
            r"(?=\s*[.;:!?”’]|,\s+[a-z]|\s+(?:of|who|whom|whose)\b)")


SHE = r"\b(?:she|her|hers|herself)\b"
HE = r"\b(?:he|him|his|himself)\b"
CHAPTER_REFERENCE = r"\b(?:chapters?|ch\.)\s*\d+(?:\s*(?:,|and|to|–|-)\s*(?:and\s+)?\d+)*"
"""Where in the story, not a claim about it: chapter 8, chapters 8, 9 and 10, ch. 7."""
SPEAKS = r",?\s*(?:\w+ly\s+)?(?:said|says|cried|replied|answered|asked|exclaimed|continued|added)\b"
"""A name followed by how it speaks (Darcy said, Mrs. Bennet cried): the one who says the words."""
SENTENCE_END = ".!?"
"""The marks that end an English sentence."""

# -- questions, and the Language the shared rules read --------------------------------------------
IDENTITY_QUESTION = r"^(?:who|what)\s+(?:is|was)\s+(?P<x>.+?)\s*[?.!]*$"
"""A question asking who or what something is (Who was the stranger?): the thing is group x."""
NUMBER_SCALES = ("hundred", "thousand", "million")
"""Words that scale a number (two hundred, forty thousand)."""
QUERY_FILLER = (r"\b(who|whom|whose|what|which|when|where|why|how|does|did|do|is|was|were|are|the|"
                r"a|an|of|in|to|chapter|happen(?:s|ed)?|name|called)\b")
"""The question words and fillers a content search leaves out of a question (the librarian)."""
ABOUT_THE_BOOK = (
    r"\b(?:at|in|by|near|towards?) the (?:very )?(?:start|beginning|end|opening|close) of the "
    r"(?:novel|book|story)\b|\b(?:in|of) the (?:novel|book|story)\b|\bthe (?:novel|book|story)\b")
"""Words about the book rather than in it (at the start of the novel): a story never calls
itself a novel, so a search for them finds only noise."""

DEATH_WORDS = ("died", "dead", "death", "killed", "poison", "perished", "buried", "grave", "corpse",
               "suicide")
"""Ways a story says someone died."""

PERSON_NOUNS = (
    "man", "woman", "person", "girl", "boy", "child", "lady", "gentleman", "friend",
    "father", "mother", "son", "daughter", "brother", "sister", "uncle", "aunt", "cousin",
    "nephew", "niece", "wife", "husband", "widow", "suitor", "lover", "heir", "heiress",
    "servant", "maid", "cook", "nurse", "governess", "housekeeper", "steward", "butler",
    "valet", "footman", "coachman", "porter", "page", "landlady", "landlord", "guest",
    "visitor", "stranger", "neighbour", "neighbor", "companion", "colleague", "rival", "enemy",
    "teacher", "master", "mistress", "student", "pupil", "scholar", "doctor", "priest",
    "clergyman", "abbé", "abbot", "monk", "nun", "bishop", "lawyer", "judge", "magistrate",
    "clerk", "merchant", "banker", "sailor", "soldier", "officer", "general", "captain",
    "colonel", "lieutenant", "sergeant", "commander", "admiral", "guard", "prisoner", "bandit",
    "thief", "murderer", "king", "queen", "prince", "princess", "emperor", "empress", "duke",
    "duchess", "count", "countess", "baron", "baroness", "lord", "knight", "minister", "mayor",
    "principal", "headmaster", "messenger", "fisherman", "peasant", "farmer", "poet", "painter",
    "hero", "heroine", "character", "disciple", "apprentice", "follower", "retainer",
    "swordsman", "warrior", "hunter", "witch", "wizard", "giant", "dwarf",
    # trades and callings a novel names its people by (Mr. Perry, the apothecary)
    "apothecary", "surgeon", "physician", "vicar", "rector", "curate", "parson", "chaplain",
    "attorney", "solicitor", "notary", "gardener", "shopkeeper", "tradesman", "innkeeper",
    "schoolmaster", "schoolmistress", "tutor", "secretary", "baker", "butcher", "blacksmith",
    "tailor", "shoemaker", "carpenter", "miller", "shepherd", "sheriff", "smuggler", "jailer",
    "gaoler", "inspector", "governor", "boatman", "fisherwoman", "milliner", "dressmaker",
    # what a family or a household calls someone (which orphan, which of the tenants)
    "orphan", "widower", "bride", "bridegroom", "fiancé", "fiancée", "tenant", "ward",
    "godmother", "godfather", "grandfather", "grandmother", "grandson", "granddaughter",
    "stepmother", "stepfather", "patron", "patroness", "protégé", "partner",
)
"""Nouns for a person that "which …" asks for (which teacher, which of her aunts): a person,
as who asks."""
PLACE_NOUNS = (
    "city", "town", "village", "place", "country", "province", "county", "island", "fortress",
    "castle", "palace", "prison", "house", "estate", "inn", "hotel", "tavern", "temple",
    "church", "abbey", "convent", "monastery", "school", "street", "road", "port", "harbour",
    "harbor", "river", "lake", "sea", "mountain", "hill", "valley", "forest", "cave", "grotto",
    "garden", "park", "room", "chamber", "shop",
)
"""Nouns for a place that "which …" asks for (which great house, in which fortress)."""


_NOT_VERB = r"(?!(?:did|does|do|is|was|were|has|had|will|would|could|can|should)\b)"
_OWNER = r"(?:the|his|her|their|its|my|your|our|two|three|[\w'’-]+['’]s?)\s+"


def _which(nouns: tuple[str, ...], group: str = "") -> str:
    """ "which" (or "what") asking for one of `nouns`: which teacher, which Bennet sister,
    which of Elizabeth's aunts, which of the two teachers, in which nearby town. `group` names
    the noun's group."""
    noun = "|".join(nouns)
    named = f"?P<{group}>" if group else "?:"
    return (rf"\bwhich\s+(?:of\s+{_OWNER}(?:{_OWNER})?)?(?:{_NOT_VERB}[\w'’-]+\s+)?({named}{noun})"
            rf"(?:s|es)?\b|\bwhat\s+(?:{noun})\b")


ASKED_NOUN = _which(PERSON_NOUNS + PLACE_NOUNS, "noun")
"""The noun a "which" question asks for (which teacher → teacher, which of her aunts → aunt)."""


def described_as(noun: str, forms: str) -> str:
    """A name (`forms`, an alternation of its spellings) called by a noun beside it: Koga,
    teacher of English; the banker Danglars; her aunt, Mrs. Gardiner; Mrs. Gardiner, her aunt."""
    nouns = rf"{noun}(?:e?s)?"
    return (rf"\b(?:{forms})\b(?:[\s,]+[\w'’-]+){{0,3}}?[\s,]+{nouns}\b"
            rf"|\b{nouns}(?:[\s,]+[\w'’.-]+){{0,2}}?[\s,]+(?:{forms})\b")


INVERTED_ASKING = r"\s+(?:did|does|do|had|has|have|will|would|could|should)\b"
"""What follows the question word of an object question (Whom did Vampa capture?): the one
asked for is acted on, so the story tells it after the question's words (Vampa captured
Danglars)."""


QUESTION_WORDS = {
    "who": r"\bwho\b|\bwhom\b|\bwhose\b|\bname\b|\bwhich one\b|" + _which(PERSON_NOUNS),
    "person_named": r"\bwho\b|\bwhom\b|" + _which(PERSON_NOUNS),
    "many": r"\bwho were\b|\bwho are\b|\bwhich (?:two|three)\b|\ball (?:of )?(?:his|her|their|the)\b",
    "where": r"\bwhere\b|" + _which(PLACE_NOUNS),
    "what": r"\bwhat\b|\bwhich\b",
    "which_chapter": r"\bwhich chapter\b|\bwhat chapter\b",
    "dies": r"\bdie[ds]?\b|\bdeath\b",
    "manner": r"\bhow\b(?!\s+(?:many|much|old|long|far|often|soon))",
    "number": r"\bhow (?:many|much|old|long|far)\b|\bwhat (?:year|age|sum|number)\b",
    "name_part": r"\b(?:first|christian|given|maiden|last|family|middle|pet)\s+name\b"
                 r"|\b(?:surname|nickname)\b",
}
"""The words that ask each kind of question (who: who, whom, which man; many: who were …;
name_part: a part of someone's own name, which is a word, not someone)."""

KIN_WORDS = ("father", "son", "mother", "daughter", "wife", "husband", "married", "brother",
             "sister", "uncle", "nephew", "grandfather", "granddaughter", "grandson", "cousin",
             "master", "servant", "betrothed", "aunt", "niece", "grandmother", "stepmother",
             "brother-in-law", "sister-in-law", "guardian", "governess", "engaged")
"""Words for how two people are related, searched within a pair's passages."""
_ARTICLE = re.compile(r"^the\s+", re.I)


def without_article(name: str) -> str:
    """A name as the world may know it without its article: the Marquis → Marquis."""
    return _ARTICLE.sub("", name)


DIED_AFTER_NAME = (r"(?:\s+(?:was|had been|is|lay|fell))?\s+(?:dead|died|expired|killed|murdered"
                   r"|slain|shot himself|shot herself|killed himself|killed herself)\b")
"""What tells, right after a name, that its bearer died (Caderousse was dead, Morcerf shot
himself) (a pattern)."""
PRONOUN_DIED = (r"^(?:He|She)" + DIED_AFTER_NAME
                + r"(?=\s*(?:[.,;!]|$)|\s+(?:in|at|on|of|that|before|after|with|without)\b)")
"""A sentence that tells, by a pronoun, that someone died (He was dead.): whose, the sentence
before says (a pattern)."""
DYING_WORDS = (*DEATH_WORDS, "murdered", "shot", "drowned", "hanged", "stabbed", "strangled",
               "dies", "die")
KILLING_MANNERS = ("poison", "stab", "shot", "shoot", "kill", "murder", "drown", "hang", "strangl",
                   "sword", "arrow", "fever", "illness", "sick")
"""Words that tell how someone died (stabbed, poisoned), not only that or where."""
"""The death words and the ways of being killed a passage tells a death with."""
ABBREVIATIONS = ("M", "MM", "Mr", "Mrs", "Ms", "Dr", "St", "Mme", "Mlle", "Messrs")
"""Words whose full stop does not end a sentence."""

NOT_IN_TEXT = (r"not[ _]in[ _](?:the[ _])?text|not (?:mentioned|stated|said) in the "
               r"(?:text|passages)")
"""How a reader says the text does not tell (NOT IN TEXT, as the lean prompt asks)."""

RELATION_WORDS = {
    "kin": "kin", "sworn_sibling": "sworn siblings", "lord_of": "lord of", "serves": "serves",
    "ally": "allies", "enemy": "enemies", "member_of": "member of", "spouse": "spouses",
    "mentor": "mentor", "rival": "rivals", "located_in": "located in", "owns": "owns",
    "parent_of": "parent of", "child_of": "child of", "grandparent_of": "grandparent of",
    "sibling": "siblings", "engaged": "engaged",
}
"""The graph's relation types as an answer names them."""

RELATIVE_WORDS = {
    ("parent_of", "source", "m"): "father", ("parent_of", "source", "f"): "mother",
    ("parent_of", "source", ""): "parent", ("parent_of", "target", "m"): "son",
    ("parent_of", "target", "f"): "daughter", ("parent_of", "target", ""): "child",
    ("child_of", "target", "m"): "father", ("child_of", "target", "f"): "mother",
    ("child_of", "target", ""): "parent", ("child_of", "source", "m"): "son",
    ("child_of", "source", "f"): "daughter", ("child_of", "source", ""): "child",
    ("spouse", "either", "m"): "husband", ("spouse", "either", "f"): "wife",
    ("spouse", "either", ""): "spouse",
    ("mentor", "source", ""): "master", ("mentor", "target", ""): "disciple",
    ("sworn_sibling", "either", "m"): "sworn brother",
    ("sworn_sibling", "either", "f"): "sworn sister",
    ("sworn_sibling", "either", ""): "sworn sibling",
    ("serves", "target", ""): "lord", ("lord_of", "source", ""): "lord",
    ("serves", "source", ""): "servant", ("serves", "target", "f"): "mistress",
    ("sibling", "either", "m"): "brother", ("sibling", "either", "f"): "sister",
    ("engaged", "either", "m"): "fiancé", ("engaged", "either", "f"): "fiancée",
    ("engaged", "either", ""): "betrothed",
    ("sibling", "either", ""): "sibling",
    ("grandparent_of", "source", "m"): "grandfather",
    ("grandparent_of", "source", "f"): "grandmother",
    ("grandparent_of", "source", ""): "grandparent",
    ("grandparent_of", "target", "m"): "grandson",
    ("grandparent_of", "target", "f"): "granddaughter",
    ("grandparent_of", "target", ""): "grandchild",
}
"""What one end of a relation is to the other (see `Language.relative_words`)."""

KIN_OF_KIN = {
    ("grandparent", "", "m"): "grandfather", ("grandparent", "", "f"): "grandmother",
    ("grandparent", "", ""): "grandparent", ("grandchild", "", "m"): "grandson",
    ("grandchild", "", "f"): "granddaughter", ("grandchild", "", ""): "grandchild",
    ("uncle", "", "m"): "uncle", ("uncle", "", "f"): "aunt",
    ("nephew", "", "m"): "nephew", ("nephew", "", "f"): "niece",
    ("parent_in_law", "", "m"): "father-in-law", ("parent_in_law", "", "f"): "mother-in-law",
    ("child_in_law", "", "m"): "son-in-law", ("child_in_law", "", "f"): "daughter-in-law",
    ("sibling_in_law", "", "m"): "brother-in-law", ("sibling_in_law", "", "f"): "sister-in-law",
    ("sibling", "", "m"): "brother", ("sibling", "", "f"): "sister", ("sibling", "", ""): "sibling",
}
"""Kin two steps away (see `Language.kin_of_kin`): English needs only the named one's gender."""

_DETERMINER = r"(?:the|a|an|his|her|their|my|our)"
# Words that stand before a name without saying who someone is (the poor Mercédès).
_NOT_ROLE_NOUN_TEXT = """
man woman person girl boy child lady gentleman friend guest visitor stranger character hero
heroine giant dwarf enemy rival lover heir heiress colleague companion follower suitor neighbour
neighbor master mistress murderer
"""
BOND_NOUNS = frozenset(_NOT_ROLE_NOUN_TEXT.split()) | frozenset(KIN)
"""Nouns for a person or a bond to someone (friend, rival, father): whose, they do not say."""
ROLE_NOUNS = frozenset(PERSON_NOUNS) - BOND_NOUNS - frozenset(
    t.lower() for t in (*PLACE_TITLES, *TITLES_ALONE["m"].split("|"),
                        *TITLES_ALONE["f"].split("|")))
"""Nouns for a role or occupation (steward, clerk, landlord): written once before a name, they
say who someone is, unlike an open-class word (the door Caderousse). Not kin or a bond to
someone (his father Danglars, her rival Julie: whose?) nor a title (the baroness Danglars is
his wife), which are said elsewhere."""
TIE_NOUNS = frozenset(PERSON_NOUNS) - {
    "man", "woman", "person", "girl", "boy", "child", "lady", "gentleman", "guest", "visitor",
    "stranger", "character", "hero", "heroine", "giant", "dwarf"}
"""Nouns that say what one person is to another (governess, friend, apothecary, niece): a
sentence naming two people and one of them may state what they are to each other ("Sixteen
years had Miss Taylor been in Mr. Woodhouse's family, less as a governess than a friend")."""
_DENIED = "not|no|never"
"""Words that deny what a copula would say (he was no sailor; she had never been a governess)."""
_NOT_APPOSED = r"[^,.;:!?\"“”()]"
_A_STATE = r"a\s+(?:little|bit|trifle|good\s+deal|great\s+deal)\s+[a-z]+(?:ed|ing)\b"
"""How someone is at a moment, after their name ("said Henry, a little surprised"), not who
they are (a pattern)."""
_APPOSED = (rf"(?:(?!{_A_STATE})(?:the|a|an)\s+{_NOT_APPOSED}{{3,80}}?|(?:his|her|their|my|our|this)\s+"
            + KIN_QUALIFIER + r"(?:" + "|".join(sorted(KIN, key=len, reverse=True))
            + r"|friend|servant|master|mistress|steward|valet|guardian|companion|employer"
            rf"|benefactor|protector)\b{_NOT_APPOSED}{{0,80}}?)")
"""What opens an apposition that says who someone is: an article ("a tailor of Marseilles"),
or a possessive before a word for kin or service ("his father"; "Elinor, this eldest daughter"),
not "his eyes sparkling"."""
GOVERNED = (r"\b(?:from|to|at|by|with|for|of|in|on|into|upon|towards?|about|after|before|"
            r"behind|beside|near|like|than)\s+(?!(?:you|me|him|her|us|them|it)\s)(?:\w+\s+)?$")
"""A preposition (and perhaps a title) right before a name: the name is its object, and what
follows a comma after it belongs to the sentence, not to the name. A pronoun after the
preposition is its object ("let me introduce to you M. Morrel, captain of Spahis")."""
_NOT_HEADS = ("one", "some", "most", "all", "none", "each", "both", "many", "any", "either",
              "neither", "part", "half", "full", "fond", "afraid", "tired", "sure", "proud",
              "ashamed", "aware", "capable", "worthy", "instead", "because", "out", "speaking",
              "thinking", "regardless", "irrespective", "first", "last", "rest", "few")
"""Words before "of" that open no apposition of who someone is (one of them, afraid of it)."""
_NOT_DEFINING = ("first|last|only|next|same|one|other|very|whole|rest|good deal|great deal"
                 "|little|bit|while|moment|long time|nearest|closest|farthest|furthest")
"""Words after "was the" or "was a" that say what someone did or was there, not who they are
(the first to arrive, the only one awake, the same as ever, a good deal surprized, the nearest
to him)."""
_VAGUE_HEAD = (r"(?:man|woman|person|girl|boy|lady|gentleman|creature|fellow|soul|being|sort"
               r"|kind|thing)")
"""Nouns that say of someone only that they are a person of a sort (a vain woman, a man of
unexceptionable character)."""
DEFINING = (
    # "Harriet Smith was the natural daughter of somebody", "Jane Fairfax was an orphan, the only
    # child of …": who someone's kin are says who they are, before any apposition
    ("kin", rf"^\s+(?P<what>(?:is|was|had been|became)\s+{_DETERMINER}\s+{KIN_QUALIFIER}"
            rf"(?:[a-z-]+\s+){{0,4}}?(?:{'|'.join(sorted(KIN, key=len, reverse=True))})s?\s+of\b"
            rf"[^.;:!?\"“”]{{2,80}})"),
    # "Mrs. Elton was a vain woman", "Mr. Dixon, a young man, …": a person of a sort — it defines,
    # weakly: "Mr. Weston was a native of Highbury" says more
    ("copula_vague", rf"^\s+(?P<what>(?:is|was|had been|became)\s+{_DETERMINER}\s+(?:[\w-]+,?\s+){{0,4}}?"
              rf"{_VAGUE_HEAD}\b[^.;:!?\"“”]{{0,80}})"),
    ("apposition_vague", rf"^,\s+(?P<what>(?:the|a|an)\s+(?:[\w-]+\s+){{0,3}}?{_VAGUE_HEAD}\b"
              rf"{_NOT_APPOSED}{{0,60}}?)(?=[,.;:!?)])"),
    # "Caderousse, a tailor of Marseilles, …", "Mr. Collins, the clergyman, …": an apposition;
    # not one of a list ("Mr. Weston, his son, Emma, and Harriet")
    ("apposition", rf"^,\s+(?P<what>{_APPOSED})(?=[.;:!?)]|,(?!\s+(?:[A-Z]|and\b))"
                   rf"|\s+(?:who|which|whom)\b)"),
    # "Edmond Dantès, mate of the ship Pharaon, …": a role of something, without an article
    # (not a participle, an adverb or an adjective: "and Anne, wearied of such a state of
    # stagnation, …"; "returned Elinor, cautious of giving her real opinion")
    ("apposition", rf"^,\s+(?P<what>(?!(?:{'|'.join(_NOT_HEADS)})\b)(?![a-z]{{3,}}(?:ed|ing)\s|"
                   rf"[a-z]{{2,}}(?:ly|ous|ful|less|ible|able)\s)[a-z][a-z-]{{2,}}\s+of\s+"
                   rf"{_NOT_APPOSED}{{2,60}}?)(?=[,.;:!?)])"),
    # "Captain Benwick had some time ago been first lieutenant of the Laconia", "Mr. Perry
    # was apothecary to the family": a role or trade after a copula, with no article or with
    # a few words between "had" and "been" (not "was no sailor", "had never been a clerk", nor
    # what befell him: "had been taken prisoner")
    ("copula", rf"^\s+(?P<what>(?:is|was|became|(?:had|has)\s+(?:(?!{_DENIED}\b)[a-z]+\s+){{0,3}}?been)"
               rf"\s+(?:(?:the|a|an)\s+)?(?:(?!{_DENIED}\b|[a-z]+(?:ed|en|ing)\s)[a-z-]+\s+){{0,2}}?"
               rf"(?:{'|'.join(sorted(ROLE_NOUNS, key=len, reverse=True))})s?\b[^.;:!?\"“”]{{0,80}})"),
    # "Morrel was the owner of the Pharaon": a copula before a noun phrase
    # ("Mercédès was the only one awake" says what she did, not who she is)
    ("copula", rf"^\s+(?P<what>(?:is|was|had been|became)\s+{_DETERMINER}\s+"
               rf"(?!(?:{_NOT_DEFINING})\b)[^,.;:!?\"“”]{{3,80}})"),
)
"""What introduces or defines a name, right after it (see `Language.defining`)."""

SUBORDINATE = r"(?:^|\b)(?i:that|if|whether|though|although|because|unless|until)\s+$"
"""A word that opens a clause, right before a name: what the name is there ("That Emma was his
object appeared indisputable") is no introduction, though an apposition still is ("to think
that Albert de Morcerf, the most admired young person of his day, …")."""
PRONOUN_SUBJECT = r"^(?:(?P<m>He)|(?P<f>She))\b"
"""A sentence that opens with the pronoun of the person the sentence before opened with ("Emma
Woodhouse, handsome, clever, and rich, … She was the youngest of the two daughters of …"); the
group named m or f gives the gender the pronoun is of."""

IDENTITY = (r"^\s*(?:who|what)\s+(?:is|was|are|were)\s+(?P<en1>[^?]{2,60}?)\s*\??\s*$"
            r"|^\s*(?:tell me (?:about|who)|describe|who's)\s+(?P<en2>[^?.!]{2,60}?)(?:\s+is)?\s*[?.!]?\s*$")
"""A question asking who or what a named entity is (Who is Shen Yan? Tell me about Eldoria)."""
GIVES_NAME = r"\b(?:called|named|nicknamed|known as|styled)\s+$"
"""What stands right before a name the sentence gives ("known as the Count") (a pattern)."""
ALIAS_OF = (r"^\s*(?:who|whom)\s+(?:do|does|did)\s+(?:they|people|the [\w\s]+?)\s+call\s+"
            r"[\"“']?(?P<alias>[^?\"”]{2,60}?)[\"”']?\s*\??\s*$",
            r"^\s*who\s+(?:is|was)\s+(?:called|known as|nicknamed|named)\s+[\"“']?"
            r"(?P<alias>[^?\"”]{2,60}?)[\"”']?\s*\??\s*$",
            r"^\s*whose\s+(?:nickname|alias|assumed name|other name|pet name|courtesy name"
            r"|style name|title|name)\s+"
            r"(?:is|was)\s+[\"“']?(?P<alias>[^?\"”]{2,60}?)[\"”']?\s*\??\s*$")
"""Questions asking whose other name a name is (Whom do they call the Count? Who is called
Porcupine? Whose nickname is Clown?): group `alias`."""

ROLE_BEFORE = (rf"\b(?i:{_DETERMINER})\s+(?:[a-z]+\s+)?"
               # a participle or an adverb is no role (the adored Valentine, the newly arrived)
               r"(?P<office>(?!(?:named|called|whose)\b)(?![a-z\-]{3,}(?:ed|ing|ly)\b)[a-z][a-z\-]{2,})"
               r"(?:,?\s+(?:named|called|whose name was))?\s+$")
"""A role written right before a name, perhaps after one word that qualifies it: "the banker
Danglars", "his steward Bertuccio", "his chief clerk Emmanuel", "a tailor named Caderousse"."""

_NOT_ROLE_TEXT = """
young old little poor dear good great unhappy unfortunate worthy brave beautiful noble late
same other first last next whole elder younger eldest youngest new lovely charming pretty
handsome honest excellent amiable kind wretched miserable terrible famous illustrious
dearest sweetest best kindest nearest fairest loveliest truest oldest finest greatest happiest
poorest richest towards toward against among amongst between without within through upon beside
behind beyond
"""
NOT_ROLES = STOPWORDS | frozenset(_NOT_ROLE_TEXT.split())
SURELY_APPOSED = (r"^(?:his|her|their|my|our)\s"
                  r"|^(?:the|a|an)\s+[a-z][\w-]*(?:\s+[a-z][\w-]*)?\s+of\s+(?:the\s+)?[A-ZÀ-Þ]"
                  r"|^(?:the|a|an)\s+(?:[a-z]+\s+)?(?:" + "|".join(sorted(ROLE_NOUNS)) + r")$")
"""An apposition surely about the name before it, even after a preposition: a possessive role
(her singing teacher), a role of a named thing (the proprietor of the Hôtel de Londres), or a
trade alone (consulting Mr. Perry, the apothecary)."""

REFERRING_ROLE = (r"\b[Tt]he\s+(?:[a-z]+\s+)?(?P<role>" + "|".join(sorted(ROLE_NOUNS))
                  + r")\b(?!\s+[A-Z])")
"""The banker, the old steward: a role noun standing for someone (see `Language.referring_role`)."""

LANGUAGE = Language("en", KIN_WORDS, DEATH_WORDS, DYING_WORDS, QUESTION_WORDS, SENTENCE_END,
                    STOPWORDS, ABBREVIATIONS, NOT_IN_TEXT, RELATION_WORDS, RELATIVE_WORDS,
                    "{who} is {whose}'s {word}", kin_of_kin=KIN_OF_KIN,
                    adoptive=r"\b(?:adopted|adoptive|foster)\b",
                    seniority=(r"\b(?:elder|older|eldest|oldest|big)\b",
                               r"\b(?:younger|youngest|little)\b"),
                    path_sentence="{first}, and {second}", because_sentence="{said}: {why}",
                    defining=DEFINING, governed=GOVERNED,
                    pronoun_subject=PRONOUN_SUBJECT, subordinate=SUBORDINATE,
                    identity=IDENTITY,
                    role_before=ROLE_BEFORE, not_roles=NOT_ROLES,
                    referring_role=REFERRING_ROLE,
                    chapter_reference=CHAPTER_REFERENCE, asked_noun=ASKED_NOUN,
                    described_as=described_as)
