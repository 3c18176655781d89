"""The HTTP runtime: binding, credentials, confirmation, response mapping and trimming, on real local servers.

Internals: ``build_tool`` (a tool from a hand-written JSON Schema) and ``schemes_from_spec``, the security reading
under test."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx
import pytest
from loopback import loopback

from toolkit import RuntimeConfigError, Tool, ToolContext, ToolContract, ToolResult
from toolkit._openapi._security import schemes_from_spec
from toolkit._tool import build_tool
from toolkit.runtime.credentials import SecurityScheme
from toolkit.runtime.http import HttpClient, HttpConfig, HttpRequest, HttpTool, bind_request, to_result
from toolkit.runtime.trim import Trim, trim


class _Handler(BaseHTTPRequestHandler):
    """``/echo/...`` echoes the request as JSON; ``/status/<code>`` answers that code; ``/slow`` sleeps."""

    def _reply(self, code: int, payload: Any, content_type: str = "application/json") -> None:
        data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the timeout test hangs up early
            self.wfile.write(data)

    def _handle(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length) if length else b""
        url = urlsplit(self.path)
        if url.path.startswith("/status/"):
            code = int(url.path.rsplit("/", 1)[1])
            self._reply(code, {"title": "Problem", "detail": "server says no " + "x" * 900})
        elif url.path == "/slow":
            time.sleep(1.5)
            self._reply(200, {"late": True})
        elif url.path == "/text":
            self._reply(200, "plain words", "text/plain")
        else:
            self._reply(
                200,
                {
                    "method": self.command,
                    "path": url.path,
                    "query": parse_qsl(url.query),
                    "headers": {k.lower(): v for k, v in self.headers.items()},
                    "body": json.loads(raw) if raw else None,
                },
            )

    do_GET = do_POST = do_PUT = do_DELETE = _handle

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    with loopback(_Handler) as base:
        yield base


def _tool(
    method: str, path: str, properties: dict[str, Any], binding: dict[str, str], *, effect: str = "read", **kw: Any
) -> Tool:
    schema = {
        "type": "object",
        "properties": properties,
        "required": kw.pop("required", []),
        "additionalProperties": False,
    }
    contract = ToolContract(
        name=kw.pop("name", "echo_tool"),
        description="Echo the request back, for tests.",
        args_schema=schema,
        effect=effect,  # type: ignore[arg-type]
        binding=binding,
        source="openapi",
        method=method,
        path=path,
        **kw,
    )
    return build_tool(contract)


ECHO = _tool(
    "POST",
    "/echo/{itemId}/things",
    {
        "item_id": {"type": "string", "description": "The item."},
        "tags": {"type": "array", "items": {"type": "string"}, "description": "Tags."},
        "verbose": {"type": "boolean", "description": "More detail."},
        "trace": {"type": "string", "description": "A trace id."},
        "amount": {"type": "integer", "description": "Amount.", "minimum": 1},
        "note": {"type": "string", "description": "A note."},
    },
    {
        "item_id": "path.itemId",
        "tags": "query",
        "verbose": "query",
        "trace": "header.X-Trace",
        "amount": "body.amount",
        "note": "body.note",
    },
    required=["item_id"],
)
API_KEY = SecurityScheme(key="apiKey", kind="api_key", location="header", name="X-API-Key")


_OPEN: list[HttpTool] = []


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    while _OPEN:
        _OPEN.pop().client.close()


def _http(tool: Tool, url: str, **config: Any) -> HttpTool:
    security = config.pop("security", (API_KEY,))
    made = HttpTool(tool, security=security, config=HttpConfig(base_url=url, **config))
    _OPEN.append(made)
    return made


# -- binding ------------------------------------------------------------------------------------------
def test_arguments_bind_to_path_query_header_and_hoisted_body(server_url: str) -> None:
    args = {"item_id": "a/b c", "tags": ["x", "y"], "verbose": True, "trace": "t-1", "amount": 5, "note": "hi"}
    result = _http(ECHO, server_url).call(args)
    assert result.status == "ok", result.to_dict()
    echo = result.data
    assert echo["path"] == "/echo/a%2Fb%20c/things"
    assert echo["query"] == [["tags", "x"], ["tags", "y"], ["verbose", "true"]]
    assert echo["headers"]["x-trace"] == "t-1"
    assert echo["body"] == {"amount": 5, "note": "hi"}


def test_whole_body_binding_sends_the_argument_as_the_body(server_url: str) -> None:
    tool = _tool("PUT", "/echo", {"payload": {"type": "array", "items": {"type": "integer"}}}, {"payload": "body"})
    result = _http(tool, server_url).call({"payload": [1, 2, 3]})
    assert result.data["method"] == "PUT"
    assert result.data["body"] == [1, 2, 3]


def test_no_body_is_sent_when_no_body_argument_is_given(server_url: str) -> None:
    result = _http(ECHO, server_url).call({"item_id": "abc"})
    assert result.data["body"] is None
    assert "content-type" not in result.data["headers"]


@pytest.mark.parametrize("value", [".", ".."], ids=["dot", "dotdot"])
def test_path_traversal_values_are_refused_before_any_request(value: str) -> None:
    result = bind_request(ECHO, {"item_id": value})
    assert isinstance(result, ToolResult)
    assert result.status == "invalid_arguments"
    assert result.errors[0].code == "path_traversal"


@pytest.mark.parametrize("value", ["a\r\nX-Admin: 1", "caf\u00e9", "\u2028"], ids=["crlf", "non-ascii", "line-sep"])
def test_header_values_that_would_break_the_request_are_refused(value: str) -> None:
    result = bind_request(ECHO, {"item_id": "a", "trace": value})
    assert isinstance(result, ToolResult)
    assert (result.status, result.errors[0].field, result.errors[0].code) == (
        "invalid_arguments",
        "trace",
        "bad_header_value",
    )


def test_invalid_arguments_never_reach_the_server() -> None:
    result = _http(ECHO, "http://127.0.0.1:9").call({"item_id": "a", "amount": "5", "bogus": 1})
    assert result.status == "invalid_arguments"
    assert {e.field for e in result.errors} >= {"amount", "bogus"}


# -- credentials --------------------------------------------------------------------------------------
def test_api_key_comes_from_the_configured_environment_variable(server_url: str) -> None:
    tool = _http(ECHO, server_url, credentials={"apiKey": "ORDERS_KEY"}, environ={"ORDERS_KEY": "s3cret"})
    # The API received the secret; its echo reaches the model as the marker that names the variable.
    assert tool.call({"item_id": "a"}).data["headers"]["x-api-key"] == "[ORDERS_KEY]"


def test_missing_environment_variable_is_an_error_envelope_without_a_request(server_url: str) -> None:
    tool = _http(ECHO, server_url, credentials={"apiKey": "ORDERS_KEY"}, environ={})
    result = tool.call({"item_id": "a"})
    assert result.status == "error"
    assert result.retryable is False
    assert "ORDERS_KEY" in result.message


@pytest.mark.parametrize(
    ("scheme", "where", "expected"),
    [
        (SecurityScheme("bearerAuth", "bearer"), ("headers", "authorization"), "Bearer tok"),
        (SecurityScheme("basicAuth", "basic"), ("headers", "authorization"), "Basic dG9r"),
        (SecurityScheme("key", "api_key", "query", "api_key"), ("query", None), [["api_key", "tok"]]),
    ],
    ids=["bearer", "basic", "query-key"],
)
def test_credential_schemes_come_from_a_provider_callable(
    server_url: str, scheme: SecurityScheme, where: tuple[str, str | None], expected: Any
) -> None:
    tool = _http(ECHO, server_url, security=(scheme,), credentials={scheme.key: lambda: "tok"})
    data = tool.call({"item_id": "a"}).data
    part, key = where
    assert (data[part][key] if key else data[part]) == expected


def test_security_schemes_are_read_from_the_spec() -> None:
    document = {
        "components": {
            "securitySchemes": {
                "apiKey": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
                "bearer": {"type": "http", "scheme": "bearer"},
            }
        },
        "security": [{"apiKey": []}],
        "paths": {"/a": {"get": {}, "post": {"security": [{"bearer": []}]}, "put": {"security": []}}},
    }
    assert schemes_from_spec(document, "GET", "/a") == (API_KEY,)
    assert schemes_from_spec(document, "POST", "/a") == (SecurityScheme("bearer", "bearer"),)
    assert schemes_from_spec(document, "PUT", "/a") == ()


# -- confirmation -------------------------------------------------------------------------------------
REFUND = _tool(
    "POST",
    "/echo/{orderId}/refunds",
    {"orderId": {"type": "string"}, "amount": {"type": "integer", "minimum": 1}},
    {"orderId": "path", "amount": "body.amount"},
    effect="write",
    confirm=True,
    name="refund_create",
    required=["orderId", "amount"],
)


def test_write_tool_needs_confirmation_and_shows_the_request_without_credentials(server_url: str) -> None:
    tool = _http(REFUND, server_url, credentials={"apiKey": lambda: "s3cret"})
    result = tool.call({"orderId": "o1", "amount": 5})
    assert result.status == "needs_confirmation"
    assert result.data == {"request": {"method": "POST", "path": "/echo/o1/refunds", "body": {"amount": 5}}}
    assert "s3cret" not in result.to_json()


@pytest.mark.parametrize(
    ("policy", "context", "status"),
    [
        (True, None, "ok"),
        (lambda name, request: request["body"]["amount"] < 10, None, "ok"),
        (lambda name, request: False, None, "needs_confirmation"),
        (False, ToolContext(extras={"confirmed": True}), "ok"),
    ],
    ids=["config-flag", "callable-allows", "callable-denies", "context-confirmed"],
)
def test_confirmation_policy_decides(server_url: str, policy: Any, context: ToolContext | None, status: str) -> None:
    tool = _http(REFUND, server_url, confirm=policy)
    assert tool.call({"orderId": "o1", "amount": 5}, context).status == status


# -- responses ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("code", "status", "retryable", "error_code"),
    [
        (400, "invalid_arguments", None, "server_rejected"),
        (422, "invalid_arguments", None, "server_rejected"),
        (401, "error", False, None),
        (403, "rejected", None, "forbidden"),
        (404, "rejected", None, "not_found"),
        (409, "rejected", None, "conflict"),
        (429, "error", True, None),
        (500, "error", True, None),
        (503, "error", True, None),
        (501, "error", False, None),
    ],
    ids=lambda v: str(v),
)
def test_http_status_maps_to_envelope(
    server_url: str, code: int, status: str, retryable: bool | None, error_code: str | None
) -> None:
    tool = _tool("GET", f"/status/{code}", {}, {})
    result = _http(tool, server_url).call({})
    assert (result.status, result.retryable) == (status, retryable)
    if error_code:
        assert result.errors[0].code == error_code
        assert len(result.errors[0].problem) <= 300  # the server's long message is trimmed
        assert result.errors[0].problem.startswith("Problem: server says no")


def test_slow_server_gives_a_retryable_timeout(server_url: str) -> None:
    result = _http(_tool("GET", "/slow", {}, {}), server_url, timeout=0.3).call({})
    assert (result.status, result.retryable) == ("timeout", True)


@pytest.mark.parametrize(
    ("provider", "slug"),
    [(lambda: "line\nbreak", "bad_credential"), (lambda: 42, "bad_credential_provider")],
    ids=["secret-with-newline", "provider-returns-int"],
)
def test_bad_secrets_are_an_error_envelope_not_an_exception(provider: Any, slug: str) -> None:
    result = _http(ECHO, "http://127.0.0.1:9", credentials={"apiKey": provider}).call({"item_id": "a"})
    assert (result.status, result.retryable) == ("error", False)
    assert slug in result.message


@pytest.mark.parametrize("url", ["http://[not a host", "127.0.0.1:8765", "ftp://host"])
def test_a_base_url_that_is_not_http_is_refused_at_configuration(url: str) -> None:
    with pytest.raises(RuntimeConfigError) as caught:
        HttpConfig(base_url=url)
    assert caught.value.slug == "bad_base_url"


def test_unreachable_server_gives_a_retryable_error() -> None:
    result = _http(_tool("GET", "/x", {}, {}), "http://127.0.0.1:9").call({})
    assert (result.status, result.retryable) == ("error", True)
    assert "127.0.0.1:9" in result.message


def test_text_and_empty_bodies_are_kept_as_text_and_null() -> None:
    assert to_result(httpx.Response(200, text="plain words"), Trim()).data == "plain words"
    assert to_result(httpx.Response(204), Trim()).data is None


def test_async_call_uses_the_same_runtime(server_url: str) -> None:
    tool = _http(ECHO, server_url)

    async def main() -> tuple[Any, Any]:
        first = await tool.acall({"item_id": "z", "tags": ["q"]})
        invalid = await tool.acall({"item_id": 3})
        await tool.client.aclose()
        return first, invalid

    first, invalid = asyncio.run(main())
    assert first.status == "ok"
    assert first.data["query"] == [["tags", "q"]]
    assert invalid.status == "invalid_arguments"


def test_tools_share_one_client(server_url: str) -> None:
    client = HttpClient(HttpConfig(base_url=server_url))
    a, b = HttpTool(ECHO, client=client), HttpTool(REFUND, client=client)
    a.call({"item_id": "a"})
    assert a.client.sync() is b.client.sync()
    client.close()


def test_prepare_returns_the_request_a_call_would_send() -> None:
    request = HttpTool(ECHO).prepare({"item_id": "a", "amount": 2})
    assert isinstance(request, HttpRequest)
    assert request.summary() == {"method": "POST", "path": "/echo/a/things", "body": {"amount": 2}}


# -- trimming -------------------------------------------------------------------------------------------
PAGE = {"items": [{"id": i, "status": "paid", "blob": "x" * 50} for i in range(10)], "next_cursor": "c2"}


def test_keep_fields_drops_other_record_fields_and_keeps_the_page_wrapper() -> None:
    data, notices = trim(PAGE, Trim(keep_fields=("id", "status"), max_items=None, max_bytes=None))
    assert data["next_cursor"] == "c2"
    assert data["items"][0] == {"id": 0, "status": "paid"}
    assert [n.action for n in notices] == ["trimmed"]
    assert "blob" in notices[0].message


def test_max_items_cuts_lists_with_a_notice_naming_the_field() -> None:
    data, notices = trim(PAGE, Trim(max_items=3, max_bytes=None))
    assert len(data["items"]) == 3
    assert notices[0].to_dict() == {
        "field": "items",
        "action": "trimmed",
        "from": 10,
        "to": 3,
        "message": "list cut to fit",
    }


def test_max_bytes_halves_lists_until_the_result_fits() -> None:
    data, notices = trim(PAGE, Trim(max_items=None, max_bytes=300))
    assert len(json.dumps(data, separators=(",", ":"))) <= 300
    assert 0 < len(data["items"]) < 10
    assert notices[-1].action == "trimmed"


def test_untouched_results_carry_no_notice() -> None:
    assert trim(PAGE, Trim()) == (PAGE, ())


def test_trim_settings_apply_to_http_results(server_url: str) -> None:
    tool = HttpTool(ECHO, trim=Trim(max_items=2), config=HttpConfig(base_url=server_url))
    _OPEN.append(tool)
    result = tool.call({"item_id": "a", "tags": ["x", "y", "z"]})
    assert result.data["query"] == [["tags", "x"], ["tags", "y"]]
    assert result.notices[-1].to_dict()["field"] == "query"
