"""English titles before and after a name, and the names a married woman goes by: who a title
makes someone (M. Morrel, Madame Danglars, Mr Elliot, Admiral Croft, Ali Pasha), as the text
writes them. Words of the language, read by stores/entities (see stores/lang/en.py, which
gives them on)."""

from __future__ import annotations

import re

UNDOTTED = {"Mr.": "Mr", "Mrs.": "Mrs", "Ms.": "Ms", "Dr.": "Dr", "Mme.": "Mme", "Mlle.": "Mlle"}
"""Abbreviated titles as a British edition writes them, without the full stop (Mr Elliot, Mrs
Clay: Persuasion); not M. (a capital letter alone) nor St. (a street as often as a saint)."""


def _undotted(titles: tuple[str, ...]) -> tuple[str, ...]:
    """The titles, each abbreviation also without its full stop."""
    return (*titles, *(UNDOTTED[t] for t in titles if t in UNDOTTED))


NAME_TITLES: dict[str, str] = {
    "M.": "m", "MM.": "m", "Mr.": "m", "Mrs.": "f", "Ms.": "f", "Dr.": "m", "Mme.": "f",
    "Mlle.": "f", "St.": "m", "Monsieur": "m", "Madame": "f", "Mademoiselle": "f", "Signor": "m",
    "Signora": "f", "Sir": "m", "Lady": "f", "Lord": "m", "Miss": "f", "Captain": "m",
    "Colonel": "m", "Baron": "m", "Baroness": "f", "Count": "m", "Countess": "f", "Abbé": "m",
    "Father": "m", "Viscount": "m", "Vicomte": "m", "Marquis": "m", "Marquise": "f",
    "Major": "m", "General": "m", "Admiral": "m", "Doctor": "m", "Prince": "m", "Princess": "f",
    # the French forms an English translation keeps (the Baronne Danglars, the Comte de Morcerf)
    "Baronne": "f", "Comte": "m", "Comtesse": "f", "Vicomtesse": "f", "Duc": "m",
    "Duchesse": "f", "Duke": "m", "Duchess": "f",
}
NAME_TITLES.update({UNDOTTED[t]: g for t, g in list(NAME_TITLES.items()) if t in UNDOTTED})
"""Titles written before a name (M. Morrel, Madame Danglars, Mr Elliot), as the text writes
them, with the gender they give the name ('m', 'f')."""
TITLES_AFTER = ("Pasha", "Bey", "Effendi", "Aga", "Agha", "Khan", "Sahib")
"""Titles written after a name (Ali Pasha): "Ali Pasha" is Ali, titled, not a first name and a
surname."""
PLACE_TITLES = ("Count", "Countess", "Viscount", "Vicomte", "Baron", "Baroness", "Marquis",
                "Marquise", "Duke", "Duchess", "Earl", "Prince", "Princess", "Comte", "Comtesse")
"""Titles held of a place, written before "of" and the place (the Count of Monte Cristo)."""
SAME_RANK = {"Comte": "Count", "Comtesse": "Countess", "Vicomte": "Viscount",
             "Vicomtesse": "Viscountess", "Baronne": "Baroness", "Duc": "Duke",
             "Duchesse": "Duchess"}
"""A rank as a translation keeps it in French → the English rank (the Comte de Morcerf is the
Count of Morcerf)."""
UNMARRIED_TITLES = _undotted(("Mademoiselle", "Mlle.", "Miss"))
"""Titles of a daughter, not a wife (Mademoiselle de Villefort is Villefort's daughter)."""
ELDEST_SON_AFTER = r",?\s+(?:(?:who\s+)?(?:was|is)\s+)?(?:the|an|his|her)\s+eldest\s+son\b"
"""What follows a man's name where the text says he is a family's eldest son (Edward Ferrars was
the eldest son of a man who had died very rich; Mr. Edward Ferrars, the eldest son of Mrs.
Ferrars): Mr. and the surname alone is his (english_men.join_mr_eldest_son)."""
ELDEST_DAUGHTER_TITLES = ("Miss",)
"""Titles that with the surname alone name a family's eldest unmarried daughter, a younger one
taking her first name (Miss Elliot is Elizabeth; Anne is Miss Anne), as English says it; French
says Mademoiselle and the first name to an only daughter too (Mademoiselle Valentine)."""
MARRIED_TITLES = _undotted(("Mrs.", "Madame", "Mme.", "Baroness", "Countess", "Signora"))
"""Titles of a married woman before her husband's name (Madame Danglars is Danglars' wife)."""
ADDRESS_TITLES = _undotted(("M.", "MM.", "Mr.", "Mrs.", "Ms.", "Mme.", "Mlle.", "Monsieur",
                            "Madame", "Mademoiselle", "Miss", "Signor", "Signora", "Sir", "Lady",
                            "Lord", "St.", "Father"))
