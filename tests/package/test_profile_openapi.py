"""``benchmarks/profile_openapi.py`` runs against the pipeline as it is: every stage it wraps still exists
under the name ``from_openapi`` calls it by, the stages it reports add up within the whole build, and
``--floor`` adds the copies of the document and of the outputs (the copy itself is checked against the data)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from locations import CORPUS, REPO
from module_support import load_module

SPEC = "slack-web-swagger2"


@pytest.mark.skipif(not (CORPUS / f"{SPEC}.json").exists(), reason="the shared corpus (../shared) is absent")
def test_the_stage_profile_covers_the_build() -> None:
    script = REPO / "benchmarks" / "profile_openapi.py"
    done = subprocess.run(
        [sys.executable, str(script), "--rounds", "1", "--floor", "--only", SPEC],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    header, row = done.stdout.splitlines()[1:3]
    names = header.split("|")[1].split()
    assert names == ["load", "select", "name", "flatten", "lower", "enforce", "fit", "lint", "rest"]
    assert row.split()[0] == SPEC
    assert int(row.split()[4]) == 174  # the tools of the spec, as from_openapi builds them
    stages = dict(zip(names, (float(value) for value in row.split("|")[1].split()), strict=True))
    # no stage is timed inside another (the rest, what they leave of the build, would go negative)
    assert stages["rest"] >= -0.2
    for name in ("load", "flatten", "lower", "enforce", "fit", "lint"):
        assert stages[name] > 0, name
    assert header.split("|")[3].split() == ["pass", "outputs"]
    ratios = [float(value.rstrip("x")) for value in row.split("|")[3].split()]
    assert len(ratios) == 2, row
    assert all(ratio > 0 for ratio in ratios), row


def test_the_copy_is_equal_and_shares_what_the_original_shares() -> None:
    profile = load_module("profile_openapi", REPO / "benchmarks" / "profile_openapi.py")
    shared = {"type": "object", "properties": {"a": {"type": "string"}}}
    data = {"x": [shared, shared, 1, "s", None], "y": shared}
    alone = profile.json_copy(data)  # the document's pass
    once = profile.shared_copy(data, {})  # the outputs'
    assert alone == data
    assert once == data
    assert alone["y"] is not shared
    assert alone["x"][0] is not alone["x"][1]
    assert once["y"] is once["x"][0] is once["x"][1]
    assert once["y"] is not shared
