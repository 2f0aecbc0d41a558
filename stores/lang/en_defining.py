"""Who someone is, in English: the nouns for people, and the words right after or before a name
that say who they are (an apposition, a copula, a role: "Caderousse, a tailor of Marseilles",
"Morrel was the owner of the Pharaon", "the banker Danglars"), read by the cards
(stores.card_sentences) and the librarian."""

from __future__ import annotations

from stores.lang.en_kin import KIN, KIN_QUALIFIER
from stores.lang.en_titles import PLACE_TITLES, TITLES_ALONE

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
_PERSON_NOUN = "|".join(PERSON_NOUNS)
APPOSED_PERSON = (rf",\s+(?:the|a|an|his|her|my|our|their|[A-Z][\w'’-]*['’]s)\s+"
                  rf"(?:(?!of\b)[\w'’-]+\s+){{0,3}}(?:{_PERSON_NOUN})\b"
                  r"|\s+(?:[a-z]+\s+){0,2}(?:himself|herself)\b")
"""Right after a name, an apposition that calls it a person ("M'ling, the black-faced man",
"M'ling, Montgomery's attendant": the noun within four words, none of them "of", not "Marseilles,
the city of the man"), or a verb that it does to himself or herself ("M'ling flung himself")."""
NAMED_PERSON_BEFORE = rf"\b(?:{_PERSON_NOUN})\s+(?:named|called)\s+$"
"""Right before a name, a person noun that gives it: "a man named Helmar"."""

OWN_BODY_AFTER = (r"\s+(?:[a-z]+\s+){0,4}?(?:her|his)\s+(?:own\s+)?(?:head|hands?|arms?|face|eyes"
                  r"|lips|cheeks?|feet|shoulders?|knees|hair|mother|father|brother|sister"
                  r"|husband|wife|son|daughter)\b")
"""A name that a verb and their own body or kin follow ("Grete had put her arm around her
mother", "Grete now and then pressed her face against her father's arm"): someone's, a
person's, though they never speak by a verb of speech (a pattern, read right after the name)."""
VOCATIVE_BEFORE = r",\s+$"
VOCATIVE_AFTER = r"[,!?.]\s*[”\"]"
"""A name spoken to: between a comma and the end of someone's words ("Try to be civil, Marlow,"
growled a voice; "Yes, Valentine!"). Read as a pair: the comma right before the name, the
closing mark right after it."""
OWN_FACE_AFTER = (r"['’]s\s+(?:[a-z]+\s+){0,2}(?:face|eyes|lips|voice|cheeks?|brow|forehead"
                  r"|hands?|shoulders?)\b")
"""A name whose face, eyes or voice the text gives ("Marlow's lean face appeared"): a person's."""
OWNED_BEFORE = r"\b(?:his|her|my|your)\s+$"
"""Before a capitalised word for a person or for kin (en.PERSON_NOUNS, en.KIN), an owner: the
word names someone the owner has (his Intended, my Master), not an abstraction (your
Inspiration)."""
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
UNNAMED_CALLINGS = frozenset({
    "clerk", "charwoman", "washerwoman", "maid", "maidservant", "cook", "nurse", "governess",
    "housekeeper", "steward", "butler", "valet", "footman", "coachman", "porter", "landlady",
    "landlord", "doctor", "priest", "clergyman", "lawyer", "judge", "magistrate", "notary",
    "jailer", "gaoler", "inspector", "innkeeper", "gardener", "shopkeeper", "schoolmaster",
    "schoolmistress", "secretary", "baker", "butcher", "blacksmith", "tailor", "miller",
    "shepherd", "sheriff", "boatman", "ferryman", "apothecary", "surgeon", "physician", "vicar",
    "rector", "curate", "parson", "chaplain", "attorney", "solicitor", "tutor", "messenger",
    "king", "queen", "prince", "princess", "emperor", "empress", "mayor", "headmaster",
    "fisherman", "woodcutter", "huntsman", "hunter", "witch", "wizard", "merchant", "banker",
    "manager", "accountant", "bookkeeper", "helmsman", "steersman", "engineer", "caretaker",
    "gatekeeper", "constable", "bailiff",
})
"""Callings a story may give a person of its cast instead of a name ("the chief clerk", "the
charwoman", a tale's "the king"): an occupation or an office one person of the story holds, not
a state or a side many are in (the prisoner, the soldier, the stranger)
(stores/entities/unnamed_roles.py)."""
WOMENS_CALLINGS = frozenset({
    "charwoman", "washerwoman", "maid", "maidservant", "governess", "housekeeper", "landlady",
    "schoolmistress", "queen", "princess", "empress", "witch"})
