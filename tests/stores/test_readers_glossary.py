"""TOML and JSON glossaries and SillyTavern lorebooks (small originals written by the tests)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stores.errors import InputError
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
    assert doc.chapters == []


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
    assert (lin.name, lin.aliases, lin.type) == ("Lin Zhao", ["林照"], "other")
    assert lin.description == "Captain of the Grey Heron."
    assert "harbour" not in lin.aliases  # secondary keys are filters, not names
    assert (town.name, town.aliases) == ("Saltgate", ["the salt town"])  # first key
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
    assert (ilse.name, ilse.aliases, ilse.type) == ("Ilse", ["Captain Ilse"], "person")
    assert zhou.aliases == ["老周"]


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
