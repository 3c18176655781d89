"""No secret leaves: a planted secret is found in no output channel, raw, URL-encoded, base64 or cut off.

A real upstream on 127.0.0.1 echoes each request or fails with 400/404/500 quoting the request line (as real
servers do); a base URL with userinfo and a ``key=`` points at a closed port. Every channel is searched: the
envelope's JSON (message, errors, notices, data), the SQLite ledger file's bytes, captured logs and stderr,
exceptions' text and ``repr``.

Internals: ``build_tool``, to give a tool a hand-written security scheme (no public constructor takes one).
"""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import socket
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus

import pytest
from loopback import loopback
from wire_support import Recorder

import toolkit as tk
from toolkit import Tool, ToolContext, ToolContract, examples, from_function
from toolkit._tool import build_tool
from toolkit.runtime import Executor, Ledger, idempotent, run_batch
from toolkit.runtime.credentials import SecurityScheme
from toolkit.runtime.http import HttpConfig, HttpTool
from toolkit.runtime.redaction import Redactor, scrub_urls

QUERY_KEY = "QSECRET_abc123/+=xyz789"
BASIC = "svcuser:BasicPa55word!"
HEADER = "HDRSECRET_998877"
PASSWORD = "Pa55w0rd_long"
BASE_KEY = "BASEKEY_1234567"
ENVIRON = {"SLACK_TOKEN": QUERY_KEY, "SVC_BASIC": BASIC}


