"""The committed generated package for ``specs/orders.yaml`` matches what the generator makes today."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import toolkit as tk

PACKAGE = "orders_tools"


@pytest.fixture(scope="module")
def regenerated(repo_root: Path) -> dict[str, str]:
    toolset = tk.from_openapi(repo_root / "specs" / "orders.yaml", namespace="orders")
    return tk.generate(toolset, source_path="specs/orders.yaml")


def test_committed_package_is_byte_identical_to_a_fresh_generation(
    repo_root: Path, regenerated: dict[str, str]
) -> None:
    folder = repo_root / "golden" / "generated"
    stale = [
        rel
        for rel, text in regenerated.items()
        if not (folder / rel).is_file() or (folder / rel).read_text("utf-8") != text
    ]
    on_disk = {
        p.relative_to(folder).as_posix()
        for p in (folder / PACKAGE).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    orphans = sorted(on_disk - set(regenerated))
    fix = "run: toolkit generate specs/orders.yaml --out golden/generated --namespace orders"
    assert not stale, f"stale generated files {stale}; {fix}"
    assert not orphans, f"generated files no longer produced {orphans}; {fix}"


def test_generated_declarations_match_the_golden_declarations(repo_root: Path, regenerated: dict[str, str]) -> None:
    golden = repo_root / "golden"
    checked = 0
    for rel, text in regenerated.items():
        if rel.startswith(f"{PACKAGE}/declarations/"):
            declaration = json.loads(text)
            golden_file = golden / f"{declaration['name']}.json"
            if golden_file.is_file():
                assert json.loads(golden_file.read_text("utf-8")) == declaration, golden_file
                checked += 1
    if not checked:
        pytest.skip("no golden declarations for the orders tools are committed yet")
