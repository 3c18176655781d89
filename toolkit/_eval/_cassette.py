"""Cassettes: every HTTP exchange of an eval run, keyed by the exact request, so CI can replay it offline.

The provider SDKs all speak through ``httpx`` (or its fork ``httpx2``, which the OpenAI and Anthropic SDKs
now use); an eval hands each SDK a client of its own flavour whose transport is a :class:`CassetteTransport`
(:meth:`CassetteTransport.transport` adapts it to either):

* **record** sends each request on (the real transport) and stores it with the answer;
* **replay** answers from the cassette alone: no key, no network. A request the cassette does not hold (the
  declaration, a case, the model or a setting changed, so the body differs) is answered ``410`` with a
  message, and the transport remembers it, so the run reports the sample as *stale* ("re-record needed")
  instead of passing silently.

A request's key is the SHA-256 of its method, path, non-secret query parameters and body (JSON canonicalised:
keys sorted), which carries the payload, the messages, the model and the settings. The same request sent N
times (N samples) is N entries under one key, answered in order. Headers are never stored or keyed: the API key
travels in a header (``Authorization``, ``x-api-key``, ``x-goog-api-key``) and never reaches the file; query
parameters named like credentials are dropped before keying and storing.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from toolkit._exceptions import EvalError

__all__ = ["Cassette", "CassetteTransport", "request_key"]

FORMAT = "toolkit-cassette/1"
_SECRET_QUERY = frozenset({"key", "api_key", "apikey", "access_token", "token", "sig", "signature", "code"})
STALE_STATUS = 410


def _body(raw: bytes) -> Any:
    """A request or response body: its JSON value, or its text when it is not JSON."""
    text = raw.decode("utf-8", "replace")
    try:
        return json.loads(text) if text else None
    except ValueError:
        return text


def _query(url: Any) -> list[list[str]]:
    return sorted([name, value] for name, value in url.params.multi_items() if name.lower() not in _SECRET_QUERY)


def request_key(method: str, path: str, query: list[list[str]], body: Any) -> str:
    """The key of one request: what it asks, never who asks."""
    text = json.dumps([method, path, query, body], sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class Cassette:
    """The exchanges of one run, in order; ``path`` is where :meth:`save` writes them (JSON)."""

    path: Path | None = None
    exchanges: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Cassette:
        """The cassette at ``path``; :class:`~toolkit.EvalError` (``bad_cassette``) when it is not one."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise EvalError(f"cannot read the cassette {os.fspath(path)!r}: {error}", slug="bad_cassette") from None
        if not isinstance(data, Mapping) or data.get("format") != FORMAT or not isinstance(data.get("exchanges"), list):
            raise EvalError(f"{os.fspath(path)!r} is not a {FORMAT} cassette", slug="bad_cassette")
        return cls(Path(path), list(data["exchanges"]))

    def save(self, path: str | os.PathLike[str] | None = None) -> Path:
        """Write the cassette (sorted keys, one run's exchanges in order) and return where."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise EvalError("a cassette needs a path to be saved", slug="bad_cassette")
        text = json.dumps({"format": FORMAT, "exchanges": self.exchanges}, indent=1, sort_keys=True, ensure_ascii=False)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text + "\n", encoding="utf-8")
        except OSError as error:
            raise EvalError(f"cannot write the cassette {str(target)!r}: {error}", slug="bad_cassette") from None
        return target


class CassetteTransport:
    """Records to, or replays from, a :class:`Cassette`, for every client of one run (all samples)."""

    def __init__(self, cassette: Cassette, *, replay: bool) -> None:
        self.cassette = cassette
        self.replay = replay
        self._inner: dict[str, Any] = {}
        self.stale: list[str] = []
        self._taken: dict[str, int] = {}
        self._index: dict[str, list[dict[str, Any]]] = {}
        for exchange in cassette.exchanges:
            self._index.setdefault(str(exchange.get("key")), []).append(exchange)

    def transport(self, httpx: ModuleType) -> Any:
        """An ``httpx.BaseTransport`` of the ``httpx`` flavour given (``httpx`` or ``httpx2``) that goes through
        this cassette; closing it leaves the real connections open for the next sample (:meth:`shutdown`)."""
        owner = self

        class Transport(httpx.BaseTransport):  # type: ignore[name-defined,misc]
            def handle_request(self, request: Any) -> Any:
                return owner.handle(httpx, request)

        return Transport()

    def handle(self, httpx: ModuleType, request: Any) -> Any:
        body = _body(request.read())
        query = _query(request.url)
        key = request_key(request.method, request.url.path, query, body)
        if self.replay:
            return self._answer(httpx, request, key)
        inner = self._inner.get(httpx.__name__)
        if inner is None:
            inner = self._inner[httpx.__name__] = httpx.HTTPTransport()
        response = inner.handle_request(request)
        content = response.read()
        self.cassette.exchanges.append(
            {
                "key": key,
                "method": request.method,
                "path": request.url.path,
                "query": query,
                "request": body,
                "status": response.status_code,
                "content_type": response.headers.get("content-type", "application/json"),
                "response": _body(content),
            }
        )
        return httpx.Response(
            response.status_code, headers={"content-type": response.headers.get("content-type", "")}, content=content
        )

    def _answer(self, httpx: ModuleType, request: Any, key: str) -> Any:
        recorded = self._index.get(key, [])
        taken = self._taken.get(key, 0)
        if taken >= len(recorded):
            self.stale.append(key)
            problem = "was never recorded" if not recorded else f"was recorded {len(recorded)} time(s) only"
            message = f"stale cassette: this request ({request.method} {request.url.path}) {problem}; re-record"
            return httpx.Response(STALE_STATUS, json={"error": {"message": message, "type": "stale_cassette"}})
        self._taken[key] = taken + 1
        exchange = recorded[taken]
        answer = exchange.get("response")
        content = answer.encode() if isinstance(answer, str) else json.dumps(answer).encode()
        headers = {"content-type": str(exchange.get("content_type") or "application/json")}
        return httpx.Response(int(exchange.get("status", 200)), headers=headers, content=content)

    def shutdown(self) -> None:
        """Close the real transports' connections, at the end of a run."""
        for inner in self._inner.values():
            inner.close()