def _forms(secret: str) -> set[str]:
    """The raw value and the forms it could leak in: URL-encoded, base64, and a cut-off prefix."""
    raw = secret.encode()
    return {
        secret,
        quote(secret, safe=""),
        quote_plus(secret),
        base64.b64encode(raw).decode(),
        secret[: max(8, len(secret) // 2)],
    }


ALL_FORMS = {form for secret in (QUERY_KEY, BASIC, HEADER, PASSWORD, BASE_KEY) for form in _forms(secret)}
ALL_FORMS.add(base64.b64encode(f"svc:{PASSWORD}".encode()).decode())


def _leaks(text: str | bytes) -> set[str]:
    haystack = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    return {form for form in ALL_FORMS if form in haystack}


class _Upstream(BaseHTTPRequestHandler):
    """``/eNNN/...`` fails with NNN quoting the request line; anything else echoes the request as JSON."""

    def _handle(self) -> None:
        length = int(self.headers.get("Content-Length", "0") or 0)
        raw = self.rfile.read(length).decode() if length else ""
        first = self.path.split("/")[1] if self.path.count("/") > 1 else ""
        if first.startswith("e") and first[1:].isdigit():
            code, payload = int(first[1:]), f"Internal error handling {self.command} {self.path}"
            data, kind = payload.encode(), "text/plain"
        else:
            code, kind = 200, "application/json"
            echo = {"line": f"{self.command} {self.path}", "headers": dict(self.headers.items()), "body": raw}
            data = json.dumps(echo).encode()
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self.wfile.write(data)

    do_GET = do_POST = _handle

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def upstream() -> Iterator[str]:
    with loopback(_Upstream) as base:
        yield base


def _tool(path: str, method: str = "GET") -> Tool:
    schema = {"type": "object", "properties": {"q": {"type": "string", "description": "Query."}}}
    return build_tool(
        ToolContract(
            name="things",
            description="List things.",
            args_schema={**schema, "additionalProperties": False},
            effect="read" if method == "GET" else "write",
            binding={"q": "query"},
            source="openapi",
            method=method,
            path=path,
            security=(
                SecurityScheme("slackToken", "api_key", "query", "api_key", "SLACK_TOKEN"),
                SecurityScheme("svcBasic", "basic", env="SVC_BASIC"),
            ),
        )
    )


def _http(path: str, base: str, method: str = "GET", limit: int = 300) -> HttpTool:
    config = HttpConfig(base_url=base, environ=ENVIRON, headers={"X-Api-Key": HEADER}, timeout=2, message_limit=limit)
    return HttpTool(_tool(path, method), config=config)


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize("path", ["/echo/things", "/e400/things", "/e404/things", "/e500/things"])
def test_an_envelope_holds_markers_not_secrets(upstream: str, path: str) -> None:
    result = _http(path, upstream).call({"q": "hi"})
    text = result.to_json()
    assert _leaks(text) == set(), text
    if path == "/echo/things":  # the API did receive them: the echo names each one
        assert {"[SLACK_TOKEN]", "[SVC_BASIC]", "[HEADER_X_API_KEY]"} <= {
            marker for marker in ("[SLACK_TOKEN]", "[SVC_BASIC]", "[HEADER_X_API_KEY]") if marker in text
        }
    else:
        assert result.status in ("invalid_arguments", "rejected", "error")
        assert "api_key=[SLACK_TOKEN]" in text, text


def test_a_cut_off_secret_is_redacted_too(upstream: str) -> None:
    # message_limit=60 cuts the quoted request line inside the key: not even its first letters survive.
    for path in ("/e500/things", "/e500/thing"):
        result = _http(path, upstream, limit=60).call({"q": "hi"})
        assert _leaks(result.to_json()) == set(), result.message
        assert "api_key=[" in result.message, result.message
        assert QUERY_KEY[:4] not in result.message, result.message


def test_a_base_url_with_userinfo_and_a_key_never_shows_either() -> None:
    base = f"http://svc:{PASSWORD}@127.0.0.1:{_closed_port()}/?key={BASE_KEY}"
    tool = _http("/things", base)
    result = tool.call({"q": "hi"})
    assert result.status == "error"
    assert "could not reach the API" in result.message
    assert _leaks(result.to_json()) == set(), result.message
    assert "[BASE_URL_PASSWORD]" in result.message or "[BASE_URL_USERINFO]" in result.message
    assert _leaks(repr(tool.config)) == set()
    assert _leaks(repr(tool)) == set()


def test_repr_of_the_configuration_hides_environment_and_header_values() -> None:
    config = HttpConfig(environ=ENVIRON, headers={"Authorization": f"Bearer {HEADER}", "Accept": "text/json"})
    shown = repr(config)
    assert _leaks(shown) == set()
    assert "text/json" in shown
    assert "SLACK_TOKEN" not in shown


def test_ledger_rows_logs_and_stderr_carry_no_secret(
    upstream: str, tmp_path: Path, caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]
) -> None:
    caplog.set_level(logging.DEBUG)
    ledger = Ledger(tmp_path / "ledger.sqlite3")
    session = ToolContext(session_id="s-1")
    for path in ("/echo/things", "/e500/things", "/e404/things"):
        wrapped = idempotent(_http(path, upstream, "POST"), ledger=ledger)
        assert _leaks(wrapped.call({"q": path}, session).to_json()) == set()
    ledger.close()
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    assert b"[SLACK_TOKEN]" in stored  # the echo's receipt is recorded, redacted
    assert _leaks(stored) == set()
    captured = capfd.readouterr()
    assert _leaks(caplog.text + captured.out + captured.err) == set()


def test_function_tools_exception_text_loses_url_credentials() -> None:
    def fetch(q: str) -> str:
        """Fetch things.

        Args:
            q: What to fetch.
        """
        raise ConnectionError(f"Server error for url 'https://svc:{PASSWORD}@api.example/v1?q={q}&key={BASE_KEY}'")

    tool = from_function(fetch, effect="read")
    result = tool.call({"q": "hi"})
    assert result.status == "error"
    assert _leaks(result.to_json()) == set(), result.message
    assert "key=[KEY]" in result.message
    assert "[USERINFO]@api.example" in result.message
    executed = Executor([tool]).execute(tool.name, {"q": "hi"}, ToolContext(session_id="s"))
    assert _leaks(executed.to_json()) == set()

    def boom(item: str) -> None:
        raise ValueError(f"GET https://api.example/?token={HEADER} failed")

    batch = run_batch(["a"], boom)
    assert _leaks(batch.to_json()) == set()
    assert "token=[TOKEN]" in batch.to_json()


def test_the_redactor_names_each_secret_in_every_form() -> None:
    redactor = Redactor({"SLACK_TOKEN": QUERY_KEY})
    for form in _forms(QUERY_KEY) - {QUERY_KEY[:11]}:
        assert redactor.text(f"before {form} after") == "before [SLACK_TOKEN] after"
    assert redactor.text(f"cut {QUERY_KEY[:12]}…") == "cut [SLACK_TOKEN]…"
    assert redactor.text("no secret here") == "no secret here"
    assert Redactor({"SHORT": "abc"}).text("abc") == "abc"  # too short to be told apart from words


def test_scrub_urls_keeps_what_is_no_credential() -> None:
    text = "GET https://api.example/v1/things?page=2&monkey=1 (see https://docs.example/x)"
    assert scrub_urls(text) == text
    assert (
        scrub_urls("https://u:p@h/x?access_token=abc&sig=zz")
        == "https://[USERINFO]@h/x?access_token=[ACCESS_TOKEN]&sig=[SIG]"
    )


@pytest.mark.parametrize(("provider", "variable"), [("anthropic", "ANTHROPIC_API_KEY"), ("openai", "OPENAI_API_KEY")])
def test_try_live_hides_the_provider_key_in_a_provider_error(provider: str, variable: str) -> None:
    search = tk.from_function(examples.search_issues, namespace="issues.v1", effect="read")
    refusal = {"error": {"message": f"Incorrect API key provided: {QUERY_KEY}", "type": "invalid_request_error"}}
    with Recorder([(400, refusal)]) as server:
        base = f"{server.url}/v1" if provider == "openai" else server.url
        with pytest.raises(tk.ProviderError) as caught:
            tk.try_live(search, "x", provider, env={variable: QUERY_KEY}, base_url=base)
    assert f"[{variable}]" in caught.value.message
    assert _leaks(str(caught.value)) == set()
    assert caught.value.__cause__ is None
    assert caught.value.__suppress_context__


def test_over_mcp_a_failing_upstream_leaks_no_secret(upstream: str, tmp_path: Path) -> None:
    """``tools/call`` through the official SDK's client, in-process: the reply the model reads names the key."""
    anyio = pytest.importorskip("anyio")
    mcp = pytest.importorskip("mcp")
    from toolkit.runtime.mcp import build_server
    from toolkit.runtime.serving import served

    config = HttpConfig(environ=ENVIRON, headers={"X-Api-Key": HEADER})
    tools = served([_tool("/e500/things")], base_url=upstream, config=config, ledger=tmp_path / "ledger.sqlite3")

    async def run() -> Any:
        async with mcp.Client(build_server(tools)) as client:
            return await client.call_tool("things", {"q": "hi"})

    try:
        reply = anyio.run(run)
    finally:
        tools.close()
    shown = json.dumps(reply.model_dump(mode="json"))
    assert reply.is_error
    assert "api_key=[SLACK_TOKEN]" in shown, shown
    assert _leaks(shown) == set()
    assert _leaks(b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())) == set()
