"""``benchmarks/corpus_digest.py`` sees every output a change could alter: the same build gives the same digest,
and a build that differs in a declaration, a lint, a budget fit or a refusal gives another."""

from __future__ import annotations

import subprocess
import sys
from types import ModuleType
from typing import Any

import pytest
from locations import CORPUS, REPO
from module_support import load_module

import toolkit as tk

SCRIPT = REPO / "benchmarks" / "corpus_digest.py"

SPEC: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "t", "version": "1"},
    "paths": {
        "/orders/{id}": {
            "get": {
                "operationId": "getOrder",
                "description": "Read one order by its id.",
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "description": "The order's id.", "schema": {}},
                    {"name": "note", "in": "query", "schema": {"type": "string", "maxLength": 80}},
                ],
            },
            "delete": {"operationId": "deleteOrder", "parameters": []},  # no description: refused
        }
    },
}


def _script() -> ModuleType:
    return load_module("corpus_digest", SCRIPT)


def _digest(document: dict[str, Any], **options: Any) -> list[str]:
    records = _script().records(tk.from_openapi(document, "shop", select="all", **options))
    return [repr(record) for record in records]


def test_the_same_build_gives_the_same_records() -> None:
    first = _digest(SPEC)
    assert first == _digest(SPEC)
    assert any("rejected" in record and "missing_description" in record for record in first)


@pytest.mark.parametrize(
    ("change", "options"),
    [
        ("a description", {"overrides": {"getOrder": {"description": "Read one order."}}}),
        ("a budget that reduces", {"budget": 150}),
        ("a refusal less", {"overrides": {"deleteOrder": {"description": "Delete one order."}}}),
    ],
)
def test_a_changed_output_changes_the_records(change: str, options: dict[str, Any]) -> None:
    assert _digest(SPEC, **options) != _digest(SPEC), change


def test_the_records_hold_lints_losses_and_the_budget_fit() -> None:
    (record,) = [r for r in _script().records(tk.from_openapi(SPEC, "shop", select="all")) if "name" in r]
    assert {lint["code"] for lint in record["lints"]} >= {"TK201"}  # `id` accepts any JSON value
    assert record["budget_fit"]["before"] == record["bytes"]
    assert record["binding"] == {"id": "path", "note": "query"}


@pytest.mark.skipif(not (CORPUS / "petstore-3.0.yaml").exists(), reason="the shared corpus (../shared) is absent")
def test_the_script_digests_a_corpus_spec_twice_alike() -> None:
    def run() -> str:
        done = subprocess.run(
            [sys.executable, str(SCRIPT), "--only", "petstore-3.0"], capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    out = run()
    assert [line.split()[:2] for line in out.splitlines()] == [["petstore-3.0", "all"], ["petstore-3.0", "described"]]
    assert "tools=3 rejected=0" in out
    assert out == run()
