"""What lowering could not carry, the validator still enforces: every recorded loss, proved one by one.

For each :class:`~toolkit.Loss` of the function catalogue, of the product's own tools (``golden/``) and of a
bounded sample per spec of the OpenAPI corpus, :func:`loss_proofs.prove` finds a value that breaks exactly
that keyword (the oracle, ``jsonschema``, refuses it with the keyword and accepts it without) and checks the
validator does the same; a loss that constrains nothing must say why (an annotation, a vacuous keyword, a
renamed argument). ``benchmarks/losses_enforced.py`` proves every loss of every corpus tool.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from function_catalogue import CASES, Case
from locations import CORPUS
from loss_proofs import NOT_KEYWORDS, Proof, prove

import toolkit as tk
from toolkit import Loss, Tool, ToolContract, golden

SPECS = sorted(p.name for p in CORPUS.glob("*") if p.suffix in (".json", ".yaml")) if CORPUS.is_dir() else []
PER_KEYWORD = 3
"""Losses proved per keyword and spec in the corpus sample (the benchmark proves them all)."""


def assert_enforced(proofs: list[Proof]) -> None:
    failed = [p for p in proofs if p.kind in ("no_witness", "disagrees")]
    assert not failed, "\n".join(f"{p.tool} {p.path} {p.keyword}: {p.kind} {p.value!r} {p.detail}" for p in failed)
    unnamed = [p for p in proofs if p.kind == "not_a_keyword" and p.keyword not in NOT_KEYWORDS]
    assert not unnamed, unnamed


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_every_catalogue_loss_is_enforced_or_constrains_nothing(case: Case) -> None:
    tool = tk.from_function(case.fn, **case.options)
    assert_enforced([prove(tool, loss) for loss in tool.losses])


def test_every_product_tool_loss_is_enforced_or_constrains_nothing(repo_root: Path) -> None:
    tools = golden.manifest_tools(repo_root / "golden" / "golden.toml")
    proofs = [prove(tool, loss) for tool in tools for loss in tool.losses]
    assert_enforced(proofs)
    assert Counter(p.kind for p in proofs)["proved"] >= 5


def _sample(toolset: tk.Toolset) -> list[tuple[Tool, Loss]]:
    taken: Counter[str] = Counter()
    seen: set[tuple[str, ...]] = set()
    out = []
    for tool in toolset.tools:
        for loss in tool.losses:
            key = (loss.path, loss.keyword) if loss.path.startswith("/$defs/") else (tool.name, loss.path, loss.keyword)
            if key in seen or taken[loss.keyword] >= PER_KEYWORD:
                continue
            seen.add(key)
            taken[loss.keyword] += 1
            out.append((tool, loss))
    return out


@pytest.mark.corpus
@pytest.mark.parametrize("spec", SPECS)
def test_a_sample_of_every_specs_losses_is_enforced(spec: str) -> None:
    toolset = tk.from_openapi(CORPUS / spec, "c", select="all")
    assert_enforced([prove(tool, loss) for tool, loss in _sample(toolset)])


def test_the_proof_sees_a_keyword_the_validator_reads_otherwise() -> None:
    """The check can fail: ``format: time`` takes a time without an offset on purpose, where the oracle
    (RFC 3339 ``full-time``) refuses it, so that loss is not proved."""
    node = {"type": "string", "format": "time", "examples": ["14:02:00"]}
    schema: dict[str, Any] = {"type": "object", "properties": {"t": node}}
    tool = Tool(contract=ToolContract(name="t", description="d", args_schema=schema), parameters=None)
    proof = prove(tool, Loss("/properties/t", "format", "time", "the subset drops it"))
    assert (proof.kind, proof.value) == ("disagrees", "14:02:00")


def test_a_loss_that_constrains_nothing_is_named_not_proved() -> None:
    schema = {"type": "object", "properties": {"m": {"type": "object", "additionalProperties": True}}}
    tool = Tool(contract=ToolContract(name="t", description="d", args_schema=schema), parameters=None)
    assert prove(tool, Loss("/properties/m", "additionalProperties", True, "r")).kind == "vacuous"
    assert prove(tool, Loss("/properties/m", "examples", [{}], "r")).kind == "annotation"
    assert prove(tool, Loss("/properties/m", "name", "X-Thing", "renamed")).kind == "not_a_keyword"
