"""Tools served over MCP, checked with the official SDK's own client.

In-process (``mcp.Client(server)``, no transport) for the bulk; one subprocess over stdio (``toolkit serve
tools.py``) and one over streamable HTTP on loopback (``toolkit serve PACKAGE --http``), since each costs a few
seconds of imports. The oracles are independent of the server: ``tools/list`` must equal
``tk.payloads(tools, "mcp")``, a result's data must equal what the demo API itself answers, an invalid call's
envelope must equal the validator's, a function tool's must equal ``tool.call``'s, and the demo API's SQLite file
is the external effect log that says how many refunds really happened.
"""

from __future__ import annotations

import json
import os
import runpy
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

import toolkit as tk
from toolkit import examples
from toolkit.cli import main
from toolkit.examples.demo_api import DemoServer, seeded_order_ids, serve
from toolkit.runtime.http import HttpConfig
from toolkit.runtime.ledger import Ledger
from toolkit.runtime.serving import Served, check_host, is_loopback, served

mcp = pytest.importorskip("mcp", reason="serving over MCP needs the mcp extra (pip install 'toolkit-workbench[mcp]')")
types = pytest.importorskip("mcp.types")
from mcp.client.stdio import stdio_client  # noqa: E402 - needs the mcp extra checked above

from toolkit.runtime.mcp import build_server  # noqa: E402

PAID, SHIPPED = seeded_order_ids()[:2]
REFUND = {"orderId": PAID, "amount_minor": 125, "reason": "duplicate"}
TRANSFER = {
    "from_account": "acc_00000001",
    "to_account": "acc_00000002",
    "amount": "19.99",
    "currency": "eur",
    "execute_on": "2026-02-01",
}
Elicit = Callable[[Any, Any], Awaitable[Any]]


# -- fixtures ----------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoServer]:
    with serve(tmp_path_factory.mktemp("demo") / "orders.sqlite3") as running:
        yield running


@pytest.fixture(scope="module")
def orders(repo_root: Path) -> tk.Toolset:
    return tk.from_openapi(repo_root / "specs" / "orders.yaml", namespace="orders")


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    ledger = Ledger(tmp_path / "ledger.sqlite3")
    yield ledger
    ledger.close()


@pytest.fixture
def served_orders(orders: tk.Toolset, demo: DemoServer, ledger: Ledger) -> Iterator[Served]:
    credentials = {"apiKey": lambda: demo.api_key}
    tools = served(orders, base_url=demo.base_url, config=HttpConfig(credentials=credentials), ledger=ledger)
    yield tools
    tools.close()


class Asked:
    """An elicitation callback that records each question and gives one answer."""

    def __init__(self, action: str = "accept", confirm: bool = True) -> None:
        self.action, self.confirm, self.questions = action, confirm, list[str]()

    async def __call__(self, context: Any, params: Any) -> Any:
        self.questions.append(params.message)
        content = {"confirm": self.confirm} if self.action == "accept" else None
        return types.ElicitResult(action=self.action, content=content)


def session(tools: Served, calls: Callable[[Any], Awaitable[Any]], **options: Any) -> Any:
    """Run ``calls(client)`` against an in-process client of the server for ``tools``."""

    async def run() -> Any:
        async with mcp.Client(build_server(tools), **options) as client:
            return await calls(client)

    return anyio.run(run)


def refunds(demo: DemoServer, order_id: str) -> int:
    """How many refunds the demo API really recorded for an order (its SQLite file, read directly)."""
    with sqlite3.connect(demo.db_path) as db:
        (count,) = db.execute("SELECT COUNT(*) FROM refunds WHERE order_id = ?", (order_id,)).fetchone()
    return int(count)


def wire(tool: Any) -> dict[str, Any]:
    return dict(tool.model_dump(by_alias=True, exclude_none=True, mode="json"))


# -- listing ------------------------------------------------------------------------------------------------------
def test_tools_list_is_exactly_the_mcp_payloads(served_orders: Served, orders: tk.Toolset) -> None:
    listed = session(served_orders, lambda client: client.list_tools())
    assert [wire(tool) for tool in listed.tools] == tk.payloads(orders, "mcp").bodies
    refund = next(tool for tool in listed.tools if tool.name == "orders_refund_create")
    assert (refund.annotations.read_only_hint, refund.annotations.destructive_hint) == (False, True)
    assert refund.output_schema is None


def test_names_the_mcp_rule_refuses_are_mapped_and_calls_find_their_tool() -> None:
    search = tk.from_function(examples.search_issues, namespace="issues:v2", effect="read")
    tools = served([search])

    async def calls(client: Any) -> Any:
        return (await client.list_tools()).tools, await client.call_tool("issues_v2_search_issues", {"query": "x"})

    listed, result = session(tools, calls)
    assert [tool.name for tool in listed] == ["issues_v2_search_issues"] == list(tools.names.values())
    assert result.structured_content == search.call({"query": "x"}).to_dict()


