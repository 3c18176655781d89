"""Strategy B's start-up claim, measured: importing the generated package vs parsing the spec at start-up.

Run: ``.venv/bin/python benchmarks/bench_generated_tools.py [--repeat N]``

Side by side, each in a fresh interpreter (median of N runs, milliseconds):

* **python**: an empty interpreter (the floor);
* **generated**: ``import orders_tools`` (the committed package: JSON resources, no spec parsing);
* **from_openapi**: ``toolkit.from_openapi("specs/orders.yaml")`` (load, resolve, flatten, lower, lint).

Then, in this process, the per-call cost of the HTTP runtime before any network (validate + confirm + bind:
``HttpTool.prepare``) next to validation alone (``Tool.validate``).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
GENERATED = REPO / "golden" / "generated"

SNIPPETS = {
    "python": "pass",
    "generated": "import orders_tools",
    "from_openapi": "import toolkit; toolkit.from_openapi('specs/orders.yaml', namespace='orders')",
}


def _startup(code: str, repeat: int) -> float:
    timings = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], cwd=REPO, env={"PYTHONPATH": str(GENERATED)}, check=True)
        timings.append(time.perf_counter() - start)
    return statistics.median(timings) * 1000


def _per_call(fn: Callable[[], object], repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    results = {name: _startup(code, args.repeat) for name, code in SNIPPETS.items()}
    floor = results["python"]
    print(f"start-up, fresh interpreter, median of {args.repeat} (ms)")
    for name, ms in results.items():
        print(f"  {name:<14} {ms:8.1f}   minus floor {ms - floor:8.1f}")
    ratio = (results["from_openapi"] - floor) / max(results["generated"] - floor, 1e-9)
    print(f"  from_openapi / generated (above the floor): {ratio:.1f}x")

    sys.path.insert(0, str(GENERATED))
    import orders_tools  # type: ignore[import-not-found]

    tool = orders_tools.orders_refund_create.build()
    good = {"orderId": "ord_abcdef123456", "amount_minor": 500, "reason": "duplicate", "idempotency_key": "k-123456"}
    calls = args.repeat * 300
    tool.prepare(good)  # warm up: the validator compiles once per tool
    validate = _per_call(lambda: tool.tool.validate(good), calls)
    prepare = _per_call(lambda: tool.prepare(good), calls)
    print(f"per call, before any network, mean of {calls} (µs)")
    print(f"  Tool.validate    {validate:8.1f}")
    print(f"  HttpTool.prepare {prepare:8.1f}   ({prepare / validate:.2f}x validate: confirmation + binding)")


if __name__ == "__main__":
    main()