"""The callings of UNNAMED_CALLINGS that are a woman's."""
_CALLING = "|".join(sorted(UNNAMED_CALLINGS, key=len, reverse=True))
THE_CALLING = rf"\b[Tt]he\s+((?:[a-z]+\s+)?(?:{_CALLING}))\b(?![\w'’-])"
"""A calling of UNNAMED_CALLINGS with "the" and at most one word before it (the chief clerk);
group 1 the calling as written (a pattern)."""
_CALLED_NAME = r"(?:(?:M|Mr|Mrs|Dr|St)\.?\s+)?[A-Z][\w'’-]+"
CALLING_OF_SOMEONE = r"\b(?:(?P<the>the)|his|her|their)\s+"
"""What stands before a calling the text may give a name beside (`calling_given_a_name`)."""
NAME_BEFORE_CALLING = rf"{_CALLED_NAME},?\s+$"
"""A name right before that: "Deschamps, the notary", "Bertuccio, his steward" (a pattern)."""
APPOSITION_ENDS = r"\s*[,.;:!?)]|\s+(?:of|to|at|in|from|who|whom|whose)\b"
"""What ends an apposition after the calling: "Deschamps, the notary, read", not "Gregor, the
chief clerk is here" (a name called, then a sentence) (a pattern)."""
NAME_AFTER_CALLING = rf"\s+{_CALLED_NAME}\b"
"""A name right after "the" and a calling: "the notary Deschamps" (a pattern)."""
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
_KIN_NOUN = "|".join((
    "father", "mother", "son", "daughter", "brother", "sister", "uncle", "aunt", "cousin",
    "nephew", "niece", "wife", "husband", "widow", "grandfather", "grandmother", "grandson",
    "granddaughter", "stepmother", "stepfather", "guardian", "godmother", "godfather"))
DESCRIBED_BEFORE = (r"(?<![\w'’])(?P<what>(?i:a|an))\s+$"
                    r"|^\W*(?P<whose>(?:[A-Z][\w.'’-]*\s+){0,3}[A-Z][\w-]*['’]s\s+"
                    r"(?:[a-z][\w-]*\s+){0,6}[a-z][\w-]*(?=,\s*$)"
                    rf"|(?:His|Her|Their)\s+(?:[a-z][\w-]*\s+){{0,2}}(?:{_KIN_NOUN})(?=,?\s+$))"
                    r",?\s*$")
"""An indefinite article right before a name introduces someone new to the story ("the
presentation became the right of a Dr. Grant, who came consequently to reside at Mansfield"),
and so does someone's role set before the name that opens a sentence ("Henry Wimbush's
school-fellow and exact contemporary, Mr. Scogan looked far older…": Crome Yellow), or their
kinship to the one spoken of ("Her elder sister Letitia, who had a prouder style of beauty":
Brother Jacob)."""
SETTING_BEFORE = (r"^(?:In|At|On|From|By|Beside|Near|Under|Behind|Across|Inside|Outside)\s+"
                  r"(?:[a-z][\w'’-]*\s+){1,5}(?=[A-Z])")
"""A short phrase of place that opens a sentence before its subject, the name ("In her low
deck-chair Anne was nearer to lying than to sitting"): the sentence opens with that person
all the same (a pattern)."""
CONJUNCTION_BEFORE = r"(?i:\bfor)\s+(?:[\w.]+\s+)?$"
"""A word that is a preposition or a conjunction, right before a name (for)."""
COPULA_AFTER = r"\s+(?:was|is|had been|has been|became)\b"
"""A verb of being right after a name: a word before it that is also a conjunction
(CONJUNCTION_BEFORE) is one there, and the name the clause's subject, which the copula defines
("…, for Edward Ferrars was the eldest son of a man who had died very rich"), not the object
of a preposition ("the death of Henry Dashwood was a blow" stays one)."""
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
_ASIDE = (r",\s*(?:(?:I|we)\s+(?:suppose|think|believe|fancy|imagine|dare\s+say"
          r"|should\s+(?:say|think|guess))|perhaps|indeed|however|then|too|of\s+course|no\s+doubt)"
          r"\s*,")
