"""Credentials filled at run time: from configuration or their default environment variable, never the model.

A real loopback server echoes what arrives (headers, query, cookies, the raw body and its media type), so each
test reads the request as the API saw it.

Internals: ``build_tool`` (a tool from a hand-written JSON Schema) and ``_contract.FormEncoding`` for a form-encoded
credential.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest
from loopback import loopback

from toolkit import Tool, ToolContext, ToolContract
from toolkit._contract import FormEncoding
from toolkit._tool import build_tool
from toolkit.runtime.credentials import Credential, RequestParts, SecurityScheme, fill
from toolkit.runtime.http import HttpConfig, HttpTool

HITS: list[str] = []


class _Echo(BaseHTTPRequestHandler):
    def _handle(self) -> None:
        HITS.append(self.path)
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0") or 0)).decode()
        url = urlsplit(self.path)
        data = json.dumps(
            {
                "query": parse_qsl(url.query),
                "headers": {k.lower(): v for k, v in self.headers.items()},
                "body": raw,
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = _handle

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with loopback(_Echo) as base:
        yield base


def _cred(name: str, location: str, *, env: str = "", required: bool = False, scheme: str | None = None) -> Credential:
    return Credential(name, location, "credential_name", "test", env or f"T_{name.upper()}", scheme, required)  # type: ignore[arg-type]


def _tool(credentials: tuple[Credential, ...], *, form: bool = False, **contract: Any) -> Tool:
    schema = {"type": "object", "properties": {"n": {"type": "string"}}, "additionalProperties": False}
    return build_tool(
        ToolContract(
            name="echo",
            description="Echo the request.",
            args_schema=schema,
            effect="read",
            binding={"n": "body.n"},
            source="openapi",
            method="POST",
            path="/echo",
            credentials=credentials,
            form={} if form else None,
            **contract,
        )
    )


def _call(tool: Tool, url: str, args: dict[str, Any] | None = None, **config: Any) -> Any:
    http = HttpTool(tool, config=HttpConfig(base_url=url, **config))
    try:
        return http.call(args if args is not None else {"n": "1"}, ToolContext())
    finally:
        http.client.close()


def test_each_location_is_filled_from_its_default_environment_variable(url: str) -> None:
    credentials = (
        _cred("X-Auth-Token", "header"),
        _cred("api_key", "query"),
        _cred("session", "cookie"),
        _cred("client_secret", "body"),
    )
    environ = {"T_X-AUTH-TOKEN": "h1", "T_API_KEY": "q1", "T_SESSION": "c1", "T_CLIENT_SECRET": "b1"}
    seen = _call(_tool(credentials), url, environ=environ).data
    assert seen["headers"]["x-auth-token"] == "h1"
    assert seen["query"] == [["api_key", "q1"]]
    assert seen["headers"]["cookie"] == "session=c1"
    assert json.loads(seen["body"]) == {"n": "1", "client_secret": "b1"}


def test_a_form_body_carries_its_credential_field_form_encoded(url: str) -> None:
    seen = _call(_tool((_cred("token", "body"),), form=True), url, environ={"T_TOKEN": "x y"}).data
    assert seen["headers"]["content-type"] == "application/x-www-form-urlencoded"
    assert parse_qsl(seen["body"]) == [("n", "1"), ("token", "x y")]


def test_a_body_made_only_of_credentials_is_sent(url: str) -> None:
    tool = _tool((_cred("client_secret", "body"),), form=True)
    seen = _call(tool, url, {}, environ={"T_CLIENT_SECRET": "s"}).data
    assert seen["body"] == "client_secret=s"


def test_the_configuration_names_another_source(url: str) -> None:
    tool = _tool((_cred("api_key", "query", required=True),))
    by_variable = _call(tool, url, environ={"MY_KEY": "v1"}, credentials={"api_key": "MY_KEY"}).data
    by_provider = _call(tool, url, environ={"T_API_KEY": "ignored"}, credentials={"api_key": lambda: "v2"}).data
    assert by_variable["query"] == [["api_key", "v1"]]
    assert by_provider["query"] == [["api_key", "v2"]]


def test_a_required_credential_without_a_value_is_refused_before_any_request(url: str) -> None:
    HITS.clear()
    result = _call(_tool((_cred("X-Auth-Token", "header", required=True),)), url, environ={})
    assert (result.status, result.retryable) == ("error", False)
    assert "missing_credential" in result.message
    assert "T_X-AUTH-TOKEN" in result.message
    assert HITS == []


def test_an_optional_credential_without_a_value_is_left_out(url: str) -> None:
    seen = _call(_tool((_cred("api_key", "query"),)), url, environ={}).data
    assert seen["query"] == []


def test_a_credential_of_a_scheme_the_tool_uses_is_filled_once_by_that_scheme(url: str) -> None:
    scheme = SecurityScheme("oauth", "bearer", env="T_OAUTH")
    tool = _tool((_cred("access_token", "query", scheme="oauth", required=True),), security=(scheme,))
    seen = _call(tool, url, environ={"T_OAUTH": "tok"}).data
    assert seen["headers"]["authorization"] == "Bearer tok"
    assert seen["query"] == []
    unset = _call(tool, url, environ={})
    assert "missing_credential" in unset.message


def test_a_schemes_default_variable_is_read_when_the_configuration_is_silent(url: str) -> None:
    scheme = SecurityScheme("key", "api_key", "header", "X-Key", env="T_KEY")
    tool = _tool((), security=(scheme,))
    assert _call(tool, url, environ={"T_KEY": "k1"}).data["headers"]["x-key"] == "k1"
    assert "x-key" not in _call(tool, url, environ={}).data["headers"]


def test_a_secret_with_a_newline_is_refused(url: str) -> None:
    result = _call(_tool((_cred("X-Auth-Token", "header"),)), url, environ={"T_X-AUTH-TOKEN": "a\nb"})
    assert "bad_credential" in result.message


def test_the_model_cannot_set_a_credential(url: str) -> None:
    tool = _tool((_cred("client_secret", "body"),))
    result = _call(tool, url, {"n": "1", "client_secret": "mine"}, environ={"T_CLIENT_SECRET": "real"})
    assert (result.status, result.errors[0].code) == ("invalid_arguments", "unknown_property")


def test_fill_puts_values_where_the_parts_say() -> None:
    parts = RequestParts(body=[1])
    fill((), (_cred("a", "body"),), {"a": lambda: "s"}, {}, parts)
    assert parts.body == [1]  # a body that is no object takes no field
    parts = RequestParts()
    fill((), (_cred("a", "body"), _cred("b", "cookie")), {"a": lambda: "s", "b": lambda: "t"}, {}, parts)
    assert (parts.body, parts.cookies) == ({"a": "s"}, {"b": "t"})


def test_a_form_field_encoding_reaches_the_wire(url: str) -> None:
    tool = _tool((), form=True)
    deep = build_tool(
        ToolContract(
            name="deep",
            description="Echo a nested form.",
            args_schema={"type": "object", "properties": {"a": {"type": "object"}}, "additionalProperties": False},
            binding={"a": "body.a"},
            source="openapi",
            method="POST",
            path="/echo",
            form={"a": FormEncoding(style="deepObject")},
        )
    )
    assert _call(tool, url).data["body"] == "n=1"
    assert parse_qsl(_call(deep, url, {"a": {"b": [1, 2]}}).data["body"]) == [("a[b][0]", "1"), ("a[b][1]", "2")]
