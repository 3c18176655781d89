"""The ledger's dedupe key on the wire: the ``Idempotency-Key`` an operation declares is filled by the runtime.

Against the demo API on loopback (a real uvicorn server and SQLite file), which logs every key it receives
(``received_keys``: the external record these tests read) and answers a repeated key with its stored response.
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
import pytest

from toolkit import ToolContext
from toolkit.examples.demo_api import DemoServer, received_keys, seeded_order_ids, serve
from toolkit.runtime import Ledger, idempotent
from toolkit.runtime.http import HttpClient, HttpConfig, HttpTool

PAID, SHIPPED = seeded_order_ids()[:2]
REFUND = {"orderId": SHIPPED, "amount_minor": 300, "reason": "damaged"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[DemoServer]:
    with serve(tmp_path / "orders.sqlite3") as running:
        yield running


@pytest.fixture(scope="module")
def package(repo_root: Path) -> Iterator[Any]:
    """The committed generated package."""
    sys.path.insert(0, str(repo_root / "golden" / "generated"))
    try:
        import orders_tools  # type: ignore[import-not-found]

        yield orders_tools
    finally:
        sys.path.remove(str(repo_root / "golden" / "generated"))
        for name in [m for m in sys.modules if m == "orders_tools" or m.startswith("orders_tools.")]:
            del sys.modules[name]


class LoseFirstResponse(httpx.BaseTransport):
    """Delivers every request, but loses the first POST's response on the way back (a read timeout)."""

    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.lost = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        if request.method == "POST" and self.lost == 0:
            self.lost += 1
            response.read()
            response.close()
            raise httpx.ReadTimeout("the response was lost", request=request)
        return response

    def close(self) -> None:
        self.inner.close()


def _tool(package: Any, server: DemoServer, name: str, **config: Any) -> HttpTool:
    settings = HttpConfig(base_url=server.base_url, credentials={"apiKey": lambda: server.api_key}, **config)
    tools = {tool.name: tool for tool in package.load_tools(settings)}
    return tools[name]


def _refunds(server: DemoServer, order_id: str) -> int:
    with closing(sqlite3.connect(server.db_path)) as db:
        return int(db.execute("SELECT count(*) FROM refunds WHERE order_id = ?", (order_id,)).fetchone()[0])


def test_a_retried_call_sends_the_same_key_and_the_api_applies_it_once(
    package: Any, server: DemoServer, tmp_path: Path
) -> None:
    transport = LoseFirstResponse()
    refund = _tool(package, server, "orders_refund_create", transport=transport)

    def lookup(key: str) -> Any:
        """Settle an unknown outcome the way payment APIs ask: send the request again with the same key."""
        again = refund.call(REFUND, ToolContext(extras={"confirmed": True, "dedupe_key": key}))
        return again.data if again.ok else None

    wrapped = idempotent(refund, ledger=Ledger(tmp_path / "ledger.sqlite3"), reconcile=lookup)
    context = ToolContext(session_id="s-1", extras={"confirmed": True})
    first = wrapped.call(REFUND, context)
    retry = wrapped.call(REFUND, context)
    refund.client.close()
    assert transport.lost == 1
    assert first.status == "timeout"  # the caller never saw the response ...
    assert retry.ok, retry.to_dict()
    assert retry.replay is not None  # ... and its retry got the receipt the API gave for the one refund
    key = wrapped.key_for(REFUND, context)
    path = f"/orders/{SHIPPED}/refunds"
    assert received_keys(server.db_path) == [("POST", path, key), ("POST", path, key)]
    assert _refunds(server, SHIPPED) == 1
    assert retry.data["order_id"] == SHIPPED


def test_the_same_dedupe_key_reaches_the_api_on_every_attempt(package: Any, server: DemoServer) -> None:
    refund = _tool(package, server, "orders_refund_create")
    context = ToolContext(extras={"confirmed": True, "dedupe_key": "a" * 64})
    first, second = refund.call(REFUND, context), refund.call(REFUND, context)
    refund.client.close()
    assert first.data == second.data
    assert [key for _, _, key in received_keys(server.db_path)] == ["a" * 64, "a" * 64]
    assert _refunds(server, SHIPPED) == 1


def test_without_the_ledger_each_call_has_a_key_of_its_own(package: Any, server: DemoServer) -> None:
    refund = _tool(package, server, "orders_refund_create")
    confirmed = ToolContext(extras={"confirmed": True})
    refund.call(REFUND, confirmed)
    refund.call(REFUND, confirmed)
    refund.client.close()
    keys = [key for _, _, key in received_keys(server.db_path)]
    assert len(keys) == len(set(keys)) == 2
    assert _refunds(server, SHIPPED) == 2  # no deduplication without the ledger: two calls, two refunds


def test_the_model_cannot_pass_the_idempotency_key(package: Any, server: DemoServer) -> None:
    refund = _tool(package, server, "orders_refund_create")
    assert "idempotency_key" not in refund.declaration["parameters"]["properties"]
    result = refund.call({**REFUND, "idempotency_key": "chosen-by-the-model"}, ToolContext(extras={"confirmed": True}))
    refund.client.close()
    assert (result.status, result.errors[0].code) == ("invalid_arguments", "unknown_property")
    assert received_keys(server.db_path) == []


def test_a_configured_header_carries_the_key_of_operations_that_declare_none(package: Any, server: DemoServer) -> None:
    cancel = _tool(package, server, "orders_cancel", idempotency_header="Idempotency-Key")
    assert cancel.tool.contract.idempotency_key is None
    args = {"orderId": PAID, "reason": "ordered twice"}
    keyed = ToolContext(extras={"confirmed": True, "dedupe_key": "b" * 64})
    first, again = cancel.call(args, keyed), cancel.call(args, keyed)
    unkeyed = cancel.call(args, ToolContext(extras={"confirmed": True}))
    cancel.client.close()
    assert first.ok, first.to_dict()
    assert again.data == first.data  # the stored response, not a 409 for an order already cancelled
    assert (unkeyed.status, unkeyed.errors[0].code) == ("rejected", "conflict")  # no key, no replay
    assert received_keys(server.db_path) == [("POST", f"/orders/{PAID}/cancel", "b" * 64)] * 2


def test_a_key_reused_for_another_request_is_refused_by_the_demo_api(server: DemoServer) -> None:
    headers = {"X-API-Key": server.api_key, "Idempotency-Key": "c" * 64}
    with httpx.Client(base_url=server.base_url, headers=headers) as client:
        assert client.put(f"/orders/{PAID}/notes", json={"note": "VIP"}).status_code == 200
        replay = client.put(f"/orders/{PAID}/notes", json={"note": "VIP"})
        other = client.put(f"/orders/{SHIPPED}/notes", json={"note": "VIP"})
    assert replay.headers["idempotent-replayed"] == "true"
    assert other.status_code == 422


def test_an_invalid_idempotency_header_name_is_a_config_error() -> None:
    from toolkit import RuntimeConfigError

    with pytest.raises(RuntimeConfigError) as caught:
        HttpClient(HttpConfig(idempotency_header="Idempotency Key"))
    assert "header name" in caught.value.message


def test_the_runtime_reads_the_extra_the_ledger_writes() -> None:
    from toolkit.runtime import http, idempotency

    assert http.DEDUPE_KEY_EXTRA == idempotency.DEDUPE_KEY_EXTRA
