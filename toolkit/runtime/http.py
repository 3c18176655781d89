"""HTTP tools: what generated tool modules run.

An :class:`HttpTool` wraps a :class:`toolkit.Tool` built from an OpenAPI operation. A call

1. validates strictly through the tool (everything lowering dropped is enforced; an ok result's ``data``
   holds the cleaned arguments),
2. asks for confirmation when the tool needs it (``needs_confirmation`` with the would-be request),
3. binds the arguments to path (URL-encoded, no traversal), query, header and body by the binding map,
4. adds credentials from configuration (:mod:`toolkit.runtime.credentials`), never from the model, and the
   call's idempotency key (the ledger's dedupe key, ``context.extras["dedupe_key"]``) where the operation
   declares one (e.g. an ``Idempotency-Key`` header), or under ``HttpConfig.idempotency_header``,
5. encodes the body as JSON or, for a form operation, as ``application/x-www-form-urlencoded``
   (:mod:`toolkit.runtime.forms`),
6. sends the request through one shared httpx client (sync or async; any transport, e.g. in-process ASGI),
7. maps the response to an envelope and trims it (:mod:`toolkit.runtime.responses`, :mod:`toolkit.runtime.trim`).

It never raises for anything the model or the API did: arguments the validator passed that no request can carry
(a URL over httpx's 65,536 characters, a lone surrogate, which UTF-8 cannot encode) are ``invalid_arguments``;
misconfiguration is an ``error`` envelope; a write that may have reached the API without an answer coming back
is marked ``outcome_unknown`` (:func:`~toolkit.runtime.responses.maybe_applied`). :meth:`HttpTool.validate` is
the tool's own validation, so the ledger keys a call on its cleaned arguments.
"""

from __future__ import annotations

import json
import os
import uuid
import weakref
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from toolkit._contract import FormEncoding, Loss, Policy, ToolContract, parse_binding
from toolkit._credential_record import Credential
from toolkit._envelope import FieldError, Notice, ToolResult
from toolkit._exceptions import RuntimeConfigError
from toolkit._tool import Tool
from toolkit._validation import domain_rules
from toolkit.runtime.binding import HEADER_NAME, HttpRequest, bind_request
from toolkit.runtime.credentials import CredentialSource, RequestParts, SecurityScheme, fill
from toolkit.runtime.forms import FORM_CONTENT_TYPE, encode_form
from toolkit.runtime.responses import (
    GATEWAY_STATUSES,
    READ_METHODS,
    maybe_applied,
    to_result,
    transport_error,
    was_sent,
)
from toolkit.runtime.trim import Trim

if TYPE_CHECKING:
    import asyncio

    import httpx

    from toolkit._context import ToolContext

__all__ = [
    "ConfirmPolicy",
    "Credential",
    "HttpClient",
    "HttpConfig",
    "HttpRequest",
    "HttpTool",
    "SecurityScheme",
    "Trim",
    "load_tool",
    "to_result",
]

ConfirmPolicy = bool | Callable[[str, Mapping[str, Any]], bool]
"""``True`` allows every write, or a callable ``(tool_name, request_summary) -> bool`` decides per call."""

_MAX_URL = 65_536  # httpx refuses longer URLs

DEDUPE_KEY_EXTRA = "dedupe_key"
"""Where :mod:`toolkit.runtime.idempotency` puts the call's dedupe key (its ``DEDUPE_KEY_EXTRA``; not imported,
so that HTTP tools load without the ledger)."""


@dataclass(frozen=True, slots=True)
class HttpConfig:
    """Where and how HTTP tools call: base URL, timeout, credentials, confirmation policy, transport.

    ``credentials`` maps a credential's configuration key (a security scheme's name in the spec, or a credential
    parameter's name) to an environment variable name or a provider callable; a key it does not name is read
    from its default environment variable (``<NAMESPACE>_<KEY>``, shown in the tool's summary) when that is set.
    ``environ`` is the environment to read (``None``: the process environment). ``idempotency_header`` names
    a header that carries the ledger's dedupe key on every call that has one, for operations that declare no
    idempotency key of their own. ``transport`` is any httpx transport, sync or async
    (``httpx.ASGITransport(app)`` runs an ASGI app in-process).
    """

    base_url: str = "http://127.0.0.1:8765"
    timeout: float = 10.0
    credentials: Mapping[str, CredentialSource] = field(default_factory=dict)
    environ: Mapping[str, str] | None = None
    confirm: ConfirmPolicy = False
    headers: Mapping[str, str] = field(default_factory=dict)
    transport: Any = None
    message_limit: int = 300
    idempotency_header: str | None = None

    def __post_init__(self) -> None:
        if self.idempotency_header is not None and not HEADER_NAME.fullmatch(str(self.idempotency_header)):
            raise RuntimeConfigError(
                f"idempotency_header {self.idempotency_header!r} is not an HTTP header name; use e.g. 'Idempotency-Key'"
            )

        try:
            url = urlsplit(self.base_url)
            valid = url.scheme in ("http", "https") and bool(url.hostname)
        except ValueError:
            valid = False
        if not valid:
            raise RuntimeConfigError(
                f"base_url {self.base_url!r} is not an http(s) URL with a host; use e.g. 'http://127.0.0.1:8765'",
                slug="bad_base_url",
            )

    def env(self) -> Mapping[str, str]:
        if self.environ is not None:
            return self.environ

        return os.environ


