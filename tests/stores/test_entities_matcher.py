"""AliasMatcher: leftmost-longest matching, Latin word boundaries and case, resolve, speed."""

from __future__ import annotations

from pathlib import Path

from stores.entities.matcher import AliasMatcher, count_mentions
from stores.entities.patterns import courtesy_names
from stores.entities.tagger import chinese_person_names

SANGUO = {
    "玄德": "刘备", "刘玄德": "刘备", "刘皇叔": "刘备",
    "云长": "关羽", "关云长": "关羽", "长生": "关羽",
    "孔明": "诸葛亮", "诸葛孔明": "诸葛亮", "亮": "诸葛亮",
    "葛亮": "某人",  # a decoy inside 诸葛亮: must never be read there
    "诸葛": "诸葛氏",
}


def test_leftmost_longest_counts_each_mention_once() -> None:
    matcher = AliasMatcher(SANGUO)
    found = matcher.find("刘玄德三顾茅庐，诸葛亮出山；玄德大喜，孔明笑曰：诸葛孔明在此。")
    assert found == {"刘备": 2, "诸葛亮": 3}
    spans = matcher.find_spans("关云长")
    assert spans == [(0, 3, "关羽")]


def test_single_character_aliases_resolve_but_never_match() -> None:
    matcher = AliasMatcher(SANGUO)
    assert matcher.resolve("亮") == "诸葛亮"
    assert matcher.find("亮曰：天亮了。") == {}


def test_resolve_accepts_aliases_canonical_names_and_padding() -> None:
    matcher = AliasMatcher(SANGUO)
    assert matcher.resolve("玄德") == "刘备"
    assert matcher.resolve(" 云长\n") == "关羽"
    assert matcher.resolve("刘备") == "刘备"
    assert matcher.resolve("诸葛亮") == "诸葛亮"
    assert matcher.resolve("曹操") is None and matcher.resolve("  ") is None


def test_latin_aliases_need_word_boundaries() -> None:
    matcher = AliasMatcher({"Ali": "Ali", "Morrel": "Morrel", "M. Morrel": "Morrel"})
    assert matcher.find("Alibaba met Ali. Ali’s pipe; Kali and Alison") == {"Ali": 2}
    assert matcher.find("M. Morrel and Morrel's son; Morrels") == {"Morrel": 2}
    # A Latin alias next to CJK text still matches: CJK is not part of a Latin word.
    assert matcher.find("见Ali。") == {"Ali": 1}


def test_case_rules() -> None:
    matcher = AliasMatcher({"Edmond Dantès": "Edmond Dantès", "Will": "Will",
                            "The Count": "Monte Cristo", "Monte Cristo": "Monte Cristo"})
    found = matcher.find("EDMOND DANTÈS, edmond dantès and Edmond Dantès. I will go. Will came.")
    assert found == {"Edmond Dantès": 3, "Will": 1}
    # Common words in a name keep it case-sensitive: "the count" is not the Count.
    assert matcher.find("the count of the guests; The Count; MONTE CRISTO") == {"Monte Cristo": 2}
    assert matcher.resolve("edmond dantes") == "Edmond Dantès"  # case and accents folded


def test_the_and_a_title_alone_resolve_to_the_one_it_names() -> None:
    # Persuasion's "the Admiral", Sense and Sensibility's "the Colonel": the rank alone is an
    # alias of its one holder; "the" before it named no one
    matcher = AliasMatcher({"Colonel": "Colonel Brandon", "Colonel Brandon": "Colonel Brandon",
                            "the Wayfarer": "Wayfarer"})
    assert matcher.resolve("the Colonel") == matcher.resolve("the colonel") == "Colonel Brandon"
    assert matcher.resolve("the Wayfarer") == "Wayfarer"  # an alias with "the" as written
    assert matcher.resolve("the Admiral") is None and matcher.resolve("the Colonel Brandon") is None


def test_ambiguous_folded_names_do_not_resolve() -> None:
    matcher = AliasMatcher({"Rene": "René Dupont", "René": "René Martin"})
    assert matcher.resolve("René") == "René Martin"
    assert matcher.resolve("rene") is None  # two entities fold to the same key


