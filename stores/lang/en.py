"""English: the words and forms the rules read English text with, one table per concept."""

from __future__ import annotations

import re

from stores.lang import Language
from stores.lang.en_defining import (  # given on: callers read them as en.X
    APPOSED_PERSON,  # noqa: F401
    APPOSITION_ENDS,  # noqa: F401
    BOND_NOUNS,  # noqa: F401
    CALLING_OF_SOMEONE,  # noqa: F401
    CONJUNCTION_BEFORE,  # noqa: F401
    COPULA_AFTER,  # noqa: F401
    DEFINING,
    DESCRIBED_BEFORE,
    GOVERNED,
    KIN_SUBJECT,  # noqa: F401
    NAME_AFTER_CALLING,  # noqa: F401
    NAME_BEFORE_CALLING,  # noqa: F401
    NAMED_PERSON_BEFORE,  # noqa: F401
    NOT_ROLE_WORDS,
    OWN_BODY_AFTER,  # noqa: F401
    OWN_FACE_AFTER,  # noqa: F401
    OWNED_BEFORE,  # noqa: F401
    PERSON_NOUNS,
    PRONOUN_SUBJECT,
    REFERRING_ROLE,
    ROLE_BEFORE,
    ROLE_NOUNS,  # noqa: F401
    SETTING_BEFORE,  # noqa: F401
    SUBORDINATE,
    SURELY_APPOSED,  # noqa: F401
    THE_CALLING,  # noqa: F401
    TIE_NOUNS,  # noqa: F401
    UNNAMED_CALLINGS,  # noqa: F401
    VOCATIVE_AFTER,  # noqa: F401
    VOCATIVE_BEFORE,  # noqa: F401
    WOMENS_CALLINGS,  # noqa: F401
)
from stores.lang.en_kin import (  # given on: callers read them as en.X
    AGE_WORDS,  # noqa: F401
    CALLED_AFTER_COMMA,  # noqa: F401
    CALLED_FIRST,  # noqa: F401
    CHILD_NOUNS,  # noqa: F401
    CLAUSE_GOES_ON,  # noqa: F401
    COPULA_BEFORE,  # noqa: F401
    ENDEARMENT_BEFORE,  # noqa: F401
    FAMILY_KIN,  # noqa: F401
    FIRST_PERSON,  # noqa: F401
    IN_LAW_KIN,  # noqa: F401
    KIN,  # noqa: F401
    KIN_BEFORE_NAME,  # noqa: F401
    KIN_OWNER,  # noqa: F401
    KIN_QUALIFIER,  # noqa: F401
    LISTED_AFTER,  # noqa: F401
    MAIDEN_KIN,  # noqa: F401
    MY_KIN,  # noqa: F401
    NAMED_KIN,  # noqa: F401
    NOMINATIVE_PRONOUNS,  # noqa: F401
    POSSESSIVE,  # noqa: F401
    POSSESSIVE_PRONOUNS,  # noqa: F401
    RELATIVE_BEFORE,  # noqa: F401
    ROLE_WORDS,  # noqa: F401
    SPOKEN_TO_BEFORE,  # noqa: F401
    SUBJECT_PRONOUNS,  # noqa: F401
    SYMMETRIC_KIN,  # noqa: F401
    UNREAL_BEFORE,  # noqa: F401
    kin_statements,  # noqa: F401
)
from stores.lang.en_titles import (  # given on: callers read them as en.X
    ADDRESS_TITLES,  # noqa: F401
    BECAME_WIFE,  # noqa: F401
    CALLING_TITLES,  # noqa: F401
    COMMON_TITLES,  # noqa: F401
    ELDEST_DAUGHTER,  # noqa: F401
    ELDEST_DAUGHTER_TITLES,  # noqa: F401
    KNIGHTED_TITLES,  # noqa: F401
    LADY_HUSBAND_TITLES,  # noqa: F401
    LADY_TITLES,  # noqa: F401
    MAIDEN_THAT_WAS,  # noqa: F401
    MARRIED_TITLES,  # noqa: F401
    NAME_TITLES,  # noqa: F401
    NOT_YET,  # noqa: F401
    PARTICLES,  # noqa: F401
    PLACE_TITLES,  # noqa: F401
    SAME_PERSON,  # noqa: F401
    SAME_PERSON_WORDS,  # noqa: F401
    SAME_RANK,  # noqa: F401
    SERVICE_RANKS,  # noqa: F401
    TITLES_AFTER,  # noqa: F401
    TITLES_ALONE,  # noqa: F401
    UNDOTTED,  # noqa: F401
    UNMARRIED_TITLES,  # noqa: F401
    WIFE_BY_HIS_NAME,  # noqa: F401
    WIFE_RANK_TITLES,  # noqa: F401
    WIFE_TITLES,  # noqa: F401
)

