"""``benchmarks/build_gate.py`` measures what the gate says: a build in a fresh process counts the tools and
refusals ``from_openapi`` gives in process, its time per operation leaves the load out, its peak memory is the
child's own; and each verdict fails when, and only when, its figure is past the gate."""

from __future__ import annotations

import pytest
from locations import CORPUS, REPO
from module_support import load_module

import toolkit as tk

SPEC = "slack-web-swagger2"


def gate() -> object:
    return load_module("build_gate", REPO / "benchmarks" / "build_gate.py")


@pytest.mark.skipif(not (CORPUS / f"{SPEC}.json").exists(), reason="the shared corpus (../shared) is absent")
def test_a_build_in_a_fresh_process_counts_what_the_build_in_process_gives() -> None:
    module = gate()
    path = CORPUS / f"{SPEC}.json"
    row = module.build(REPO, path)  # type: ignore[attr-defined]
    here = tk.from_openapi(path, "bench", select="all")
    assert (row["tools"], row["refused"]) == (len(here.tools), len(here.rejected))
    assert 0 < row["load"] < row["build"]
    per_op = (row["build"] - row["load"]) * 1000 / (row["tools"] + row["refused"])
    assert row["ms_per_op"] == pytest.approx(per_op)
    # the child's own peak: more than an interpreter with the spec parsed, far less than this test process
    assert 20 * 2**20 < row["peak"] < 1024 * 2**20


def row(ms_per_op: float, peak_mib: float = 50) -> dict[str, float]:
    return {"ms_per_op": ms_per_op, "peak": peak_mib * 2**20}


@pytest.mark.parametrize(
    ("this", "failed"),
    [
        (row(1.0), []),
        (row(1.1), []),  # at the gate is within it
        (row(1.2), ["ms/op 1.20 > 1.1"]),
        (row(0.5, peak_mib=300), ["300 MiB"]),
        (row(2.0, peak_mib=400), ["ms/op 2.00 > 1.1", "400 MiB"]),
    ],
)
def test_each_verdict_fails_past_its_gate_only(this: dict[str, float], failed: list[str]) -> None:
    assert gate().verdicts(this) == failed  # type: ignore[attr-defined]