def test_empty_matcher() -> None:
    matcher = AliasMatcher({})
    assert matcher.find("任何文字") == {} and matcher.resolve("x") is None


def test_matching_the_whole_novel_is_fast(shared_data: Path) -> None:
    files = sorted((shared_data / "sanguo_yanyi" / "chapters").glob("*.txt"))
    chapters = [f.read_text("utf-8") for f in files]
    novel = "\n".join(chapters)
    mapping = {name: name for name, count in chinese_person_names(chapters).items() if count >= 5}
    for name, aliases in courtesy_names(novel):
        mapping[name] = name
        mapping.update({alias: name for alias in aliases})
    matcher = AliasMatcher(mapping)
    found = matcher.find(novel)
    assert found["刘备"] > 1500 and found["诸葛亮"] > 1500 and found["关羽"] > 400
    assert count_mentions(matcher, chapters) == found


def test_typed_apostrophes_match_typographic_ones() -> None:
    matcher = AliasMatcher({"Château d’If": "Château d’If", "Dantès": "Edmond Dantès"})
    text = "He was taken to the Château d'If; Dantès wept."
    assert [name for _, _, name in matcher.find_spans(text)] == ["Château d’If", "Edmond Dantès"]
    assert matcher.resolve("Château d'If") == "Château d’If"


def test_a_title_written_with_or_without_its_full_stop_names_the_same_person() -> None:
    # a user writes "Mr Knightley" of Emma, whose text writes "Mr. Knightley": the title is
    # part of the mention, so "Who is Mr Knightley?" asks about him, all of the name
    m = AliasMatcher({"Mr. Knightley": "Mr. Knightley", "Knightley": "Mr. Knightley",
                      "Mrs Clay": "Mrs Clay", "Mr. Smith": "Mr. Smith", "Mr Smith": "Tom Smith"})
    assert m.find_spans("Who is Mr Knightley?") == [(7, 19, "Mr. Knightley")]
    assert m.find_spans("Mrs. Clay smiled.") == [(0, 9, "Mrs Clay")]
    # where the other form is someone's own name, it stays theirs
    assert m.find_spans("Mr Smith and Mr. Smith") == [(0, 8, "Tom Smith"), (13, 22, "Mr. Smith")]


def test_a_surname_under_a_title_its_bearer_never_goes_by_is_someone_elses() -> None:
    # Mansfield Park (a newcomer's trial): Henry Crawford goes by "Crawford"; "Admiral
    # Crawford", his uncle, was read as a mention of him, and his card quoted the Admiral's
    # vicious conduct as who Henry is. Emma: "Mrs. Knightley" is no mention of Mr. Knightley.
    m = AliasMatcher({"Henry Crawford": "Henry Crawford", "Crawford": "Henry Crawford",
                      "Mr. Crawford": "Henry Crawford", "Henry": "Henry Crawford",
                      "Knightley": "Mr. Knightley", "Mr. Knightley": "Mr. Knightley",
                      "Fanny": "Fanny Price", "Miss Price": "Fanny Price",
                      "Caderousse": "Caderousse"})
    assert m.find_spans("Admiral Crawford was a man of vicious conduct.") == []
    assert m.find_spans("Sir Henry wanted the part.") == []
    assert m.find_spans("A Mrs. Knightley for them all!") == []
    # a plain title of the bearer's own sex is theirs, and so is the name alone
    assert [n for *_, n in m.find_spans("Mr Crawford, Miss Fanny and Master Caderousse")] == [
        "Henry Crawford", "Fanny Price", "Caderousse"]
    assert [n for *_, n in m.find_spans("said Crawford to Knightley")] == [
        "Henry Crawford", "Mr. Knightley"]