# -- names: aliases, capitalised names, titles, pet names, speech and places ----------------------
_CAP = r"[A-Z][\w'’-]*"

_NAME = rf"{_CAP}(?:\s+(?:(?:de|du|d'|d’|van|von|la|le)\s*)?{_CAP}){{0,3}}"

_CALLING = r"(?:nicknamed|named|called|call|calls|dubbed)"
KNOWN_AS = re.compile(
    rf"\b(?P<name>{_NAME}),\s+(?:also\s+)?(?:known\s+as|called|nicknamed|surnamed)\s+"
    rf"(?P<alias>{_NAME})"  # "known as the King of …" is a title, not a name: no "the"
    rf"|\b(?<!of )(?P<name2>{_NAME})(?:\s+(?:is|was)\s+(?:the|a|an|our|my)\s+[a-z][a-z\s'’-]{{0,40}}?)?"
    rf",?\s+whom\s+(?:I|we|he|she|they|everybody|everyone|people"
    rf"|(?:all\s+)?the\s+[a-z]+(?:\s+[a-z]+)?(?:\s+of\s+(?:the\s+)?{_CAP})?)\s+(?:had\s+)?"
    rf"{_CALLING}\s+(?:him\s+|her\s+)?(?P<alias2>(?:the\s+)?{_NAME})"
)
"""A name and another it is known by: "Peppino, called Rocca Priori"; "Mr. Yoshikawa is the
teacher of drawing whom I had nicknamed Clown"; "Captain Maren Vell, whom the sailors of Caldris
call the Gull" (an epithet keeps its article); not a place the name is of ("Ysolde Thorne, the
Dowager of Greywatch, whom the soldiers called the Grey Widow" is no Greywatch's)."""
CALLED_HIM = re.compile(rf"\b{_CALLING}\s+(?:him|her)\s+(?P<alias>the\s+{_NAME})")
"""An epithet given someone the telling named just before: "Dunstan Quarry. They call him the
Ox."; "Men of the north called him the Iron Stag"."""

BEING_TAILS = ("man", "woman", "men", "women", "boy", "girl", "child", "folk", "swine",
               "creature", "brute", "beast")
"""A being's noun hyphened to a capitalised word makes one name of the two (Ape-man,
Hyena-swine, in The Island of Doctor Moreau); other lower-case tails do not (Good-bye,
To-morrow)."""
PERSON_TAILS = frozenset(("man", "woman", "men", "women", "boy", "girl", "child", "folk"))
"""The last part of a hyphened name that makes it someone's (Ape-man, Dog-man, Leopard-man)."""
CAPITALISED_WORD = (r"(?:[A-Z]['’](?=[A-Z]))?[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ'’]+(?:-[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ]+|-(?:"
                    + "|".join(BEING_TAILS) + r")\b)?")
