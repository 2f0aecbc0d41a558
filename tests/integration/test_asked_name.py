""""Who is X?" where X is no name the world knows but holds two that it does: the given name
names the person, not the surname a family shares. "Who is Isabella Knightley?" (a newcomer's
trial on Emma: Isabella married John Knightley) was answered with Mr. Knightley's card, the
longer of the two names."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.lore import asked_new, ingested

# Every test here runs `lore` in a subprocess: slow (pyproject.toml), not in the fast subset.
pytestmark = pytest.mark.slow

CHAPTERS = {
    "01.txt": """Chapter 1. The Vicarage

Ann Hale was the elder daughter of the house at Ashford. Ann rode to town every Monday, and Ann
brought back the letters. Mr. Grantley was the vicar of Ashford. Mr. Grantley preached on Sundays,
and Mr. Grantley visited the sick. Ann liked his sermons.

Ann Hale walked to the church with her sister. Mr. Grantley was waiting at the door. Ann thought him
very grave.
""",
    "02.txt": """Chapter 2. The Spring

Ann sang in the choir. Mr. Grantley listened from the vestry. Ann Hale married John Grantley, the
vicar's brother, in the spring, and Ann went to live at the school house. Grantley read the
service.

Ann wrote to her sister every week. Grantley called at the school house on Fridays.
""",
    "03.txt": """Chapter 3. The Bell

Mr. Grantley rang the bell for evensong. Grantley was a patient man, and Mr. Grantley never
hurried the choir. Grantley smiled when Ann sang, and Mr. Grantley said nothing of it. Grantley
locked the church at nine, and Grantley walked home by the river.
""",
}


def test_who_is_a_given_name_with_another_family_s_surname(tmp_path: Path) -> None:
    home = ingested(tmp_path / "home", "vicarage", CHAPTERS)
    first = asked_new(home, "vicarage", "Who is Ann Grantley?")["answer"].splitlines()[0]
    assert first.startswith("Ann Hale"), first