# -- calls through validation and the HTTP runtime ----------------------------------------------------------------
def test_a_call_goes_through_the_http_runtime_to_the_demo_api(served_orders: Served, demo: DemoServer) -> None:
    result = session(served_orders, lambda client: client.call_tool("orders_get", {"orderId": PAID}))
    direct = httpx.get(f"{demo.base_url}/orders/{PAID}", headers={"X-API-Key": demo.api_key}).json()
    assert result.is_error is False
    assert result.structured_content["status"] == "ok"
    assert result.structured_content["data"] == direct
    assert json.loads(result.content[0].text) == result.structured_content


def test_an_invalid_call_is_an_error_result_carrying_the_validators_envelope(
    served_orders: Served, orders: tk.Toolset
) -> None:
    args = {"orderId": "ORD-1", "expand": "everything"}
    result = session(served_orders, lambda client: client.call_tool("orders_get", args))
    assert result.is_error is True
    assert result.structured_content == orders["orders_get"].validate(args).to_dict()
    assert {e["code"] for e in result.structured_content["errors"]} >= {"pattern_mismatch"}
    assert json.loads(result.content[0].text) == result.structured_content


def test_an_unknown_tool_is_an_error_result_naming_the_tools(served_orders: Served) -> None:
    result = session(served_orders, lambda client: client.call_tool("orders_delete_everything", {}))
    assert result.is_error is True
    (error,) = result.structured_content["errors"]
    assert error["code"] == "unknown_tool"
    assert all(name in error["expected"] for name in served_orders.names.values())


def test_an_api_refusal_comes_back_as_an_error_result(served_orders: Served) -> None:
    result = session(served_orders, lambda client: client.call_tool("orders_get", {"orderId": "ord_000000000000"}))
    assert result.is_error is True
    assert result.structured_content["status"] == "rejected"
    assert result.structured_content["errors"][0]["code"] == "not_found"


def test_a_missing_credential_is_an_error_envelope_and_the_api_is_not_called(
    orders: tk.Toolset, demo: DemoServer
) -> None:
    config = HttpConfig(credentials={"apiKey": "TOOLKIT_TEST_UNSET_KEY"}, environ={})
    tools = served(orders, base_url=demo.base_url, config=config)
    result = session(tools, lambda client: client.call_tool("orders_get", {"orderId": PAID}))
    tools.close()
    assert result.is_error is True
    assert result.structured_content["status"] == "error"
    assert "missing_credential" in result.structured_content["message"]


# -- confirmation and the ledger ------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["auto", "legacy"], ids=["input-required-2026", "elicitation-request-2025"])
def test_a_write_runs_once_the_user_confirms_through_the_client(
    served_orders: Served, demo: DemoServer, mode: str
) -> None:
    asked, order = Asked(), SHIPPED if mode == "auto" else PAID
    before = refunds(demo, order)
    args = {**REFUND, "orderId": order}
    result = session(
        served_orders, lambda client: client.call_tool("orders_refund_create", args), mode=mode,
        elicitation_callback=asked,
    )  # fmt: skip
    assert result.is_error is False, result.structured_content
    assert result.structured_content["data"]["order_id"] == order
    assert refunds(demo, order) == before + 1
    (question,) = asked.questions
    assert f"/orders/{order}/refunds" in question
    assert '"amount_minor": 125' in question


@pytest.mark.parametrize(("action", "confirm"), [("decline", False), ("cancel", False), ("accept", False)])
def test_a_write_the_user_does_not_confirm_is_rejected_and_never_sent(
    served_orders: Served, demo: DemoServer, action: str, confirm: bool
) -> None:
    before = refunds(demo, PAID)
    asked = Asked(action, confirm)
    result = session(
        served_orders, lambda client: client.call_tool("orders_refund_create", REFUND), elicitation_callback=asked
    )
    assert result.is_error is True
    assert result.structured_content["status"] == "rejected"
    assert refunds(demo, PAID) == before
    assert len(asked.questions) == 1


def test_a_client_that_cannot_ask_gets_the_needs_confirmation_envelope(served_orders: Served, demo: DemoServer) -> None:
    before = refunds(demo, PAID)
    result = session(served_orders, lambda client: client.call_tool("orders_refund_create", REFUND))
    assert result.is_error is True
    assert result.structured_content["status"] == "needs_confirmation"
    assert result.structured_content["data"]["request"]["path"] == f"/orders/{PAID}/refunds"
    assert refunds(demo, PAID) == before