"""A capitalised word of a name: Dantès, Saint-Méran, the Ape-man, and an Irish or a French
name's capital and apostrophe before it (O'Connor, D'Arcy, M'Coy: Dubliners, a newcomer's
trial, cut them in two, "Mr. O" and "Connor")."""
FULL_NAME = re.compile(rf"\b{CAPITALISED_WORD}(?:\s+{CAPITALISED_WORD})+")
"""Two capitalised words or more: a full name, or a sentence's first word and a name."""

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
Hullo Hallo Halloa Hello Hurrah Huzza Huzzah Confound Pshaw Bah Hush Hark Fie Zounds Bravo Jove Gad
Adieu Goodbye Farewell
January February March April June July August September October November December
Monday Tuesday Wednesday Thursday Friday Saturday Sunday
French English Italian Spanish Greek Roman Parisian Corsican Catalan Catalans Englishman
Frenchman Parisians Genoese Venetian Arabian Nubian Spaniards Christian American British
Count Countess Baron Baroness Captain Colonel Abbé Signor Signora Lord Lady Miss Father
Mother Mama Mamma Papa Grandmamma Grandpapa Yours
First Second Third Fourth Fifth Sixth Seventh Eighth Ninth Tenth Eleventh Twelfth Thirteenth
Christmas Easter Michaelmas Whitsuntide Midsummer Lent
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
    **dict.fromkeys(("Bella", "Belle"), "Isabella"),
    "Penny": "Penelope", "Letty": "Letitia", "Davy": "David", "Becky": "Rebecca",
    "Tilly": "Matilda", "Lottie": "Charlotte", "Dora": "Dorothea", "Hetty": "Hester",
    "Sukey": "Susan", "Gussie": "Augusta", "Ted": "Edward", "Tony": "Anthony",
    "Joe": "Joseph", "Phil": "Philip",
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
Letitia Lucy Lydia Mabel Margaret Maria Marianne Martha Mary Matilda Matthew Michael Miriam Nathaniel
Nicholas Olivia Oliver Patrick Penelope Peter Philip Phoebe Rachel Ralph Rebecca Richard
Robert Rosamond Ruth Samuel Sarah Selina Sophia Sophy Stephen Susan Susanna Thomas
Timothy Walter William Betsey Bessy Bessie Nelly Jenny Becky Sukey Sophie
"""
GIVEN_NAMES = frozenset(_GIVEN_NAME_TEXT.split()) | frozenset(PET_NAMES) | frozenset(
    PET_NAMES.values())
MEN_GIVEN_NAMES = frozenset(["Abraham", "Adam", "Albert", "Alexander", "Alfred", "Andrew", "Anthony", "Arthur", "Augustus", "Bartholomew", "Charles", "Christopher", "Daniel", "David", "Edgar", "Edmund", "Edward", "Edwin", "Francis", "Frank", "Frederick", "Geoffrey", "George", "Gerald", "Gilbert", "Hector", "Henry", "Herbert", "Horace", "Hugh", "Isaac", "Jacob", "James", "John", "Jonathan", "Joseph", "Leonard", "Lewis", "Matthew", "Michael", "Nathaniel", "Nicholas", "Oliver", "Patrick", "Peter", "Philip", "Ralph", "Richard", "Robert", "Samuel", "Stephen", "Thomas", "Timothy", "Walter", "William"])
"""The men's among GIVEN_NAMES; a pet name is a man's when the name it is formed from is."""


def given_gender(word: str) -> str:
    """The gender a common given name says ('m': Charles, Dick; 'f': Fanny, Lizzy), '' for any
    other word."""
    if word not in GIVEN_NAMES:
        return ""
    return "m" if PET_NAMES.get(word, word) in MEN_GIVEN_NAMES else "f"
"""Common English given names: a name the text writes alone, or first in a full name, that is
one of them is a person's (Fanny, Nancy, Elizabeth Martin), though no title or verb of speech
says so."""

AT_PLACE = re.compile(r"\b(?:in|at|from|near|towards?|through|into|leave|left|reach(?:ed)?"
                       r"|quit(?:ted)?)\s+(?:the\s+)?$", re.I)

SAYS = "said|replied|cried|asked|exclaimed|answered|whispered|shouted|murmured|inquired"
"""Verbs of speech that only a person is the subject of, whichever side of the name."""

SPEECH_ADVERB = r"(?:\w+ly|soon|then|now|again|still|presently|at\s+once|at\s+last|at\s+length)"
"""An adverb between who speaks and the verb (“…,” he soon resumed; “…,” Emma quickly said)."""
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
NOT_PLACE_TEXT = ("I He She It They We You His Her Its Their My Your Our The This That What Who "
                  "When Where Why How Yes No Oh Ah Sir Madame Monsieur M.")
"""Capitalised words that begin no place name (after 'in': In He …), space-separated."""
DETERMINERS = "a|an|the|one|his|her|their|its|some"
"""What a noun phrase an answer leads with begins with (A diamond, His sword)."""
APPOSITION_OPENERS = "a|an|the|my|his|her|our|your|their"
"""What an apposition after a name and a comma begins with ("Mrs. Smallridge, a most delightful
woman"): a name so followed is described, not spoken to (stores/card_sentences.py)."""
ADDRESSED_AFTER = (r"\s*,\s*(?:my|our)\s+(?:[a-z]+\s+)?[a-z]+\s*,\s*[”\"’']?\s*(?:[”\"’]|"
                   r"(?:you|your|thou|do|don't|let|come|tell|listen|pray|be|go|look)\b(?!\s+(?:see|know)\b))")
"""What follows a name that opens someone's words when the speaker addresses the one named
("Edmond, my friend, do not compel me", "Albert, my child,” said Mercédès): a possessive
apposition, then the words or the end of what is said to them, not what is said of them
("Bertuccio, my steward, takes me for a Roman"; "Frederick, my eldest son, you see, …")."""
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


SAID_NOTHING = r"(?:nothing|no\s+more|not\b)"
"""What follows a verb of speech that says no words were said ("Marianne said no more")."""
SHE = r"\b(?:she|her|hers|herself)\b"
HE = r"\b(?:he|him|his|himself)\b"
CHAPTER_REFERENCE = r"\b(?:chapters?|ch\.)\s*\d+(?:\s*(?:,|and|to|–|-)\s*(?:and\s+)?\d+)*"
"""Where in the story, not a claim about it: chapter 8, chapters 8, 9 and 10, ch. 7."""
SPEAKS = r",?\s*(?:\w+ly\s+)?(?:said|says|cried|replied|answered|asked|exclaimed|continued|added)\b"
"""A name followed by how it speaks (Darcy said, Mrs. Bennet cried): the one who says the words."""
SENTENCE_END = ".!?"
"""The marks that end an English sentence."""

# -- questions, and the Language the shared rules read --------------------------------------------
IDENTITY_QUESTION = (r"^(?:who|what)\s+(?:is|was)\s+(?P<x>.+?)(?:,?\s+(?:really|actually|exactly"
                     r"|truly|in (?:fact|truth|reality)))?\s*[?.!]*$")
"""A question asking who or what something is (Who was the stranger? Who is Andrea Cavalcanti
really?): the thing is group x."""
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
    # the name of the Rushworths' estate, of his house: a place, not a person
    "where": r"\bwhere\b|" + _which(PLACE_NOUNS) + rf"|\bname\s+of\s+(?:the\s+|his\s+|her\s+|its\s+"
             rf"|their\s+)?(?:[\w’']+['’]s?\s+)?(?:[a-z]+\s+)?(?:{'|'.join(PLACE_NOUNS)})s?\b",
    "what": r"\bwhat\b|\bwhich\b",
    "which_chapter": r"\bwhich chapter\b|\bwhat chapter\b",
    "dies": r"\bdie[ds]?\b|\bdeath\b",
    "manner": r"\bhow\b(?!\s+(?:many|much|old|long|far|often|soon|large|big|tall|high|wide"
              r"|deep|heavy))",
    "number": r"\bhow (?:many|much|old|long|far|large|big|tall|high|wide|deep|heavy)\b"
              r"|\bwhat (?:year|age|sum|number|amount|price|distance|size)\b",
    "name_part": r"\b(?:first|christian|given|maiden|last|family|middle|pet)\s+name\b"
                 r"|\b(?:surname|nickname)\b",
}
"""The words that ask each kind of question (who: who, whom, which man; many: who were …;
name_part: a part of someone's own name, which is a word, not someone)."""

