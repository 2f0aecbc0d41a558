"""TOML and JSON glossaries and SillyTavern lorebooks (small originals written by the tests)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stores.errors import InputError
from stores.models import LORE_CHAPTER
from stores.readers import read_document, read_glossary

GLOSSARY_TOML = """\
# The salt coast
[[entity]]
name = "林照"
aliases = ["阿照", "林姑娘", "阿照"]
type = "person"
description = "走私船的船主。"
relations = [{type = "ally", target = "沈舟"}, {type = "member-of", target = "盐帮"}]

[[entity]]
name = "沈舟"
aliases = "舟哥"
type = "character"

[[entity]]
name = "盐帮"
type = "faction"
"""


def test_toml_glossary(tmp_path: Path) -> None:
    path = tmp_path / "glossary.toml"
    path.write_text(GLOSSARY_TOML, encoding="utf-8")
    lin, shen, gang = read_glossary(path)
    assert (lin.name, lin.aliases, lin.type) == ("林照", ["阿照", "林姑娘"], "person")
    assert lin.description == "走私船的船主。"
    assert lin.relations == [("ally", "沈舟"), ("member_of", "盐帮")]
    assert (shen.aliases, shen.type) == (["舟哥"], "person")  # "character" means person
    assert gang.type == "faction" and gang.relations == []
    # The line of each name, even though 沈舟 appears earlier as a relation target.
    assert [e.source for e in (lin, shen, gang)] == [f"{path}:3", f"{path}:10", f"{path}:15"]
    doc = read_document(path)
    assert doc.kind == "glossary" and [e.name for e in doc.glossary] == ["林照", "沈舟", "盐帮"]
    # the one description is a lore entry: a passage titled with its entity, cited by its line,
    # after the whole story (no chapter given), so a spoiler horizon hides it
    (lore,) = doc.chapters
    (paragraph,) = lore.scenes[0].paragraphs
    assert (lore.number, lore.title) == (LORE_CHAPTER, "林照")
    assert (paragraph.text, paragraph.line_start, paragraph.line_end) == ("林照：走私船的船主。", 6, 6)


@pytest.mark.parametrize("shape", ["list", "entities"])
def test_json_glossary(tmp_path: Path, shape: str) -> None:
    entities = [
        {"name": "Mara", "aliases": ["the Smuggler", "Captain Mara"], "type": "person",
         "relations": [{"type": "enemy", "target": "Ilse"}]},
        {"name": "Saltgate", "type": "location", "description": "A harbour town."},
    ]
    data = entities if shape == "list" else {"entities": entities}
    path = tmp_path / "glossary.json"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    doc = read_document(path)
    assert doc.kind == "glossary"
    mara, town = doc.glossary
    assert mara.aliases == ["the Smuggler", "Captain Mara"]
    assert mara.relations == [("enemy", "Ilse")]
    assert (town.type, town.description) == ("place", "A harbour town.")
    lines = path.read_text(encoding="utf-8").split("\n")
    assert '"Saltgate"' in lines[int(town.source.rsplit(":", 1)[1]) - 1]


LOREBOOK = {
    "entries": {
        "0": {"uid": 0, "key": ["Lin Zhao", "林照"], "keysecondary": ["harbour"],
              "comment": "Lin Zhao", "content": "Captain of the Grey Heron.", "disable": False},
        "1": {"uid": 1, "key": ["Saltgate", "the salt town"], "comment": "",
              "content": "A harbour town on the salt coast."},
        "2": {"uid": 2, "key": ["Grey Heron"], "comment": "Grey Heron (item)",
              "content": "A narrow smuggling boat."},
        "3": {"uid": 3, "key": [], "comment": "", "content": "Always-on world notes."},
    }
}


def test_sillytavern_lorebook(tmp_path: Path) -> None:
    path = tmp_path / "world.json"
    path.write_text(json.dumps(LOREBOOK, ensure_ascii=False, indent=2), encoding="utf-8")
    doc = read_document(path)
    assert doc.kind == "lorebook"
    lin, town, boat = doc.glossary  # the entry without any name is not an entity
    # keys are triggers, never names: only an entry's own aliases list gives aliases
    assert (lin.name, lin.aliases, lin.type) == ("Lin Zhao", [], "other")
    assert lin.triggers == ["林照"]
    assert lin.description == "Captain of the Grey Heron."
    assert "harbour" not in lin.triggers  # secondary keys are filters, not even triggers
    assert (town.name, town.aliases, town.triggers) == ("Saltgate", [], ["the salt town"])
    assert (boat.name, boat.type) == ("Grey Heron", "item")  # the hint in the title
    lines = path.read_text(encoding="utf-8").split("\n")
    assert '"Lin Zhao"' in lines[int(lin.source.rsplit(":", 1)[1]) - 1]
    assert read_glossary(path) == doc.glossary


def test_lorebook_entries_as_list_with_keys(tmp_path: Path) -> None:
    path = tmp_path / "book.json"
    path.write_text(json.dumps({"entries": [
        {"keys": ["Ilse", "Captain Ilse"], "content": "Harbour guard.", "type": "character"},
        {"keys": "Old Zhou, 老周", "comment": "Old Zhou", "content": "Ferryman."},
    ]}), encoding="utf-8")
    ilse, zhou = read_glossary(path)
    assert (ilse.name, ilse.triggers, ilse.type) == ("Ilse", ["Captain Ilse"], "person")
    assert (zhou.aliases, zhou.triggers) == ([], ["老周"])


def test_unknown_relation_type_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('[[entity]]\nname = "林照"\nrelations = [{type = "frenemy", target = "沈舟"}]\n',
                    encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_glossary(path)
    message = str(caught.value)
    assert f"{path}:2" in message and "林照" in message and "frenemy" in message
    assert "sworn_sibling" in message  # the allowed types are listed


def test_unknown_entity_type_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('[{"name": "Mara", "type": "spaceship"}]', encoding="utf-8")
    with pytest.raises(InputError, match="spaceship") as caught:
        read_glossary(path)
    assert str(path) in str(caught.value) and "person" in str(caught.value)


def test_glossary_must_be_toml_or_json(tmp_path: Path) -> None:
    path = tmp_path / "glossary.txt"
    path.write_text("林照：船主\n", encoding="utf-8")
    with pytest.raises(InputError, match="glossary.txt"):
        read_glossary(path)


# SillyTavern's World Info export as its default "Eldoria" lorebook is written (keys that are
# common words, {{user}} / {{char}} macros), an older export, and a character card's book.
WORLD_INFO = {"entries": {
    "0": {"uid": 0, "key": ["eldoria", "forest", "wood"], "keysecondary": [], "comment": "Eldoria",
          "content": "{{user}} walks the old wood of Eldoria, a land of long forests.",
          "constant": False, "vectorized": False, "selective": True, "selectiveLogic": 0,
          "addMemo": True, "order": 100, "position": 0, "disable": False, "probability": 100,
          "useProbability": True, "depth": 4, "group": "", "displayIndex": 0},
    "1": {"uid": 1, "key": ["shadowfang", "beast", "monster"], "keysecondary": [],
          "comment": "Shadowfang", "content": "Shadowfangs are wolves made of dusk that hunt "
          "travellers.\nThey fear fire.", "constant": False, "selective": True, "disable": False},
    "2": {"uid": 2, "key": ["old rite"], "comment": "Disabled note", "content": "Unused.",
          "disable": True},
}}
OLDER_EXPORT = {"entries": [
    {"uid": 0, "keys": "Mirefen, the fen", "keysecondary": "", "comment": "",
     "content": "A marsh town where <USER> first met <BOT>.", "constant": False},
]}
CHARACTER_CARD = {"spec": "chara_card_v2", "spec_version": "2.0", "data": {
    "name": "Aria", "description": "A ranger.", "character_book": {"name": "Aria's book", "entries": [
        {"keys": ["Silverbrook", "brook"], "secondary_keys": [], "content":
         "{{char}} grew up in Silverbrook, where {{user}} later found her.", "extensions": {},
         "enabled": True, "insertion_order": 0, "name": "Silverbrook", "comment": "",
         "selective": False, "constant": False, "position": "before_char", "id": 1},
        {"keys": ["unused"], "content": "Off.", "enabled": False, "name": "Off"},
    ]}}}


@pytest.mark.parametrize(("book", "expected"), [
    (WORLD_INFO, [("Eldoria", ["eldoria", "forest", "wood"],
                   "the user walks the old wood of Eldoria, a land of long forests."),
                  ("Shadowfang", ["shadowfang", "beast", "monster"],
                   "Shadowfangs are wolves made of dusk that hunt travellers.\nThey fear fire.")]),
    (OLDER_EXPORT, [("Mirefen", ["the fen"], "A marsh town where the user first met the character.")]),
    (CHARACTER_CARD, [("Silverbrook", ["brook"], "Aria grew up in Silverbrook, where the user later "
                                                 "found her.")]),
], ids=["world-info", "older-export", "character-book"])
def test_lorebook_entries_are_lore_with_triggers_not_aliases(tmp_path: Path, book: dict,
                                                             expected: list) -> None:
    path = tmp_path / "book.json"
    path.write_text(json.dumps(book, ensure_ascii=False, indent=2), encoding="utf-8")
    doc = read_document(path)
    got = [(e.name, e.triggers, e.description) for e in doc.glossary]
    assert got == [(name, [k for k in keys if k != name], text) for name, keys, text in expected]
    assert all(e.aliases == [] for e in doc.glossary)  # "forest" never names Eldoria
    # every entry's content is a lore passage, cited by the content's line in the file
    lines = path.read_text(encoding="utf-8").split("\n")
    assert [c.title for c in doc.chapters] == [name for name, _, _ in expected]
    for chapter, entry in zip(doc.chapters, doc.glossary, strict=True):
        (paragraph,) = chapter.scenes[0].paragraphs
        assert paragraph.text.startswith(f"{entry.name}: ")
        assert '"content"' in lines[paragraph.line_start - 1]


def test_a_glossary_entry_may_say_from_which_chapter_it_may_be_read(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    path.write_text('[[entity]]\nname = "Mara"\ndescription = "A smuggler."\nchapter = 3\n\n'
                    '[[entity]]\nname = "Ilse"\ndescription = "A guard."\n', encoding="utf-8")
    mara, ilse = read_document(path).chapters
    assert (mara.number, ilse.number) == (3, LORE_CHAPTER)
    path.write_text('[[entity]]\nname = "Mara"\nchapter = "three"\n', encoding="utf-8")
    with pytest.raises(InputError, match="not a chapter number"):
        read_document(path)
