"""`lore eval locomo` on LoCoMo's first conversation (read from ../shared, never copied)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent.evals.locomo import auroc, load_locomo, parse_evidence
from stores.errors import InputError
from tests.integration.lore import lore


@pytest.fixture(scope="module")
def locomo(shared_data: Path) -> Path:
    return shared_data / "locomo" / "locomo10.json"


@pytest.fixture(scope="module")
def runs(locomo: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, dict]:
    """Two runs on conversation conv-26 in one data dir: the second finds the vectors cached."""
    home = tmp_path_factory.mktemp("locomo-home")
    reports = []
    for _ in range(2):
        result = lore("eval", "locomo", "--data", locomo, "--limit-samples", "1", "--json",
                      home=home)
        assert result.code == 0, result.err
        reports.append(json.loads(result.out))
    return home, reports[0], reports[1]


@pytest.mark.slow
def test_the_report_scores_every_category(runs: tuple[Path, dict, dict]) -> None:
    _, report, _ = runs
    assert report["samples"] == 1 and report["k"] == 10 and report["window"] == 2
    assert report["sessions"] == 19 and report["questions"] == 199
    assert set(report["categories"]) == {"1", "2", "3", "4", "5"}
    assert report["categories"]["1"]["name"] == "multi-hop"
    assert report["categories"]["5"]["name"] == "adversarial"
    for row in [*report["categories"].values(), report["answerable"]]:
        assert row["n"] > 0
        assert 0.0 <= row["recall"] <= row["hit"] <= 1.0
    # single-hop questions name what was said: the memories that carry it must be found
    assert report["categories"]["4"]["recall"] >= 0.5
    scored = sum(row["n"] for row in report["categories"].values())
    skipped = report["skipped"]
    assert scored + skipped["questions_without_evidence"] == report["questions"]
    assert skipped["questions_without_evidence"] == 2  # conv-26 has two with empty evidence
    assert skipped["multi_id_entries"] == 1  # 'D8:6; D9:17', split into its two ids
    abstention = report["abstention"]
    assert abstention["n"] == report["categories"]["5"]["n"]
    # No abstention by default (issue 23: the similarity does not separate category 5), so no
    # answerable question is withheld; the signal is still measured.
    assert abstention["abstain_below"] is None
    assert abstention["abstained"] == abstention["withheld_answerable"] == 0.0
    assert 0.0 <= abstention["auroc"] <= 1.0


@pytest.mark.slow
def test_vectors_are_cached_and_no_session_is_left_behind(runs: tuple[Path, dict, dict]) -> None:
    home, first, second = runs
    assert 0 < first["embedded"] <= first["memories"] + first["questions"]
    assert second["embedded"] == 0
    assert second["categories"] == first["categories"]
    assert not (home / "sessions.db").exists()


def test_evidence_ids_are_split_and_the_unusable_kept_apart() -> None:
    assert parse_evidence(["D8:6; D9:17"]) == (["D8:6", "D9:17"], [])
    assert parse_evidence(["D9:1 D4:4 D4:6", "D4:4"]) == (["D9:1", "D4:4", "D4:6"], [])
    assert parse_evidence(["D", "D:11:26", "D01:03", ""]) == (["D1:3"], ["D", "D:11:26"])
    assert parse_evidence([]) == ([], [])


def test_auroc_orders_scores() -> None:
    assert auroc([3.0, 4.0], [1.0, 2.0]) == 1.0
    assert auroc([1.0], [1.0, 2.0]) == 0.25
    assert auroc([], [1.0]) == 0.0


def test_a_file_that_is_not_locomo_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "locomo.json"
    bad.write_text('[{"sample_id": "x"}]', encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_locomo(bad)
    assert str(bad) in caught.value.render()
    with pytest.raises(InputError):
        load_locomo(tmp_path / "missing.json")