_AGE = (r"\s*(?:(?:about|nearly|near|some|perhaps|past|over|under)\s+)?"
        r"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-[a-z]+)?|[a-z]+teen)"
        r"(?:\s+years(?:\s+old)?|\s+or\s+so)?\s*,\s*(?:--|—)?")
_AFTER_COPULA = rf"(?:\s+|(?:{_ASIDE}(?:{_AGE})?|{_AGE})\s*)"
"""What a teller puts between "was" and who someone is: an aside, an age, or both ("Moreau
was, I suppose, about fifty,--a prominent and masterful physiologist"), or only a space."""
_VAGUE_HEAD = (r"(?:man|woman|person|girl|boy|lady|gentleman|creature|fellow|soul|being|sort"
               r"|kind|thing)")
"""Nouns that say of someone only that they are a person of a sort (a vain woman, a man of
unexceptionable character)."""
DEFINING = (
    # "Harriet Smith was the natural daughter of somebody", "Jane Fairfax was an orphan, the only
    # child of …": who someone's kin are says who they are, before any apposition
    ("kin", rf"^\s+(?P<what>(?:is|was|had been|became){_AFTER_COPULA}{_DETERMINER}\s+{KIN_QUALIFIER}"
            rf"(?:[a-z-]+\s+){{0,4}}?(?:{'|'.join(sorted(KIN, key=len, reverse=True))})s?\s+of\b"
            rf"[^.;:!?\"“”]{{2,80}})"),
    # "She was Henry Wimbush's own niece" (Crome Yellow): the same, with whose kin before it
    ("kin", rf"^\s+(?P<what>(?:is|was|had been|became)\s+(?:[A-Z][\w.'’-]*\s+){{0,3}}"
            rf"[A-Z][\w'’-]*['’]s\s+{KIN_QUALIFIER}(?:[a-z-]+\s+){{0,2}}?"
            rf"(?:{'|'.join(sorted(KIN, key=len, reverse=True))})\b[^.;:!?\"“”]{{0,80}})"),
    # "Mrs. Elton was a vain woman", "Mr. Dixon, a young man, …": a person of a sort — it defines,
    # weakly: "Mr. Weston was a native of Highbury" says more
    ("copula_vague", rf"^\s+(?P<what>(?:is|was|had been|became){_AFTER_COPULA}{_DETERMINER}\s+(?:[\w-]+,?\s+){{0,4}}?"
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
    ("copula", rf"^\s+(?P<what>(?:is|was|had been|became){_AFTER_COPULA}{_DETERMINER}\s+"
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

KIN_SUBJECT = r"^(?P<owner>His|Her)\s+(?P<kin>husband|wife|father|mother)\b"
"""A sentence that opens with a relative of the person the sentence before opened with ("Mrs.
Palmer was several years younger than Lady Middleton … Her husband was a grave looking young
man"): the card reads it as said of that relative."""

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
behind beyond sweet darling precious beloved fond own silly naughty foolish clever
"""
NOT_ROLE_WORDS = frozenset(_NOT_ROLE_TEXT.split())
"""Words a role pattern catches before a name that are no role (young, poor, the late …);
the stopwords too are none (en.NOT_ROLES)."""
SURELY_APPOSED = (r"^(?:his|her|their|my|our)\s"
                  r"|^(?:the|a|an)\s+[a-z][\w-]*(?:\s+[a-z][\w-]*)?\s+of\s+(?:the\s+)?[A-ZÀ-Þ]"
                  r"|^(?:the|a|an)\s+(?:[a-z]+\s+)?(?:" + "|".join(sorted(ROLE_NOUNS)) + r")$")
"""An apposition surely about the name before it, even after a preposition: a possessive role
(her singing teacher), a role of a named thing (the proprietor of the Hôtel de Londres), or a
trade alone (consulting Mr. Perry, the apothecary)."""

REFERRING_ROLE = (r"\b[Tt]he\s+(?:[a-z]+\s+)?(?P<role>" + "|".join(sorted(ROLE_NOUNS))
                  + r")\b(?!\s+[A-Z])")
"""The banker, the old steward: a role noun standing for someone (see `Language.referring_role`)."""