def test_a_mans_full_name_after_a_wifes_title_is_no_mention_of_him() -> None:
    # Sense and Sensibility (development answers, ss-029): "Who is Mrs. Robert Ferrars?" showed
    # Robert Ferrars's card, "Edward Ferrars's brother", for his wife; in the text her name
    # counted as a mention of him
    m = AliasMatcher({"Robert Ferrars": "Robert Ferrars", "Mr. Robert Ferrars": "Robert Ferrars",
                      "Robert": "Robert Ferrars", "Lucy Steele": "Lucy Steele",
                      "Miss Lucy Steele": "Lucy Steele"})
    assert m.find_spans("Who is Mrs. Robert Ferrars?") == []
    assert [n for *_, n in m.find_spans("Mr. Robert Ferrars and Miss Lucy Steele")] == [
        "Robert Ferrars", "Lucy Steele"]


def test_a_title_alias_before_another_name_is_no_mention_of_its_bearer() -> None:
    # Persuasion (a newcomer's trial): Admiral Croft goes by "the Admiral", so "Admiral" alone
    # is his alias, and "a certain Admiral Baldwin" was cited as where he first appears
    m = AliasMatcher({"Admiral Croft": "Admiral Croft", "Admiral": "Admiral Croft",
                      "Croft": "Admiral Croft"})
    assert m.find_spans("a certain Admiral Baldwin, the most deplorable-looking personage") == []
    assert [n for *_, n in m.find_spans("Admiral Croft came. The Admiral smiled.")] == [
        "Admiral Croft", "Admiral Croft"]


def test_a_first_name_before_another_surname_is_no_mention_of_its_bearer() -> None:
    # Monte Cristo (a newcomer's trial): Andrea Cavalcanti goes by "Andrea", and "Andrea
    # Rondolo", another man, was cited as where he first appears
    m = AliasMatcher({"Andrea Cavalcanti": "Andrea Cavalcanti", "Andrea": "Andrea Cavalcanti",
                      "Julie": "Julie"})
    assert m.find_spans("the murderer, Andrea Rondolo, was taken") == []
    assert [n for *_, n in m.find_spans("Andrea Cavalcanti bowed. “Andrea,” said he. "
                                         "Andrea smiled. Julie Herbault laughed.")] == [
        "Andrea Cavalcanti", "Andrea Cavalcanti", "Andrea Cavalcanti", "Julie"]
    # a surname the world knows may be the one she married: Ann Hale is "Ann Grantley"
    m = AliasMatcher({"Ann Hale": "Ann Hale", "Ann": "Ann Hale", "Grantley": "Mr. Grantley",
                      "Mr. Grantley": "Mr. Grantley"})
    assert [n for *_, n in m.find_spans("Who is Ann Grantley?")] == ["Ann Hale", "Mr. Grantley"]


def test_a_name_that_is_a_word_is_no_mention_inside_an_idiom() -> None:
    # 关羽's first 字, 长生, in 以求长生不老之方 (ch. 105) made his card's last appearance
    # (a newcomer's trial on 三国演义); 王允 in 司徒王允, a dictionary word too, stays his
    matcher = AliasMatcher({"长生": "关羽", "云长": "关羽", "王允": "王允"})
    spans = matcher.find_spans("以求长生不老之方。司徒王允曰：“云长，长生也。”")
    assert [name for *_, name in spans] == ["王允", "关羽", "关羽"]


def test_a_name_typed_in_half_width_letters_is_found_as_the_book_prints_it() -> None:
    # 呐喊 prints 阿Ｑ and 小Ｄ in full-width letters; a user types 阿Q (a newcomer's trial: "阿Q
    # 向谁求爱？" named no one, and its likely answer was 阿Ｑ himself)
    matcher = AliasMatcher({"阿Ｑ": "阿Ｑ", "小Ｄ": "小Ｄ", "Edmond Dantès": "Edmond Dantès"})
    assert matcher.find_spans("阿Q向谁求爱？小D呢？") == [(0, 2, "阿Ｑ"), (7, 9, "小Ｄ")]
    assert matcher.find_spans("阿Ｑ向吴妈") == [(0, 2, "阿Ｑ")]
    assert matcher.find_spans("Ｅｄｍｏｎｄ Ｄａｎｔèｓ came") == [(0, 13, "Edmond Dantès")]
