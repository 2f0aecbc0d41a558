"""A child a Chinese text names by birth order, with no parent written before the word."""

from __future__ import annotations

import re

from stores.entities.birth_order import unowned_children


def spans(text: str, names: list[str]) -> list[tuple[int, int, str]]:
    return sorted((m.start(), m.end(), name) for name in names
                  for m in re.finditer(re.escape(name), text))


def test_the_parent_is_the_one_of_the_childs_surname_named_just_before() -> None:
    # 三国演义 第74回: 关兴 came to his father's camp; the sentence before names 关公 (关羽)
    people = ["关羽", "于禁", "关兴", "刘备", "刘禅", "刘永", "曹操", "曹丕", "曹植"]
    texts = [
        "关羽自擒于禁，威震天下。忽次子关兴来寨内省亲。",
        # siblings named by birth order are children, no parents: 刘禅 is not 刘永's father
        "刘备立长子刘禅为太子，封次子刘永为鲁王。",
        # two men of the surname before the word: no one is sure
        "曹操与曹丕议事。幼子曹植入。",
    ]
    chunks = [(f"c{i}", i, t, spans(t, people)) for i, t in enumerate(texts, 1)]
    found = unowned_children(chunks, set(people))
    assert set(found) == {("关羽", "关兴", "parent_of"), ("刘备", "刘禅", "parent_of"),
                          ("刘备", "刘永", "parent_of")}
    assert found[("关羽", "关兴", "parent_of")] == [("c1", 1)]
