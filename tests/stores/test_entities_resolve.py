"""build_entities over the real 三国演义, the ambiguity rule, source priority and co-occurrence."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from stores.config import EntitySettings
from stores.entities.kinds_by_use import places_by_use, type_by_use
from stores.entities.matcher import AliasMatcher, alias_map
from stores.entities.resolve import (
    Candidate,
    build_entities,
    cooccurrence,
    merge_candidates,
    resolve_entities,
)
from stores.models import Entity, GlossaryEntry


def paragraphs(shared_data: Path, first: int, last: int) -> list[str]:
    """Chapters first..last chunked naively: one chunk per paragraph (one per line)."""
    chunks = []
    for number in range(first, last + 1):
        path = shared_data / "sanguo_yanyi" / "chapters" / f"{number:03d}.txt"
        chunks += [line for line in path.read_text("utf-8").splitlines() if line.strip()]
    return chunks


@pytest.fixture(scope="module")
def first_forty(shared_data: Path) -> list[Entity]:
    return build_entities([], paragraphs(shared_data, 1, 40), Counter(), EntitySettings())


def by_name(entities: list[Entity]) -> dict[str, Entity]:
    return {entity.name: entity for entity in entities}


def test_aliases_resolve_after_forty_chapters(first_forty: list[Entity]) -> None:
    matcher = AliasMatcher(alias_map(first_forty))
    for alias, name in [("玄德", "刘备"), ("云长", "关羽"), ("孔明", "诸葛亮"),
                        ("刘玄德", "刘备"), ("关云长", "关羽"), ("翼德", "张飞")]:
        assert matcher.resolve(alias) == name, alias
    assert matcher.find("玄德与云长同至，见孔明。") == {"刘备": 1, "关羽": 1, "诸葛亮": 1}


def test_tagged_names_merge_into_known_people(first_forty: list[Entity]) -> None:
    entities = by_name(first_forty)
    assert entities["曹操"].mentions > 300 and "tagger" in entities["曹操"].sources
    assert entities["刘备"].sources[0] == "pattern" and entities["刘备"].type == "person"
    assert entities["刘备"].mentions > entities["曹操"].mentions  # 玄德 counts for 刘备
    names = set(entities)
    assert not names & {"玄德", "云长", "孔明", "刘玄德", "关云长", "张翼德"}
    assert all(e.mentions >= 5 for e in first_forty if e.sources == ["tagger"])


def test_speaker_named_by_alias_merges() -> None:
    texts = ["姓刘，名备，字玄德。", "玄德曰：善。"] * 3
    entities = by_name(build_entities([], texts, Counter({"玄德": 3, "探子": 2}),
                                      EntitySettings()))
    assert entities["刘备"].sources == ["pattern", "speaker"]
    assert "玄德" not in entities and entities["探子"].sources == ["speaker"]


def test_a_surnames_name_that_speaks_little_and_is_written_often_is_a_person() -> None:
    # 关平 speaks 3 times in 三国演义 and is written 75: the tagger takes him for a noun
    story = ["关平曰：“父亲且住。”", "关平随着关公而行。" * 20, "关平曰：“愿往。”",
             "从人曰：“是。”", "从人曰：“诺。”", "从人牵马。" * 20, "探子报说。" * 20]
    settings = EntitySettings()
    entities = by_name(build_entities([], story, Counter(), settings))
    assert entities["关平"].type == "person" and entities["关平"].sources == ["tagger"]
    assert "从人" not in entities  # attendants, not anyone
    # said twice and written twice: no name yet
    assert "关平" not in by_name(build_entities([], story[:1] * 2, Counter(), settings))


def test_ambiguous_alias_is_dropped_from_both() -> None:
    entities, conflicts = merge_candidates([
        Candidate("郭嘉", "pattern", ["奉孝", "郭奉孝"], "person"),
        Candidate("刘理", "pattern", ["奉孝", "刘奉孝"], "person"),
    ])
    found = by_name(entities)
    assert found["郭嘉"].aliases == ["郭奉孝"] and found["刘理"].aliases == ["刘奉孝"]
    assert [(c.alias, c.claimants, c.kept_by) for c in conflicts] == [
        ("奉孝", ["刘理", "郭嘉"], None)]


def test_glossary_wins_a_conflict() -> None:
    glossary = [GlossaryEntry(name="郭嘉", aliases=["奉孝"], type="person",
                              description="曹操的谋士", source="world.toml:3")]
    texts = ["姓郭，名嘉，字奉孝。", "次刘理，字奉孝。", "奉孝曰：可。"]
    build = resolve_entities(glossary, texts, Counter(), EntitySettings())
    found = by_name(build.entities)
    assert "奉孝" in found["郭嘉"].aliases and "奉孝" not in found["刘理"].aliases
    assert found["郭嘉"].sources == ["glossary", "pattern"]
    assert found["郭嘉"].description == "曹操的谋士"
    assert [(c.alias, c.kept_by) for c in build.conflicts] == [("奉孝", "郭嘉")]
    assert AliasMatcher(alias_map(build.entities)).resolve("奉孝") == "郭嘉"


def test_an_entity_name_is_never_another_entitys_alias() -> None:
    entities, conflicts = merge_candidates([
        Candidate("关羽", "glossary", ["关公"]),
        Candidate("关公", "glossary", []),  # declared as its own entity after the fact
        Candidate("关公", "tagger"),
    ])
    found = by_name(entities)
    assert found["关羽"].aliases == [] and found["关公"].sources == ["glossary", "tagger"]
    assert conflicts[0].kept_by == "关公"


def test_whole_novel(shared_data: Path) -> None:
    texts = paragraphs(shared_data, 1, 120)
    entities = build_entities([], texts, Counter(), EntitySettings(min_mentions=5))
    assert 300 <= len(entities) <= 900
    found = by_name(entities)
    assert "仲达" in found["司马懿"].aliases and "伯言" in found["陆逊"].aliases
    assert "奉孝" not in found["郭嘉"].aliases  # shared with 刘理 in the text
    # 蜀汉后主刘禅 … 故乳名阿斗: a ruler title and a childhood name the text ties to him
    assert {"后主", "阿斗"} <= set(found["刘禅"].aliases)
    # 魏主 stands before 曹睿, 曹芳, 曹髦 and 曹丕: nobody's alias
    assert all("魏主" not in e.aliases for e in entities)
    # 温侯吕布: a noble's title the passages that use it name its holder in (吕布 in all);
    # 魏王曹丕 is no alias, for 魏王's passages name 曹操 more
    assert "温侯" in found["吕布"].aliases
    assert all("魏王" not in e.aliases for e in entities)


def test_cooccurrence_weights_chapters_and_evidence() -> None:
    chunks = [("c1", 1, ["刘备", "关羽", "张飞"]),
              ("c2", 1, ["关羽", "刘备"]),
              ("c3", 3, ["刘备", "关羽", "关羽"]),
              ("c4", 2, ["张飞", "曹操"])]
    relations = {(r.source, r.target): r for r in cooccurrence(chunks)}
    assert set(relations) == {("关羽", "刘备")}  # the others share one chunk only
    edge = relations[("关羽", "刘备")]
    assert (edge.type, edge.weight, edge.chapters, edge.evidence) == (
        "co_occurs", 3.0, [1, 3], ["c1", "c2", "c3"])
    assert len(cooccurrence(chunks, min_weight=1)) == 4  # 刘关 刘张 关张 张曹


def test_cooccurrence_keeps_the_first_ten_chunks() -> None:
    cast = [f"人物{i}" for i in range(60)]
    chunks = [(f"c{i}", i // 15 + 1, [cast[(i + k) % 60] for k in range(5)])
              for i in range(1800)]
    relations = cooccurrence(chunks)
    edge = next(r for r in relations if (r.source, r.target) == ("人物0", "人物1"))
    shared = [(cid, ch) for cid, ch, names in chunks if "人物0" in names and "人物1" in names]
    assert edge.evidence == ["c0", "c57", "c58", "c59", "c60", "c117", "c118", "c119", "c120",
                             "c177"]
    assert edge.weight == len(shared) == 120
    assert edge.chapters == sorted({ch for _, ch in shared})
    assert all(r.weight >= 2 for r in relations)


def test_english_world_groups_titles_and_first_names(shared_data: Path) -> None:
    files = sorted((shared_data / "monte_cristo" / "chapters").glob("*.txt"))[:5]
    texts = [p for f in files for p in f.read_text("utf-8").split("\n\n") if p.strip()]
    entities = build_entities([], texts, Counter(), EntitySettings())
    matcher = AliasMatcher(alias_map(entities))
    assert matcher.resolve("Dantès") == matcher.resolve("Edmond") == "Edmond Dantès"
    # one person, who goes by the form these five chapters write most (M. Morrel)
    assert matcher.resolve("Morrel") == matcher.resolve("M. Morrel") == "M. Morrel"
    assert by_name(entities)["Edmond Dantès"].type == "person"
    assert matcher.find("“Edmond!” cried Mercédès; Dantès turned.") == {
        "Edmond Dantès": 2, "Mercédès": 1}

    # Marseilles follows "at", "from", "reached" …; Mercédès, as untyped, never does
    assert by_name(entities)["Marseilles"].type == "place"
    assert by_name(entities)["Mercédès"].type != "place"


def test_english_pet_names_and_titled_forms_join_the_person(shared_data: Path) -> None:
    folder = shared_data / "pride_and_prejudice" / "chapters"
    texts = [p for f in sorted(folder.glob("*.txt")) for p in f.read_text("utf-8").split("\n\n")
             if p.strip()]
    entities = build_entities([], texts, Counter(), EntitySettings())
    matcher = AliasMatcher(alias_map(entities))
    assert {matcher.resolve(n) for n in ("Lizzy", "Eliza", "Miss Elizabeth", "Elizabeth")} == {
        "Elizabeth Bennet"}
    assert matcher.resolve("Lady Catherine") == "Lady Catherine de Bourgh"
    assert matcher.resolve("Sir William") == "Sir William Lucas"
    assert matcher.resolve("Miss De Bourgh") == matcher.resolve("Miss de Bourgh")
    # Mr. Darcy's name takes a title of its own: Miss Darcy is his sister, not him
    assert matcher.resolve("Miss Darcy") != matcher.resolve("Darcy")
    # a sister by her first name and the family's (once or twice in the book) is that sister
    assert matcher.find("Lydia Bennet and Jane Bennet") == {"Lydia Bennet": 1, "Jane": 1}
    # the Miss Bennets are the sisters together: no one person a "she" may mean
    assert by_name(entities)["Miss Bennets"].type != "person"


def test_places_are_names_written_after_words_of_place() -> None:
    text = ("He sailed from Elba to Marseilles. At Marseilles he met Caderousse. "
            "Caderousse spoke of Elba. In Marseilles Caderousse drank. Caderousse left Elba "
            "behind, and reached Marseilles at dusk; from Elba came no word.")
    people = [Entity(name=n) for n in ("Elba", "Marseilles", "Caderousse")]
    people.append(Entity(name="Dantès", type="person", aliases=["Edmond"]))
    kinds = {e.name: e.type for e in type_by_use(people, text + " at Dantès, at Edmond.")}
    assert kinds == {"Elba": "place", "Marseilles": "place", "Caderousse": "other",
                     "Dantès": "person"}  # a person stays a person


def test_chinese_names_the_text_goes_to_are_places() -> None:
    # 呐喊's 鲁镇 and 三国演义's 许昌 were people (the tagger's): 到鲁镇, 回许昌; 投 and 攻 are
    # said of people too (投曹操), and a glossary's name keeps its type
    text = "我到鲁镇去。在鲁镇住。从鲁镇来。鲁镇的戏好。曹操回许昌。玄德投曹操。攻曹操。曹操笑。"
    names = [Entity(name=n, type="person", sources=[source])
             for n, source in (("鲁镇", "tagger"), ("曹操", "tagger"), ("许昌", "glossary"))]
    kinds = {e.name: e.type for e in places_by_use(names, text + "到许昌。在许昌。")}
    assert kinds == {"鲁镇": "place", "曹操": "person", "许昌": "person"}
    # a name ending in a word for a place needs two such uses, another name three (a newcomer's
    # trial: 呐喊's 赵庄 was a person, written five times, twice after 到 and 离)
    text = "到赵庄去看戏。离赵庄五里。赵庄很大。赵庄好。到老栓家。离老栓远。老栓笑。"
    names = [Entity(name=n, type="person", sources=["tagger"]) for n in ("赵庄", "老栓")]
    assert {e.name: e.type for e in places_by_use(names, text)} == {"赵庄": "place",
                                                                    "老栓": "person"}
    # a classical text goes into a town (入寿春) and writes its walls (陈仓城): 寿春, 陈仓 and
    # 安众 were people of 三国演义 (a newcomer's trial)
    text = "袁术入寿春。寿春城中大乱。兵至寿春。寿春，淮南之地。陈仓城坚。魏延至陈仓。攻陈仓。"
    names = [Entity(name=n, type="person", sources=["tagger"]) for n in ("寿春", "陈仓", "袁术")]
    assert {e.name: e.type for e in places_by_use(names, text + "回陈仓。陈仓道口。")} == {
        "寿春": "place", "陈仓": "place", "袁术": "person"}


def test_english_names_the_text_has_speak_are_people() -> None:
    text = ("“Where is he?” said Mercédès. Mercédès cried out. “Gone,” returned Julie, and "
            "Julie asked again. The Pharaon returned to Marseilles. “Look,” said the Pharaon's "
            "mate. The Carnival began and the Carnival continued; Marseilles replied nothing.")
    names = [Entity(name=n) for n in ("Mercédès", "Julie", "Pharaon", "Carnival", "Marseilles")]
    kinds = {e.name: e.type for e in type_by_use(names, text)}
    # "returned" after a quote is speech, after a ship's name it is not; "began" never is;
    # Marseilles "replied" once, which is not enough
    assert kinds == {"Mercédès": "person", "Julie": "person", "Pharaon": "other",
                     "Carnival": "other", "Marseilles": "other"}


def test_an_english_name_the_telling_calls_a_person_is_a_persons() -> None:
    # The Island of Doctor Moreau (a newcomer's trial): M'ling and Helmar were "other", so a
    # follow-up's "he" skipped them
    text = ("There was a man named Helmar in the boat. M'ling, the black-faced man, came in. "
            "M'ling flung himself down. We saw it in M'ling's face. "
            "Paris, a friend of mine is going there. I went into Paris, slept at Paris, lived in Paris. "
            "Osric, a quiet fellow, was all we knew of Osric.")
    names = [Entity(name=n) for n in ("Helmar", "M'ling", "Paris", "Osric")]
    kinds = {e.name: e.type for e in type_by_use(names, text)}
    # a person noun giving the name counts twice, an apposition or "himself" once: Osric's
    # one apposition, like Paris's false one, is not enough; and Paris is written as a place
    assert kinds == {"Helmar": "person", "M'ling": "person", "Paris": "place", "Osric": "other"}
    # a hyphened name whose last part is a person noun is someone: the Leopard-man was "other",
    # and "Who killed him?" after "Who chased the Leopard-man?" read as Montgomery
    beasts = [Entity(name=n) for n in ("Leopard-man", "Hyena-swine")]
    assert {e.name: e.type for e in type_by_use(beasts, "The Leopard-man ran. The Hyena-swine "
                                                        "ran.")} == {
        "Leopard-man": "person", "Hyena-swine": "other"}
    # her own arm, her father's arm after a verb: someone's (The Metamorphosis: Grete, who
    # speaks by no verb of speech, was "other", her card empty and "she" never her)
    text = ("Grete had put her arm around her mother. Grete now and then pressed her face "
            "against her father's arm. We sailed to Corvo; the sea rose at Corvo, her cliffs white.")
    kinds = {e.name: e.type for e in type_by_use([Entity(name="Grete"), Entity(name="Corvo")],
                                                 text)}
    assert kinds == {"Grete": "person", "Corvo": "other"}


def test_a_name_spoken_to_with_a_face_or_owned_as_kin_is_a_persons() -> None:
    # Heart of Darkness (a newcomer's trial): Marlow, who tells the tale, and Kurtz's Intended
    # were "other", so "he" and "she" after "Who is Marlow?" / "Who is Kurtz's Intended?" read
    # no one. Marlow speaks by a verb once; he is spoken to, and his face appears
    text = ('"And this also," said Marlow suddenly. "Try to be civil, Marlow," growled a voice. '
            "A match flared, and Marlow's lean face appeared. It was just like Marlow. "
            "He spoke of his Intended; 'My Intended,' he said. He lost his Intended. "
            "Write, Paris, the city. You have Inspiration; find your Inspiration, your Inspiration.")
    names = [Entity(name=n) for n in ("Marlow", "Intended", "Paris", "Inspiration")]
    kinds = {e.name: e.type for e in type_by_use(names, text)}
    # a comma before a name and no closing mark after it is no one spoken to (Paris); an
    # abstraction owned (your Inspiration) is nobody: only a word for a person or kin is
    assert kinds == {"Marlow": "person", "Intended": "person", "Paris": "other",
                     "Inspiration": "other"}


def test_a_titled_name_written_after_the_is_a_things() -> None:
    # Doctor Moreau's ship was carded as a person ("who Lady Vain is")
    text = ('The Lady Vain was lost. We left the "Lady Vain" at dawn. Of the Lady Vain nothing '
            "more was heard. Lady Bertram smiled; Lady Bertram slept. The day Lady Bertram came.")
    names = [Entity("Lady Vain", "person", sources=["tagger"]),
             Entity("Lady Bertram", "person", sources=["tagger"])]
    assert {e.name: e.type for e in type_by_use(names, text)} == {
        "Lady Vain": "other", "Lady Bertram": "person"}


def test_an_english_name_that_is_a_common_given_name_is_a_persons() -> None:
    # Sense and Sensibility's Fanny (48 times, never with a verb of speech) and Emma's
    # Elizabeth Martin were "other"; Udolpho, a novel's title, is no one's given name
    text = ("Fanny had been in town two days. It was Fanny's doing. Elizabeth Martin wrote. "
            "She read Udolpho, and Udolpho frightened her.")
    names = [Entity(name=n) for n in ("Fanny", "Elizabeth Martin", "Udolpho", "Betsey")]
    kinds = {e.name: e.type for e in type_by_use(names, text + " Betsey ran in.")}
    assert kinds == {"Fanny": "person", "Elizabeth Martin": "person", "Udolpho": "other",
                     "Betsey": "person"}


def test_an_english_name_a_word_of_place_ends_or_opens_is_a_place() -> None:
    # Northanger Abbey's Blaize Castle and the abbey itself were "other" (a newcomer's trial);
    # a speaker named so is still a person
    text = ("They drove towards Blaize Castle. Northanger Abbey was old. \"No,\" said Mount "
            "Holly. Mount Holly laughed. \"Yes,\" said Mount Holly.")
    names = [Entity(name=n) for n in ("Blaize Castle", "Northanger Abbey", "Mount Holly")]
    kinds = {e.name: e.type for e in type_by_use(names, text)}
    assert kinds == {"Blaize Castle": "place", "Northanger Abbey": "place",
                     "Mount Holly": "person"}


def test_a_person_only_by_its_first_word_that_the_text_goes_to_is_a_place() -> None:
    # Sense and Sensibility (a newcomer's trial): Combe Magna, a person because its first
    # word "Combe" joined it, asked "who" it was; it is Willoughby's seat
    text = ("Mr. Willoughby of Combe Magna. He rode into Combe Magna and stayed at Combe Magna; "
            "from Combe Magna he wrote. Combe Magna is in Somersetshire. \"Well,\" said Mr. "
            "Willoughby. He drove to Willoughby's inn, at Willoughby's door, near Willoughby.")
    names = [Entity(name="Combe Magna", type="person", aliases=["Combe"]),
             Entity(name="Willoughby", type="person", aliases=["Mr. Willoughby"]),
             Entity(name="Edward", type="person")]
    kinds = {e.name: e.type for e in type_by_use(names, text + " at Edward, from Edward, near "
                                                        "Edward.")}
    # a titled man, and a given name, stay people however they are written
    assert kinds == {"Combe Magna": "place", "Willoughby": "person", "Edward": "person"}


def test_a_known_name_with_a_verb_glued_before_it_is_no_new_name(monkeypatch) -> None:
    # a vernacular novel's 见金桂 ("saw 金桂") came out of the words no dictionary knows as a
    # person of its own, and took 金桂's mentions; 方玄绰 (a surname before 玄绰) is a name
    from stores.entities import resolve

    monkeypatch.setattr(resolve, "chinese_unknown_names", lambda texts, least: [
        ("见金桂", "person"), ("方玄绰", "person"), ("闰土", "person")])
    speakers = Counter({"金桂": 6, "玄绰": 6})
    names = {c.name for c in resolve.gather_candidates([], ["金桂道：“好。”"] * 6, speakers,
                                                       EntitySettings())}
    assert {"金桂", "方玄绰", "闰土"} <= names and "见金桂" not in names


def test_a_first_name_goes_by_the_full_name_the_book_gives_it_once() -> None:
    # Crome Yellow (a newcomer's trial): "Mary Bracegirdle" is written once, where the book
    # introduces her, and Mary 129 times; `lore card "Mary Bracegirdle"` found no one
    story = ["On his other side the serious face of Mary Bracegirdle shone pink.",
             *[f'"It is late," said Mary. Mary went to the window; it was {n}.' for n in
               ("one", "two", "three")],
             "Ivor sang. Ivor laughed at Mary.", '"Come," said Ivor.', '"Yes," said Ivor.',
             "Ivor went out. Ivor rode to Gobley.",
             "Ivor Smith was there, and Ivor Lombard too.", "London was far. In London it rained.",
             "They went to London. London was grey.", "She read the London Weekly."]
    entities = by_name(build_entities([], story, Counter(), EntitySettings(min_mentions=4)))
    assert "Mary" in entities["Mary Bracegirdle"].aliases
    # two full names begin with Ivor: which one he is, the book does not say; a place keeps
    # its name
    assert "Ivor" in entities and "London" in entities
    # Northanger Abbey: "Anne Mitchell had tried to put on a turban like mine", in a letter,
    # is no Anne Thorpe; Monte Cristo: Charles I, Charles X … are kings, no Charles Leboucher
    story = [*[f'"Not {n}," said Anne. Anne ran off; Charles II was king, and Charles X.'
               for n in ("now", "yet", "today", "ever", "here")],
             "Anne Mitchell had tried to put on a turban like mine.",
             "He received Charles Leboucher there."]
    entities = by_name(build_entities([], story, Counter(), EntitySettings(min_mentions=4)))
    assert "Anne" in entities and "Anne Mitchell" not in entities
    assert "Charles Leboucher" not in entities


def test_a_calling_the_story_gives_no_name_is_a_person_of_its_cast() -> None:
    # The Metamorphosis never names its chief clerk or its charwoman: `lore card "chief clerk"`
    # found no one, and a follow-up's "she" after "Who is the charwoman?" went to Mrs. Samsa
    # (a newcomer's trial)
    story = []
    for n in range(8):
        story += [f"Mr. Vell woke late on day {n}. Maren Vell laughed at him.",
                  f"The chief clerk came to the door on day {n}, and the chief clerk waited.",
                  f"Osric, the steward, counted the sheep. The steward went to the barn on day {n}.",
                  f"Mr. Vell shouted at the charwoman on day {n}; the charwoman did not care.",
                  f"Mr. Roux poured the wine on day {n}, and the innkeeper smiled.",
                  f"When the manager, escorted by the pilgrims, came on day {n}, the manager "
                  f"was never ill."]
    entities = by_name(build_entities([], story, Counter(), EntitySettings(min_mentions=4)))
    assert entities["the chief clerk"].type == "person"
    # Heart of Darkness's manager, never named (a newcomer's trial): "When", opening a
    # sentence before "the manager,", is no name the text gives him
    assert entities["the manager"].type == "person"
    assert entities["the chief clerk"].aliases == ["chief clerk"]
    assert entities["the chief clerk"].mentions == 16
    # a woman's calling is no man's, though he is named beside her every time
    assert entities["the charwoman"].type == "person"
    # the text gives the steward a name: the calling is his, no one of its own; and the
    # innkeeper is always where Mr. Roux is, and he seldom elsewhere: it stands for him
    assert "the steward" not in entities and "the innkeeper" not in entities


def test_an_oath_is_no_one() -> None:
    # Heart of Darkness (a newcomer's trial): "By Jove!" made Jove an entity, and a follow-up's
    # "there" was read as him
    story = [f"By Jove! Marlow said on day {n}, and Marlow laughed; by Jove, it was hot."
             for n in range(5)]
    entities = by_name(build_entities([], story, Counter(), EntitySettings(min_mentions=4)))
    assert "Marlow" in entities and "Jove" not in entities