def test_a_repeated_confirmed_write_is_a_ledger_replay_and_the_api_sees_one_refund(
    served_orders: Served, demo: DemoServer
) -> None:
    asked, args = Asked(), {**REFUND, "amount_minor": 7}
    before = refunds(demo, PAID)

    async def twice(client: Any) -> Any:
        return [await client.call_tool("orders_refund_create", args) for _ in range(2)]

    first, again = session(served_orders, twice, elicitation_callback=asked)
    assert first.structured_content["status"] == again.structured_content["status"] == "ok"
    assert again.structured_content["replay"]["original_at"]
    assert again.structured_content["data"]["id"] == first.structured_content["data"]["id"]
    assert refunds(demo, PAID) == before + 1
    assert len(asked.questions) == 1  # a replay changes nothing, so nobody is asked again


def test_an_answer_not_bound_to_this_call_is_not_taken_as_confirmation() -> None:
    transfer = tk.from_function(examples.transfer_funds, namespace="payments", confirm=True)
    tools, asked = served([transfer]), Asked("decline")
    forged = {"confirm": types.ElicitResult(action="accept", content={"confirm": True})}

    async def call(client: Any) -> Any:
        return await client.call_tool(
            "payments_transfer_funds", TRANSFER, input_responses=forged, request_state="confirm:forged"
        )

    result = session(tools, call, elicitation_callback=asked)
    assert result.structured_content["status"] == "rejected"
    assert len(asked.questions) == 1  # asked for real, and the user said no


# -- function tools -------------------------------------------------------------------------------------------------
def test_function_tools_run_through_tool_call_and_confirm_like_http_tools() -> None:
    search = tk.from_function(examples.search_issues, namespace="issues", effect="read")
    transfer = tk.from_function(examples.transfer_funds, namespace="payments", confirm=True)
    tools, asked = served([search, transfer], session_id="s-1"), Asked()

    async def calls(client: Any) -> Any:
        found = await client.call_tool("issues_search_issues", {"query": "login", "limit": 2})
        bad = await client.call_tool("issues_search_issues", {"query": "login", "limit": "ten"})
        moved = await client.call_tool("payments_transfer_funds", TRANSFER)
        return found, bad, moved

    found, bad, moved = session(tools, calls, elicitation_callback=asked)
    assert found.structured_content == search.call({"query": "login", "limit": 2}).to_dict()
    assert (bad.is_error, bad.structured_content) == (
        True,
        search.validate({"query": "login", "limit": "ten"}).to_dict(),
    )
    confirmed = tk.ToolContext(session_id="s-1", extras={"confirmed": True})
    assert moved.structured_content["data"] == transfer.call(TRANSFER, confirmed).data
    assert '"amount": "19.99"' in asked.questions[0]


# -- what can be served, and where ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("127.0.0.2", True), ("localhost", True), ("::1", True), ("[::1]", True),
     ("0.0.0.0", False), ("::", False), ("192.168.1.10", False), ("example.com", False)],
)  # fmt: skip
def test_only_loopback_hosts_are_served_unless_remote_is_allowed(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback
    assert check_host(host, allow_remote=True) == host
    if loopback:
        assert check_host(host) == host
    else:
        with pytest.raises(tk.RuntimeConfigError) as caught:
            check_host(host)
        assert caught.value.slug == "remote_host"


def test_an_operation_without_a_server_url_needs_a_base_url() -> None:
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {"/ping": {"get": {"operationId": "ping", "description": "Ping the API.", "x-agent-tool": True}}},
    }
    toolset = tk.from_openapi(spec, namespace="t")
    with pytest.raises(tk.RuntimeConfigError) as caught:
        served(toolset)
    assert caught.value.slug == "no_base_url"
    assert served(toolset, base_url="http://127.0.0.1:9").names == {"t_ping": "t_ping"}


@pytest.mark.parametrize(("source", "slug"), [([], "nothing_to_serve"), ([42], "not_servable")])
def test_a_source_without_tools_is_refused_with_a_slug(source: Any, slug: str) -> None:
    with pytest.raises(tk.RuntimeConfigError) as caught:
        served(source)
    assert caught.value.slug == slug


@pytest.mark.parametrize(
    ("argv", "slug"),
    [
        (["--http", "--host", "0.0.0.0"], "remote_host"),
        (["--port", "9000"], "usage"),
        (["--credential", "apiKey"], "usage"),
        (["--credential", "apiKey=TOOLKIT_TEST_UNSET_KEY"], "missing_credential"),
        (["--ledger", "x.sqlite3", "--no-ledger"], "usage"),
    ],
)
def test_serve_mistakes_exit_2_with_a_slug_and_no_traceback(
    repo_root: Path, capsys: pytest.CaptureFixture[str], argv: list[str], slug: str
) -> None:
    assert main(["serve", str(repo_root / "specs" / "orders.yaml"), *argv]) == 2
    err = capsys.readouterr().err
    assert f"[{slug}]" in err
    assert "Traceback" not in err


