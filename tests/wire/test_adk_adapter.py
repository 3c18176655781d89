"""The google-adk adapter with the real google-adk package: golden declarations, calls through the runtime."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("google.adk.tools", reason="google-adk is not installed (optional extra `adk`)")

from google.adk.models import LlmRequest
from google.adk.tools import BaseTool

from toolkit.examples import search_issues
from toolkit.examples.demo_api import DEFAULT_API_KEY, create_app, seeded_order_ids
from toolkit.runtime.adk import to_adk
from toolkit.runtime.http import HttpConfig, HttpTool

PAID = seeded_order_ids()[0]


@pytest.fixture(scope="module")
def orders(repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, HttpTool]]:
    """The committed generated orders tools, calling the demo API in-process (ASGI transport)."""
    app = create_app(tmp_path_factory.mktemp("adk") / "orders.sqlite3")
    sys.path.insert(0, str(repo_root / "golden" / "generated"))
    try:
        import orders_tools  # type: ignore[import-not-found]

        config = HttpConfig(
            base_url="http://demo",
            transport=httpx.ASGITransport(app=app),
            credentials={"apiKey": lambda: DEFAULT_API_KEY},
        )
        yield {tool.name: tool for tool in orders_tools.load_tools(config)}
    finally:
        sys.path.remove(str(repo_root / "golden" / "generated"))
        for name in [m for m in sys.modules if m == "orders_tools" or m.startswith("orders_tools.")]:
            del sys.modules[name]


def _dump(declaration: Any) -> dict[str, Any]:
    return json.loads(declaration.model_dump_json(exclude_none=True, by_alias=True))


def _without_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value


def test_adapter_is_an_adk_tool_with_the_golden_declaration(orders: dict[str, HttpTool], repo_root: Path) -> None:
    for name, tool in orders.items():
        adapted = to_adk(tool)
        assert isinstance(adapted, BaseTool)
        golden = json.loads((repo_root / "golden" / f"{name}.json").read_text("utf-8"))
        assert _dump(adapted._get_declaration()) == golden


def test_adk_puts_the_declaration_into_the_model_request(orders: dict[str, HttpTool], repo_root: Path) -> None:
    adapted = to_adk(orders["orders_get"])
    request = LlmRequest()
    asyncio.run(adapted.process_llm_request(tool_context=None, llm_request=request))
    sent = request.config.tools[0].function_declarations[0]
    assert _dump(sent) == json.loads((repo_root / "golden" / "orders_get.json").read_text("utf-8"))
    assert request.tools_dict["orders_get"] is adapted


def test_run_async_goes_through_the_http_runtime(orders: dict[str, HttpTool]) -> None:
    adapted = to_adk(orders["orders_get"])
    ok = asyncio.run(adapted.run_async(args={"orderId": PAID}, tool_context=None))
    assert (ok["status"], ok["data"]["id"]) == ("ok", PAID)
    bad = asyncio.run(adapted.run_async(args={"orderId": "nope"}, tool_context=None))
    assert bad["status"] == "invalid_arguments"
    assert bad["errors"][0]["field"] == "orderId"


def test_write_tools_still_ask_for_confirmation_under_adk(orders: dict[str, HttpTool]) -> None:
    adapted = to_adk(orders["orders_refund_create"])
    args = {"orderId": PAID, "amount_minor": 100, "reason": "duplicate"}
    result = asyncio.run(adapted.run_async(args=args, tool_context=None))
    assert result["status"] == "needs_confirmation"


def test_function_tools_adapt_too() -> None:
    import toolkit as tk

    tool = tk.from_function(search_issues, namespace="issues", effect="read")
    adapted = to_adk(tool)
    # genai's Schema cannot tell ``default: null`` from no default, so those keys do not survive the round trip
    assert _dump(adapted._get_declaration()) == _without_nulls(tool.declaration)
    result = asyncio.run(adapted.run_async(args={"query": 5}, tool_context=None))
    assert result["status"] == "invalid_arguments"


def test_a_json_schema_tool_reaches_adk_as_parameters_json_schema() -> None:
    import toolkit as tk

    tool = tk.from_function(search_issues, namespace="issues", effect="read")
    adapted = to_adk(tool, dialect="gemini_json")
    declaration = adapted._get_declaration()
    assert declaration.parameters is None
    assert declaration.parameters_json_schema == tool.payload("gemini_json").body["parametersJsonSchema"]
    request = LlmRequest()
    asyncio.run(adapted.process_llm_request(tool_context=None, llm_request=request))
    sent = request.config.tools[0].function_declarations[0]
    assert _dump(sent)["parametersJsonSchema"] == tool.payload("gemini_json").body["parametersJsonSchema"]
    ok = asyncio.run(adapted.run_async(args={"query": "login"}, tool_context=None))
    assert ok["status"] == "ok"


def test_a_declaration_adk_refuses_raises_a_toolkit_error_not_a_validation_error() -> None:
    import toolkit as tk
    from toolkit import SchemaError, ToolContract

    contract = ToolContract(
        name="odd", description="Take a value.", args_schema={"type": "object", "properties": {"v": {}}}
    )
    odd = tk.Tool(contract=contract, parameters={"type": "OBJECT", "properties": {"v": {"maxLength": "long"}}})
    with pytest.raises(SchemaError) as caught:
        to_adk(odd)
    assert caught.value.slug == "adk_refused"
    assert "'odd'" in caught.value.message
    assert not isinstance(caught.value.__cause__, Exception)  # pydantic's error is not chained into the report
