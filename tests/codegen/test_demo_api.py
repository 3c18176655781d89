"""The demo Orders API on loopback (a real uvicorn server, a real SQLite file), called by the generated tools."""

from __future__ import annotations

import asyncio
import re
import socket
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from toolkit import ToolContext
from toolkit.examples.demo_api import DEFAULT_API_KEY, DemoServer, create_app, default_db_path, seeded_order_ids, serve
from toolkit.runtime.http import HttpClient, HttpConfig, HttpTool

PAID, SHIPPED, PENDING = seeded_order_ids()[:3]
MISSING = "ord_000000000000"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoServer]:
    with serve(tmp_path_factory.mktemp("demo") / "orders.sqlite3") as running:
        yield running


@pytest.fixture(scope="module")
def tools(server: DemoServer, repo_root: Path) -> Iterator[dict[str, HttpTool]]:
    """The committed generated package, bound to the running demo API."""
    sys.path.insert(0, str(repo_root / "golden" / "generated"))
    try:
        import orders_tools  # type: ignore[import-not-found]

        config = HttpConfig(base_url=server.base_url, timeout=5, credentials={"apiKey": lambda: server.api_key})
        loaded = {tool.name: tool for tool in orders_tools.load_tools(config)}
        yield loaded
        next(iter(loaded.values())).client.close()
    finally:
        sys.path.remove(str(repo_root / "golden" / "generated"))
        for name in [m for m in sys.modules if m == "orders_tools" or m.startswith("orders_tools.")]:
            del sys.modules[name]


@pytest.fixture
def api(server: DemoServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base_url, headers={"X-API-Key": server.api_key}) as client:
        yield client


def test_seeded_ids_match_the_spec_pattern() -> None:
    assert all(re.fullmatch(r"ord_[a-z0-9]{12}", order_id) for order_id in seeded_order_ids())
    assert seeded_order_ids() == seeded_order_ids()


def test_requests_without_the_api_key_get_401(server: DemoServer) -> None:
    assert httpx.get(f"{server.base_url}/orders").status_code == 401
    assert httpx.get(f"{server.base_url}/orders", headers={"X-API-Key": "wrong"}).status_code == 401


def test_orders_are_listed_newest_first_with_filters(api: httpx.Client) -> None:
    page = api.get("/orders", params={"limit": 2}).json()
    assert [o["id"] for o in page["items"]] == [PAID, SHIPPED]
    paid = api.get("/orders", params={"status": "paid"}).json()["items"]
    assert {o["status"] for o in paid} == {"paid"}
    assert api.get("/orders", params={"limit": 0}).status_code == 400


def test_request_id_header_is_echoed(api: httpx.Client) -> None:
    assert api.get("/orders", headers={"X-Request-ID": "trace-1"}).headers["x-request-id"] == "trace-1"


def test_unknown_order_is_404_problem(api: httpx.Client) -> None:
    response = api.get(f"/orders/{MISSING}")
    assert response.status_code == 404
    assert set(response.json()) == {"title", "detail", "status"}


def test_data_lives_in_the_sqlite_file(server: DemoServer, api: httpx.Client) -> None:
    api.put(f"/orders/{PENDING}/notes", json={"note": "call first"})
    with sqlite3.connect(server.db_path) as db:
        assert db.execute("SELECT note FROM orders WHERE id = ?", (PENDING,)).fetchone() == ("call first",)


# -- through the generated tools ------------------------------------------------------------------------
def test_generated_list_tool_clamps_and_calls(tools: dict[str, HttpTool]) -> None:
    result = tools["orders_list"].call({"limit": 500, "status": "paid", "x_request_id": "t1"})
    assert result.status == "ok", result.to_dict()
    assert {o["status"] for o in result.data["items"]} == {"paid"}
    assert [(n.field, n.action) for n in result.notices] == [("limit", "clamped")]


def test_generated_get_tool_binds_path_and_query(tools: dict[str, HttpTool]) -> None:
    result = tools["orders_get"].call({"orderId": PAID, "expand": "items"})
    assert result.status == "ok"
    assert result.data["id"] == PAID
    assert result.data["items"] == [{"sku": "MUG-01", "quantity": 2}]


def test_generated_get_tool_maps_404_to_rejected(tools: dict[str, HttpTool]) -> None:
    result = tools["orders_get"].call({"orderId": MISSING})
    assert result.status == "rejected"
    assert result.errors[0].code == "not_found"


