"""Can every tool be called? For every tool of every shared-corpus spec, the baseline call (``valid.baseline``, the
valid call ``tk.fire`` starts from) must pass the tool's own validator and the JSON Schema 2020-12 oracle
(``jsonschema`` on ``args_schema`` as written, formats asserted, patterns read as ECMA-262)::

    PYTHONPATH=. .venv/bin/python benchmarks/satisfiability_survey.py [--only SPEC ...] [--show N]

Each spec is built with every operation described (as the other corpus benchmarks build it). Prints, per spec
and in total: tools, tools repaired (a schema no value could satisfy, read in its unambiguous meaning with a
recorded loss), operations refused ``unsatisfiable_schema``, and baseline failures: ``closure`` (toolkit
refuses a key that an ``allOf``/``$ref`` sibling declares at the same place while the oracle accepts the call:
the closed-object policy, fixed apart) and ``other`` (everything else, listed). ``tests/openapi/
test_satisfiable_corpus.py`` asserts there is no failure of either kind.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))  # the oracle (jsonschema with ECMA-262 patterns) the tests use

from oracle_judges import judge  # noqa: E402
from profile_openapi import described  # noqa: E402  every operation described, as the benchmarks build them

import toolkit as tk  # noqa: E402
from toolkit._schema import REPAIRED  # noqa: E402

CORPUS = HERE.parent.parent / "shared" / "corpus" / "openapi"
CLOSURE_CODES = frozenset({"unknown_property"})
"""The error code of the closed-object policy: a baseline refused with it, and accepted by the oracle, is a
closure failure (``allOf`` siblings read apart), not a satisfiability one."""


@dataclass
class Failure:
    spec: str
    tool: str
    kind: str
    detail: str


@dataclass
class Counts:
    tools: int = 0
    repaired: int = 0
    refused: int = 0
    failures: list[Failure] = field(default_factory=list)

    def add(self, other: Counts) -> None:
        self.tools += other.tools
        self.repaired += other.repaired
        self.refused += other.refused
        self.failures.extend(other.failures)

    def of(self, kind: str) -> int:
        return sum(1 for f in self.failures if f.kind == kind)


def specs(only: list[str] | None = None) -> Iterator[Path]:
    for path in sorted(CORPUS.iterdir()):
        if path.suffix in (".json", ".yaml", ".yml") and (not only or path.stem in only):
            yield path


def baseline(tool: tk.Tool) -> dict[str, Any] | None:
    """The valid call fire starts from, or ``None`` when the fixtures could make none."""
    for fixture in tk.fixtures(tool, nested_cap=0):
        if fixture.id == "valid.baseline":
            return dict(fixture.args)
    return None


def check_tool(spec: str, tool: tk.Tool) -> Failure | None:
    """``None`` when the baseline passes both judges; otherwise the failure and its kind."""
    args = baseline(tool)
    if args is None:
        return Failure(spec, tool.name, "other", "no baseline call could be made")
    result = tool.validate(args)
    oracle = judge(tool.args_schema, closed=False)(args)
    if result.status == "ok" and oracle == "valid":
        return None
    codes = {e.code for e in result.errors}
    detail = f"toolkit {result.status} {sorted(codes)}; jsonschema {oracle}; " + "; ".join(
        f"{e.field}: {e.code} {e.problem}" for e in result.errors[:3]
    )
    closure = oracle == "valid" and bool(codes & CLOSURE_CODES)
    return Failure(spec, tool.name, "closure" if closure else "other", detail)


def survey(path: Path) -> Counts:
    counts = Counts()
    try:
        toolset = tk.from_openapi(path, "survey", select="all", overrides=described(path))
    except tk.ToolkitError:  # a document refused as a whole has no tools to call
        return counts
    counts.refused = sum(1 for r in toolset.rejected if r.slug == "unsatisfiable_schema")
    for tool in toolset.tools:
        counts.tools += 1
        counts.repaired += any(loss.reason.startswith(REPAIRED) for loss in tool.losses)
        failure = check_tool(path.stem, tool)
        if failure is not None:
            counts.failures.append(failure)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", nargs="*", default=None, help="spec names (file stems) to survey")
    parser.add_argument("--show", type=int, default=5, help="failures listed per kind")
    args = parser.parse_args()
    if not CORPUS.is_dir():
        sys.exit(f"no corpus at {CORPUS}: the shared corpus is needed")
    total = Counts()
    started = time.perf_counter()
    print(f"{'spec':34} {'tools':>6} {'repaired':>8} {'refused':>7} {'closure':>7} {'other':>5}")
    for path in specs(args.only):
        counts = survey(path)
        total.add(counts)
        print(f"{path.stem:34} {counts.tools:>6} {counts.repaired:>8} {counts.refused:>7} "
              f"{counts.of('closure'):>7} {counts.of('other'):>5}", flush=True)  # fmt: skip
    print(f"{'total':34} {total.tools:>6} {total.repaired:>8} {total.refused:>7} "
          f"{total.of('closure'):>7} {total.of('other'):>5}  ({time.perf_counter() - started:.0f} s)")  # fmt: skip
    for kind in ("closure", "other"):
        listed = [f for f in total.failures if f.kind == kind]
        for failure in listed[: args.show]:
            print(f"  {kind}: {failure.spec} {failure.tool}: {failure.detail}")
        if len(listed) > args.show:
            print(f"  {kind}: ... {len(listed) - args.show} more")


if __name__ == "__main__":
    main()