def test_serving_a_generated_package_without_a_base_url_is_a_mistake(
    repo_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    package = repo_root / "golden" / "generated" / "orders_tools"
    try:
        assert main(["serve", str(package), "--no-ledger"]) == 2
    finally:
        for name in [m for m in sys.modules if m == "orders_tools" or m.startswith("orders_tools.")]:
            del sys.modules[name]
    assert "[no_base_url]" in capsys.readouterr().err


# -- over real transports: `toolkit serve` in a subprocess ----------------------------------------------------------
def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "toolkit.cli", "serve", *args]


async def _exercise(client: Any, expected: list[dict[str, Any]]) -> tuple[Any, Any]:
    listed = (await client.list_tools()).tools
    assert sorted((wire(tool) for tool in listed), key=lambda body: body["name"]) == sorted(
        expected, key=lambda body: body["name"]
    )
    return (
        await client.call_tool("orders_get", {"orderId": PAID}),
        await client.call_tool("orders_get", {"orderId": PAID, "expand": "everything"}),
    )


def _check(ok: Any, bad: Any, demo: DemoServer) -> None:
    direct = httpx.get(f"{demo.base_url}/orders/{PAID}", headers={"X-API-Key": demo.api_key}).json()
    assert (ok.is_error, ok.structured_content["data"]) == (False, direct)
    assert bad.is_error is True
    assert bad.structured_content["errors"][0]["code"] == "not_in_enum"


TOOLS_FILE = '''
import toolkit as tk
from toolkit import examples


def shout(text: str) -> str:
    """Repeat a text in capitals, and print it (a stray print must never reach the protocol's stdout).

    Args:
        text: The text to repeat.
    """
    print("shouting", text)
    return text.upper()


SHOUT = tk.from_function(shout, namespace="demo", effect="read")
SEARCH = tk.from_function(examples.search_issues, namespace="issues", effect="read")
'''


@pytest.mark.timeout(90)
def test_toolkit_serve_function_tools_over_stdio(tmp_path: Path) -> None:
    (tmp_path / "tools.py").write_text(TOOLS_FILE, encoding="utf-8")
    here = runpy.run_path(str(tmp_path / "tools.py"))
    command = _cli("tools.py", "--ledger", str(tmp_path / "ledger.sqlite3"))
    params = mcp.StdioServerParameters(command=command[0], args=command[1:], cwd=str(tmp_path))

    async def run() -> tuple[Any, Any, Any]:  # the SDK's low-level pieces: stdio transport + ClientSession
        with (tmp_path / "stderr.txt").open("w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write), mcp.ClientSession(read, write) as client:
                await client.initialize()
                listed = (await client.list_tools()).tools
                shouted = await client.call_tool("demo_shout", {"text": "hello"})
                return listed, shouted, await client.call_tool("issues_search_issues", {"query": 7})

    listed, shouted, bad = anyio.run(run)
    assert [wire(tool) for tool in listed] == tk.payloads([here["SHOUT"], here["SEARCH"]], "mcp").bodies
    assert (shouted.is_error, shouted.structured_content["data"]) == (False, "HELLO")
    assert bad.is_error is True
    assert bad.structured_content == here["SEARCH"].validate({"query": 7}).to_dict()
    logged = (tmp_path / "stderr.txt").read_text()
    assert "serving 2 tool(s) over stdio" in logged
    assert "shouting hello" in logged  # the tool's print went to stderr, not into the protocol


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_for(port: int, process: subprocess.Popen[bytes], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"toolkit serve exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"nothing listens on 127.0.0.1:{port} after {seconds} s")


@pytest.mark.slow
@pytest.mark.timeout(90)
def test_toolkit_serve_a_generated_package_over_streamable_http(
    repo_root: Path, demo: DemoServer, orders: tk.Toolset, tmp_path: Path
) -> None:
    port, env = _free_port(), {**os.environ, "TOOLKIT_TEST_ORDERS_KEY": demo.api_key}
    command = _cli(
        str(repo_root / "golden" / "generated" / "orders_tools"), "--http", "--port", str(port),
        "--base-url", demo.base_url, "--credential", "apiKey=TOOLKIT_TEST_ORDERS_KEY", "--no-ledger",
    )  # fmt: skip
    with (tmp_path / "stderr.txt").open("w") as errlog:
        process = subprocess.Popen(command, env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=errlog)
        try:
            _wait_for(port, process)

            async def run() -> tuple[Any, Any]:
                async with mcp.Client(f"http://127.0.0.1:{port}/mcp", read_timeout_seconds=60) as client:
                    return await _exercise(client, tk.payloads(orders, "mcp").bodies)

            _check(*anyio.run(run), demo)
        finally:
            process.terminate()
            process.wait(timeout=30)
    assert f"at http://127.0.0.1:{port}/mcp" in (tmp_path / "stderr.txt").read_text()
