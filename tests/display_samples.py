"""Hand-built objects for the display and widget tests: every renderer's input, no stage module needed."""

from __future__ import annotations

from typing import Any

from toolkit import (
    BatchItem,
    BatchResult,
    FieldError,
    Lint,
    Loss,
    Notice,
    Rejection,
    Replay,
    SagaReport,
    SagaStep,
    Tool,
    ToolContract,
    ToolResult,
    Toolset,
)

HOSTILE = '<script>alert("x")</script><img src=x onerror="alert(1)"> & friends'

_ARGS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "orderId": {"type": "string", "pattern": "^ord_[a-z0-9]{12}$", "description": "The order id."},
        "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20, "description": "Page size."},
        "expand": {"type": "string", "enum": ["items", "payments"], "description": "What to expand."},
        "include_archived": {"type": "boolean", "default": False, "description": "Also archived orders."},
        "amount": {"type": "number", "exclusiveMinimum": 0, "description": "Amount, in euros."},
    },
    "required": ["orderId"],
    "additionalProperties": False,
}

_PARAMETERS: dict[str, Any] = {
    "type": "OBJECT",
    "properties": {
        "orderId": {"type": "STRING", "pattern": "^ord_[a-z0-9]{12}$", "description": "The order id."},
        "limit": {"type": "INTEGER", "minimum": 1, "maximum": 100, "default": 20, "description": "Page size."},
        "expand": {"type": "STRING", "enum": ["items", "payments"], "description": "What to expand."},
        "include_archived": {"type": "BOOLEAN", "default": False, "description": "Also archived orders."},
        "amount": {"type": "NUMBER", "description": "Amount, in euros."},
    },
    "required": ["orderId"],
}

LOSSES = (
    Loss("", "additionalProperties", False, "the gemini subset has no additionalProperties"),
    Loss("/properties/amount", "exclusiveMinimum", 0, "the gemini subset has no exclusiveMinimum"),
)
LINTS = (
    Lint("W201", "money-float", "warning", "amount", "amount looks like money but is a float.", "Use Decimal."),
    Lint("I300", "short-description", "info", "", "The tool description is one sentence.", "Say when to use it."),
)


def order_tool(description: str = "Look up one order by id. Use before answering any question about an order.") -> Tool:
    contract = ToolContract(
        name="orders_get",
        description=description,
        args_schema=_ARGS_SCHEMA,
        effect="read",
        binding={
            "orderId": "path",
            "limit": "query",
            "expand": "query",
            "include_archived": "query",
            "amount": "body.amount",
        },
        source="openapi",
        operation_id="getOrder",
        method="get",
        path="/orders/{orderId}",
    )
    tool = Tool(contract=contract, parameters=_PARAMETERS, lowering_losses=LOSSES)
    tool._artefacts.lints = LINTS  # the sample shows these lints, whatever the catalogue would find in it
    return tool


def bare_tool() -> Tool:
    """A tool without arguments, losses or lints."""
    contract = ToolContract(
        name="clock_now",
        description="Tell the current time of the service, in UTC. Use when the user asks for the time.",
        args_schema={"type": "object", "properties": {}, "additionalProperties": False},
        effect="read",
    )
    return Tool(contract=contract, parameters=None)


def toolset() -> Toolset:
    rejected = (
        Rejection(None, "post", "/uploads", "no_operation_id", "operation has no operationId; add one."),
        Rejection("uploadAvatar", "put", "/avatar", "binary_body", "multipart bodies cannot be tool arguments."),
    )
    source = {"path": "specs/orders.yaml", "sha256": "0" * 64, "openapi": "3.1.0", "title": "Orders", "version": "1"}
    return Toolset(namespace="orders", tools=(order_tool(), bare_tool()), rejected=rejected, source=source)


def invalid_result() -> ToolResult:
    return ToolResult(
        status="invalid_arguments",
        errors=(
            FieldError("limit", "out_of_range", "out of range: 500", "integer between 1 and 100"),
            FieldError("orderId", "pattern_mismatch", "does not match: 'ORD-1'", "ord_ followed by 12 characters"),
        ),
        notices=(Notice("expand", "defaulted", to="items"),),
        retryable=False,
        message="2 arguments are wrong; fix them and call again.",
    )


def ok_result() -> ToolResult:
    return ToolResult(
        status="ok",
        data={"orderId": "ord_0123456789ab", "limit": 100, "total": 2.5, "archived": None, "ok": True},
        notices=(
            Notice("limit", "clamped", "limit is capped at 100", to=100, from_=500),
            Notice("include_archived", "defaulted", to=False),
        ),
    )


def replayed_result() -> ToolResult:
    return ToolResult(
        status="ok",
        data={"transfer_id": "tr_1"},
        replay=Replay("2026-01-02T03:04:05Z", key="a1b2"),
    )


def batch() -> BatchResult:
    return BatchResult(
        items=(
            BatchItem("item-1", "ok", data={"n": 1}),
            BatchItem("item-2", "ok", data={"n": 2}),
            BatchItem("item-3", "failed", reason="upstream timeout", retryable=True),
            BatchItem("item-4", "failed", reason="no such sku", retryable=False),
        )
    )


def saga() -> SagaReport:
    return SagaReport(
        steps=(
            SagaStep("reserve_stock", "compensated", reference="res_1"),
            SagaStep("charge_card", "outstanding", reference="ch_1", detail="refund failed: card closed"),
            SagaStep("ship", "not_started"),
        ),
        error="charge_card compensation failed",
    )


def fixture_report() -> Any:
    """A report with one passing and one failing row (built by hand, so validator changes do not move it)."""
    from toolkit._fixtures import Fixture
    from toolkit._fixtures._report import FixtureReport, FixtureRow

    passing = FixtureRow(
        Fixture(
            "limit.numeric_as_string",
            "numeric_as_string",
            {"orderId": "ord_0123456789ab", "limit": "10"},
            "reject",
            "a number sent as a string is not a number",
        ),
        "reject",
        ToolResult("invalid_arguments", errors=(FieldError("limit", "wrong_type", "got string '10'", "integer"),)),
    )
    failing = FixtureRow(
        Fixture(
            "expand.enum_wrong_case",
            "enum_wrong_case",
            {"orderId": "ord_0123456789ab", "expand": "ITEMS"},
            "reject",
            "enum case is strict",
        ),
        "accept_with_notice",
        ToolResult(
            "ok",
            data={"orderId": "ord_0123456789ab", "expand": "items"},
            notices=(Notice("expand", "normalised", from_="ITEMS", to="items"),),
        ),
    )
    return FixtureReport(tool_name="orders_get", rows=(passing, failing))


def declaration_diff() -> Any:
    """A diff with one change of each kind, built by hand so that only the renderer can move it."""
    from toolkit._diff import Change, DeclarationDiff

    return DeclarationDiff.of(
        [
            Change("tool_description_changed", "", "tool description changed", "behavioural", "orders_get"),
            Change(
                "optional_parameter_added", "currency", "new optional parameter `currency`", "additive", "orders_get"
            ),
            Change(
                "constraint_tightened", "limit", "maximum of `limit` lowered from 100 to 50", "breaking", "orders_get"
            ),
        ]
    )


def golden_report(directory: Any) -> Any:
    """A golden check with a stale file, a missing one and an orphan, in ``directory``."""
    import json

    from toolkit import _golden

    _golden.update([order_tool(description="An older description of the order lookup tool.")], directory)
    (directory / "retired_tool.json").write_text(json.dumps({"name": "retired_tool", "description": "gone"}))
    return _golden.check([order_tool(), bare_tool()], directory)