class HttpClient:
    """The httpx clients shared by a set of tools (one sync client; one async client per event loop)."""

    def __init__(self, config: HttpConfig | None = None) -> None:
        self.config = config or HttpConfig()
        self._sync: httpx.Client | None = None
        self._async: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, httpx.AsyncClient] = (
            weakref.WeakKeyDictionary()
        )

    @property
    def async_only(self) -> bool:
        """True when the transport can only be driven from an event loop (e.g. in-process ASGI)."""
        # httpx loads on the first request: validating arguments never needs it.
        import httpx

        transport = self.config.transport
        return isinstance(transport, httpx.AsyncBaseTransport) and not isinstance(transport, httpx.BaseTransport)

    def _options(self) -> dict[str, Any]:
        # httpx loads on the first request: validating arguments never needs it.
        import httpx

        options: dict[str, Any] = {"base_url": self.config.base_url, "timeout": httpx.Timeout(self.config.timeout)}
        if self.config.transport is not None:
            options["transport"] = self.config.transport
        return options

    def sync(self) -> httpx.Client:
        if self._sync is None:
            # httpx loads on the first request: validating arguments never needs it.
            import httpx

            self._sync = httpx.Client(**self._options())
        return self._sync

    def new_async(self) -> httpx.AsyncClient:
        # httpx loads on the first request: validating arguments never needs it.
        import httpx

        return httpx.AsyncClient(**self._options())

    def async_(self) -> httpx.AsyncClient:
        # asyncio loads only where coroutines run (about 40 ms of imports otherwise).
        import asyncio

        loop = asyncio.get_running_loop()
        client = self._async.get(loop)
        if client is None:
            client = self._async[loop] = self.new_async()
        return client

    def close(self) -> None:
        if self._sync is not None:
            self._sync.close()
            self._sync = None

    async def aclose(self) -> None:
        self.close()
        # asyncio loads only where coroutines run (about 40 ms of imports otherwise).
        import asyncio

        client = self._async.pop(asyncio.get_running_loop(), None)
        if client is not None:
            await client.aclose()

    def __enter__(self) -> HttpClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class HttpTool:
    """A callable-tool-like HTTP tool: ``.name``, ``call(args, context)``, ``await acall(args, context)``."""

    def __init__(
        self,
        tool: Tool,
        *,
        trim: Trim | None = None,
        security: tuple[SecurityScheme, ...] | None = None,
        config: HttpConfig | None = None,
        client: HttpClient | None = None,
    ) -> None:
        if tool.method is None or tool.path is None:
            raise RuntimeConfigError(
                f"tool {tool.name!r} has no HTTP method/path; build HTTP tools from OpenAPI operations",
                slug="not_http_tool",
            )
        self.tool = tool
        self.trim = trim or Trim()
        self.security = tool.contract.security if security is None else security
        self.client = client or HttpClient(config)

    # -- what the model sees ------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.tool.name

    @property
    def description(self) -> str:
        return self.tool.description

    @property
    def declaration(self) -> dict[str, Any]:
        return self.tool.declaration

    @property
    def config(self) -> HttpConfig:
        return self.client.config

    @property
    def carries_idempotency_key(self) -> bool:
        """Whether a call sends the ledger's dedupe key to the API (the operation declares an idempotency key, or
        ``HttpConfig.idempotency_header`` names one): a re-sent request is then deduplicated by the API itself."""
        return self.tool.contract.idempotency_key is not None or bool(self.config.idempotency_header)

    def validate(self, args: Any) -> ToolResult:
        """The tool's strict validation: an ok result's ``data`` holds the cleaned arguments (what is sent)."""
        return self.tool.validate(args)

    def __repr__(self) -> str:
        return f"<HttpTool {self.name!r} {self.tool.method} {self.tool.path!r}>"

    # -- calling ------------------------------------------------------------------------------------
    def prepare(self, args: Any, context: ToolContext | None = None) -> HttpRequest | ToolResult:
        """Validate, confirm and bind: the request to send (before credentials), or the envelope that stops it."""
        prepared = self._prepare(args, context)
        return prepared.request if isinstance(prepared, _Prepared) else prepared

    def _prepare(self, args: Any, context: ToolContext | None) -> _Prepared | ToolResult:
        checked = self.tool.validate(args)
        if not checked.ok:
            return checked
        bound = bind_request(self.tool, checked.data or {})
        if isinstance(bound, ToolResult):
            return bound.with_notices(checked.notices)
        if self.tool.confirm and not self._confirmed(bound, context):
            return ToolResult(
                status="needs_confirmation",
                data={"request": bound.summary()},
                notices=checked.notices,
                message=f"{self.name} changes data: ask the user to confirm this request before it is sent",
            )
        return _Prepared(bound, checked.notices)

    def _confirmed(self, request: HttpRequest, context: ToolContext | None) -> bool:
        if context is not None and context.extras.get("confirmed") is True:
            return True
        policy = self.config.confirm
        return bool(policy(self.name, request.summary())) if callable(policy) else policy is True

    def call(self, args: Any, context: ToolContext | None = None) -> ToolResult:
        """Validate, bind, send (sync) and map the response. Never raises for bad args or API failures."""
        if self.client.async_only:
            # asyncio loads only where coroutines run (about 40 ms of imports otherwise).
            import asyncio

            with ThreadPoolExecutor(max_workers=1) as pool:
                return pool.submit(asyncio.run, self._acall_private(args, context)).result()
        prepared = self._prepare(args, context)
        if isinstance(prepared, ToolResult):
            return prepared
        client = self.client.sync()
        request = self._build(prepared.request, client, context)
        if isinstance(request, ToolResult):
            return request
        try:
            response = client.send(request)
        except Exception as exc:  # whatever the transport raised, the request may be out
            return self._unanswered(exc, prepared.request, context)
        return self._finish(response, prepared, context)

    async def acall(self, args: Any, context: ToolContext | None = None) -> ToolResult:
        """The async twin of :meth:`call`, on the shared async client of the running loop."""
        return await self._acall_with(args, context, self.client.async_())

    async def _acall_private(self, args: Any, context: ToolContext | None) -> ToolResult:
        async with self.client.new_async() as client:
            return await self._acall_with(args, context, client)

    async def _acall_with(self, args: Any, context: ToolContext | None, client: httpx.AsyncClient) -> ToolResult:
        prepared = self._prepare(args, context)
        if isinstance(prepared, ToolResult):
            return prepared
        request = self._build(prepared.request, client, context)
        if isinstance(request, ToolResult):
            return request
        try:
            response = await client.send(request)
        except Exception as exc:  # whatever the transport raised, the request may be out
            return self._unanswered(exc, prepared.request, context)
        return self._finish(response, prepared, context)

    def _build(
        self, bound: HttpRequest, client: httpx.Client | httpx.AsyncClient, context: ToolContext | None
    ) -> httpx.Request | ToolResult:
        """The request with credentials and the idempotency key added, or an ``error`` envelope when the
        configuration cannot make one."""
        # httpx loads on the first request: validating arguments never needs it.
        import httpx

        body = dict(bound.body) if isinstance(bound.body, dict) else bound.body if bound.has_body else None
        parts = RequestParts({**self.config.headers, **bound.headers}, list(bound.query), {}, body)
        try:
            contract = self.tool.contract
            fill(self.security, contract.credentials, self.config.credentials, self.config.env(), parts)
            self._add_idempotency_key(parts, context)
            if parts.cookies:
                parts.headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in parts.cookies.items())
            content = _content(bound, parts)
            query = tuple(parts.query)
            return client.build_request(bound.method, bound.path, params=query, headers=parts.headers, **content)
        except RuntimeConfigError as exc:
            message = f"tool misconfigured ({exc.slug}): {exc.message}"
        except httpx.InvalidURL as exc:  # the arguments make a URL no client sends (too long)
            problem = f"the request URL cannot be sent ({exc})"
            error = FieldError("", "too_long", problem, f"path and query arguments within {_MAX_URL:,} characters")
            return ToolResult(status="invalid_arguments", errors=(error,), message=f"{self.name}: {problem}")
        except Exception as exc:  # a bad base URL, a secret that is no header: nothing was sent
            message = f"the request could not be built ({type(exc).__name__}); check the tool's configuration"
        return ToolResult(status="error", retryable=False, message=message)

    def _add_idempotency_key(self, parts: RequestParts, context: ToolContext | None) -> None:
        """The ledger's dedupe key where the operation declares an idempotency key (a fresh random key when the
        call runs without the ledger), or under the configured header when the call has a dedupe key."""
        key = _dedupe_key(context)
        declared = self.tool.contract.idempotency_key
        if declared is not None:
            location, name = parse_binding(declared)
            parts.put(location, name or "Idempotency-Key", key or uuid.uuid4().hex)
        elif key is not None and self.config.idempotency_header:
            parts.headers[self.config.idempotency_header] = key

    def _finish(self, response: httpx.Response, prepared: _Prepared, context: ToolContext | None) -> ToolResult:
        """The envelope for ``response``: the validator's notices first, then what trimming did; a write that a
        gateway answered may have been applied behind it."""
        result = to_result(response, self.trim, self.config.message_limit)
        result = replace(result, notices=prepared.notices + result.notices)
        if response.status_code in GATEWAY_STATUSES and prepared.request.method not in READ_METHODS:
            return self._maybe_applied(result, prepared.request, context)
        return result

    def _unanswered(self, exc: Exception, request: HttpRequest, context: ToolContext | None) -> ToolResult:
        """The envelope for a request that got no response; a write that may have gone out may have been applied."""
        result = transport_error(exc, self.config.base_url)
        if request.method in READ_METHODS or not was_sent(exc):
            return result
        return self._maybe_applied(result, request, context)

    def _maybe_applied(self, result: ToolResult, request: HttpRequest, context: ToolContext | None) -> ToolResult:
        keyed = self.carries_idempotency_key and _dedupe_key(context) is not None
        return maybe_applied(result, f"{self.name} ({request.method} {request.path})", keyed=keyed)


