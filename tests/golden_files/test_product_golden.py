"""The product's own tools match their committed golden declarations (``toolkit golden check`` in a test).

When a declaration changes on purpose: review ``toolkit diff --git main``, then ``toolkit golden update``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from toolkit import Tool, golden
from toolkit import canonical_json as pretty


@pytest.fixture(scope="module")
def manifest(repo_root: Path) -> golden.Manifest:
    return golden.load_manifest(repo_root / "golden" / "golden.toml")


@pytest.fixture(scope="module")
def product_tools(manifest: golden.Manifest) -> list[Tool]:
    return list(manifest.tools)


def test_product_declarations_match_their_golden_files(manifest: golden.Manifest, repo_root: Path) -> None:
    report = golden.check(manifest.tools, repo_root / "golden", pins=manifest.pins)
    assert report.passed, report.to_text()
    assert {name.split("/")[0] for name in report.ok if "/" in name} == {
        "gemini_json",
        "openai",
        "openai_responses",
        "anthropic",
        "mcp",
    }


def test_every_opted_in_orders_operation_is_under_golden_control(product_tools: list[Tool], repo_root: Path) -> None:
    spec = yaml.safe_load((repo_root / "specs" / "orders.yaml").read_text(encoding="utf-8"))
    opted_in = {
        operation["x-agent-tool"]["name"]
        for item in spec["paths"].values()
        for operation in item.values()
        if isinstance(operation, dict) and "x-agent-tool" in operation
    }
    assert opted_in <= {t.name for t in product_tools}


def test_every_example_function_is_under_golden_control(product_tools: list[Tool]) -> None:
    from toolkit import examples

    functions = {name for name in examples.__all__ if callable(getattr(examples, name)) and name.islower()}
    sources = {t.name.split("_", 1)[1] for t in product_tools if not t.name.startswith("orders_")}
    assert functions <= sources


def test_golden_files_are_canonical_bytes(repo_root: Path) -> None:
    stored = golden.load(repo_root / "golden")
    for path in sorted((repo_root / "golden").glob("*.json")):
        assert path.read_text(encoding="utf-8") == pretty(stored[path.stem]), path.name
    for dialect, payloads in golden.load_dialects(repo_root / "golden").items():
        for path in sorted((repo_root / "golden" / dialect).glob("*.json")):
            assert path.read_text(encoding="utf-8") == pretty(payloads[path.stem]), path.name