_HOME_NOUNS = r"house|home|residence|seat|estate|cottage|lodgings?|rooms"
HOME_AFTER_PERSON = re.compile(
    r",\s+of\s+(?:the\s+)?"
    r"|,?\s+(?:(?:who|that)\s+)?(?:(?:now|still|then|long|once|had|has|have)\s+)*"
    r"(?:lives?|lived|living|resides?|resided|dwelt|dwells?|(?:was|is|were|are|had\s+been|"
    r"has\s+been)\s+(?:settled|living|residing)|settled)\s+(?:at|in|near)\s+(?:the\s+)?"
    rf"|['’]s?\s+(?:own\s+)?(?:new\s+)?(?:{_HOME_NOUNS})\s+(?:at|in)\s+(?:the\s+)?", re.I)
"""What stands between a person's name and a place that is their home: "Sir Walter Elliot, of
Kellynch Hall"; "my uncle Pratt, who lives at Longstaple"; "Mrs. Ferrars's house in Park
Street" (the whole gap: stores/card_homes.py)."""
HOME_BEFORE_PERSON = re.compile(
    rf",\s+(?:the\s+)?(?:family\s+)?(?:{_HOME_NOUNS})\s+of\s+(?:the\s+)?", re.I)
"""… and between a place and the person it is home to: "Delaford, the seat of Colonel
Brandon"."""
HOME_CUES = re.compile(r",\s+of\s|\b(?:liv|resid|dwel|settled|house|home|seat|estate|cottage"
                       r"|lodging|rooms)", re.I)
