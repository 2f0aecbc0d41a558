"""What a passage's sentences say of the names in them, for the cards (`stores.card_build`):
the sentences that introduce or define a name (`Language.defining`: 「姓刘名备字玄德」, "Morrel
was the owner of the Pharaon", "Caderousse, a tailor, …"), the office written right before a
name (丞相曹操, the banker Danglars), and each name's mentions per chapter."""

from __future__ import annotations

import re
from collections.abc import Mapping

from stores.card_defining import (
    WEIGHTS,
    defines,
    described_before,
    ends_longer_name,
    governed,
    named_by_parts,
    pronoun_subject,
    role_before,
    subordinate,
)
from stores.cards import Appearance, Fact
from stores.entities.english_identity import married_names
from stores.entities.matcher import AliasMatcher
from stores.lang import clip_at, has_han
from stores.lang.en import (
    ADDRESSED_AFTER,
    APPOSITION_OPENERS,
    CONJUNCTION_BEFORE,
    COPULA_AFTER,
    ENDEARMENT_BEFORE,
    KIN_SUBJECT,
    POSSESSIVE_PRONOUNS,
    SAYS_AFTER_QUOTE,
    SAYS_AFTER_QUOTE_PATTERN,
    SAYS_BEFORE,
    SETTING_BEFORE,
)
from stores.lang.text import (
    QUOTE_MARKS,
    in_someones_words,
    in_verse,
    in_verse_lines,
    sentences,
)
from stores.models import Chunk

MAX_QUOTE = 240
"""A defining sentence longer than this is cut at a clause boundary: as long as an answer's
quote (agent/librarian/ranking.py), since an introduction often says who someone is late in the
sentence ("Charles Hayter was the eldest of all the cousins, and a very amiable, pleasing young
man, between whom and Henrietta there had been …": at 160 the cut came before Henrietta)."""
BY_PRONOUN = 0.75
"""A definition whose subject is a pronoun standing for the person the sentence before opened
with counts this much of the same definition under their name."""
BY_PRONOUN_NAMED = 0.4
"""… and for the one person the sentence before named alone elsewhere than at its start ("I
found Mrs. Mercer sitting at the fire. She was an old garrulous woman, a pawnbroker's widow"):
less, so that a definition under the name comes first (Anne Elliot's "had been a very pretty
girl", not "She was their earliest visitor")."""
SPOKEN = 0.5
"""A defining sentence inside quotation marks counts this much: the narrator's introduction
("Caderousse, a tailor, …") says who someone is more surely than a character's words."""
NAME_AGAIN = 40
"""A name written again, as written, this close after itself is repeated, not defined, by the
words between (English: a Chinese clause names its subject again, 又寻见孙权, and a courtesy name
follows the name, 马超，字孟起)."""
_VOCATIVE = re.compile(r",\s*$")
"""In a character's words, a name right after a comma and before another ("You will see,
Danglars, that…") is someone spoken to, not introduced; the narrator's (But before he had
finished, M. de Château-Renaud, a handsome young man of thirty, …) introduces."""
_CALLED = re.compile(rf"\s*[,，](?!\s*(?:{APPOSITION_OPENERS})\s)", re.I)
"""A name that opens a sentence of someone's words, a comma after it and no apposition, is the
one spoken to: “…好了么？老栓，就是运气了你！” (Laoshuan, luck is yours), “Danglars, you will
see”; it does not say who Laoshuan is ("Mrs. Smallridge, a most delightful woman!" does)."""
_ADDRESSED = re.compile(ADDRESSED_AFTER)
_ENDEARED = re.compile(ENDEARMENT_BEFORE, re.I)
_COPULA_AFTER = re.compile(COPULA_AFTER)
_CONJUNCTION = re.compile(CONJUNCTION_BEFORE)
_QUOTED = re.compile(f"[{QUOTE_MARKS}]")
_KIN_SUBJECT = re.compile(KIN_SUBJECT)
_SETTING = re.compile(SETTING_BEFORE)
_TAG_OPENS = re.compile(rf"^\W*(?:{SAYS_AFTER_QUOTE})\s+$", re.I)


