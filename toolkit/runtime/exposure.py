"""Serving that is safe to expose: a bearer token, JSON without repeated keys, quiet disconnects.

Over streamable HTTP beyond loopback (``toolkit serve --http --allow-remote``), :mod:`toolkit.runtime.mcp` wraps
the SDK's app in :class:`Guard`:

* every request must carry ``Authorization: Bearer <token>``; the token comes from an environment variable or a
  file (:func:`read_token`) and is compared in constant time (digests of equal length, ``hmac.compare_digest``).
  A request without it, or with another, is answered ``401`` with ``WWW-Authenticate: Bearer`` before the SDK
  sees it;
* a JSON body whose text repeats a key in any object (``{"amount": 1, "amount": 1000}``) is refused
  (``400``, a JSON-RPC error whose message starts ``duplicate_key``): a JSON reader keeps the last copy, a gateway
  that logged the request may have read the first, and the tool must not run on a reading the author never saw.

The SDK's own Host/Origin validation stays on, with the author's allow-list added to the loopback names. A
client that hangs up is one log line (:func:`quiet_disconnects`), not a traceback per request.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import os
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from toolkit._exceptions import RuntimeConfigError

__all__ = [
    "DEFAULT_IDLE_TIMEOUT",
    "DEFAULT_MAX_SESSIONS",
    "DUPLICATE_KEY",
    "Guard",
    "find_duplicate_key",
    "quiet_disconnects",
    "read_token",
]

DUPLICATE_KEY = "duplicate_key"
"""The code of a refused JSON body whose text repeats a key."""
DEFAULT_MAX_SESSIONS = 100
"""Streamable HTTP sessions open at once; one more is refused until one closes or idles out."""
DEFAULT_IDLE_TIMEOUT = 600.0
"""Seconds after which a streamable HTTP session no request used is closed."""
MIN_TOKEN = 16
"""A server token shorter than this is refused: it could be guessed."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


def read_token(env: str | None = None, file: str | os.PathLike[str] | None = None) -> str:
    """The server's bearer token from the environment variable ``env`` or the file ``file`` (its text, stripped)."""
    if (env is None) == (file is None):
        raise RuntimeConfigError(
            "give the server's bearer token from one place: an environment variable (--token-env NAME) or a file "
            "(--token-file PATH)",
            slug="bad_server_token",
        )
    if env is not None:
        token, where = os.environ.get(env, "").strip(), f"the environment variable {env}"
    else:
        try:
            token, where = Path(file or "").read_text(encoding="utf-8").strip(), f"the file {file}"
        except (OSError, UnicodeDecodeError) as error:
            raise RuntimeConfigError(
                f"the token file {file} cannot be read ({type(error).__name__}); check the path",
                slug="bad_server_token",
            ) from None
    if len(token) < MIN_TOKEN or not token.isascii() or not token.isprintable() or " " in token:
        raise RuntimeConfigError(
            f"{where} holds no usable bearer token (at least {MIN_TOKEN} printable ASCII characters, no spaces); "
            'make one with: python -c "import secrets; print(secrets.token_urlsafe(32))"',
            slug="bad_server_token",
        )
    return token


class _Repeated(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _Repeated(key)
        seen[key] = value
    return seen


def find_duplicate_key(text: bytes | str) -> str | None:
    """The first key that ``text`` (JSON) repeats within one object, or ``None`` (also for text that is no JSON:
    the protocol's own reader answers that)."""
    try:
        json.loads(text, object_pairs_hook=_pairs)
    except _Repeated as repeated:
        return repeated.key
    except ValueError:
        return None
    return None


class Guard:
    """ASGI middleware: a bearer token (when given) and JSON bodies without repeated keys (see the module)."""

    def __init__(self, app: App, *, token: str | None) -> None:
        self.app = app
        self._digest = None if token is None else hashlib.sha256(token.encode("ascii")).digest()

    def _authorised(self, scope: Scope) -> bool:
        if self._digest is None:
            return True
        headers = dict(scope.get("headers") or [])
        scheme, _, given = headers.get(b"authorization", b"").decode("latin-1").partition(" ")
        offered = hashlib.sha256(given.strip().encode("utf-8", "replace")).digest()
        return hmac.compare_digest(offered, self._digest) and scheme.lower() == "bearer"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return
        if not self._authorised(scope):
            await _answer(send, 401, b"a bearer token is required", {b"www-authenticate": b'Bearer realm="toolkit"'})
            return
        if scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        body, messages = await _read_body(receive)
        repeated = find_duplicate_key(body)
        if repeated is not None:
            await _answer(send, 400, _rpc_error(body, repeated), {b"content-type": b"application/json"})
            return
        await self.app(scope, _replay(messages, receive), send)


async def _read_body(receive: Receive) -> tuple[bytes, list[Message]]:
    messages: list[Message] = []
    chunks: list[bytes] = []
    while True:
        message = await receive()
        messages.append(message)
        if message.get("type") != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            break
    return b"".join(chunks), messages


def _replay(messages: list[Message], receive: Receive) -> Receive:
    pending = list(messages)

    async def again() -> Message:
        return pending.pop(0) if pending else await receive()

    return again


def _rpc_error(body: bytes, key: str) -> bytes:
    ident = None
    with contextlib.suppress(ValueError, AttributeError):
        ident = json.loads(body).get("id")  # the last copy of "id" when it is the repeated key: it is only an echo
    message = (
        f"{DUPLICATE_KEY}: the JSON text repeats the key {key!r} in one object; send each key once "
        "(a repeated key is read differently by different readers, so the request is refused)"
    )
    error = {
        "jsonrpc": "2.0",
        "id": ident,
        "error": {"code": -32602, "message": message, "data": {"code": DUPLICATE_KEY}},
    }
    return json.dumps(error).encode()


async def _answer(send: Send, status: int, body: bytes, headers: dict[bytes, bytes]) -> None:
    fields = [(b"content-length", str(len(body)).encode()), *headers.items()]
    await send({"type": "http.response.start", "status": status, "headers": fields})
    await send({"type": "http.response.body", "body": body})


# -- disconnects --------------------------------------------------------------------------------------------------
_DISCONNECTS = (
    "ClientDisconnect",
    "BrokenResourceError",
    "ClosedResourceError",
    "EndOfStream",
    "ConnectionResetError",
    "BrokenPipeError",
    "CancelledError",
)
_SERVER_LOGGERS = ("uvicorn.error", "mcp.server.streamable_http", "mcp.server.streamable_http_manager", "mcp")


class _Disconnects(logging.Filter):
    """A record whose exception is a client hanging up becomes one line without a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if error is not None and _is_disconnect(error):
            record.msg, record.args = f"client disconnected ({type(error).__name__})", ()
            record.exc_info, record.exc_text = None, None
        return True


def _is_disconnect(error: BaseException) -> bool:
    seen = 0
    while error is not None and seen < 8:
        if type(error).__name__ in _DISCONNECTS:
            return True
        group = getattr(error, "exceptions", None)
        if isinstance(group, tuple) and group and all(_is_disconnect(inner) for inner in group):
            return True
        error, seen = error.__cause__ or error.__context__, seen + 1  # type: ignore[assignment]
    return False


_FILTER = _Disconnects()


def quiet_disconnects() -> None:
    """Install the filter on the HTTP server's loggers (once)."""
    for name in _SERVER_LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
