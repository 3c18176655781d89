"""A real upstream HTTP API on 127.0.0.1 that writes its own effect log: what the exactly-once tests count.

Run as a process (``python bank_upstream.py --log effects.jsonl --port-file port``) or in a thread
(:func:`in_thread`). Every POST to ``/accounts/{account}/{kind}`` with a JSON body applies one effect: a JSON
line appended to the log (``kind``, ``account``, ``amount``, ``note``, ``key``: the ``Idempotency-Key`` it came
with) and a ``201`` receipt. A request whose ``Idempotency-Key`` was seen before gets the stored receipt and no
new effect (as payment APIs do); a key seen with another body gets ``422``.

``--fail MODE`` misbehaves on the first ``--times`` POSTs, always *after* the effect is logged (the worst case
for a client):

* ``drop``: close the connection without an answer, after reading the whole body;
* ``504``: answer as a gateway that timed out;
* ``surrogate``: answer ``201`` with a lone surrogate escaped in the JSON receipt (``"\\ud800"``);
* ``hang``: answer only after ``--hang`` seconds (60: the client gives up or is killed first).
"""

from __future__ import annotations

import argparse
import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

SPEC = Path(__file__).with_name("bank.yaml")


class Bank:
    """The upstream's state: its effect log, the receipts stored by idempotency key, how many failures are left."""

    def __init__(self, log: Path, fail: str | None, times: int, hang: float = 60.0) -> None:
        self.log, self.fail, self.left, self.hang = log, fail, times, hang
        self.lock = threading.Lock()
        self.stored: dict[str, tuple[str, dict[str, Any]]] = {}
        self.count = 0

    def apply(self, kind: str, account: str, body: dict[str, Any], key: str | None) -> tuple[int, Any, str | None]:
        """The status and receipt to answer with, and how to misbehave (``None``: answer normally)."""
        with self.lock:
            text = json.dumps(body, sort_keys=True)
            if key is not None and key in self.stored:
                seen, receipt = self.stored[key]
                return (201, receipt, None) if seen == text else (422, {"error": "key reused"}, None)
            self.count += 1
            receipt = {"transfer_id": f"tr_{self.count}", "account": account, "amount": body.get("amount")}
            entry = {"kind": kind, "account": account, "amount": body.get("amount"), "note": body.get("note")}
            with self.log.open("a", encoding="utf-8") as out:
                out.write(json.dumps({**entry, "key": key}) + "\n")
                out.flush()
            if key is not None:
                self.stored[key] = (text, receipt)
            failing = self.fail if self.left > 0 else None
            self.left -= 1 if failing else 0
            return 201, receipt, failing


def make_server(bank: Bank, port: int = 0) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            parts = self.path.strip("/").split("/")
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
            if len(parts) != 3 or parts[0] != "accounts":
                self._answer(404, {"error": "no such path"})
                return
            status, receipt, failing = bank.apply(parts[2], parts[1], body, self.headers.get("Idempotency-Key"))
            if failing == "drop":
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
                return
            if failing == "504":
                self._answer(504, {"error": "upstream timed out"})
                return
            if failing == "hang":
                time.sleep(bank.hang)
            text = json.dumps(receipt)
            if failing == "surrogate":
                text = text[:-1] + ', "memo": "\\ud800"}'
            self._answer(status, text)

        def _answer(self, status: int, body: Any) -> None:
            data = (body if isinstance(body, str) else json.dumps(body)).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    return server


@dataclass(frozen=True)
class Upstream:
    """A running upstream as a test sees it: where it listens and the log it writes."""

    url: str
    log: Path

    def effects(self) -> list[dict[str, Any]]:
        """The effects the upstream applied, from its own log."""
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text(encoding="utf-8").splitlines() if line]


@contextmanager
def in_thread(log: Path, fail: str | None = None, times: int = 0) -> Iterator[Upstream]:
    """The upstream served from a thread of this process until the block ends."""
    server = make_server(Bank(log, fail, times))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Upstream(f"http://127.0.0.1:{server.server_address[1]}", log)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--fail", choices=["drop", "504", "surrogate", "hang"])
    parser.add_argument("--times", type=int, default=1)
    parser.add_argument("--hang", type=float, default=60.0)
    options = parser.parse_args()
    server = make_server(Bank(Path(options.log), options.fail, options.times, options.hang))
    scratch = Path(options.port_file + ".tmp")
    scratch.write_text(str(server.server_address[1]))
    scratch.rename(options.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
