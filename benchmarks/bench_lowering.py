"""Benchmark: lowering every operation's ``args_schema`` of large OpenAPI documents, beside ``json.loads``.

For each spec: the time to ``json.loads`` the file (the floor), the time to lower every operation's
``args_schema`` to the gemini dialect (the tools come from ``from_openapi(select="all")``, built once
beforehand and not timed), the ratio of the two, the number of schema nodes emitted and of losses.
The current GitHub description (13 MB, ~1,200 operations; fetched by ``setup_openapi.sh``) is included
when present.
Best of ``--repeat`` runs, in process, after imports::

    .venv/bin/python benchmarks/bench_lowering.py [--repeat 3] [spec.json ...]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import toolkit as tk
from toolkit._lowering import lower

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "openapi"
DEFAULT = ["github-3.0.json", "stripe.json", "discord-3.1.json", "openai-3.1.json", "kubernetes-swagger2.json"]


def _best(repeat: int, fn: Any) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def _count(node: Any) -> int:
    """Schema nodes in a lowered schema."""
    if not isinstance(node, dict):
        return 0
    total = 1 + sum(_count(sub) for sub in node.get("properties", {}).values())
    total += _count(node.get("items")) + sum(_count(branch) for branch in node.get("anyOf", ()))
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    github = Path(__file__).resolve().parent / ".cache" / "github-current" / "api.github.com.json"
    default = [str(CORPUS / name) for name in DEFAULT] + ([str(github)] if github.is_file() else [])
    parser.add_argument("specs", nargs="*", default=default)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(
        f"{'spec':28} {'MB':>6} {'ops':>5} {'json.loads':>11} {'lower all':>10} {'ratio':>6} {'nodes':>8} {'losses':>7}"
    )
    for spec in map(Path, args.specs):
        data = spec.read_bytes()
        schemas = [tool.contract.args_schema for tool in tk.from_openapi(spec, "bench", select="all").tools]
        floor = _best(args.repeat, lambda data=data: json.loads(data))
        spent = _best(args.repeat, lambda schemas=schemas: [lower(s) for s in schemas])
        lowered = [lower(s) for s in schemas]
        nodes = sum(_count(item.schema) for item in lowered)
        losses = sum(len(item.losses) for item in lowered)
        print(
            f"{spec.name:28} {len(data) / 1e6:6.1f} {len(schemas):5d} {floor:10.3f}s {spent:9.3f}s "
            f"{spent / floor:5.1f}x {nodes:8d} {losses:7d}"
        )


if __name__ == "__main__":
    main()
