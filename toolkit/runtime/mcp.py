"""Tools served over the Model Context Protocol with the official ``mcp`` SDK (the ``mcp`` extra).

    from toolkit.runtime import mcp, serving
    tools = serving.served(orders, base_url="http://127.0.0.1:8765", config=HttpConfig(credentials=...))
    mcp.run_stdio(tools)                                   # or: toolkit serve specs/orders.yaml
    mcp.run_http(tools, host="127.0.0.1", port=8000)       # streamable HTTP at http://127.0.0.1:8000/mcp
    server = mcp.build_server(tools)                       # the low-level server; mcp.Client(server) in-process

``tools/list`` answers with the ``mcp`` payloads exactly (:attr:`~toolkit.runtime.serving.Served.bodies`).
``tools/call`` maps the name back through the payload set, then runs the call on a worker thread through
:meth:`~toolkit.runtime.serving.Served.run`: strict validation, confirmation, the ledger, the HTTP runtime or the
function. The SDK's low-level server validates nothing, so toolkit's envelope is what the model reads: an ``ok``
envelope is a result with the envelope as ``structuredContent`` and as a text block; any other status is the same
with ``isError: true`` ("errors that originate from the tool SHOULD be reported inside the result object",
https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling). An unknown tool name is such
a result too (code ``unknown_tool``, listing the names), so the model can correct itself.

No ``outputSchema``: every result carries the same envelope, whose ``data`` is the tool's own free-form answer, so
a schema would cost bytes in every ``tools/list`` and tell a client nothing the envelope does not; clients check
``structuredContent`` against it only for successful results, where ``data`` is unconstrained anyway.

Confirmation. A tool that needs it answers ``needs_confirmation`` (the HTTP request or the cleaned arguments in
``data``). When the client can show a form (the ``elicitation`` capability), the server asks the user: on
2026-07-28 and later by answering ``InputRequiredResult`` (the client calls again with the answer and the
``requestState`` it was given), before that by an ``elicitation/create`` request during the call. A "yes"
runs the call confirmed; a "no" is a ``rejected`` envelope (nothing was sent). A client without elicitation gets
the ``needs_confirmation`` envelope itself, and the write does not run. A ``requestState`` is signed by this
server process and binds the answer to whoever was asked (the transport's ``mcp-session-id``, else the
authenticated principal, else this server: an unauthenticated stateless client has no identity to bind to) and
to the tool and its exact arguments; it is good for one answer only, within :data:`CONFIRM_TTL` seconds:
replayed, from someone else, for other arguments or too late, it is no answer and the user is asked again.

Over HTTP the server listens on loopback only (see :func:`~toolkit.runtime.serving.check_host`) with the SDK's
DNS-rebinding protection (Host and Origin must name a loopback address).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import json
import secrets
import socket
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

import anyio
import mcp.types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.request_state import authenticated_principal
from mcp.server.stdio import stdio_server
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from mcp_types.version import is_version_at_least

from toolkit import __version__
from toolkit._canonical import pretty
from toolkit._envelope import ToolResult
from toolkit._wire import Call
from toolkit.runtime.serving import Served, check_host, is_loopback

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = ["CONFIRM_KEY", "CONFIRM_TTL", "build_server", "http_app", "run_http", "run_stdio"]

CONFIRM_KEY = "confirm"
"""The elicitation's one field (a boolean), and its key among a retry's ``inputResponses``."""
INPUT_REQUIRED_VERSION = "2026-07-28"
"""The first revision whose ``tools/call`` asks the user through ``InputRequiredResult``."""
_SCHEMA: types.ElicitRequestedSchema = {
    "type": "object",
    "properties": {
        CONFIRM_KEY: {
            "type": "boolean",
            "title": "Confirm",
            "description": "Run this call as shown",
        }
    },
    "required": [CONFIRM_KEY],
}
_LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
CONFIRM_TTL = 300.0
"""Seconds within which the answer to a confirmation question is taken (a ``requestState`` expires after)."""
_STATE_KEY = secrets.token_bytes(32)  # a retry's requestState must come from this server's own question
_REDEEMED: dict[str, float] = {}  # nonce -> expiry of the requestStates already answered (single use)
_REDEEMED_LOCK = threading.Lock()

Answer = Literal["accept", "decline", "cancel"]
Context = ServerRequestContext[Any, Any]


def build_server(served: Served, *, name: str = "toolkit") -> Server[Any]:
    """The low-level MCP server for ``served`` (no transport: run it, or hand it to ``mcp.Client``)."""

    async def list_tools(ctx: Context, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[types.Tool.model_validate(body) for body in served.bodies])

    async def call_tool(
        ctx: Context, params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        call = served.find(params.name, params.arguments)
        session = _session(ctx)
        run = functools.partial(served.run, call, session_id=session, call_id=str(ctx.request_id or ""))
        outcome = await _call(ctx, params, call, run, session or authenticated_principal(ctx) or served.session_id)
        if isinstance(outcome, types.InputRequiredResult):
            return outcome
        return types.CallToolResult.model_validate(served.reply(call, outcome))

    return Server(name, version=__version__, on_list_tools=list_tools, on_call_tool=call_tool)


async def _call(
    ctx: Context, params: types.CallToolRequestParams, call: Call, run: Callable[..., ToolResult], session: str
) -> ToolResult | types.InputRequiredResult:
    """The call's envelope; a confirmation the user gives (or refuses) on the way decides the second run."""
    answer = _answered(params, call, session)
    if answer is None:
        result = await anyio.to_thread.run_sync(run)
        if result.status != "needs_confirmation" or not _can_ask(ctx):
            return result
        asked = await _ask(ctx, call, result, session)
        if asked is None or isinstance(asked, types.InputRequiredResult):
            return result if asked is None else asked
        answer = asked
    if answer == "accept":
        return await anyio.to_thread.run_sync(functools.partial(run, confirmed=True))
    tool = call.tool.name if call.tool is not None else call.name
    said = "declined" if answer == "decline" else "dismissed"
    return ToolResult(
        "rejected",
        retryable=False,
        message=f"The user {said} the confirmation for this {tool} call, so nothing was done; "
        "do not call it again unless the user asks for it.",
    )