"""A sentence that may state a home (read further only then)."""
LIVES_ASKED = re.compile(r"\bwhere\b.*\b(?:lives?|lived|living|resides?|resided|dwells?|dwelt|"
                         r"home|house|seat|estate)\b", re.I)
"""A question after where someone lives (Where does Sir Walter live? Where is Harriet's home?)."""

AGE_ASKED = re.compile(r"^\W*(?:how\s+old\s+(?:is|was|were|are)\b|what\s+age\s+(?:is|was)\b"
                       r"|what\s+(?:is|was)\b.*\bage\b)", re.I)
"""A question after someone's age (How old is Harriet Smith? How old is Elinor when her father
dies? What is Colonel Brandon's age?)."""
_UNITS = "one|two|three|four|five|six|seven|eight|nine"
_TENS = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
_TEENS = "ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen"
AGE_NUMBER = (rf"(?:(?:{_TENS})(?:[- ](?:{_UNITS}))?|(?:{_UNITS})[- ]and[- ](?:{_TENS})|{_TEENS}"
              rf"|(?!one\b)(?:{_UNITS})|\d{{1,2}})")
"""A person's age in years, in words or figures (nineteen, five and thirty, twenty-one, 17;
not "one", which is a pronoun as often)."""
AGE_TOLD = re.compile(
    rf"(?:\b(?:aged|age\s+of|only|nearly|near|about|past|turned|just|not\s+yet|wrong\s+side\s+of"
    rf"|(?:girl|boy|man|woman|lady|child|youth|fellow|gentleman|young\s+\w+)\s+of)\s+"
    rf"(?P<age>{AGE_NUMBER})(?=\s*(?:[,.;:!?—)\"”’']|$)|\s+(?:and|but|when|who|years?)\b)"
    rf"|\b(?P<years>{AGE_NUMBER})[\s-]+years?[\s-]+(?:old|of\s+age)\b)", re.I)
"""Where a sentence gives someone's age: a girl of seventeen, though only nineteen, on the
wrong side of five and thirty, aged 40, twenty-one years old; not "only three or four days"."""

ACTS_ABOUT_A_DEATH = re.compile(r"^\s*what\s+(?:did|does|do|had|has|have)\b(?!.*\bdie[ds]?\b).*"
                                r"\bdeath\b", re.I)
"""A question after what someone did about a death, not how it came: "What did Catherine
suspect about Mrs. Tilney's death?" (not "What did he die of?")."""

MAIDEN_ASKED = re.compile(
    r"\bmaiden\s+name\b|(?=.*\b(?:name|who\s+(?:is|was))\b).*(?:"
    r"\bbefore\s+(?:[\w'’.]+\s+){1,3}?(?:was\s+|got\s+)?married\b"
    r"|\bbefore\s+(?:her|the)\s+(?:marriage|wedding)\b)", re.I)
"""A question after a married woman's name before her marriage (What was Mrs Smith's name
before she married? — or before Mrs Smith married, as a follow-up writes it out; Who is Mrs.
Elton before she married?)."""

KIN_WORDS = ("father", "son", "mother", "daughter", "wife", "husband", "married", "brother",
             "sister", "uncle", "nephew", "grandfather", "granddaughter", "grandson", "cousin",
             "master", "servant", "betrothed", "aunt", "niece", "grandmother", "stepmother",
             "brother-in-law", "sister-in-law", "guardian", "governess", "engaged")
"""Words for how two people are related, searched within a pair's passages."""
_ARTICLE = re.compile(r"^the\s+", re.I)


def counted(n: int, noun: str, width: int = 0) -> str:
    """'1 chapter', '3 chapters', '1 entity', '2 entities': the number right-aligned in `width`."""
    plural = noun if n == 1 else (noun[:-1] + "ies" if noun.endswith("y") else noun + "s")
    return f"{n:>{width}} {plural}"


def without_article(name: str) -> str:
    """A name as the world may know it without its article: the Marquis → Marquis."""
    return _ARTICLE.sub("", name)


DIED_AFTER_NAME = (r"(?:\s+(?:was|had been|is|lay|fell))?\s+(?:dead|died|expired|killed|murdered"
                   r"|slain|shot himself|shot herself|killed himself|killed herself)\b")
