"""Where ``from_openapi(select="all")`` spends its time, stage by stage, on the large corpus specs.

For each spec of 1 MB or more in the shared corpus (and GitHub's current description when
``benchmarks/setup_openapi.sh`` has fetched it), in process after imports, the best of ``--rounds`` builds:
the parse of the file (``json.loads``; PyYAML's C safe loader for YAML) for scale, the whole build, and the
time inside each stage of the pipeline, in the order a tool goes through them:

* ``load``     - read and parse the document (orjson), build the resolver;
* ``select``   - choose and name the operations;
* ``flatten``  - parameters and body into one ``args_schema`` (normalised, ``$defs`` closure, credentials);
* ``lower``    - the ``gemini`` lowering at full reference depth;
* ``enforce``  - the check that the validator can enforce every keyword;
* ``fit``      - the declaration budget: measure, and for a declaration over it, the reductions;
* ``lint``     - every lint rule;
* ``rest``     - everything else (the contract and tool records, security, servers, the collector).

``--floor`` adds two columns, each a ratio to the parse, for what any pure-Python build of these tools must at
least do: ``pass``, one Python pass that copies the parsed document (toolkit's own ``json_copy``, a dict or list
comprehension per node: the cheapest walk that touches every node and builds something), and ``outputs``, the
same copy of what the build returns (every tool's ``parameters`` and ``args_schema``, each node shared between
tools copied once, as the build shares it). The build's own ratio, read against them, says how many such passes
its stages add up to.

``lower`` and ``fit`` are also split between the tools that fit their budget as lowered and those the budget
reduced (``over``: their count, then the milliseconds of both stages for them): the full lowering of a tool
that is then reduced is built only to say how large it was and which losses were the budget's.

The stages are timed by wrapping the functions ``from_openapi`` calls (a few microseconds per call), so the
whole build here is a little slower than in ``bench_openapi.py``; the shares are what this is for.

    .venv/bin/python benchmarks/profile_openapi.py [--rounds 3] [--described] [--floor] [--only stripe ...]
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

import toolkit._lints as lints
import toolkit._openapi as openapi
import toolkit._tool as tool_module
from toolkit._canonical import json_copy

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent.parent / "shared" / "corpus" / "openapi"
GITHUB = HERE / ".cache" / "github-current" / "api.github.com.json"
LARGE = 1_000_000
STAGES: dict[str, tuple[Any, str]] = {
    "load": (openapi, "load_document"),
    "select": (openapi, "select_operations"),
    "name": (openapi, "_name_all"),
    "flatten": (openapi, "flatten"),
    "lower": (tool_module, "lower"),
    "enforce": (tool_module, "check_enforceable"),
    "fit": (tool_module, "fit"),
    "lint": (lints, "lint"),
}
"""Stage name → (module, the name ``from_openapi`` calls it by there; ``build_tool`` imports the lints' ``lint``
where it calls it, so it is wrapped in its own module)."""


def specs() -> dict[str, Path]:
    found = {"github (current)": GITHUB} if GITHUB.exists() else {}
    if CORPUS.is_dir():
        for path in sorted(CORPUS.iterdir()):
            if path.suffix in (".json", ".yaml", ".yml") and path.stat().st_size >= LARGE:
                found[path.stem] = path
    return found


def parse(path: Path) -> Any:
    with open(path, "rb") as f:
        if path.suffix in (".yaml", ".yml"):
            return yaml.load(f, Loader=yaml.CSafeLoader)
        return json.loads(f.read())


class Timers:
    """Time spent in each stage, with ``lower`` and ``fit`` also kept per tool (by its ``args_schema``)."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = defaultdict(float)
        self.per_tool: dict[int, dict[str, Any]] = {}

    def install(self) -> None:
        for stage, (module, name) in STAGES.items():
            setattr(module, name, self._timed(stage, getattr(module, name)))

    def _timed(self, stage: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                result = function(*args, **kwargs)
            finally:
                took = time.perf_counter() - start
                self.spent[stage] += took
            if stage == "lower":
                self.per_tool[id(args[0])] = {"schema": args[0], "lower": took}
            elif stage == "fit":
                entry = self.per_tool.get(id(args[0].args_schema))
                if entry is not None and entry["schema"] is args[0].args_schema:
                    entry["fit"], entry["over"] = took, result[1].reduced
            return result

        return timed

    def reset(self) -> None:
        self.spent.clear()
        self.per_tool.clear()


def described(path: Path) -> dict[Any, Any]:
    """Overrides describing every operation (documents without descriptions are then built in full)."""
    doc = parse(path)
    paths = doc.get("paths") if isinstance(doc, dict) else None
    return {
        op.get("operationId"): {"description": "Described for the benchmark."}
        for item in (paths or {}).values()
        if isinstance(item, dict)
        for op in item.values()
        if isinstance(op, dict) and op.get("operationId")
    }


def shared_copy(value: Any, seen: dict[int, Any]) -> Any:
    """``value`` (JSON data) copied node by node in Python, as :func:`toolkit._canonical.json_copy` copies it,
    except that a node met again (the same object) is copied once and its copy shared, as the original shares
    it (``seen``: each copied node's copy, by the original's id)."""
    kind = value.__class__
    if kind is not dict and kind is not list:
        return value
    done = seen.get(id(value))
    if done is None:
        if kind is dict:
            done = {key: shared_copy(item, seen) for key, item in value.items()}
        else:
            done = [shared_copy(item, seen) for item in value]
        seen[id(value)] = done
    return done


def floor(doc: Any, toolset: Any, rounds: int) -> tuple[float, float]:
    """The best of ``rounds`` of one Python copy of the parsed document (``json_copy``) and of the build's
    outputs (:func:`shared_copy`), in seconds."""
    outputs = [[tool.parameters, tool.contract.args_schema] for tool in toolset.tools]
    passes, copies = [], []
    for _ in range(rounds):
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            json_copy(doc)
            passes.append(time.perf_counter() - start)
            start = time.perf_counter()
            shared_copy(outputs, {})
            copies.append(time.perf_counter() - start)
        finally:
            gc.enable()
    return min(passes), min(copies)


def profile(path: Path, rounds: int, overrides: Any, timers: Timers, with_floor: bool = False) -> dict[str, Any]:
    best: dict[str, Any] | None = None
    floors: tuple[float, float] | None = None
    loads = []
    for _ in range(rounds):
        for _ in range(3):
            start = time.perf_counter()
            doc = parse(path)
            loads.append(time.perf_counter() - start)
        gc.collect()
        timers.reset()
        start = time.perf_counter()
        toolset = openapi.from_openapi(path, "bench", select="all", overrides=overrides)
        total = time.perf_counter() - start
        if best is None or total < best["total"]:
            over = [t for t in timers.per_tool.values() if t.get("over")]
            best = {
                "total": total,
                "tools": len(toolset.tools),
                "spent": dict(timers.spent),
                "over": len(over),
                "over_ms": sum(t["lower"] + t["fit"] for t in over),
            }
        if with_floor and floors is None:
            floors = floor(doc, toolset, rounds)
        del toolset
    assert best is not None
    best["parse"] = min(loads)
    if floors is not None:
        best["pass"], best["outputs"] = floors
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="builds per spec (the fastest is shown)")
    parser.add_argument("--described", action="store_true", help="every operation described through overrides")
    parser.add_argument("--floor", action="store_true", help="add one Python pass over the document and outputs")
    parser.add_argument("--only", nargs="*", default=None, help="spec names to run (default: every one)")
    args = parser.parse_args()
    found = specs()
    if not found:
        sys.exit(f"no corpus at {CORPUS} (and no GitHub spec: run benchmarks/setup_openapi.sh)")
    timers = Timers()
    timers.install()
    openapi.from_openapi({"get": {"operationId": "warm", "description": "Warm."}}, "warm")
    names = list(STAGES)
    print(
        "wall ms, in process after imports, best of",
        args.rounds,
        "(select='all'" + (", every operation described)" if args.described else ")"),
    )
    print(
        f"{'spec':22} {'parse':>6} {'build':>6} {'ratio':>6} {'tools':>5} | "
        + " ".join(f"{n:>7}" for n in [*names, "rest"])
        + f" | {'over':>4} {'ms':>6}"
        + (f" | {'pass':>5} {'outputs':>7}" if args.floor else "")
    )
    for label, path in found.items():
        if args.only and label not in args.only:
            continue
        row = profile(path, args.rounds, described(path) if args.described else None, timers, args.floor)
        spent = row["spent"]
        rest = row["total"] - sum(spent.values())
        stages = " ".join(f"{spent.get(n, 0) * 1000:7.1f}" for n in names) + f" {rest * 1000:7.1f}"
        print(
            f"{label:22} {row['parse'] * 1000:6.1f} {row['total'] * 1000:6.0f} {row['total'] / row['parse']:5.1f}x "
            f"{row['tools']:5} | {stages} | {row['over']:4} {row['over_ms'] * 1000:6.1f}"
            + (f" | {row['pass'] / row['parse']:4.2f}x {row['outputs'] / row['parse']:6.2f}x" if args.floor else ""),
            flush=True,
        )


if __name__ == "__main__":
    main()
