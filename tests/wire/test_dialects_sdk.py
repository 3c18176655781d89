"""Every dialect's payload is accepted by its provider SDK's own types and documented rules, or the tool is
refused for that dialect with a slug: the function catalogue, the product's golden tools, and a bounded sample
of every spec in the shared corpus (``benchmarks/corpus_dialects.py`` runs all of it).

The oracles are in ``tests/provider_rules.py`` (SDK types, name rules, root rules, OpenAI strict mode).

Internals: ``_lowering.DIALECTS`` and ``DIALECT_SLUGS``, to run every dialect and check its refusals' slugs.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from function_catalogue import CASES
from locations import CORPUS
from provider_rules import problems

import toolkit as tk
from toolkit import golden
from toolkit._lowering import DIALECT_SLUGS, DIALECTS

CORPUS_SAMPLE = 12
"""Tools per corpus spec checked in every dialect (the first ones, in document order)."""
SPECS = sorted(p.name for p in CORPUS.glob("*") if p.suffix in (".json", ".yaml")) if CORPUS.is_dir() else []


def _catalogue() -> list[tk.Tool]:
    tools = []
    for case in CASES:
        try:
            tools.append(tk.from_function(case.fn, **case.options))
        except tk.ToolkitError:
            continue  # the catalogue's refused functions: no tool, no payload
    return tools


def _assert_fit(tools: list[tk.Tool], dialect: str) -> dict[str, int]:
    """Each payload fit to send, or refused with a known slug; returns the count per outcome."""
    outcome: dict[str, int] = {"accepted": 0}
    for item in tk.payloads(tools, dialect).payloads:
        if item.refusal is not None:
            assert item.refusal.slug in DIALECT_SLUGS, item
            outcome[item.refusal.slug] = outcome.get(item.refusal.slug, 0) + 1
            continue
        assert item.body is not None
        assert problems(dialect, item.body) == [], item.tool
        outcome["accepted"] += 1
    return outcome


@pytest.mark.parametrize("dialect", list(DIALECTS))
def test_every_catalogue_function_is_accepted_by_the_sdk_types(dialect: str) -> None:
    tools = _catalogue()
    assert len(tools) > 40
    assert _assert_fit(tools, dialect) == {"accepted": len(tools)}


@pytest.mark.parametrize("dialect", list(DIALECTS))
def test_every_product_tool_is_accepted_by_the_sdk_types(dialect: str, repo_root: Path) -> None:
    for tools in (
        golden.manifest_tools(repo_root / "golden" / "golden.toml"),
        list(tk.from_openapi(repo_root / "specs" / "orders.yaml", "orders", select="all")),
    ):
        assert _assert_fit(tools, dialect) == {"accepted": len(tools)}


def test_openai_strict_mode_covers_the_catalogue_except_open_maps_and_untyped_values() -> None:
    loose = {item.tool: item.losses for item in tk.payloads(_catalogue(), "openai").payloads if not item.strict}
    assert {name: [(loss.path, loss.keyword) for loss in losses] for name, losses in loose.items()} == {
        "typed_map": [("/properties/weights", "additionalProperties")],
        "untyped_map": [("/properties/metadata", "additionalProperties")],
        "any_value": [("/properties/payload", "type")],
        "object_value": [("/properties/payload", "type")],
        "billing_create_invoice": [("/properties/metadata/anyOf/0", "additionalProperties")],
    }


@pytest.mark.corpus
@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", SPECS)
def test_a_sample_of_every_corpus_spec_is_accepted_in_every_dialect(corpus_dir: Path, name: str) -> None:
    tools = list(itertools.islice(tk.from_openapi(corpus_dir / name, "corpus", select="all"), CORPUS_SAMPLE))
    for dialect in DIALECTS:
        outcome = _assert_fit(tools, dialect)
        assert sum(outcome.values()) == len(tools)
