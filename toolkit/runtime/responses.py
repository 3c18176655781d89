"""HTTP responses and transport failures as envelopes: what the model reads back from an HTTP tool.

* 2xx → ``ok`` with the JSON body (or text), trimmed by the tool's :class:`~toolkit.runtime.trim.Trim`;
* 400 / 422 → ``invalid_arguments`` (the API says the arguments are malformed), the server's message trimmed;
* 403 / 404 / 409 / other 4xx → ``rejected`` (a domain answer), with a stable code (``not_found``, ...);
* 401 / 407 → ``error``, not retryable (the tool's credentials, not the model, are wrong);
* 408 → ``timeout``; 429 and 5xx (but 501 / 505) → ``error``, retryable;
* timeouts → ``timeout``, connection failures → ``error``, both retryable.

A request that changes data (any method but GET, HEAD, OPTIONS) and may have reached the API without an answer
coming back (a read timeout, a connection dropped or reset after the request was written, a gateway's 502 / 503
/ 504) may have been applied: :func:`maybe_applied` marks its envelope with an ``outcome_unknown`` notice, and
it is retryable only when a retry carries the same idempotency key, so that the API dedupes it. Only failures
that happen before the request is written (no connection, a full pool) say that nothing was sent.

A reply's lone surrogates (``"\\ud800"`` escaped in JSON, which no UTF-8 text holds) are read as U+FFFD, so the
receipt can be trimmed, recorded and sent on.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from toolkit._envelope import FieldError, Notice, ToolResult
from toolkit._envelope_codes import FieldCode
from toolkit.runtime.binding import LONE_SURROGATE
from toolkit.runtime.trim import Trim, trim

if TYPE_CHECKING:
    import httpx

__all__ = ["GATEWAY_STATUSES", "READ_METHODS", "maybe_applied", "to_result", "transport_error"]

READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that change nothing: a failure after sending them is only a failure."""
GATEWAY_STATUSES = frozenset({502, 503, 504})
"""A gateway's answer: the API behind it may have applied the request."""


_REJECTED_CODES: dict[int, FieldCode] = {
    403: "forbidden",
    404: "not_found",
    409: "conflict",
    410: "gone",
    412: "precondition_failed",
}
_EXPECTED = {
    "forbidden": "an action the caller is allowed to take",
    "not_found": "an id that exists (look it up first)",
    "conflict": "a request the resource's current state allows",
}


def _decode(response: httpx.Response) -> Any:
    if not response.content:
        return None
    if "json" in response.headers.get("content-type", ""):
        try:
            return _whole(response.json())
        except ValueError:
            pass
    return response.text


def _whole(value: Any) -> Any:
    """``value`` with every lone surrogate (in a string or a key) read as U+FFFD."""
    if isinstance(value, str):
        return LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_whole(item) for item in value]
    if isinstance(value, dict):
        return {_whole(key): _whole(item) for key, item in value.items()}
    return value


def _server_message(body: Any, status: int, limit: int) -> str:
    text = ""
    if isinstance(body, Mapping):
        parts = [str(body[k]) for k in ("title", "detail", "message", "error") if isinstance(body.get(k), str | int)]
        text = ": ".join(dict.fromkeys(parts)) or json.dumps(body, ensure_ascii=False, default=str)
    elif body is not None:
        text = str(body)
    text = " ".join(text.split()) or f"HTTP {status}"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def to_result(response: httpx.Response, settings: Trim, message_limit: int = 300) -> ToolResult:
    """Map an HTTP response to an envelope: 2xx ok (trimmed), 4xx rejected/invalid_arguments, else error."""
    status = response.status_code
    body = _decode(response)
    if 200 <= status < 300:
        data, notices = trim(body, settings)
        return ToolResult(status="ok", data=data, notices=notices)
    message = _server_message(body, status, message_limit)
    if status in (400, 422):
        error = FieldError("", "server_rejected", message, "arguments the API accepts")
        return ToolResult(status="invalid_arguments", errors=(error,), message=f"HTTP {status}: {message}")
    if status in (401, 407):
        return ToolResult(
            status="error", retryable=False, message=f"HTTP {status}: the API refused the tool's credentials"
        )
    if status == 408:
        return ToolResult(status="timeout", retryable=True, message=f"HTTP 408: {message}")
    if status == 429:
        return ToolResult(status="error", retryable=True, message=f"HTTP 429 (rate limited): {message}")
    if 400 <= status < 500:
        code = _REJECTED_CODES.get(status, f"http_{status}")
        error = FieldError("", code, message, _EXPECTED.get(code, "a request the API accepts"))
        return ToolResult(status="rejected", errors=(error,), message=f"HTTP {status}: {message}")
    return ToolResult(status="error", retryable=status not in (501, 505), message=f"HTTP {status}: {message}")


def transport_error(exc: Exception, base_url: str) -> ToolResult:
    """The envelope for a request that got no response; :func:`was_sent` says whether it may have arrived."""
    # httpx loads on the first request: validating arguments never needs it.
    import httpx

    kind = type(exc).__name__
    if not was_sent(exc):
        return ToolResult(status="error", retryable=True, message=f"could not reach the API at {base_url} ({kind})")
    if isinstance(exc, httpx.TimeoutException):
        return ToolResult(status="timeout", retryable=True, message=f"the API at {base_url} did not answer in time")
    if isinstance(exc, httpx.TransportError):
        return ToolResult(
            status="error", retryable=True, message=f"the API at {base_url} sent no answer ({kind}: {exc})"
        )
    return ToolResult(status="error", retryable=False, message=f"the request failed ({kind})")


def was_sent(exc: Exception) -> bool:
    """Whether the request may have reached the API before ``exc``: anything but a failure to connect (or to
    get a connection from the pool, or to write the request's first bytes)."""
    # httpx loads on the first request: validating arguments never needs it.
    import httpx

    unsent = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout, httpx.UnsupportedProtocol)
    return not isinstance(exc, (*unsent, httpx.LocalProtocolError, httpx.ProxyError))


def maybe_applied(result: ToolResult, request: str, *, keyed: bool) -> ToolResult:
    """``result`` (a write that got no answer, or a gateway's) marked ``outcome_unknown``: it may have been
    applied. ``keyed``: a retry sends the same idempotency key, so the API itself drops a second copy."""
    said = f"{request} may have been applied: the API's answer did not come back ({result.message}). " + (
        "A retry sends the same Idempotency-Key, so the API applies it at most once."
        if keyed
        else "Do not retry it blindly: check whether it happened first. Its author can make retries safe with "
        "an Idempotency-Key the API dedupes on (declared in the spec, or HttpConfig(idempotency_header=...)) "
        "and a ledger, or settle it with a reconcile read (idempotent(..., reconcile=...))."
    )
    notice = Notice(field="", action="outcome_unknown", message=said)
    return replace(result, retryable=keyed, notices=(*result.notices, notice))