"""Titles every grown member of a family is addressed by (M. Morrel is the father, M. Maximilian
Morrel the son); the other titles are a rank one person holds (Major Cavalcanti)."""
WIFE_RANK_TITLES = ("Baroness", "Baronne", "Countess", "Comtesse", "Marquise", "Vicomtesse",
                    "Duchess", "Duchesse")
"""A wife's title from her husband's rank: the Marquise de Saint-Méran is Madame de Saint-Méran
when the family has one Madame."""
WIFE_TITLES = _undotted(("Mrs.", "Madame", "Mme."))
"""A married woman's title of address."""
WIFE_BY_HIS_NAME = _undotted(("Mrs.",))
"""An English wife's title, which stands before her husband's name, his first name too: Mrs
Charles is Charles's wife (Persuasion), Mrs. John Knightley John Knightley's. (Madame Héloïse is
Héloïse herself.)"""
BECAME_WIFE = (r"(?P<was>(?:(?:Miss|Mademoiselle|Mlle\.?)\s+)?[A-Z][a-zà-ÿ]+(?:\s+[A-Z][a-zà-ÿ]+)?)"
               r"(?P<between>,\s+now\s+|\s(?:[^.;:!?\"“”]{0,80}?\s)?(?:by\s+becoming|became|"
               r"had\s+become|has\s+become)\s+)"
               r"(?P<now>(?:Mrs\.?|Madame|Mme\.?)\s+[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)")
"""A woman and the married name the text says she took: "Miss Hamilton, now Mrs Smith"; "Mary
had acquired a little artificial importance, by becoming Mrs Charles Musgrove"."""
MAIDEN_THAT_WAS = (r"(?P<now>(?:Mrs\.?|Madame|Mme\.?)\s+[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)"
                   r"(?P<between>\s*[(,]\s*(?:[a-z]+\s+)?)"
                   r"(?P<was>(?:Miss|Mademoiselle|Mlle\.?)\s+[A-Z][a-zà-ÿ]+(?:\s+[A-Z][a-zà-ÿ]+)?)"
                   r"\s+that\s+was\b")
"""A married name and the maiden name it was, the idiom's way: "Mrs. Weston (poor Miss Taylor
that was)"."""
_TITLE_WORDS = "|".join(re.escape(t) for t in sorted(
    {*NAME_TITLES, *PLACE_TITLES}, key=len, reverse=True))
_NAMED = (rf"(?:(?:{_TITLE_WORDS})\s+(?:(?:of|de|d’|d')\s*)?)?(?:(?:de|d’|d')\s*)?"
          r"[A-ZÀ-Þ][\w’'-]+(?:\s+(?:(?:de|d’|d')\s*)?[A-ZÀ-Þ][\w’'-]+){0,2}")
SAME_PERSON = (
    rf"(?P<a>{_NAMED})[^.;:!?\"“”A-ZÀ-Þ]{{0,60}}?\bunder\s+the\s+name\s+of\s+(?P<b>{_NAMED})",
    rf"(?P<told>(?P<a>{_NAMED}),\s+or\s+rather,?\s+(?P<b>{_NAMED}))",
    rf"(?<![Oo]f )(?<![Tt]o )(?<![Bb]y )(?<![Ww]ith )(?<![Ff]rom )(?P<a>{_NAMED}),\s+"
    rf"(?:(?:otherwise|also|commonly|familiarly|usually|better)\s+)?"
    rf"(?:called|nicknamed|surnamed|known\s+as|alias)\s+(?:the\s+)?(?P<b>{_NAMED})(?=[\s,.;:!?])",
)
"""Two names the text says are one person's: "Dantès next proceeded thither, and, under the
name of Lord Wilmore"; "to recognize the Count of Morcerf under the name of Fernand"; "the
arrest of Andrea Cavalcanti, or rather Benedetto"; "Peppino, otherwise called Rocca Priori"
(patterns; no other name, quotation mark or sentence end between the two; a name after "of"
or "to" is not the one the words after the comma call: "the officer in the service of Ali
Tepelini, named Fernand Mondego"). Group `told`: only the telling says it so (a character's "M. de
Villefort, or rather, Mademoiselle Valentine, — or, still rather, our friend Franz, inherits"
corrects whom they mean)."""
SAME_PERSON_WORDS = r" rather|the name of|called|named|known as|alias"
"""A word one of SAME_PERSON's patterns needs: lines without one are not matched at all."""
ELDEST_DAUGHTER = (r"\b(?P<name>[A-Z][a-z]+),\s+(?:the|this|her|his|their)\s+(?:eldest|oldest)\s+"
                   r"(?:daughter|girl|sister)\b"
                   r"|\b(?:the|her|his|their)\s+(?:eldest|oldest)\s+(?:daughter|girl|sister),\s+"
                   r"(?P<name2>[A-Z][a-z]+)\b(?![\w'’-]|\s+[A-Z])")
