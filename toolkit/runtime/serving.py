"""What a tool server offers and how it runs each call, without any protocol SDK (see :mod:`toolkit.runtime.mcp`).

    served = serving.served(orders, base_url="http://127.0.0.1:8765",
                            config=HttpConfig(credentials={"apiKey": "ORDERS_API_KEY"}), ledger=Ledger(path))
    served.bodies                          # the `mcp` payloads, exactly what tools/list returns
    call = served.find("orders_get", {"orderId": "ord_..."})   # through the name mapping
    result = served.run(call)              # validated, confirmed or not, called: the envelope

A source is a :class:`~toolkit.Tool`, a :class:`~toolkit.Toolset`, a ready callable tool (an
:class:`~toolkit.runtime.http.HttpTool`, an :class:`~toolkit.runtime.Idempotent` wrapper), a generated package
(its ``load_tools(config)``), or a list of them. Function tools run through ``tool.call``; OpenAPI tools through
the HTTP runtime, whose base URL is ``base_url`` when given, else the first absolute URL of the operation's
``servers`` (a generated package stores none, so it needs ``base_url``); ``config`` gives the rest (credentials,
timeout, confirmation policy, transport). Every call goes through one :class:`~toolkit.runtime.Executor`: with a
ledger, write tools are idempotent (a repeat is a replay); a timeout or an exception is an envelope.

The ledger's scope. Without ``scope``, dedupe keys are scoped to the protocol's session: streamable HTTP's
``mcp-session-id``, or one id per server on stdio, so nothing is deduplicated across a restart or a reconnect
(MCP carries no conversation id to use instead). ``scope="..."`` (``toolkit serve --scope NAME``) keys every
call in that one stable name, so a server restarted on the same ledger file replays what it ran; the trade-off is
that two conversations asking for the same write with the same arguments inside the TTL are one call, so give
each deployment (or each user, each run) a scope of its own.

Confirmation stays the tools' own (``needs_confirmation`` until the call is made with
``extras={"confirmed": True}``); a protocol edge asks the user and calls :meth:`Served.run` again with
``confirmed=True``. Serving on the network is refused unless asked for: :func:`check_host`.
"""

from __future__ import annotations

import ipaddress
import os
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any, cast
from urllib.parse import urlsplit

from toolkit._context import ToolContext
from toolkit._envelope import ToolResult
from toolkit._exceptions import RuntimeConfigError
from toolkit._tool import Tool, Toolset
from toolkit._wire import Call, PayloadSet, payloads
from toolkit.runtime.executor import Executor
from toolkit.runtime.http import HttpClient, HttpConfig, HttpTool
from toolkit.runtime.idempotency import CallableTool
from toolkit.runtime.ledger import DEFAULT_LEDGER_PATH, Ledger

__all__ = [
    "DEFAULT_LEDGER_PATH",
    "DIALECT",
    "Served",
    "check_host",
    "contract_tool",
    "is_generated_package",
    "is_loopback",
    "served",
]

DIALECT = "mcp"
"""The dialect whose payloads a server lists and whose names its calls use."""


@dataclass(frozen=True, slots=True, eq=False)
class Served:
    """The tools one server offers (their payloads and name mapping) and the executor that runs them."""

    wire: PayloadSet
    executor: Executor
    session_id: str
    closers: tuple[Callable[[], None], ...] = ()
    """What :meth:`close` releases: the HTTP clients made here, the ledger opened from a path."""

    @property
    def bodies(self) -> list[dict[str, Any]]:
        """What ``tools/list`` returns: the accepted payloads, exactly."""
        return self.wire.bodies

    @property
    def names(self) -> dict[str, str]:
        """``{contract name: name the client sees}`` for every tool served."""
        return self.wire.names

    def find(self, name: str, arguments: Mapping[str, Any] | None) -> Call:
        """A ``tools/call`` request as a :class:`~toolkit.Call` naming its tool (``None`` for an unknown name)."""
        return self.wire.read({"name": name, "arguments": dict(arguments or {})})

    def run(
        self, call: Call, *, session_id: str | None = None, call_id: str = "", confirmed: bool = False
    ) -> ToolResult:
        """The envelope for ``call``: an unknown tool's, or the executor's (validate, confirm, call)."""
        if call.tool is None:
            return call.run()
        context = ToolContext(
            session_id=session_id or self.session_id,
            call_id=call_id,
            tool_name=call.tool.name,
            extras={"confirmed": True} if confirmed else {},
        )
        return self.executor.execute(call.tool.name, call.arguments or {}, context)

    def reply(self, call: Call, result: ToolResult) -> dict[str, Any]:
        """The dialect's result for ``call`` (for MCP a ``CallToolResult``: ``isError`` unless ``ok``)."""
        return self.wire.reply(call, result)

    def close(self) -> None:
        """Close the HTTP clients made for the served tools, and a ledger opened from a path."""
        for close in self.closers:
            close()

    def __repr__(self) -> str:
        return f"<Served {self.wire.dialect} tools={len(self.wire.accepted)} refused={len(self.wire.refused)}>"