def read_sentences(chunk: Chunk, matcher: AliasMatcher, defining: dict[str, list[Fact]],
                    offices: dict[str, dict[str, Fact]],
                    seen: dict[str, dict[int, Appearance]], places: Mapping[str, str],
                    genders: Mapping[str, str], narrated: set[tuple[str, int]],
                    written: dict[str, dict[str, int]],
                    relatives: Mapping[tuple[str, str], str] | None = None) -> None:
    """Count the passage's mentions; keep its sentences that define a name and the offices
    written before names. A chapter's appearance cites its first passage that names someone in
    the telling, not in a character's words (`narrated`: the (name, chapter) pairs found so):
    the story introduces its people there ("There was a numerous family; but the only two grown
    up, excepting Charles, were Henrietta and Louisa, young ladies of nineteen and twenty"), not
    in "So, there was I, crowded into the back seat with Henrietta and Louisa" before it.
    `written` takes the chapter where each name is first written in each form (name → form →
    chapter), and as one who speaks (form + SPOKEN_MARK: see `alias_chapter`). `relatives`
    ((person, husband / wife / father / mother) → their one such relative) reads a sentence that
    opens with "Her husband" after one that opened with her as said of him."""
    opened_by: str | None = None  # the one person the last sentence naming anyone named
    opened = False  # … and opened with
    subject: str | None = None  # the person it opened with, whoever else it names
    units = sentences(chunk.text, "quote")
    for index, read in enumerate(units):
        sentence = read.text
        whole = _to_sentence_end(chunk.text, units, index)
        asking = sentence.rstrip("”’\"'」』）)").endswith(("？", "?"))
        spans = matcher.find_spans(sentence)
        pronoun = pronoun_subject(sentence) if opened_by else None
        # a pronoun of their gender, or of either when the names give none (They both kissed
        # Gabriel frankly. He was their favourite nephew: Dubliners, a newcomer's trial)
        gender = genders.get(opened_by, "") if opened_by else ""
        if (opened_by and pronoun is not None and (pronoun.lastgroup or "") in (gender or "mf")
                and (weight := defines(sentence[pronoun.end():]))):
            sure = opened and gender
            defining[opened_by].append(Fact("defines", _quote(whole), chunk.id, chunk.chapter,
                                            weight * (BY_PRONOUN if sure else BY_PRONOUN_NAMED)))
        kin = _KIN_SUBJECT.match(sentence) if subject and relatives else None
        if (kin and subject and relatives
                and POSSESSIVE_PRONOUNS[kin["owner"].lower()] == genders.get(subject)
                and (relative := relatives.get((subject, kin["kin"].lower())))
                and not _QUOTED.search(sentence) and not in_someones_words(chunk.text, read.start)
                and (weight := defines(sentence[kin.end():]))):
            defining[relative].append(Fact("defines", _quote(whole), chunk.id, chunk.chapter,
                                           weight * BY_PRONOUN))
        if spans or pronoun is not None:  # a clause naming no one keeps the subject
            # the sentence opens with its first name, or with a short phrase of place before it
            opens = bool(spans) and (spans[0][0] == 0 or (
                (setting := _SETTING.match(sentence)) is not None and setting.end() == spans[0][0]))
            subject = (spans[0][2] if opens
                       and places.get(spans[0][2]) == "person" and not _QUOTED.search(sentence)
                       and not in_someones_words(chunk.text, read.start) else None)
            # … or names one person alone, wherever ("When I came downstairs again I found Mrs.
            # Mercer sitting at the fire. She was an old garrulous woman, a pawnbroker's widow":
            # Dubliners, a newcomer's trial)
            people = {name for *_, name in spans if places.get(name) == "person"}
            opened_by = (next(iter(people)) if len(people) == 1 and not _QUOTED.search(sentence)
                         and (opens or (len(spans) == 1
                                        and not in_someones_words(chunk.text, read.start)))
                         else None)
            opened = opens
        for start, end, name in spans:
            form = sentence[start:end]
            first = chunk.chapter not in seen[name]  # where a chapter introduces them
            met = not seen[name]  # where the story first names them
            written[name].setdefault(form, chunk.chapter)
            if _says(chunk.text, read.start + start, read.start + end):
                written[name].setdefault(form + SPOKEN_MARK, chunk.chapter)
            at = seen[name].get(chunk.chapter)
            verse = in_verse(sentence, start) or in_verse_lines(chunk.text, read.start + start)
            if verse:  # 风云长为护储胥: a poem's words, not 云长 appearing
                pass
            elif at is None:
                seen[name][chunk.chapter] = Appearance(chunk.chapter, 1, chunk.id, told=False)
            else:
                at.mentions += 1
            spoken = _QUOTED.search(sentence) is not None
            if (not verse and (name, chunk.chapter) not in narrated
                    and not in_someones_words(chunk.text, read.start + start)):
                narrated.add((name, chunk.chapter))
                seen[name][chunk.chapter].chunk_id = chunk.id
                seen[name][chunk.chapter].told = True
            before, after = sentence[:start], sentence[end:]
            # 王夫人宝玉: 夫人 ends another name written right before, no office of 宝玉's
            role = "" if any(e == start for _, e, _ in spans) else role_before(
                before, lambda whose: matcher.resolve(whose) is not None)
            # 荆州刺史刘表: the place an office is of, when the world knows it as a place
            place = next((s for s, e, other in spans if e == start - len(role) and
                          places.get(other) == "place"), None) if role else None
            if place is not None:
                role = sentence[place:start]
            if role:
                known = offices[name].get(role)
                if known is None:
                    offices[name][role] = Fact("office", role, chunk.id, chunk.chapter)
                else:
                    known.weight += 1
            # "a mere Mrs Smith, an every-day Mrs Smith": the name said again, not defined
            again = not has_han(sentence) and any(
                end < later <= end + NAME_AGAIN and sentence[later:stop] == sentence[start:end]
                for later, stop, _ in spans)
            # a line of verse (芳气袭人是酒香) uses a name's characters as words, defines nothing
            called = ((_CALLED.match(after) or _ADDRESSED.match(after))
                      and not before.strip(f" {QUOTE_MARKS}")
                      and in_someones_words(chunk.text, read.start + start))
            # a long speech's inner sentences have no quotation marks of their own ("And then,
            # Fanny, the glory of fixing one…": Miss Crawford, to Fanny)
            addressed = (spoken or in_someones_words(chunk.text, read.start + start)) and (
                _VOCATIVE.search(before) or _ENDEARED.search(before))
            # a description before a name introduces a person, or a place in Chinese (间壁的
            # 单四嫂子); "a London publisher" uses a place's name as a word. "A" before an
            # English name introduces them where the telling first names them ("a Dr. Grant,
            # who came to reside at Mansfield"), not later ("even a Robert Martin") nor in
            # someone's words ("A Mrs Smith.")
            told = not spoken and not in_someones_words(chunk.text, read.start + start)
            introduced = (first and places.get(name) in ("person", "place")
                          if has_han(sentence) else met and places.get(name) == "person" and told)
            # a speech tag cut off as a sentence tells how one spoke, not who they are
            # ("asked Mr. Scogan, a little impatiently.": Crome Yellow, a newcomer's trial)
            tag = _TAG_OPENS.match(before) is not None
            weight = 0.0 if (asking or verse or called or addressed or again or tag
                             or ends_longer_name(before)) else (defines(
                after, governed=governed(before) and not (
                    _CONJUNCTION.search(before) and _COPULA_AFTER.match(after)),
                clause=subordinate(before))
                or described_before(before, introduced,
                                     told and places.get(name) == "person"))
            if weight and spoken:
                weight *= SPOKEN  # a character's words, not the narrator's introduction
            if weight:
                defining[name].append(Fact("defines", _quote(whole, start), chunk.id,
                                           chunk.chapter, weight))
        # 「姓刘，名备，字玄德」 introduces 刘备 without writing his name
        for named in named_by_parts(sentence, matcher):
            defining[named].append(Fact("defines", _quote(sentence), chunk.id, chunk.chapter,
                                        WEIGHTS["courtesy"]))
        # "Miss Hamilton, now Mrs Smith": who a married woman was born (english_identity)
        for was, now in married_names(sentence):
            if (wife := matcher.resolve(now)) is not None and matcher.resolve(was) == wife:
                defining[wife].append(Fact("defines", _quote(sentence), chunk.id,
                                           chunk.chapter, WEIGHTS["married_name"]))


