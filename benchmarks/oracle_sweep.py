"""Differential sweep: toolkit's validator against the JSON Schema 2020-12 oracle, by disagreement class.

    .venv/bin/python benchmarks/oracle_sweep.py [--cases 60000] [--seed 1] [--examples 2] [--open | --written]

Draws seeded (schema, instance) pairs (tests/oracle_gen.py), judges each with toolkit and the oracle,
minimises every disagreement and names its class (tests/oracle_classes.py: DELIBERATE, OPEN, or
unclassified). Prints the counts per class, the totals per kind, the time taken and a few minimal examples.
By default toolkit runs with its default policy (``unlisted_properties="refuse"``) and the oracle reads each
schema closed the same way (``oracle_gen.close_objects``); ``--open`` runs both on the schema as written
(``unlisted_properties="allow"``); ``--written`` gives the oracle the ``args_schema`` toolkit's tool states,
with the closure the policy adds written in (``oracle_gen.WRITTEN``). ``--closed`` is accepted and is the default.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import oracle_gen
from oracle_classes import kind_of, sweep
from oracle_gen import dumps


def _cut(text: str, width: int = 150) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=60_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--examples", type=int, default=2, help="minimal examples shown per class")
    parser.add_argument("--open", action="store_true", help="leave objects open (policy unlisted_properties=allow)")
    parser.add_argument("--closed", action="store_true", help="close objects as the default policy does (default)")
    parser.add_argument("--written", action="store_true", help="the oracle reads the tool's args_schema as written")
    args = parser.parse_args()
    oracle_gen.CLOSE_OBJECTS = not args.open
    oracle_gen.WRITTEN = args.written and not args.open

    started = time.perf_counter()
    result = sweep(args.seed, args.cases, keep=max(args.examples, 1))
    elapsed = time.perf_counter() - started

    judged = result.cases - result.undecided
    mode = "objects open (--open)" if args.open else "objects closed as the default policy reads them"
    mode += ", the oracle given args_schema as written (--written)" if oracle_gen.WRITTEN else ""
    rate = f"{1e6 * elapsed / result.cases:.0f} µs/case"
    print(f"{result.cases} cases (seed {args.seed}, {mode}) in {elapsed:.1f} s ({rate})")
    print(f"  judged by the oracle {judged}, undecided {result.undecided}; valid {result.valid}, "
          f"agreed {result.agreed}, disagreed {judged - result.agreed}")  # fmt: skip
    totals: dict[str, int] = {"deliberate": 0, "open": 0, "unclassified": 0}
    print(f"\n{'count':>6}  {'kind':<12}  class")
    for name, count in sorted(result.counts.items(), key=lambda item: (kind_of(item[0]), -item[1], item[0])):
        totals[kind_of(name)] += count
        print(f"{count:>6}  {kind_of(name):<12}  {name}")
    print("\n" + ", ".join(f"{kind} {count}" for kind, count in totals.items()))
    print("\nminimal examples (schema | instance -> toolkit / oracle by judge / jsonschema-rs):")
    for name in sorted(result.examples, key=lambda n: (kind_of(n), n)):
        print(f"  {name}")
        for found in result.examples[name][: args.examples]:
            verdicts = f"{found.toolkit.verdict} / {found.oracle.verdict} by {found.oracle.by} / {found.rs}"
            print(f"    {_cut(dumps(found.schema))} | {_cut(repr(found.instance), 60)} -> {verdicts}")


if __name__ == "__main__":
    main()
