"""A worker process that calls an idempotent ``pay`` tool once and prints what happened as one JSON line.

Run by ``tests/runtime/test_runtime_processes.py`` and ``tests/runtime/test_runtime_ledger_files.py`` as a
real subprocess. The tool's effect is one line appended to an append-only log file (``--log``): the tests
count effects there, never in the ledger. The receipt names the pid that applied the effect, so a test can
tell whose receipt a caller got.

Schedule options:
  --ttl / --lease / --wait / --busy-timeout   the wrapper's and the ledger's settings (short ones keep tests fast)
  --clock-offset S      this process's wall clock runs S seconds ahead (negative: behind)
  --reconcile           the wrapper settles a claim whose holder is gone by reading the effect log
  --reconcile-first     resolve pending claims with ``reconcile_pending`` before calling (a restart)
  --sweep-first         run ``Ledger.sweep()`` before calling
  --delay S             the tool sleeps S seconds before applying its effect (a slow external system)
  --go FILE             the tool waits until FILE exists before applying its effect
  --crash before|after  SIGKILL this process just before / just after the effect
  --raise-after         the tool raises after the effect (the response was lost)
  --signals DIR         the tool touches DIR/entered-<pid> when it starts and DIR/applied-<pid> after the effect
  --hold-until FILE     after the effect, wait until FILE exists before returning
  --start-after FILE    wait until FILE exists before calling
  --barrier DIR --parties N   start together with N-1 other workers
  --foreign             pose as a process of another pid namespace (its pid cannot be checked from here)
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from toolkit import ToolContext, ToolResult
from toolkit.runtime import DEDUPE_KEY_EXTRA, Ledger, idempotent, reconcile_pending


def wait_for(path: Path, pattern: str = "", count: int = 1, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while (len(list(path.glob(pattern))) if pattern else int(path.exists())) < count:
        if time.monotonic() > deadline:
            sys.exit(f"gave up waiting for {path}/{pattern} after {seconds} s")
        time.sleep(0.005)


def applied(log: Path) -> dict[str, int]:
    """key -> pid of the first effect for that key, read from the append-only log."""
    found: dict[str, int] = {}
    if log.exists():
        for line in log.read_text().splitlines():
            key, pid = line.split()
            found.setdefault(key, int(pid))
    return found


def lookup(log: Path) -> Callable[[str], dict[str, Any] | None]:
    def find(key: str) -> dict[str, Any] | None:
        pid = applied(log).get(key)
        return None if pid is None else {"payment_id": f"pay_{key[:10]}", "pid": pid}

    return find


class Pay:
    name = "pay"
    effect = "write"

    def __init__(self, options: argparse.Namespace) -> None:
        self.options = options

    def _touch(self, what: str) -> None:
        if self.options.signals:
            (Path(self.options.signals) / f"{what}-{os.getpid()}").touch()

    def call(self, args: Mapping[str, Any], context: ToolContext | None = None) -> ToolResult:
        assert context is not None
        key = context.extras[DEDUPE_KEY_EXTRA]
        self._touch("entered")
        time.sleep(self.options.delay)
        if self.options.go:
            wait_for(Path(self.options.go))
        if self.options.crash == "before":
            os.kill(os.getpid(), signal.SIGKILL)
        fd = os.open(self.options.log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, f"{key} {os.getpid()}\n".encode())
        finally:
            os.close(fd)
        self._touch("applied")
        if self.options.crash == "after":
            os.kill(os.getpid(), signal.SIGKILL)
        if self.options.raise_after:
            raise ConnectionError("the response was lost after the payment was made")
        if self.options.hold_until:
            wait_for(Path(self.options.hold_until))
        return ToolResult(status="ok", data={"payment_id": f"pay_{key[:10]}", "pid": os.getpid()})


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ledger", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--session", default="s-1")
    parser.add_argument("--amount", type=int, default=100)
    parser.add_argument("--ttl", type=float, default=24 * 3600.0)
    parser.add_argument("--lease", type=float, default=60.0)
    parser.add_argument("--wait", type=float, default=0.0)
    parser.add_argument("--busy-timeout", type=float, default=30.0)
    parser.add_argument("--clock-offset", type=float, default=0.0)
    parser.add_argument("--reconcile", action="store_true")
    parser.add_argument("--reconcile-first", action="store_true")
    parser.add_argument("--sweep-first", action="store_true")
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument("--go")
    parser.add_argument("--crash", choices=["before", "after"])
    parser.add_argument("--raise-after", action="store_true")
    parser.add_argument("--signals")
    parser.add_argument("--hold-until")
    parser.add_argument("--start-after")
    parser.add_argument("--barrier")
    parser.add_argument("--parties", type=int, default=2)
    parser.add_argument("--foreign", action="store_true")
    return parser.parse_args()


def run(options: argparse.Namespace) -> dict[str, Any]:
    if options.foreign:  # as if this process ran in another container: its pid means nothing to the others
        from toolkit.runtime import holders

        holders.PID_NAMESPACE = "pid:[another-container]"
    offset = options.clock_offset
    ledger = Ledger(options.ledger, clock=lambda: time.time() + offset, busy_timeout=options.busy_timeout)
    out: dict[str, Any] = {}
    if options.reconcile_first:
        report = reconcile_pending(ledger, "pay", lookup(Path(options.log)))
        out["reconciled"] = {name: len(getattr(report, name, ())) for name in ("completed", "released", "late")}
    if options.sweep_first:
        out["swept"] = ledger.sweep().expired_records
    tool = idempotent(
        Pay(options),
        ledger=ledger,
        ttl=options.ttl,
        lease=options.lease,
        wait=options.wait,
        reconcile=lookup(Path(options.log)) if options.reconcile else None,
    )
    if options.start_after:
        wait_for(Path(options.start_after))
    if options.barrier:
        (Path(options.barrier) / f"ready-{os.getpid()}").touch()
        wait_for(Path(options.barrier), "ready-*", options.parties)
    result = tool.call({"amount": options.amount}, ToolContext(session_id=options.session))
    return {**out, **result.to_dict()}


def main() -> None:
    options = parse()
    try:
        out = run(options)
    except Exception as error:  # the tests assert on its type and slug
        out = {"raised": type(error).__name__, "slug": getattr(error, "slug", None), "message": str(error)}
    out["pid"] = os.getpid()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