def test_invalid_arguments_are_caught_before_the_api(tools: dict[str, HttpTool]) -> None:
    result = tools["orders_get"].call({"orderId": "ORD-1"})
    assert result.status == "invalid_arguments"
    assert result.errors[0].code == "pattern_mismatch"


def test_refund_needs_confirmation_then_runs_once_confirmed(tools: dict[str, HttpTool]) -> None:
    args: dict[str, Any] = {"orderId": SHIPPED, "amount_minor": 900, "reason": "damaged"}
    pending = tools["orders_refund_create"].call(args)
    assert pending.status == "needs_confirmation"
    assert "headers" not in pending.data["request"]  # the idempotency key is the runtime's, added when sending
    confirmed = ToolContext(extras={"confirmed": True, "dedupe_key": "k-12345678"})
    done = tools["orders_refund_create"].call(args, confirmed)
    assert done.status == "ok", done.to_dict()
    assert (done.data["order_id"], done.data["amount_minor"]) == (SHIPPED, 900)
    again = tools["orders_refund_create"].call(args, confirmed)
    assert again.data["id"] == done.data["id"]  # the dedupe key reached the API as its Idempotency-Key


def test_refund_beyond_the_total_is_a_409_rejection(tools: dict[str, HttpTool]) -> None:
    args = {"orderId": PENDING, "amount_minor": 100, "reason": "duplicate"}
    result = tools["orders_refund_create"].call(args, ToolContext(extras={"confirmed": True}))
    assert result.status == "rejected"
    assert result.errors[0].code == "conflict"
    assert "pending" in result.errors[0].problem


def test_cancel_of_a_shipped_order_is_rejected(tools: dict[str, HttpTool]) -> None:
    result = tools["orders_cancel"].call(
        {"orderId": SHIPPED, "reason": "changed my mind"}, ToolContext(extras={"confirmed": True})
    )
    assert (result.status, result.errors[0].code) == ("rejected", "conflict")


def test_missing_credentials_give_a_non_retryable_error(server: DemoServer, tools: dict[str, HttpTool]) -> None:
    anonymous = HttpTool(
        tools["orders_list"].tool, security=tools["orders_list"].security, config=HttpConfig(server.base_url)
    )
    result = anonymous.call({})
    anonymous.client.close()
    assert (result.status, result.retryable) == ("error", False)
    assert "401" in result.message


def test_in_process_asgi_transport_serves_sync_and_async_calls(tmp_path: Path, tools: dict[str, HttpTool]) -> None:
    app = create_app(tmp_path / "inproc.sqlite3")
    config = HttpConfig(
        base_url="http://demo", transport=httpx.ASGITransport(app=app), credentials={"apiKey": lambda: DEFAULT_API_KEY}
    )
    tool = HttpTool(tools["orders_get"].tool, security=tools["orders_get"].security, client=HttpClient(config))
    assert tool.call({"orderId": PAID}).data["id"] == PAID

    async def main() -> str:
        result = await tool.acall({"orderId": SHIPPED})
        await tool.client.aclose()
        return str(result.data["id"])

    assert asyncio.run(main()) == SHIPPED


def test_default_database_lives_under_dot_toolkit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert default_db_path() == tmp_path / ".toolkit" / "demo-orders.sqlite3"
    create_app()
    assert (tmp_path / ".toolkit" / "demo-orders.sqlite3").is_file()


def test_server_stops_and_frees_its_port(tmp_path: Path) -> None:
    with serve(tmp_path / "stop.sqlite3") as running:
        port = int(running.base_url.rsplit(":", 1)[1])
        assert httpx.get(f"{running.base_url}/orders", headers={"X-API-Key": DEFAULT_API_KEY}).status_code == 200
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", port)) != 0


def test_the_executor_runs_generated_http_tools_with_a_ledger(tools: dict[str, HttpTool], tmp_path: Path) -> None:
    from toolkit.runtime import Executor, Ledger, require_confirmation

    ledger = Ledger(tmp_path / "ledger.sqlite3")
    executor = Executor(tools, governance=require_confirmation, ledger=ledger, timeout=10)
    args = {"orderId": PAID, "amount_minor": 50, "reason": "duplicate"}
    assert executor.execute("orders_refund_create", args, ToolContext(session_id="s1")).status == "needs_confirmation"
    confirmed = ToolContext(session_id="s1", extras={"confirmed": True})
    first = executor.execute("orders_refund_create", args, confirmed)
    again = executor.execute("orders_refund_create", args, confirmed)
    assert first.status == "ok", first.to_dict()
    assert again.replay is not None  # the ledger answered; the API saw one refund
    assert again.data["id"] == first.data["id"]
    ledger.close()
