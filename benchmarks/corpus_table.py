"""Per-spec table of the OpenAPI corpus: every operation (select="all") → tools or refusals, with timings.

    .venv/bin/python benchmarks/corpus_table.py [--losses] [--declarations]

Columns: operations in the document, tools built, credential parameters taken out of the arguments, wall time
of ``from_openapi`` (in process, after imports), refusals by slug, with ``--losses`` the five most frequent loss
keywords, and with ``--declarations`` what the declaration budget (8 KiB per tool by default) did: tools reduced
to fit, tools over it with every reduction (built whole under the default budget, lint TK504), the
declarations' total before and after the reductions, how much was cut, and the largest declaration sent.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import toolkit as tk
from toolkit._openapi import summarise

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "openapi"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--losses", action="store_true", help="also show the most frequent loss keywords")
    parser.add_argument("--declarations", action="store_true", help="also show what the declaration budget cut")
    args = parser.parse_args()
    tk.from_openapi({"get": {"operationId": "warm", "description": "Warm the imports."}}, "warm", select="all")
    total_time, total_ops, total_tools = 0.0, 0, 0
    cut = {"reduced": 0, "over": 0, "before": 0, "after": 0}
    print(f"{'spec':36} {'ops':>5} {'tools':>5} {'creds':>5} {'time':>7}  refusals by slug")
    for spec in sorted(CORPUS.glob("*")):
        if spec.suffix not in (".json", ".yaml"):
            continue
        start = time.perf_counter()
        toolset = tk.from_openapi(spec, "corpus", select="all")
        elapsed = time.perf_counter() - start
        summary = summarise(toolset)
        total_time, total_ops, total_tools = (
            total_time + elapsed,
            total_ops + summary["operations"],
            total_tools + len(toolset),
        )
        refusals = ", ".join(f"{slug} {n}" for slug, n in summary["refusals"].items()) or "-"
        creds = sum(summary["credentials"].values())  # parameters taken out of the arguments as credentials
        print(f"{spec.name:36} {summary['operations']:5} {summary['tools']:5} {creds:5} {elapsed:6.2f}s  {refusals}")
        if args.losses:
            top = sorted(summary["losses"].items(), key=lambda kv: -kv[1])[:5]
            print(f"{'':36} losses: " + ", ".join(f"{k} {n}" for k, n in top))
        if args.declarations:
            sizes = summary["declarations"]
            largest = max((row["bytes"] for row in sizes["tools"].values()), default=0)
            print(f"{'':36} declarations: {_budget_line(sizes, sizes['over'])}, largest {largest:,} B")
            for key in ("reduced", "over"):
                cut[key] += sizes[key]
            cut["before"], cut["after"] = cut["before"] + sizes["before"], cut["after"] + sizes["bytes"]
    print(f"{'total':36} {total_ops:5} {total_tools:5} {'':5} {total_time:6.2f}s")
    if args.declarations:
        totals = {"before": cut["before"], "bytes": cut["after"], "reduced": cut["reduced"]}
        print(f"{'':36} declarations: {_budget_line(totals, cut['over'])}")


def _budget_line(sizes: dict[str, int], over: int) -> str:
    before, after = sizes["before"], sizes["bytes"]
    share = f" ({100 * (before - after) / before:.1f}%)" if before else ""
    return f"{sizes['reduced']} reduced, {over} over, {before:,} B -> {after:,} B, {before - after:,} B cut{share}"


if __name__ == "__main__":
    main()
