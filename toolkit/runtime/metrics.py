"""Per-tool observability: invocations, outcomes by status, latency p50/p95.

:class:`Metrics` is a thread-safe accumulator the executor feeds after every call. Read it as plain data
(:meth:`Metrics.snapshot`, a dict keyed by tool name) or as a pandas DataFrame (:meth:`Metrics.to_frame`;
pandas is imported only then).
"""

from __future__ import annotations

import math
import threading
from collections import Counter, defaultdict
from typing import TYPE_CHECKING, Any

from toolkit._envelope import STATUSES

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Metrics", "percentile"]


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100) of ``values``; ``nan`` for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


class Metrics:
    """Counts and latencies per tool name."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._statuses: dict[str, Counter[str]] = defaultdict(Counter)
        self._latencies: dict[str, list[float]] = defaultdict(list)

    def record(self, tool: str, status: str, seconds: float) -> None:
        """Count one finished call of ``tool`` with its envelope status and wall-clock duration."""
        with self._lock:
            self._statuses[tool][status] += 1
            self._latencies[tool].append(seconds)

    def snapshot(self) -> dict[str, dict[str, Any]]:
        """``{tool: {invocations, errors, by_status: {status: n}, p50_ms, p95_ms}}``, tools sorted by name.

        ``errors`` counts every call whose status was not ``ok``.
        """
        with self._lock:
            statuses = {tool: Counter(counts) for tool, counts in self._statuses.items()}
            latencies = {tool: list(values) for tool, values in self._latencies.items()}
        out: dict[str, dict[str, Any]] = {}
        for tool in sorted(statuses):
            counts = statuses[tool]
            invocations = sum(counts.values())
            out[tool] = {
                "invocations": invocations,
                "errors": invocations - counts["ok"],
                "by_status": {status: counts[status] for status in STATUSES if counts[status]},
                "p50_ms": round(percentile(latencies[tool], 50) * 1000, 3),
                "p95_ms": round(percentile(latencies[tool], 95) * 1000, 3),
            }
        return out

    def to_frame(self, *, latency: bool = True) -> pd.DataFrame:
        """One row per tool: invocations, errors, one column per status seen, and (unless ``latency=False``,
        for stable notebook output) p50/p95 in milliseconds."""
        # pandas loads only when a DataFrame is asked for.
        import pandas as pd

        snapshot = self.snapshot()
        seen = [s for s in STATUSES if any(s in row["by_status"] for row in snapshot.values())]
        rows = []
        for tool, row in snapshot.items():
            flat: dict[str, Any] = {"tool": tool, "invocations": row["invocations"], "errors": row["errors"]}
            flat.update({status: row["by_status"].get(status, 0) for status in seen})
            if latency:
                flat.update(p50_ms=row["p50_ms"], p95_ms=row["p95_ms"])
            rows.append(flat)
        columns = ["tool", "invocations", "errors", *seen] + (["p50_ms", "p95_ms"] if latency else [])
        return pd.DataFrame(rows, columns=columns).set_index("tool")
