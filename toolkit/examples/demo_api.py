"""The demo Orders API: a small Starlette app implementing ``specs/orders.yaml``, backed by a SQLite file.

It is what ``toolkit demo`` and the notebooks call: same paths, status codes and ``X-API-Key`` check as the
spec, seeded with a few orders whose ids look like the spec's (``ord_`` + 12 lowercase letters/digits).
Write endpoints honour an ``Idempotency-Key`` header the way payment APIs do: every key received is logged
(``received_keys``, what tests read), the first response to a key is stored, and a request that repeats the
key gets that stored response again (with ``Idempotent-Replayed: true``) instead of a second effect; a key
reused for another method or path is refused with 422.
Run it in-process (``httpx.ASGITransport(create_app(...))``) or on loopback (:func:`serve`, uvicorn in a
thread on a free port, shut down cleanly on exit). Everything is deterministic (seeded ids, a fixed clock by
default), so notebook outputs do not drift.
"""

from __future__ import annotations

import hashlib
import json
import socket
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from toolkit._exceptions import RuntimeConfigError

__all__ = [
    "DEFAULT_API_KEY",
    "DemoServer",
    "create_app",
    "default_db_path",
    "received_keys",
    "reset_database",
    "seeded_order_ids",
    "serve",
]

DEFAULT_API_KEY = "demo-key"
STATUSES = ("pending", "paid", "shipped", "cancelled", "refunded")
REASONS = ("requested_by_customer", "duplicate", "fraudulent", "damaged")
FIXED_NOW = "2026-01-15T12:00:00Z"

_SCHEMA = """
CREATE TABLE orders (id TEXT PRIMARY KEY, status TEXT NOT NULL, amount_minor INTEGER NOT NULL,
    currency TEXT NOT NULL, refunded_minor INTEGER NOT NULL DEFAULT 0, note TEXT,
    created_at TEXT NOT NULL, items TEXT NOT NULL);
CREATE TABLE refunds (id TEXT PRIMARY KEY, order_id TEXT NOT NULL REFERENCES orders(id),
    amount_minor INTEGER NOT NULL, reason TEXT NOT NULL, note TEXT, created_at TEXT NOT NULL,
    idempotency_key TEXT UNIQUE);
CREATE TABLE idempotency_keys (key TEXT PRIMARY KEY, method TEXT NOT NULL, path TEXT NOT NULL,
    status INTEGER NOT NULL, body BLOB NOT NULL);
CREATE TABLE received_keys (seq INTEGER PRIMARY KEY AUTOINCREMENT, method TEXT NOT NULL, path TEXT NOT NULL,
    key TEXT NOT NULL);
"""
_TABLES = ("received_keys", "idempotency_keys", "refunds", "orders")
# (status, amount_minor, currency, created_at, items)
_SEED = (
    ("paid", 4999, "USD", "2026-01-14T09:30:00Z", [{"sku": "MUG-01", "quantity": 2}]),
    ("shipped", 12900, "EUR", "2026-01-12T16:05:00Z", [{"sku": "LAMP-3", "quantity": 1}]),
    ("pending", 2500, "USD", "2026-01-10T11:00:00Z", [{"sku": "CARD-9", "quantity": 5}]),
    ("paid", 31000, "GBP", "2026-01-08T08:45:00Z", [{"sku": "CHAIR-2", "quantity": 1}]),
    ("cancelled", 1500, "USD", "2026-01-05T19:20:00Z", [{"sku": "PEN-7", "quantity": 3}]),
    ("refunded", 8000, "USD", "2026-01-02T13:10:00Z", [{"sku": "BAG-4", "quantity": 1}]),
)


def _seed_id(prefix: str, *parts: object) -> str:
    digest = hashlib.sha256("|".join(str(p) for p in parts).encode()).hexdigest()
    return prefix + "".join(c for c in digest if c.isalnum())[:12]


def seeded_order_ids() -> tuple[str, ...]:
    """The ids of the seeded orders, newest first (the same on every machine)."""
    return tuple(_seed_id("ord_", "order", i) for i in range(len(_SEED)))


