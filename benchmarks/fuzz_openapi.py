"""Fuzz ``from_openapi`` with seeded mutations of the real corpus; print outcomes and the slowest cases.

Every case must give a Toolset (whose refusals carry real slugs, never ``internal_error``) or raise a
``ToolkitError``; anything else is a crash, and a case past ``--alarm`` seconds is a hang. The cases come
from ``tests/openapi_mutations.py`` (the CI test draws a smaller sample of the same stream)::

    .venv/bin/python benchmarks/fuzz_openapi.py [--cases 10000] [--seed 0] [--alarm 20] [--memory-gib 4]
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.setrecursionlimit(1000)  # the interpreter's default, whatever the caller set

from openapi_mutations import CORPUS, Outcome, bases, cases, run_case  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=10_000, help="how many mutated cases to build")
    parser.add_argument("--seed", type=int, default=0, help="the stream of cases (each a function of seed, index)")
    parser.add_argument("--alarm", type=float, default=20.0, help="seconds before a case counts as a hang")
    parser.add_argument("--slowest", type=int, default=10, help="how many of the slowest cases to list")
    parser.add_argument("--show", type=int, default=3, help="examples shown per crash class")
    parser.add_argument(
        "--memory-gib", type=float, default=4.0, help="address-space cap (MemoryError, not the OOM killer)"
    )
    parser.add_argument("--progress", type=int, default=0, help="report on stderr every N cases (0: never)")
    parser.add_argument("--skip", nargs="*", default=[], help="mutations whose cases are left out (counted)")
    args = parser.parse_args()
    cap = int(args.memory_gib * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    pool = bases()
    if not pool:
        sys.exit(f"no OpenAPI corpus at {CORPUS} (set TOOLKIT_OPENAPI_CORPUS)")
    print(f"{len(pool)} base documents from {CORPUS}; {args.cases} cases, seed {args.seed}")
    outcomes: list[Outcome] = []
    skipped = 0
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for index, case in enumerate(cases(args.cases, args.seed, pool)):
            if set(case.mutations) & set(args.skip):
                skipped += 1
                continue
            outcomes.append(run_case(case, Path(tmp), alarm_s=args.alarm))
            if args.progress and (index + 1) % args.progress == 0:
                failed = sum(o.failed for o in outcomes)
                print(f"  {index + 1} cases, {failed} failed, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    wall = time.perf_counter() - start
    verdicts = Counter(o.verdict for o in outcomes)
    print(f"\n{wall:.1f} s in all; verdicts: " + ", ".join(f"{k} {v}" for k, v in verdicts.most_common()))
    if skipped:
        print(f"{skipped} cases left out (--skip {' '.join(args.skip)})")
    _table("raised ToolkitError, by slug", Counter(o.detail for o in outcomes if o.verdict == "spec_error"))
    refusals = Counter(s for o in outcomes if o.verdict == "toolset" for s in o.detail.split(",") if s != "-")
    _table("toolsets with refusals, by slug (cases)", refusals)
    failed = [o for o in outcomes if o.failed]
    _table("FAILURES, by class", Counter(f"{o.verdict}: {o.detail}" for o in failed))
    shown: Counter[str] = Counter()
    for outcome in failed:
        key = f"{outcome.verdict}: {outcome.detail}"
        shown[key] += 1
        if shown[key] <= args.show:
            print(f"  {outcome.label}\n      {outcome.message[:200]!r}")
    print(f"\nslowest {args.slowest}:")
    for outcome in sorted(outcomes, key=lambda o: -o.seconds)[: args.slowest]:
        print(f"  {outcome.seconds:7.3f} s  {outcome.verdict:14} {outcome.detail[:40]:40}  {outcome.label[:90]}")
    return 1 if failed else 0


def _table(title: str, counts: Counter[str]) -> None:
    print(f"\n{title}:" + ("" if counts else " none"))
    for key, count in counts.most_common():
        print(f"  {count:6}  {key}")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