# -- asking the user ----------------------------------------------------------------------------------------
def _can_ask(ctx: Context) -> bool:
    """The client declared form elicitation (a bare ``elicitation: {}`` is the form mode of old)."""
    capabilities = ctx.session.client_capabilities
    elicitation = capabilities.elicitation if capabilities is not None else None
    return elicitation is not None and (elicitation.form is not None or elicitation.url is None)


def _question(call: Call, result: ToolResult) -> str:
    """What the user reads: the tool, and the request (or the arguments) it would run with."""
    tool = call.tool.name if call.tool is not None else call.name
    shown = pretty(result.data).rstrip()
    return f"{tool} changes data and runs only with your confirmation. It would run with:\n\n{shown}"


def _state(call: Call, session: str) -> str:
    """A question's ``requestState``: a fresh nonce and an expiry, signed with the session, tool and arguments."""
    nonce, expires = secrets.token_hex(16), int(time.time() + CONFIRM_TTL)
    return f"confirm:{nonce}:{expires}:{_signature(call, session, nonce, expires)}"


def _signature(call: Call, session: str, nonce: str, expires: int) -> str:
    text = json.dumps([session, call.name, call.arguments or {}, nonce, expires], sort_keys=True)
    return hmac.new(_STATE_KEY, text.encode(), hashlib.sha256).hexdigest()


def _redeem(state: str | None, call: Call, session: str) -> bool:
    """Whether ``state`` is this server's question for this session and call, unexpired and not yet answered;
    redeeming it uses it up."""
    parts, now = (state or "").split(":"), time.time()
    if len(parts) != 4 or parts[0] != "confirm" or not parts[2].isdigit() or int(parts[2]) < now:
        return False
    _, nonce, expires, signature = parts
    if not hmac.compare_digest(signature, _signature(call, session, nonce, int(expires))):
        return False
    with _REDEEMED_LOCK:
        for used in [n for n, until in _REDEEMED.items() if until < now]:
            del _REDEEMED[used]  # an expired state is refused by its date already
        if nonce in _REDEEMED:
            return False
        _REDEEMED[nonce] = float(expires)
    return True