def default_db_path(cwd: Path | None = None) -> Path:
    """``.toolkit/demo-orders.sqlite3`` under the working folder."""
    return (cwd or Path.cwd()) / ".toolkit" / "demo-orders.sqlite3"


def reset_database(path: Path) -> None:
    """Create (or re-create) the SQLite file with the seeded orders."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with closing(sqlite3.connect(path)) as db, db:
        db.executescript("".join(f"DROP TABLE IF EXISTS {table};" for table in _TABLES) + _SCHEMA)
        for order_id, (status, amount, currency, created, items) in zip(seeded_order_ids(), _SEED, strict=True):
            refunded = amount if status == "refunded" else 0
            db.execute(
                "INSERT INTO orders VALUES (?, ?, ?, ?, ?, NULL, ?, ?)",
                (order_id, status, amount, currency, refunded, created, json.dumps(items)),
            )


def _problem(status: int, title: str, detail: str) -> JSONResponse:
    return JSONResponse({"title": title, "detail": detail, "status": status}, status_code=status)


def received_keys(path: Path) -> list[tuple[str, str, str]]:
    """Every ``Idempotency-Key`` the API received on a write, in order: ``(method, path, key)``."""
    with closing(sqlite3.connect(path)) as db:
        return [tuple(row) for row in db.execute("SELECT method, path, key FROM received_keys ORDER BY seq")]


@dataclass(frozen=True, slots=True)
class _Api:
    db_path: Path
    api_key: str
    clock: Callable[[], str]

    def connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.db_path, timeout=5)
        db.row_factory = sqlite3.Row
        return db

    def order(self, db: sqlite3.Connection, order_id: str, expand: str | None = None) -> dict[str, Any] | None:
        row = db.execute("SELECT * FROM orders WHERE id = ?", (order_id,)).fetchone()
        if row is None:
            return None
        out: dict[str, Any] = {
            "id": row["id"],
            "status": row["status"],
            "total": {"amount_minor": row["amount_minor"], "currency": row["currency"]},
            "refunded_minor": row["refunded_minor"],
            "note": row["note"],
            "created_at": row["created_at"],
        }
        if expand == "items":
            out["items"] = json.loads(row["items"])
        return out

    # -- endpoints ---------------------------------------------------------------------------------
    def list_orders(self, request: Request) -> Response:
        status = request.query_params.get("status")
        since = request.query_params.get("created_since")
        raw_limit = request.query_params.get("limit", "20")
        if status is not None and status not in STATUSES:
            return _problem(400, "Bad Request", f"status must be one of {', '.join(STATUSES)}")
        if not raw_limit.isdigit() or not 1 <= int(raw_limit) <= 100:
            return _problem(400, "Bad Request", "limit must be an integer between 1 and 100")
        sql, params = "SELECT id FROM orders WHERE 1=1", list[str]()
        if status:
            sql, params = sql + " AND status = ?", [*params, status]
        if since:
            sql, params = sql + " AND substr(created_at, 1, 10) >= ?", [*params, since]
        sql += " ORDER BY created_at DESC LIMIT ?"
        with closing(self.connect()) as db:
            ids = [r["id"] for r in db.execute(sql, [*params, int(raw_limit)])]
            items = [self.order(db, i) for i in ids]
        headers = {"X-Request-ID": request.headers["x-request-id"]} if "x-request-id" in request.headers else None
        return JSONResponse({"items": items, "next_cursor": None}, headers=headers)

    def get_order(self, request: Request) -> Response:
        expand = request.query_params.get("expand")
        if expand is not None and expand not in ("items", "payments"):
            return _problem(400, "Bad Request", "expand must be items or payments")
        with closing(self.connect()) as db:
            order = self.order(db, request.path_params["orderId"], expand)
        if order is None:
            return _problem(404, "Not Found", f"no order {request.path_params['orderId']}")
        return JSONResponse(order)

    def delete_order(self, request: Request) -> Response:
        with closing(self.connect()) as db, db:
            db.execute("DELETE FROM refunds WHERE order_id = ?", (request.path_params["orderId"],))
            db.execute("DELETE FROM orders WHERE id = ?", (request.path_params["orderId"],))
        return Response(status_code=204)

    async def create_refund(self, request: Request) -> Response:
        body = await _json_body(request)
        if not isinstance(body, dict):
            return _problem(422, "Unprocessable Entity", "the body must be a JSON object")
        amount, reason = body.get("amount_minor"), body.get("reason")
        if type(amount) is not int or not 1 <= amount <= 1_000_000:
            return _problem(422, "Unprocessable Entity", "amount_minor must be an integer between 1 and 1000000")
        if reason not in REASONS:
            return _problem(422, "Unprocessable Entity", f"reason must be one of {', '.join(REASONS)}")
        key = request.headers.get("idempotency-key")
        return self._refund(request.path_params["orderId"], amount, reason, body.get("note"), key)

    def _refund(self, order_id: str, amount: int, reason: str, note: Any, key: str | None) -> Response:
        with closing(self.connect()) as db, db:
            if key is not None:
                prior = db.execute("SELECT * FROM refunds WHERE idempotency_key = ?", (key,)).fetchone()
                if prior is not None:
                    return JSONResponse(_refund_json(prior), status_code=201)
            row = db.execute("SELECT * FROM orders WHERE id = ?", (order_id,)).fetchone()
            if row is None:
                return _problem(404, "Not Found", f"no order {order_id}")
            if row["status"] not in ("paid", "shipped"):
                return _problem(409, "Conflict", f"order {order_id} is {row['status']}; only paid or shipped orders")
            left = row["amount_minor"] - row["refunded_minor"]
            if amount > left:
                return _problem(409, "Conflict", f"only {left} minor units are left to refund on {order_id}")
            count = db.execute("SELECT count(*) FROM refunds").fetchone()[0]
            refund_id = _seed_id("ref_", "refund", count)
            db.execute(
                "INSERT INTO refunds VALUES (?, ?, ?, ?, ?, ?, ?)",
                (refund_id, order_id, amount, reason, note, self.clock(), key),
            )
            status = "refunded" if amount == left else row["status"]
            db.execute(
                "UPDATE orders SET refunded_minor = refunded_minor + ?, status = ? WHERE id = ?",
                (amount, status, order_id),
            )
            created = db.execute("SELECT * FROM refunds WHERE id = ?", (refund_id,)).fetchone()
        return JSONResponse(_refund_json(created), status_code=201)

    async def cancel_order(self, request: Request) -> Response:
        body = await _json_body(request)
        reason = body.get("reason") if isinstance(body, dict) else None
        if not isinstance(reason, str) or not 3 <= len(reason) <= 500:
            return _problem(422, "Unprocessable Entity", "reason must be a string of 3 to 500 characters")
        order_id = request.path_params["orderId"]
        with closing(self.connect()) as db, db:
            row = db.execute("SELECT status FROM orders WHERE id = ?", (order_id,)).fetchone()
            if row is None:
                return _problem(404, "Not Found", f"no order {order_id}")
            if row["status"] not in ("pending", "paid"):
                return _problem(409, "Conflict", f"order {order_id} is {row['status']} and cannot be cancelled")
            db.execute("UPDATE orders SET status = 'cancelled' WHERE id = ?", (order_id,))
            return JSONResponse(self.order(db, order_id))

    async def set_note(self, request: Request) -> Response:
        body = await _json_body(request)
        note = body.get("note") if isinstance(body, dict) else None
        if not isinstance(note, str) or len(note) > 280:
            return _problem(422, "Unprocessable Entity", "note must be a string of at most 280 characters")
        order_id = request.path_params["orderId"]
        with closing(self.connect()) as db, db:
            if db.execute("SELECT 1 FROM orders WHERE id = ?", (order_id,)).fetchone() is None:
                return _problem(404, "Not Found", f"no order {order_id}")
            db.execute("UPDATE orders SET note = ? WHERE id = ?", (note or None, order_id))
            return JSONResponse(self.order(db, order_id))


Handler = Callable[[Request], Awaitable[Response]]


def _idempotent(api: _Api, handler: Handler) -> Handler:
    """``handler`` behind the ``Idempotency-Key`` header: log the key, replay the stored response for a repeat."""

    async def endpoint(request: Request) -> Response:
        key = request.headers.get("idempotency-key")
        if key is None:
            return await handler(request)
        method, path = request.method, request.url.path
        with closing(api.connect()) as db, db:
            db.execute("INSERT INTO received_keys (method, path, key) VALUES (?, ?, ?)", (method, path, key))
            prior = db.execute("SELECT * FROM idempotency_keys WHERE key = ?", (key,)).fetchone()
        if prior is not None and (prior["method"], prior["path"]) != (method, path):
            return _problem(422, "Unprocessable Entity", "this Idempotency-Key was used for another request")
        if prior is not None:
            headers = {"Idempotent-Replayed": "true"}
            return Response(prior["body"], prior["status"], headers=headers, media_type="application/json")
        response = await handler(request)
        if response.status_code < 500:
            with closing(api.connect()) as db, db:
                row = (key, method, path, response.status_code, bytes(response.body))
                db.execute("INSERT OR IGNORE INTO idempotency_keys VALUES (?, ?, ?, ?, ?)", row)
        return response

    return endpoint


async def _json_body(request: Request) -> Any:
    try:
        return await request.json()
    except ValueError:
        return None


def _refund_json(row: sqlite3.Row) -> dict[str, Any]:
    keys = ("id", "order_id", "amount_minor", "reason", "created_at")
    return {k: row[k] for k in keys}


def create_app(
    db_path: Path | None = None,
    *,
    api_key: str = DEFAULT_API_KEY,
    reset: bool = True,
    clock: Callable[[], str] | None = None,
) -> Starlette:
    """The ASGI app. ``reset`` re-seeds the SQLite file; ``clock`` stamps refunds (default: a fixed time)."""
    path = db_path or default_db_path()
    if reset or not path.exists():
        reset_database(path)
    api = _Api(db_path=path, api_key=api_key, clock=clock or (lambda: FIXED_NOW))
    routes = [
        Route("/orders", api.list_orders, methods=["GET"]),
        Route("/orders/{orderId}", api.get_order, methods=["GET"]),
        Route("/orders/{orderId}", api.delete_order, methods=["DELETE"]),
        Route("/orders/{orderId}/refunds", _idempotent(api, api.create_refund), methods=["POST"]),
        Route("/orders/{orderId}/cancel", _idempotent(api, api.cancel_order), methods=["POST"]),
        Route("/orders/{orderId}/notes", _idempotent(api, api.set_note), methods=["PUT"]),
    ]
    return Starlette(routes=routes, middleware=[Middleware(_RequireApiKey, api_key=api_key)])


class _RequireApiKey:
    """The spec's ``apiKey`` security scheme: every request needs the right ``X-API-Key`` header."""

    def __init__(self, app: ASGIApp, api_key: str) -> None:
        self.app = app
        self.api_key = api_key.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and dict(scope["headers"]).get(b"x-api-key") != self.api_key:
            await _problem(401, "Unauthorized", "send a valid X-API-Key header")(scope, receive, send)
            return
        await self.app(scope, receive, send)


@dataclass(frozen=True, slots=True)
class DemoServer:
    """A running loopback server: its base URL, API key and SQLite file."""

    base_url: str
    api_key: str
    db_path: Path


def _free_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


@contextmanager
def serve(
    db_path: Path | None = None, *, api_key: str = DEFAULT_API_KEY, reset: bool = True, port: int = 0
) -> Iterator[DemoServer]:
    """Run the demo API with uvicorn in a thread on 127.0.0.1 (a free port unless given); stop it on exit."""
    # uvicorn loads only when the demo API is served.
    import uvicorn

    path = db_path or default_db_path()
    app = create_app(path, api_key=api_key, reset=reset)
    sock = _free_socket() if port == 0 else socket.create_server(("127.0.0.1", port))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off", access_log=False))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True, name="toolkit-demo-api")
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeConfigError(
                    f"the demo API did not start on {sock.getsockname()}; see the log above", slug="demo_api_start"
                )
            time.sleep(0.02)
        host, bound_port = sock.getsockname()[:2]
        yield DemoServer(base_url=f"http://{host}:{bound_port}", api_key=api_key, db_path=path)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
