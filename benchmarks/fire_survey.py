"""Do the fixtures behave, on every tool of the shared corpus? ``tk.fire`` on each tool of each spec (every
operation described, as the other corpus benchmarks build them), counting fixtures whose verdict differs from
the one the contract predicts (``expected != actual``), and each fixture's verdict against the JSON Schema
2020-12 oracle given the tool's ``args_schema`` as written (``jsonschema``, formats asserted, ECMA-262
patterns: the tests' oracle)::

    PYTHONPATH=. .venv/bin/python benchmarks/fire_survey.py [--only SPEC ...] [--show N]

Oracle disagreements are counted by fixture family: the families toolkit answers differently on purpose (the
documented list in ``tests/oracle_classes.py``: case-insensitive enums, ``null`` for an optional field read as
absent, numbers sent as strings where a string is declared, ...) show there, with examples to read.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))  # the oracle (jsonschema with ECMA-262 patterns) the tests use

from oracle_judges import judge  # noqa: E402
from profile_openapi import described  # noqa: E402  every operation described, as the benchmarks build them

import toolkit as tk  # noqa: E402

CORPUS = HERE.parent.parent / "shared" / "corpus" / "openapi"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="spec file names")
    parser.add_argument("--show", type=int, default=3, help="examples per kind (default 3)")
    args = parser.parse_args()
    if not CORPUS.is_dir():
        print(f"the shared corpus is not at {CORPUS}: nothing to survey")
        return 0
    specs = sorted(p for p in CORPUS.iterdir() if p.suffix in (".json", ".yaml", ".yml"))
    if args.only:
        specs = [p for p in specs if p.name in args.only]
    totals: Counter[str] = Counter()
    by_family: Counter[str] = Counter()
    wrong: list[str] = []
    examples: dict[str, list[str]] = {}
    started = time.perf_counter()
    print(f"{'spec':<34} {'tools':>6} {'fixtures':>9} {'exp!=act':>9} {'oracle!=':>9} {'s':>6}")
    for path in specs:
        began = time.perf_counter()
        try:
            toolset = tk.from_openapi(path, "x", select="all", overrides=described(path))
        except tk.ToolkitError as error:
            print(f"{path.name:<34} refused: {error.slug}")
            continue
        counts: Counter[str] = Counter()
        for tool in toolset:
            report = tk.fire(tool)
            verdict = judge(tool.args_schema, closed=False)
            counts["tools"] += 1
            for row in report.rows:
                counts["fixtures"] += 1
                if not row.passed:
                    counts["wrong"] += 1
                    wrong.append(f"{path.name} {tool.name} {row.id}: expected {row.fixture.expected}, got {row.actual}")
                if not isinstance(row.fixture.args, dict):
                    continue
                oracle = verdict(row.fixture.args)
                mine = "valid" if row.actual in ("accept", "accept_with_notice") else "invalid"
                if oracle != "undecided" and oracle != mine:
                    counts["oracle"] += 1
                    by_family[row.family] += 1
                    shown = examples.setdefault(row.family, [])
                    if len(shown) < args.show:
                        shown.append(f"{path.name} {tool.name} {row.id}: toolkit {mine}, jsonschema {oracle}")
        totals.update(counts)
        seconds = time.perf_counter() - began
        print(
            f"{path.name:<34} {counts['tools']:>6} {counts['fixtures']:>9} {counts['wrong']:>9} "
            f"{counts['oracle']:>9} {seconds:>6.0f}"
        )
    print(
        f"{'total':<34} {totals['tools']:>6} {totals['fixtures']:>9} {totals['wrong']:>9} {totals['oracle']:>9} "
        f"{time.perf_counter() - started:>6.0f}"
    )
    for line in wrong[: args.show * 10]:
        print("expected != actual:", line)
    for family, count in by_family.most_common():
        print(f"oracle disagreements, family {family}: {count}")
        for line in examples[family]:
            print("   ", line)
    return 1 if totals["wrong"] else 0


if __name__ == "__main__":
    sys.exit(main())
