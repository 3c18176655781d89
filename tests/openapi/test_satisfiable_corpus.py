"""Every tool of every shared-corpus spec can be called: its baseline call (the valid call ``tk.fire`` starts
from) passes the tool's own validator and the JSON Schema 2020-12 oracle on ``args_schema``
(``benchmarks/satisfiability_survey.py``, which prints the counts). Failures that come from the closed-object
policy across ``allOf`` siblings (toolkit refuses, the oracle accepts) are counted apart by the survey; none are
left in the corpus either.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
from locations import CORPUS, REPO
from module_support import load_module

SPECS = sorted(p.stem for p in CORPUS.glob("*") if p.suffix in (".json", ".yaml")) if CORPUS.is_dir() else []


def _survey() -> ModuleType:
    return load_module("satisfiability_survey", REPO / "benchmarks" / "satisfiability_survey.py")


@pytest.mark.corpus
@pytest.mark.slow  # the whole corpus takes about four minutes
@pytest.mark.timeout(300)
@pytest.mark.parametrize("spec", SPECS)
def test_every_baseline_call_passes_the_validator_and_the_oracle(corpus_dir: Path, spec: str) -> None:
    survey = _survey()
    (path,) = survey.specs([spec])
    counts = survey.survey(path)
    assert [(f.tool, f.kind, f.detail) for f in counts.failures] == []


def test_a_tool_whose_baseline_fails_is_counted() -> None:
    """The check can fail: a tool whose only value is refused by its validator is an ``other`` failure."""
    import toolkit as tk

    document = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {"/x": {"get": {"operationId": "x", "description": "X.", "parameters": [
            {"name": "code", "in": "query", "required": True, "schema": {"type": "string", "pattern": "^a$",
                                                                         "minLength": 2}},
        ]}}},
    }  # fmt: skip
    (tool,) = tk.from_openapi(document, "t", select="all").tools
    failure = _survey().check_tool("t", tool)
    assert failure is not None
    assert failure.kind == "other"


def test_allof_siblings_give_a_baseline_with_both_branches_keys_and_closure_failures_count_apart() -> None:
    """PagerDuty's shape: two ``allOf`` members both declare ``orchestration_path``, each with some of its
    properties. The baseline carries both members' keys (the oracle accepts it); should the closed-object policy
    refuse them, the survey counts a ``closure`` failure, not an ``other`` one."""
    import toolkit as tk

    def member(key: str, schema: dict[str, object]) -> dict[str, object]:
        inner = {"type": "object", "required": [key], "properties": {key: schema}}
        return {"type": "object", "required": ["orchestration_path"], "properties": {"orchestration_path": inner}}

    sets = {"type": "array", "items": {"type": "string"}}
    body = {"allOf": [member("type", {"type": "string"}), member("sets", sets)]}
    operation = {"operationId": "update", "description": "Update the orchestration.",
                 "requestBody": {"content": {"application/json": {"schema": body}}}}  # fmt: skip
    document = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/o": {"put": operation}}}
    (tool,) = tk.from_openapi(document, "t", select="all").tools
    survey = _survey()
    assert survey.baseline(tool) == {"body": {"orchestration_path": {"type": "example", "sets": ["example"]}}}
    failure = survey.check_tool("t", tool)
    assert failure is None or failure.kind == "closure", failure
