"""Golden files and diffs per dialect: ``golden.toml`` pins other providers' payloads next to the ``gemini``
declaration (``<dir>/<dialect>/<tool>.json``), and ``toolkit diff`` classifies every change in the dialect it
was found in.

Internals: ``build_tool`` (a tool from a hand-written JSON Schema, which no public constructor takes) and
``_diff.diff_dialects``, the per-dialect diff under test."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import toolkit as tk
from toolkit import ToolContract, examples, golden
from toolkit import canonical_json as pretty
from toolkit._diff import diff_dialects
from toolkit._tool import build_tool
from toolkit.cli import main

SEARCH = tk.from_function(examples.search_issues, namespace="issues", effect="read")
PINS = {"issues_search_issues": ("openai", "mcp")}


def _limit_tool(maximum: int, states: list[str], name: str = "shop.list") -> tk.Tool:
    schema = {
        "type": "object",
        "properties": {
            "limit": {"type": "integer", "minimum": 1, "maximum": maximum},
            "state": {"$ref": "#/$defs/State"},
            "note": {"type": "string"},
        },
        "required": ["limit", "state"],
        "additionalProperties": False,
        "$defs": {"State": {"enum": states, "type": "string"}},
    }
    return build_tool(ToolContract(name=name, description="List things.", args_schema=schema))


# -- golden files ---------------------------------------------------------------------------------------------
def test_pinned_dialects_get_their_own_files_with_the_exact_payload(tmp_path: Path) -> None:
    result = golden.update([SEARCH], tmp_path, pins=PINS)
    assert result.written == ("issues_search_issues", "mcp/issues_search_issues", "openai/issues_search_issues")
    for dialect in ("openai", "mcp"):
        text = (tmp_path / dialect / "issues_search_issues.json").read_text(encoding="utf-8")
        assert text == pretty(SEARCH.payload(dialect).body)
    report = golden.check([SEARCH], tmp_path, pins=PINS)
    assert report.passed
    assert report.ok == ("issues_search_issues", "mcp/issues_search_issues", "openai/issues_search_issues")


def test_a_changed_payload_is_stale_with_a_diff_in_its_dialect(tmp_path: Path) -> None:
    before, after = _limit_tool(100, ["open", "closed"]), _limit_tool(50, ["open"])
    pins = {"shop.list": ("openai", "anthropic")}
    golden.update([before], tmp_path, pins=pins)
    report = golden.check([after], tmp_path, pins=pins)
    stale = {entry.name: entry for entry in report.stale}
    assert set(stale) == {"shop.list", "openai/shop.list", "anthropic/shop.list"}
    for dialect in ("openai", "anthropic"):
        diff = stale[f"{dialect}/shop.list"].diff
        assert diff is not None
        rules = {(c.rule, c.path, c.dialect) for c in diff.changes}
        assert rules == {("constraint_tightened", "limit", dialect), ("enum_member_removed", "state", dialect)}
    assert report.verdict == "breaking"


def test_a_dialect_file_without_a_pin_is_orphaned_and_pruned(tmp_path: Path) -> None:
    golden.update([SEARCH], tmp_path, pins=PINS)
    report = golden.check([SEARCH], tmp_path, pins={"issues_search_issues": ("openai",)})
    assert report.orphaned == ("mcp/issues_search_issues",)
    result = golden.update([SEARCH], tmp_path, prune=True, pins={"issues_search_issues": ("openai",)})
    assert result.removed == ("mcp/issues_search_issues",)
    assert not (tmp_path / "mcp" / "issues_search_issues.json").exists()


def test_a_pinned_dialect_that_refuses_the_tool_fails_the_check(tmp_path: Path) -> None:
    contract = ToolContract(name="t", description="d", args_schema={"type": "object"}, source="schema")
    rootless = build_tool(contract)
    hostile = build_tool(
        ToolContract(name="u", description="d", args_schema={"anyOf": [{"type": "object"}]}, source="schema")
    )
    golden.update([rootless, hostile], tmp_path, pins={"u": ("openai",)})
    report = golden.check([rootless, hostile], tmp_path, pins={"u": ("openai",)})
    assert not report.passed
    assert [entry.split(":")[0] for entry in report.refused] == ["openai/u [root_not_object]"]
    assert "refused   openai/u" in report.to_text()
    assert not (tmp_path / "openai").exists()


def test_pins_for_a_tool_not_under_control_are_a_golden_error(tmp_path: Path) -> None:
    with pytest.raises(tk.GoldenError, match="nothing"):
        golden.check([SEARCH], tmp_path, pins={"nothing": ("openai",)})


def test_the_manifest_reads_dialects_per_entry(tmp_path: Path) -> None:
    manifest = tmp_path / "golden.toml"
    manifest.write_text(
        '[[function]]\ntarget = "toolkit.examples:search_issues"\nnamespace = "issues"\n'
        'dialects = ["gemini", "mcp", "openai", "mcp"]\n\n'
        '[[function]]\ntarget = "toolkit.examples:transfer_funds"\nnamespace = "payments"\n',
        encoding="utf-8",
    )
    loaded = golden.load_manifest(manifest)
    assert [tool.name for tool in loaded.tools] == ["issues_search_issues", "payments_transfer_funds"]
    assert loaded.pins == {"issues_search_issues": ("mcp", "openai")}


@pytest.mark.parametrize("value", ['"openai"', '["klingon"]'])
def test_a_manifest_naming_an_unknown_dialect_is_refused(tmp_path: Path, value: str) -> None:
    manifest = tmp_path / "golden.toml"
    manifest.write_text(
        f'[[function]]\ntarget = "toolkit.examples:search_issues"\ndialects = {value}\n', encoding="utf-8"
    )
    with pytest.raises(tk.GoldenError) as caught:
        golden.load_manifest(manifest)
    assert caught.value.slug == "golden_manifest"
    assert "gemini_json" in caught.value.message


# -- diffs ----------------------------------------------------------------------------------------------------
def test_a_change_inside_a_definition_is_classified_where_it_is_used() -> None:
    diff = tk.diff_declarations(_limit_tool(100, ["open", "closed"]), _limit_tool(100, ["open"]), dialect="mcp")
    assert [(c.rule, c.path, c.kind, c.dialect, c.tool) for c in diff.changes] == [
        ("enum_member_removed", "state", "breaking", "mcp", "shop.list")
    ]


@pytest.mark.parametrize(
    "nullable",
    [{"type": ["string", "null"]}, {"anyOf": [{"type": "string"}, {"type": "null"}]}],
    ids=["type-list", "anyOf-null"],
)
def test_accepting_null_is_nullable_added_in_json_schema_dialects(nullable: dict[str, Any]) -> None:
    def tool(note: dict[str, Any]) -> tk.Tool:
        schema = {"type": "object", "properties": {"note": note}, "required": ["note"], "additionalProperties": False}
        return build_tool(ToolContract(name="t", description="d", args_schema=schema))

    for dialect in ("anthropic", "mcp", "gemini_json"):
        diff = tk.diff_declarations(tool({"type": "string"}), tool(nullable), dialect=dialect)
        assert [(c.rule, c.path, c.kind) for c in diff.changes] == [("nullable_added", "note", "additive")], dialect


def test_each_dialect_names_the_tool_as_its_provider_sees_it() -> None:
    diff = tk.diff_declarations([_limit_tool(100, ["a"])], [_limit_tool(90, ["a"])], dialect="openai")
    assert {c.tool for c in diff.changes} == {"shop_list"}
    assert diff.to_text().splitlines()[1].split()[2] == "[openai]"
    assert "`shop_list` (openai)" in diff.to_markdown()


def test_diff_dialects_compares_golden_folders_dialect_by_dialect(tmp_path: Path) -> None:
    pins = {"shop.list": ("openai", "mcp")}
    golden.update([_limit_tool(100, ["open", "closed"])], tmp_path / "old", pins=pins)
    golden.update([_limit_tool(50, ["open", "closed"])], tmp_path / "new", pins=pins)
    diff = diff_dialects(golden.load_all(tmp_path / "old"), golden.load_all(tmp_path / "new"))
    assert {d: v.verdict for d, v in diff.by_dialect().items()} == {
        "gemini": "breaking",
        "openai": "breaking",
        "mcp": "breaking",
    }
    assert json.loads(json.dumps(diff.to_dict()))["changes"][-1]["dialect"] == "mcp"


def test_toolkit_diff_of_two_golden_folders_shows_each_dialect(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pins = {"shop.list": ("anthropic",)}
    golden.update([_limit_tool(100, ["open"])], tmp_path / "old", pins=pins)
    golden.update([_limit_tool(100, ["open", "closed"])], tmp_path / "new", pins=pins)
    code = main(["diff", str(tmp_path / "old"), str(tmp_path / "new")])
    out = capsys.readouterr().out
    assert code == 0
    assert "shop.list [anthropic]  additive" in out
    assert "enum_member_added" in out
    code = main(["diff", str(tmp_path / "old"), str(tmp_path / "new"), "--json"])
    changes = json.loads(capsys.readouterr().out)["changes"]
    assert {(c["dialect"], c["rule"]) for c in changes} == {
        ("gemini", "enum_member_added"),
        ("anthropic", "enum_member_added"),
    }


def test_toolkit_diff_of_two_specs_adds_the_dialects_asked_for(
    repo_root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = tmp_path / "orders.yaml"
    new.write_text(
        (repo_root / "specs" / "orders.yaml").read_text(encoding="utf-8").replace("maximum: 100", "maximum: 50")
    )
    old = str(repo_root / "specs" / "orders.yaml")
    code = main(["diff", old, str(new), "--namespace", "orders", "--dialect", "openai", "--json"])
    changes = json.loads(capsys.readouterr().out)["changes"]
    assert code == 1
    assert {c["dialect"] for c in changes if c["rule"] == "constraint_tightened"} == {"gemini", "openai"}