def served(
    source: Any,
    *,
    base_url: str | None = None,
    config: HttpConfig | None = None,
    ledger: Ledger | str | os.PathLike[str] | None = None,
    timeout: float = 30.0,
    session_id: str | None = None,
    scope: str | None = None,
) -> Served:
    """The tools of ``source`` ready to serve (see the module docstring). ``ledger`` is a ledger or its file's
    path (opened here, closed by :meth:`Served.close`); ``session_id`` scopes the ledger's dedupe keys when the
    protocol names no session (default: one id per server); ``scope`` replaces every session in the keys with
    one stable name, so dedupe survives restarts."""
    builder = _Builder(base_url, config)
    runnable = [builder.runnable(item) for item in _items(source)]
    flat = [tool for item in runnable for tool in (item if isinstance(item, list) else [item])]
    contracts = [contract_tool(tool) for tool in flat]
    wire = payloads([tool for tool in contracts if tool is not None], DIALECT)
    if not wire.accepted:
        refused = "; ".join(f"{p.tool}: {p.refusal.message}" for p in wire.refused if p.refusal is not None)
        raise RuntimeConfigError(
            "nothing to serve: "
            + (
                f"the {DIALECT} dialect refuses every tool ({refused})"
                if refused
                else "the source holds no tools; pass a Tool, a Toolset, a generated package or a list"
            ),
            slug="nothing_to_serve",
        )
    clients = {id(c): c for c in builder.clients + _clients_of(flat)}.values()
    opened = None if ledger is None or isinstance(ledger, Ledger) else Ledger(ledger)
    try:
        executor = Executor(flat, timeout=timeout, ledger=ledger if isinstance(ledger, Ledger) else opened, scope=scope)
    except BaseException:
        if opened is not None:
            opened.close()
        raise
    closers = tuple(client.close for client in clients) + ((opened.close,) if opened is not None else ())
    return Served(wire, executor, session_id or f"mcp-{uuid.uuid4().hex[:12]}", closers)


# -- where a server may listen ---------------------------------------------------------------------------------
def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (``127.0.0.0/8``, ``::1``)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_host(host: str, *, allow_remote: bool = False) -> str:
    """``host`` when a server may listen there: loopback, or anything with ``allow_remote=True``."""
    if allow_remote or is_loopback(host):
        return host
    raise RuntimeConfigError(
        f"refusing to serve on {host!r}: anyone who reaches it could call the tools, with the credentials they "
        "carry; serve on 127.0.0.1 (the default) behind a proxy that authenticates, or pass allow_remote=True "
        "(--allow-remote) if that is what you mean",
        slug="remote_host",
    )


# -- sources -----------------------------------------------------------------------------------------------------
def contract_tool(item: Any) -> Tool | None:
    """The :class:`~toolkit.Tool` behind a callable tool (HTTP tools and wrappers keep it in ``.tool``)."""
    for _ in range(8):  # wrappers nest a few levels at most; never loop on a cycle
        if isinstance(item, Tool):
            return item
        item = getattr(item, "tool", None)
        if item is None:
            return None
    return None


def is_generated_package(value: Any) -> bool:
    """A package ``toolkit generate`` wrote: a ``TOOLS`` toolset and ``load_tools(config)``."""
    return (
        isinstance(value, ModuleType)
        and isinstance(getattr(value, "TOOLS", None), Toolset)
        and callable(getattr(value, "load_tools", None))
    )


def _items(source: Any) -> Iterator[Any]:
    if isinstance(source, Toolset):
        yield from source.tools
    elif isinstance(source, Tool | ModuleType | str | bytes | Mapping) or not isinstance(source, Iterable):
        yield source
    else:
        for item in source:
            yield from _items(item)


def _clients_of(tools: Iterable[Any]) -> list[HttpClient]:
    return [tool.client for tool in tools if isinstance(tool, HttpTool)]


class _Builder:
    """Turns source items into callable tools; OpenAPI tools share one HTTP client per base URL."""

    def __init__(self, base_url: str | None, config: HttpConfig | None) -> None:
        self.base_url = base_url
        self.config = config or HttpConfig()
        self._clients: dict[str, HttpClient] = {}

    @property
    def clients(self) -> list[HttpClient]:
        return list(self._clients.values())

    def runnable(self, item: Any) -> CallableTool | list[CallableTool]:
        if isinstance(item, Tool):
            if item.fn is not None:
                return item
            if item.method and item.path:
                return HttpTool(item, client=self._client(self._url(item)))
            raise _not_servable(f"tool {item.name!r} has neither a Python function nor an HTTP operation")
        if is_generated_package(item):
            if not self.base_url:
                raise RuntimeConfigError(
                    f"generated package {item.__name__} keeps no server URL; pass base_url= (--base-url URL)",
                    slug="no_base_url",
                )
            return list(item.load_tools(replace(self.config, base_url=self.base_url)))
        if contract_tool(item) is not None and callable(getattr(item, "call", None)):
            return cast(CallableTool, item)
        shown = type(item).__name__ if not isinstance(item, ModuleType) else f"module {item.__name__}"
        raise _not_servable(f"{shown} is not a tool")

    def _url(self, tool: Tool) -> str:
        if self.base_url:
            return self.base_url
        for server in tool.contract.servers:
            parts = urlsplit(server)
            if parts.scheme in ("http", "https") and parts.hostname:
                return server
        raise RuntimeConfigError(
            f"tool {tool.name!r} calls an HTTP API, but its spec names no absolute server URL (servers: "
            f"{list(tool.contract.servers) or 'none'}); pass base_url= (--base-url URL)",
            slug="no_base_url",
        )

    def _client(self, url: str) -> HttpClient:
        if url not in self._clients:
            self._clients[url] = HttpClient(replace(self.config, base_url=url))
        return self._clients[url]


def _not_servable(what: str) -> RuntimeConfigError:
    return RuntimeConfigError(
        f"{what}; serve Tools (toolkit.from_function, toolkit.from_openapi), a Toolset, HTTP tools or a "
        "generated package",
        slug="not_servable",
    )