def _dedupe_key(context: ToolContext | None) -> str | None:
    """The ledger's dedupe key for this call, if it runs behind the ledger."""
    key = None if context is None else context.extras.get(DEDUPE_KEY_EXTRA)
    return key if isinstance(key, str) and key else None


def _content(bound: HttpRequest, parts: RequestParts) -> dict[str, Any]:
    """The body as httpx takes it: JSON, or a form encoded field by field (with its Content-Type)."""
    if parts.body is None and not bound.has_body:
        return {}
    if bound.form is None:
        return {"json": parts.body}
    if parts.body is not None and not isinstance(parts.body, Mapping):
        raise ValueError("a form body must be an object of fields")
    parts.headers["Content-Type"] = FORM_CONTENT_TYPE
    return {"content": encode_form(parts.body or {}, bound.form)}


@dataclass(frozen=True, slots=True)
class _Prepared:
    request: HttpRequest
    notices: tuple[Notice, ...]


# -- generated modules ------------------------------------------------------------------------------
def load_json(package: str, filename: str) -> Any:
    """Read a JSON resource shipped inside a generated package."""
    node = resources.files(package)
    for part in filename.split("/"):
        node = node.joinpath(part)
    return json.loads(node.read_text(encoding="utf-8"))


def load_tool(
    package: str,
    stem: str,
    *,
    binding: Mapping[str, str],
    security: tuple[SecurityScheme, ...] = (),
    credentials: tuple[Credential, ...] = (),
) -> Tool:
    """Build a :class:`Tool` from a generated package's stored contract and declaration, without the spec.

    ``declarations/<stem>.json`` is the exact (golden) declaration; ``contracts/<stem>.json`` holds the full
    ``args_schema``, domain rules, effect, confirmation, HTTP method/path, idempotency key, form encoding,
    policy and losses; the module itself holds the binding, security schemes and credentials (as reviewable
    literals).
    """
    declaration = load_json(package, f"declarations/{stem}.json")
    stored = load_json(package, f"contracts/{stem}.json")
    contract = ToolContract(
        name=declaration["name"],
        description=declaration["description"],
        args_schema=stored["args_schema"],
        effect=stored["effect"],
        confirm=stored["confirm"],
        binding=dict(binding),
        source="openapi",
        operation_id=stored.get("operation_id"),
        method=stored["method"],
        path=stored["path"],
        security=tuple(security),
        domain_rules=tuple(stored.get("domain_rules", ())),
        credentials=tuple(credentials),
        idempotency_key=stored.get("idempotency_key"),
        form=_form(stored.get("form")),
    )
    losses = tuple(Loss(**raw) for raw in stored.get("losses", ()))
    return Tool(
        contract=contract,
        parameters=declaration.get("parameters"),
        lowering_losses=losses,
        policy=Policy(**stored.get("policy", {})),
        domain_checks=domain_rules(contract.domain_rules),
    )


def _form(stored: Any) -> dict[str, FormEncoding] | None:
    """A stored form encoding (``{field: {style, explode, json}}``), or ``None`` for a JSON body."""
    if stored is None:
        return None
    return {str(name): FormEncoding(**settings) for name, settings in stored.items()}