SPOKEN_MARK = "\u2063says"
"""Marks a form in `read_sentences`' `written` as written beside a verb of speech."""


def _says(text: str, start: int, end: int) -> bool:
    """The English name at `start`:`end` speaks ("said Monte Cristo", "Monte Cristo replied")."""
    return not has_han(text[start:end]) and (
        SAYS_BEFORE.match(text, end) is not None
        or SAYS_AFTER_QUOTE_PATTERN.search(text, max(0, start - 24), start) is not None)


def alias_chapter(written: Mapping[str, int], form: str) -> int | None:
    """The chapter from which `form` names the person (`written`: what `read_sentences` found
    for them): in English the first where it speaks, if it ever does — the island of Monte
    Cristo is written from ch. 1, the count who takes its name speaks from ch. 40 — else the
    first where it is written; None when it never is."""
    return written.get(form + SPOKEN_MARK, written.get(form))


def _to_sentence_end(text: str, units: list, at: int) -> str:
    """The unit `at` of `units` (a "quote" cut of `text`) with the rest of its sentence: the
    clauses after a semicolon say more of whom the first introduces ("Captain Harville was a
    tall, dark man, with a sensible, benevolent countenance; a little lame; …")."""
    end = at
    while end + 1 < len(units) and units[end].text.rstrip(f" {QUOTE_MARKS}").endswith(
            (";", "；")):
        end += 1
    return " ".join(text[units[at].start:units[end].end].split()) if end > at else units[at].text


def _quote(sentence: str, name_at: int = 0) -> str:
    """The sentence, cut to MAX_QUOTE characters around what defines the name at `name_at`
    (…to think that Albert de Morcerf, the most admired …: the cut keeps who he is)."""
    return clip_at(sentence, name_at, MAX_QUOTE)