"""A woman the telling calls the eldest daughter in so many words, by her first name: "Elinor,
this eldest daughter, whose advice was so effectual", "their eldest daughter, Maria" (a
pattern)."""
NOT_YET = re.compile(r"\b(?:will|would|shall|should|might|may|could|if|wish\w*|hope\w*|never|"
                     r"not)\b", re.I)
"""Words that make a marriage one to come, wished or denied ("Mercédès will have become Madame
Dantès")."""
SERVICE_RANKS = ("Admiral", "General", "Colonel", "Major", "Captain")
"""A rank in the army or the navy: a man's own, not passed to a son as a noble's title is (the
Vicomte de Morcerf is the count's son), so Mrs Croft is Admiral Croft's wife when no Mr Croft
is written."""
CALLING_TITLES = _undotted(("Dr.", "Doctor"))
"""A man's title of his calling: his own, as a rank is (SERVICE_RANKS), so Mrs. Grant is Dr.
Grant's wife when no Mr. Grant is written (Mansfield Park)."""
KNIGHTED_TITLES = ("Sir",)
PLAIN_TITLES = _undotted(("Mr.", "Mrs.", "Miss", "Ms.", "Master", "M.", "Monsieur", "Madame",
                          "Mme.", "Mademoiselle", "Mlle.", "Signor", "Signora"))
"""Titles of plain address, which anyone of their sex may be called by (Master Caderousse, Miss
Fanny)."""
OWN_NAME_TITLES = (*PLAIN_TITLES, *_undotted(("Dr.", "Sir", "Lady", "Lord")), *SERVICE_RANKS)
"""Titles before a name the AliasMatcher reads (`AliasMatcher._titled_apart`): a plain one of the
other sex, or a rank, a knight's or a doctor's title that none of a person's names bears, makes
a form the world does not know someone else's (Mrs. Knightley, Admiral Crawford). Not a peer's
or a cleric's title, which the text writes before the one man's name in passing (Count Andrea,
Abbé Faria)."""
"""The title of a knight or a baronet, written before his first name (Sir Walter, Sir Walter
Elliot): the text never calls him Mr. and his surname, which is another man of the family."""
COMMON_TITLES = _undotted(("Mr.", "M.", "Monsieur", "Signor"))
"""A man's title of address below any rank."""
PARTICLES = ("de", "du", "des", "d'", "d’", "la", "le", "van", "von", "di", "da", "del")
"""Nobiliary particles inside a name (Monsieur de Villefort, Albert de Morcerf)."""

TITLES_ALONE = {
    "m": "Count|Baron|Abbé|Abbe|Captain|General|King|Prince|Duke|Marquis|Emperor|Pope|Cardinal|"
         "Major|Colonel|Doctor|Governor|Mayor|Lord|Sultan|Pasha|Vizier|Earl|Viscount",
    "f": "Countess|Baroness|Queen|Princess|Duchess|Marquise|Empress|Lady",
}
"""Titles that name a person alone (the Count, the Queen), by gender, as alternations."""

LADY_TITLES = ("Lady",)
"""A woman's title that may come of her husband's rank (Lady Bertram is Sir Thomas's wife)."""
LADY_HUSBAND_TITLES = ("Sir", "Lord")
"""What the husband of "Lady" and a surname is called by: a knight's or a lord's wife is Lady
Bertram (Sir Thomas Bertram's), a Mr.'s is Mrs. (Lady Catherine, a given name, is an earl's
daughter and says nothing of a husband)."""