def _modern(ctx: Context) -> bool:
    return is_version_at_least(ctx.protocol_version, INPUT_REQUIRED_VERSION)


async def _ask(ctx: Context, call: Call, result: ToolResult, session: str) -> Answer | types.InputRequiredResult | None:
    """Ask the user (``None`` when the client could not be asked after all)."""
    question = _question(call, result)
    if _modern(ctx):
        request = types.ElicitRequest(params=types.ElicitRequestFormParams(message=question, requested_schema=_SCHEMA))
        return types.InputRequiredResult(input_requests={CONFIRM_KEY: request}, request_state=_state(call, session))
    if not ctx.session.can_send_request:
        return None
    try:
        reply = await ctx.session.elicit_form(question, _SCHEMA, related_request_id=ctx.request_id)
    except MCPError:
        return None
    return _verdict(reply)


def _answered(params: types.CallToolRequestParams, call: Call, session: str) -> Answer | None:
    """The user's answer a 2026-07-28 retry carries for exactly this call in this session, if any (once)."""
    responses = params.input_responses or {}
    reply = responses.get(CONFIRM_KEY)
    if not isinstance(reply, types.ElicitResult) or not _redeem(params.request_state, call, session):
        return None
    return _verdict(reply)


def _verdict(reply: types.ElicitResult) -> Answer:
    if reply.action == "accept":
        return "accept" if (reply.content or {}).get(CONFIRM_KEY) is True else "decline"
    return reply.action


def _session(ctx: Context) -> str | None:
    """The transport's session id (streamable HTTP's ``mcp-session-id``), scoping the ledger's keys."""
    headers = getattr(ctx.request, "headers", None)
    value = headers.get("mcp-session-id") if headers is not None else None
    return value if isinstance(value, str) and value else None


# -- transports -----------------------------------------------------------------------------------------------
def run_stdio(served: Served, *, name: str = "toolkit") -> None:
    """Serve over stdin/stdout until the client closes stdin.

    stdout carries the protocol only: while serving, ``print`` in a tool writes to stderr (the SDK diverts file
    descriptor 1, but text Python buffered would still reach the wire when the descriptor is restored).
    """
    server = build_server(served, name=name)

    async def main() -> None:
        sys.stdout.flush()
        async with stdio_server() as (read, write):
            with contextlib.redirect_stdout(sys.stderr):
                await server.run(read, write, server.create_initialization_options())

    anyio.run(main)


def http_app(served: Served, *, host: str = "127.0.0.1", name: str = "toolkit") -> Starlette:
    """The streamable HTTP app (endpoint ``/mcp``); on loopback, Host and Origin must be loopback too."""
    security = None
    if is_loopback(host):
        shown = f"[{host.strip('[]')}]" if ":" in host else host
        hosts = sorted({*_LOOPBACK_HOSTS, shown})
        security = TransportSecuritySettings(
            allowed_hosts=[f"{h}:*" for h in hosts], allowed_origins=[f"http://{h}:*" for h in hosts]
        )
    return build_server(served, name=name).streamable_http_app(host=host, transport_security=security)


def run_http(
    served: Served,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    allow_remote: bool = False,
    name: str = "toolkit",
    on_ready: Callable[[str], None] | None = None,
) -> None:
    """Serve streamable HTTP on ``host:port`` (``0``: a free port) until interrupted; ``on_ready`` receives the
    endpoint URL once the socket listens."""
    check_host(host, allow_remote=allow_remote)
    # uvicorn comes with the mcp extra; it loads only when serving over HTTP.
    import uvicorn

    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    sock = socket.create_server((host.strip("[]"), port), family=family)
    bound = sock.getsockname()[1]
    shown = f"[{host.strip('[]')}]" if family == socket.AF_INET6 else host
    config = uvicorn.Config(http_app(served, host=host, name=name), log_level="warning", access_log=False)
    try:
        if on_ready is not None:
            on_ready(f"http://{shown}:{bound}/mcp")
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
