"""Declaration and spec diffs: every rule and every kind is pinned by a before/after pair.

The pairs live in ``tests/diff_pairs/<case>.json`` as ``{note, before, after, expect: [{rule, kind, path}]}``;
``before`` and ``after`` are declarations, or lists of declarations for the collection rules.

Internals: the diff's rule and kind tables (``_diff._rules``), ``worst`` and the text renderer ``_diff._text.show``,
each checked as a unit against the pairs.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from locations import TESTS

import toolkit as tk
from toolkit import Change, DeclarationDiff, SpecDiff, diff_declarations, diff_specs
from toolkit._diff import worst
from toolkit._diff._rules import KINDS, RULES

PAIRS = TESTS / "diff_pairs"
CASES = sorted(PAIRS.glob("*.json"))


def _load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@pytest.mark.parametrize("case", CASES, ids=[p.stem for p in CASES])
def test_pair_gives_exactly_the_expected_changes(case: Path) -> None:
    pair = _load(case)
    diff = diff_declarations(pair["before"], pair["after"])
    found = Counter((c.rule, c.kind, c.path) for c in diff.changes)
    expected = Counter((e["rule"], e["kind"], e["path"]) for e in pair["expect"])
    assert found == expected, diff.to_text()
    assert diff.verdict == worst(e["kind"] for e in pair["expect"])


@pytest.mark.parametrize("case", CASES, ids=[p.stem for p in CASES])
def test_pair_reversed_is_never_silent(case: Path) -> None:
    """Undoing a change is a change too (and an additive change undone is breaking, and back)."""
    pair = _load(case)
    forward = diff_declarations(pair["before"], pair["after"])
    backward = diff_declarations(pair["after"], pair["before"])
    assert bool(forward) == bool(backward)


def test_every_rule_and_kind_is_pinned_by_a_pair() -> None:
    rules = {e["rule"] for p in CASES for e in _load(p)["expect"]}
    assert set(RULES) == rules
    assert {e["kind"] for p in CASES for e in _load(p)["expect"]} == set(KINDS)


def test_rule_kinds_are_fixed_by_the_catalogue() -> None:
    for case in CASES:
        for expected in _load(case)["expect"]:
            assert RULES[expected["rule"]] == expected["kind"], case.stem


def test_change_is_frozen_and_carries_the_tool_name() -> None:
    pair = _load(PAIRS / "maximum_lowered.json")
    (change,) = diff_declarations(pair["before"], pair["after"]).changes
    assert change.tool == "orders_list"
    assert "100" in change.summary
    assert "50" in change.summary
    with pytest.raises(AttributeError):
        change.rule = "other"  # type: ignore[misc]


def test_verdict_order_is_breaking_over_behavioural_over_additive() -> None:
    assert worst([]) == "none"
    assert worst(["additive", "behavioural"]) == "behavioural"
    assert worst(["additive", "breaking", "behavioural"]) == "breaking"


def test_breaking_verdict_asks_for_a_versioning_decision() -> None:
    pair = _load(PAIRS / "parameter_removed.json")
    diff = diff_declarations(pair["before"], pair["after"])
    assert diff.needs_versioning
    assert "versioning decision" in diff.to_markdown()
    assert not diff_declarations(pair["before"], pair["before"]).needs_versioning


# -- collections and tools ---------------------------------------------------------------------------------


def _decl(name: str, **properties: Any) -> dict[str, Any]:
    return {"name": name, "description": f"{name} tool.", "parameters": {"type": "OBJECT", "properties": properties}}


def test_collections_match_by_name_and_report_added_and_removed_tools() -> None:
    old = [_decl("a", x={"type": "STRING"}), _decl("b", y={"type": "INTEGER"})]
    new = [_decl("a", x={"type": "INTEGER"}), _decl("c", z={"type": "BOOLEAN"})]
    diff = diff_declarations(old, new)
    assert {(c.tool, c.rule) for c in diff.changes} == {
        ("a", "type_changed"),
        ("b", "tool_removed"),
        ("c", "tool_added"),
    }
    assert diff.by_tool()["c"].verdict == "additive"
    assert diff.by_tool()["b"].verdict == "breaking"


def test_a_removed_and_added_tool_with_the_same_parameters_is_a_rename() -> None:
    old = {"orders_get": _decl("orders_get", id={"type": "STRING"})}
    new = {"orders_fetch": {**_decl("orders_fetch", id={"type": "STRING"}), "description": "orders_get tool."}}
    diff = diff_declarations(old, new)
    assert [(c.tool, c.rule, c.kind) for c in diff.changes] == [("orders_fetch", "tool_renamed", "breaking")]


def test_tools_and_declarations_mix_on_either_side() -> None:
    from toolkit import examples

    tool = tk.from_function(examples.search_issues, namespace="issues", effect="read")
    assert not diff_declarations(tool, tool.declaration)
    edited = tool.declaration
    edited["parameters"]["properties"]["limit"]["maximum"] = 10
    diff = diff_declarations(tool, edited)
    assert [(c.rule, c.path) for c in diff.changes] == [("constraint_tightened", "limit")]
    assert diff_declarations([tool], [edited]).verdict == "breaking"


def test_an_unknown_side_is_refused_with_a_hint() -> None:
    with pytest.raises(TypeError, match="declaration dict"):
        diff_declarations(42, {"name": "x"})


# -- rendering ---------------------------------------------------------------------------------------------


def _sample() -> DeclarationDiff:
    pair = _load(PAIRS / "verdict_is_worst_kind.json")
    return diff_declarations(pair["before"], pair["after"])


def test_to_dict_is_json_with_counts_per_kind() -> None:
    data = _sample().to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["verdict"] == "breaking"
    assert data["counts"] == {"breaking": 1, "behavioural": 1, "additive": 1}
    assert {c["rule"] for c in data["changes"]} == {
        "tool_description_changed",
        "constraint_tightened",
        "enum_member_added",
    }


def test_markdown_is_a_table_with_one_row_per_change_and_escaped_pipes() -> None:
    diff = DeclarationDiff.of([Change("description_changed", "q", "a | b", "behavioural", "t")])
    markdown = diff.to_markdown()
    rows = [line for line in markdown.splitlines() if line.startswith("| behavioural")]
    assert rows == ["| behavioural | `t` | `description_changed` | `q` | a \\| b |"]


def test_mimebundle_uses_the_deterministic_text() -> None:
    bundle = _sample()._repr_mimebundle_()
    assert bundle["text/plain"] == _sample().to_text()
    assert "breaking" in bundle["text/html"]


# -- spec diffs --------------------------------------------------------------------------------------------


def _edited_orders(repo_root: Path, tmp_path: Path) -> Path:
    spec = yaml.safe_load((repo_root / "specs" / "orders.yaml").read_text(encoding="utf-8"))
    spec["paths"]["/orders"]["get"]["parameters"][2]["schema"]["maximum"] = 50  # limit max 100 -> 50
    spec["paths"]["/orders/{orderId}"]["get"]["x-agent-tool"]["description"] = "Fetch one order."
    del spec["paths"]["/orders/{orderId}/notes"]["put"]["x-agent-tool"]  # orders_note_set opted out
    spec["components"]["schemas"]["RefundRequest"]["properties"]["reason"]["enum"].append("other")
    path = tmp_path / "orders-edited.yaml"
    path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    return path


def test_spec_diff_classifies_each_tool_of_two_spec_versions(repo_root: Path, tmp_path: Path) -> None:
    old = repo_root / "specs" / "orders.yaml"
    diff = diff_specs(old, _edited_orders(repo_root, tmp_path), "orders")
    assert isinstance(diff, SpecDiff)
    assert diff.removed == ("orders_note_set",)
    assert diff.added == ()
    found = {(c.tool, c.rule, c.path) for c in diff.changes}
    assert found == {
        ("orders_list", "constraint_tightened", "limit"),
        ("orders_get", "tool_description_changed", ""),
        ("orders_note_set", "tool_removed", ""),
        ("orders_refund_create", "enum_member_added", "reason"),
    }
    assert "orders_cancel" in diff.unchanged
    assert diff.verdict == "breaking"
    assert set(diff.per_tool()) == {"orders_list", "orders_get", "orders_note_set", "orders_refund_create"}
    assert json.loads(json.dumps(diff.to_dict()))["removed"] == ["orders_note_set"]


def test_spec_diff_of_a_spec_with_itself_is_empty(repo_root: Path) -> None:
    spec = repo_root / "specs" / "orders.yaml"
    diff = diff_specs(spec, spec, "orders")
    assert diff.verdict == "none"
    assert len(diff.unchanged) == 5
    assert "no changes" in diff.to_markdown()


def test_long_text_changes_show_the_part_that_differs() -> None:
    before = "Search the tracker. " * 5 + "Never for pull requests."
    after = "Search the tracker. " * 5 + "Also for pull requests."
    old = {"name": "t", "description": before}
    (change,) = diff_declarations(old, {**old, "description": after}).changes
    assert "Never for pull" in change.summary
    assert "Also for pull" in change.summary
    assert len(change.summary) < 160


def test_true_and_one_are_different_defaults() -> None:
    old = {"name": "t", "description": "d", "parameters": {"type": "OBJECT", "properties": {"x": {"default": 1}}}}
    new = {"name": "t", "description": "d", "parameters": {"type": "OBJECT", "properties": {"x": {"default": True}}}}
    assert [c.rule for c in diff_declarations(old, new).changes] == ["default_changed"]


def test_a_renamed_parameter_still_reports_its_description_change() -> None:
    pair = _load(PAIRS / "parameter_renamed.json")
    after = json.loads(json.dumps(pair["after"]))
    after["parameters"]["properties"]["page_size"]["description"] = "Page size."
    rules = [(c.rule, c.path) for c in diff_declarations(pair["before"], after).changes]
    assert rules == [("parameter_renamed", "limit"), ("description_changed", "page_size")]


def test_tools_without_arguments_are_never_taken_for_a_rename() -> None:
    old = [{"name": "ping", "description": "Ping."}]
    new = [{"name": "status", "description": "Status."}]
    rules = sorted((c.tool, c.rule) for c in diff_declarations(old, new).changes)
    assert rules == [("ping", "tool_removed"), ("status", "tool_added")]


def _many_tools(count: int, words: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    old = [_decl(f"tool_{i:03d}", x={"type": "STRING", "description": "x " * words}) for i in range(count)]
    new = [_decl(f"tool_{i:03d}", x={"type": "STRING", "description": "y " * words}) for i in range(count)]
    new[7]["parameters"]["properties"]["x"]["enum"] = ["a"]  # one breaking tool
    return old, new


def test_markdown_of_several_tools_puts_the_breaking_ones_first() -> None:
    old, new = _many_tools(8, 3)
    markdown = diff_declarations([*old[:3], old[7]], [*new[:3], new[7]]).to_markdown()
    overview = [line for line in markdown.splitlines() if line.startswith("| `tool_")]
    assert overview[0].startswith("| `tool_007` | breaking | 1 | 1 | 0 |")
    assert markdown.count("<details") == 4
    assert "<details open><summary><code>tool_007</code>: breaking (2 changes)</summary>" in markdown


def test_markdown_fits_a_pull_request_comment() -> None:
    old, new = _many_tools(400, 60)
    markdown = diff_declarations(old, new).to_markdown()
    assert len(markdown) < 65_536
    assert "left off to fit a comment" in markdown
    assert "tool_007" in markdown  # the breaking tool comes first, so it is never the one left off


def test_counts_read_as_english() -> None:
    old = [_decl(f"tool_{i:03d}", x={"type": "STRING", "description": "x"}) for i in range(2)]
    new = [_decl(f"tool_{i:03d}", x={"type": "STRING", "description": "y"}) for i in range(2)]
    one = diff_declarations(old[0], new[0]).to_markdown()
    assert "1 change (1 behavioural) in 1 tool." in one
    several = diff_declarations(old, new).to_markdown()
    assert "<summary><code>tool_000</code>: behavioural (1 change)</summary>" in several
    assert "2 changes (2 behavioural) in 2 tools." in several
    assert "tool(s)" not in several


@pytest.mark.parametrize("edit", ["start", "middle", "end"])
def test_long_text_excerpts_start_and_end_at_word_boundaries(edit: str) -> None:
    words = [f"word{i:02d}" for i in range(60)]
    before = " ".join(words)
    index = {"start": 1, "middle": 30, "end": 58}[edit]
    after = " ".join([*words[:index], "CHANGED", *words[index + 1 :]])
    (change,) = diff_declarations({"name": "t", "description": before}, {"name": "t", "description": after}).changes
    excerpts = re.findall(r'"((?:[^"\\]|\\.)*)"', change.summary)
    assert len(excerpts) == 2
    for excerpt, text in zip(excerpts, (before, after), strict=True):
        shown = excerpt.removesuffix("…")
        assert shown in text
        begin = text.index(shown)
        assert begin == 0 or text[begin - 1] == " ", excerpt  # never starts inside a word
        end = begin + len(shown)
        assert end == len(text) or text[end] == " ", excerpt  # never ends inside a word
    assert "CHANGED" in excerpts[1]


def test_long_values_are_cut_after_a_whole_word() -> None:
    from toolkit._diff._text import show

    value = ["alpha", "beta", "gamma", "delta"] * 10
    text = json.dumps(value, sort_keys=True)
    shown = show(value)
    assert shown.endswith("…")
    assert len(shown) <= 80
    assert text.startswith(shown[:-1])
    assert text[len(shown) - 1] == " "  # the cut falls between two items, never inside one
