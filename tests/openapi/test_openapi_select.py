"""Selecting operations (extension, overrides, all, deprecated), naming them, and their effect.

Internals: ``snake_case`` (the naming rule), ``summarise``, and ``_definitions``/``_flatten`` to check selection's
effect on each."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import toolkit as tk
from toolkit._openapi._naming import snake_case


def _spec(**operations: dict[str, Any]) -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for op_id, extra in operations.items():
        method = extra.pop("method", "get")
        paths[f"/{op_id}"] = {method: {"operationId": op_id, "description": f"Do {op_id}.", **extra}}
    return {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": paths}


@pytest.fixture
def orders(repo_root: Path) -> Path:
    return repo_root / "specs" / "orders.yaml"


def test_only_operations_with_the_extension_are_selected(orders: Path) -> None:
    toolset = tk.from_openapi(orders, "orders")
    assert set(toolset.names) == {
        "orders_list",
        "orders_get",
        "orders_refund_create",
        "orders_cancel",
        "orders_note_set",
    }
    assert "deleteOrder" not in {t.operation_id for t in toolset}
    assert toolset.rejected == ()


def test_select_all_opts_in_every_operation(orders: Path) -> None:
    toolset = tk.from_openapi(orders, "orders", select="all")
    assert "orders_delete_order" in toolset.names
    assert len(toolset) == 6


def test_unknown_select_value_raises() -> None:
    with pytest.raises(tk.SpecError) as caught:
        tk.from_openapi(_spec(a={}), "t", select="some")
    assert caught.value.slug == "bad_select"


def test_overrides_select_and_rename_an_operation(orders: Path) -> None:
    overrides = "deleteOrder:\n  name: orders_delete\n  description: Delete an order for good.\n  confirm: true\n"
    tool = tk.from_openapi(orders, "orders", overrides=overrides)["deleteOrder"]
    assert (tool.name, tool.description, tool.confirm, tool.effect) == (
        "orders_delete",
        "Delete an order for good.",
        True,
        "write",
    )


def test_overrides_win_over_the_extension(orders: Path) -> None:
    tool = tk.from_openapi(orders, "orders", overrides={"setOrderNote": {"confirm": True}})["setOrderNote"]
    assert tool.confirm is True
    assert tool.name == "orders_note_set"


def test_overrides_file_path_is_read(orders: Path, tmp_path: Path) -> None:
    side = tmp_path / "overrides.yaml"
    side.write_text("deleteOrder: true\n", encoding="utf-8")
    assert "orders_delete_order" in tk.from_openapi(orders, "orders", overrides=side).names


def test_overrides_policy_and_domain_reach_the_tool(orders: Path) -> None:
    overrides = {
        "createRefund": {
            "policy": {"enum_case": "insensitive", "clamp": False},
            "domain": [
                {
                    "field": "amount_minor",
                    "schema": {"maximum": 5000},
                    "problem": "too much",
                    "expected": "at most 5000",
                }
            ],
        }
    }
    tool = tk.from_openapi(orders, "orders", overrides=overrides)["createRefund"]
    assert tool.policy == tk.Policy(enum_case="insensitive", clamp=False)
    assert len(tool.domain_checks) == 1


@pytest.mark.parametrize(
    "overrides",
    [
        {"getOrder": {"nmae": "x"}},
        {"getOrder": {"confirm": "yes"}},
        {"getOrder": {"policy": {"enum_case": "loose"}}},
        ["getOrder"],
    ],
    ids=["unknown-key", "confirm-not-bool", "bad-policy", "not-a-mapping"],
)
def test_malformed_overrides_raise(orders: Path, overrides: Any) -> None:
    with pytest.raises(tk.SpecError) as caught:
        tk.from_openapi(orders, "orders", overrides=overrides)
    assert caught.value.slug == "bad_overrides"


def test_override_for_a_missing_operation_is_reported(orders: Path) -> None:
    toolset = tk.from_openapi(orders, "orders", overrides={"getOrdr": True})
    assert [(r.operation_id, r.slug) for r in toolset.rejected] == [("getOrdr", "unknown_operation")]


def test_deprecated_operations_are_skipped_unless_asked() -> None:
    spec = _spec(old={"deprecated": True, "x-agent-tool": True})
    assert [r.slug for r in tk.from_openapi(spec, "t").rejected] == ["deprecated"]
    assert tk.from_openapi(spec, "t", include_deprecated=True).names == ("t_old",)


def test_extension_false_is_not_selected() -> None:
    assert tk.from_openapi(_spec(a={"x-agent-tool": False}), "t").names == ()


@pytest.mark.parametrize(
    ("method", "effect", "confirm"),
    [
        ("get", "read", False),
        ("head", "read", False),
        ("post", "write", True),
        ("delete", "write", True),
        ("patch", "write", True),
    ],
)
def test_effect_follows_the_method_and_writes_need_confirmation(method: str, effect: str, confirm: bool) -> None:
    tool = tk.from_openapi(_spec(op={"method": method}), "t", select="all")["op"]
    assert (tool.effect, tool.confirm, tool.method) == (effect, confirm, method.upper())


def test_extension_confirm_false_lifts_confirmation() -> None:
    tool = tk.from_openapi(_spec(op={"method": "post", "x-agent-tool": {"confirm": False}}), "t")["op"]
    assert (tool.effect, tool.confirm) == ("write", False)


def test_description_falls_back_to_summary_and_extension_wins() -> None:
    spec = _spec(a={"x-agent-tool": {"description": "From the extension."}}, b={"x-agent-tool": True})
    spec["paths"]["/b"]["get"] = {"operationId": "b", "summary": "From the summary.", "x-agent-tool": True}
    toolset = tk.from_openapi(spec, "t")
    assert (toolset["a"].description, toolset["b"].description) == ("From the extension.", "From the summary.")


@pytest.mark.parametrize(
    ("operation_id", "expected"),
    [
        ("listOrders", "list_orders"),
        ("getHTTPStatus", "get_http_status"),
        ("repos/get-content", "repos_get_content"),
        ("GET_contactdb-lists", "get_contactdb_lists"),
        ("already_snake", "already_snake"),
    ],
)
def test_operation_ids_are_snake_cased(operation_id: str, expected: str) -> None:
    assert snake_case(operation_id) == expected


def test_tool_names_are_namespaced() -> None:
    assert tk.from_openapi(_spec(listOrders={}), "shop", select="all").names == ("shop_list_orders",)


@pytest.mark.parametrize("namespace", ["9shop", "my shop", "shop/v1"])
def test_bad_namespace_raises_naming_error(namespace: str) -> None:
    with pytest.raises(tk.NamingError):
        tk.from_openapi(_spec(a={}), namespace)


def test_selection_resolves_nothing_it_did_not_select() -> None:
    spec = _spec(good={"x-agent-tool": True}, broken={"parameters": [{"$ref": "#/components/parameters/Missing"}]})
    toolset = tk.from_openapi(spec, "t")
    assert toolset.names == ("t_good",)
    assert toolset.rejected == ()


def test_toolset_summary_counts_operations_tools_refusals_and_losses() -> None:
    from toolkit._openapi import summarise

    spec = _spec(a={}, b={"parameters": [{"name": "X-Trace", "in": "header", "schema": {"type": "string"}}]})
    spec["paths"]["/c"] = {"get": {"operationId": "c"}}
    summary = summarise(tk.from_openapi(spec, "t", select="all"))
    assert summary["operations"] == 3
    assert summary["tools"] == 2
    assert summary["refusals"] == {"missing_description": 1}
    assert summary["losses"]["name"] == 1


@pytest.mark.corpus
def test_one_tool_from_a_large_spec_costs_one_operations_work(
    corpus_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolkit._openapi import _definitions, _flatten

    calls: list[str] = []
    real = _definitions.normalise

    def counting(schema: Any, walk: Any, pointer: str) -> Any:
        calls.append(pointer)
        return real(schema, walk, pointer)

    monkeypatch.setattr(_definitions, "normalise", counting)
    monkeypatch.setattr(_flatten, "normalise", counting)
    toolset = tk.from_openapi(corpus_dir / "github-3.0.json", "gh", overrides={"issues/create": True})
    assert toolset.names == ("gh_issues_create",)
    assert 0 < len(calls) < 20, calls