"""What tells, right after a name, that its bearer died (Caderousse was dead, Morcerf shot
himself) (a pattern)."""
DEATH_SUPPOSED = (r"\b(?:suppose[sd]?|supposing|perhaps|probably|maybe|may|might|must|if|whether"
                  r"|fear(?:ed|s)?|thought|think|believed?|rumou?r(?:ed)?|reported)\b")
"""Words before a death in its sentence that make it supposed, feared or rumoured, not told ("I
suppose Mr. Kurtz is dead as well by this time": he dies a part later) (a pattern)."""
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
ABBREVIATIONS = ("M", "MM", "Mr", "Mrs", "Ms", "Dr", "St", "Mme", "Mlle", "Messrs", "ch", "Rev",
                 "Revd", "Capt", "Col", "Gen", "Lieut", "Prof", "Hon", "Esq", "Jr", "Sr",
                 "MR", "MRS", "MS", "DR", "ST", "REV")
"""Words whose full stop does not end a sentence (ch.: how an answer writes a chapter)."""

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
    ("parent_or_step", "", "m"): "father or stepfather",
    ("parent_or_step", "", "f"): "mother or stepmother",
    ("parent_or_step", "", ""): "parent or step-parent",
    ("child_or_step", "", "m"): "son or stepson", ("child_or_step", "", "f"): "daughter or stepdaughter",
    ("child_or_step", "", ""): "child or stepchild",
}
"""Kin two steps away (see `Language.kin_of_kin`): English needs only the named one's gender."""

IDENTITY = (r"^\s*what\s+(?:is|was)\s+(?P<en4>[^?]{2,60}?)['’]s?\s+(?:job|occupation|profession"
            r"|trade|calling|line of work)\s*\??\s*$"
            r"|^\s*what\s+does\s+(?P<en3>[^?]{2,60}?)\s+do(?:\s+for\s+a\s+living)?\s*\??\s*$"
            r"|^\s*(?:who|what)\s+(?:is|was|are|were)\s+(?P<en1>[^?]{2,60}?)\s*\??\s*$"
            r"|^\s*(?:tell me (?:about|who)|describe|who's)\s+(?P<en2>[^?.!]{2,60}?)(?:\s+is)?\s*[?.!]?\s*$")
"""A question asking who or what a named entity is (Who is Shen Yan? Tell me about Eldoria; What
does Mr. Perry do? What is Mr. Shepherd's profession?: what someone does is who they are)."""
GIVES_NAME = r"\b(?:called|named|nicknamed|known as|styled)\s+$"
"""What stands right before a name the sentence gives ("known as the Count") (a pattern)."""
ALIAS_OF = (r"^\s*(?:who|whom)\s+(?:do|does|did)\s+(?:they|people|the [\w\s]+?)\s+call\s+"
            r"[\"“']?(?P<alias>[^?\"”]{2,60}?)[\"”']?\s*\??\s*$",
            r"^\s*who\s+(?:is|was)\s+(?:called|known as|nicknamed|named)\s+[\"“']?"
            r"(?P<alias>[^?\"”]{2,60}?)[\"”']?\s*\??\s*$",
            r"^\s*whose\s+(?:nickname|alias|assumed name|other name|pet name|courtesy name"
            r"|style name|title|name)\s+"
            r"(?:is|was)\s+[\"“']?(?P<alias>[^?\"”]{2,60}?)[\"”']?\s*\??\s*$",
            r"^\s*what\s+(?:is|was)\s+(?:the\s+)?(?:real|true|actual|original)\s+name\s+of\s+"
            r"[\"“']?(?P<alias>[^?\"”]{2,60}?)[\"”']?\s*\??\s*$",
            r"^\s*what\s+(?:is|was)\s+[\"“']?(?P<alias>[^?\"”]{2,60}?)[\"”']?['’]s?\s+"
            r"(?:real|true|actual|original)\s+name\s*\??\s*$",
            r"^\s*who\s+(?:is|was)\s+[\"“']?(?P<alias>[^?\"”]{2,60}?)[\"”']?\s+really\s*\??\s*$")
"""Questions asking whose other name a name is (Whom do they call the Count? Who is called
Porcupine? Whose nickname is Clown? What is Edward Freely's real name? Who is Sinbad the Sailor
really?): group `alias`."""

NOT_ROLES = STOPWORDS | NOT_ROLE_WORDS
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
                    described_before=DESCRIBED_BEFORE,
                    described_as=described_as)
