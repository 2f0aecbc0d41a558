"""People a story calls by their calling alone are in its cast (a newcomer's trial on The
Metamorphosis: its chief clerk and its charwoman had no entity, `lore card "chief clerk"` found
no one, and after "Who is the charwoman?" the follow-up's "she" went to Mrs. Samsa)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.lore import lore

pytestmark = pytest.mark.slow  # `lore` in subprocesses


def _story(path: Path) -> Path:
    days = []
    for n in range(1, 9):
        days.append(f"On the {n}th morning Mr. Vell woke late, and Maren Vell laughed at him. "
                    f"The chief clerk came up the stairs on the {n}th morning, and the chief "
                    f"clerk knocked twice.\n\nMr. Vell shouted at the charwoman, but the charwoman "
                    f"only swept the floor and called him an old beetle.")
    path.write_text("\n\n".join(days), encoding="utf-8")
    return path


def test_a_calling_with_no_name_has_a_card_and_a_follow_up_finds_her(tmp_path: Path) -> None:
    book = _story(tmp_path / "vell.txt")
    assert lore("ingest", book, "--world", "vell").code == 0
    listed = lore("entities", "--world", "vell").out
    assert "the chief clerk" in listed and "the charwoman" in listed, listed
    card = lore("card", "chief clerk", "--world", "vell")
    assert card.code == 0 and "the chief clerk" in card.out, card.out + card.err
    first = lore("ask", "Who is the charwoman?", "--world", "vell", "--new")
    assert first.code == 0, first.err
    follow = lore("ask", "What does she call him?", "--world", "vell")
    assert "(read as: What does the charwoman call" in follow.out, follow.out
