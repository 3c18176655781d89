"""The prose lints (TK801–TK810) on a labelled sample of real descriptions: the lints equal the labels.

``tests/lints/prose_sample.json`` holds field schemas with their descriptions from the shared corpus, the
notebooks and the cases the issue tracker reported, each with the codes a careful reader says should fire
(``expected``) and those the lints do not find yet (``known_miss``). ``benchmarks/lint_survey.py --sample``
prints precision and recall per code; this test holds the lints to the labels, so a change that adds a false
positive or loses a finding fails here, and a known miss that starts to be found must leave the list.

Internals: ``sample_findings`` of ``benchmarks/lint_survey.py`` (how an item becomes a tool, stated once there).
"""

from __future__ import annotations

from typing import Any

import pytest
from locations import REPO
from module_support import load_module

SURVEY = load_module("lint_survey", REPO / "benchmarks" / "lint_survey.py")
FOUND = SURVEY.sample_findings()


def test_the_sample_is_large_and_mostly_descriptions_that_should_stay_quiet() -> None:
    items = [item for item, _ in FOUND]
    assert len(items) >= 60
    assert len({item["id"] for item in items}) == len(items)
    assert sum(1 for item in items if not item["expected"]) >= len(items) // 2
    assert {code for item in items for code in item["expected"]} >= {"TK806", "TK807", "TK808", "TK809", "TK810"}


@pytest.mark.parametrize(("item", "found"), FOUND, ids=[item["id"] for item, _ in FOUND])
def test_the_lints_equal_the_labels(item: dict[str, Any], found: set[str]) -> None:
    missed = set(item.get("known_miss", ()))
    assert missed <= set(item["expected"])
    assert found == set(item["expected"]) - missed, item["source"]


def test_the_survey_scores_precision_from_the_same_findings() -> None:
    counts = SURVEY.score(FOUND)
    assert sum(c["fp"] for c in counts.values()) == 0
    assert sum(c["fn"] for c in counts.values()) == sum(len(item.get("known_miss", ())) for item, _ in FOUND)
