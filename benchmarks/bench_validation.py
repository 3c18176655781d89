"""Strict validation of one typical 5-parameter call, side by side, and the fixture battery on real APIs.

    .venv/bin/python benchmarks/bench_validation.py            # all of it
    .venv/bin/python benchmarks/bench_validation.py --quick    # fewer rounds

Part 1 times one valid and one invalid call through: the toolkit validator (which also builds the cleaned
arguments, notices and a ToolResult), python-jsonschema (Draft202012Validator + FormatChecker, compiled
once), jsonschema-rs (``validator_for(..., validate_formats=True)``) and a strict pydantic TypeAdapter. Each
figure is the best of several rounds, in microseconds per call, with the ratio to jsonschema-rs.

Part 2 fires the whole generated fixture battery at every tool of the Stripe spec (``select="all"``), and at
every other spec of the corpus for scale, and reports the wall time.
"""

from __future__ import annotations

import argparse
import sys
import time
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

import toolkit as tk
from toolkit._checks import Run
from toolkit._validation import compiled, validate

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "openapi"
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1, "description": "Free-text search."},
        "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
        "state": {"type": "string", "enum": ["open", "closed", "all"]},
        "labels": {"type": "array", "items": {"type": "string"}, "maxItems": 10},
        "updated_since": {"type": "string", "format": "date"},
    },
    "required": ["query"],
    "additionalProperties": False,
}
VALID = {"query": "login timeout", "limit": 10, "state": "open", "labels": ["bug", "p1"], "updated_since": "2026-08-07"}
INVALID = {"query": "", "limit": "10", "state": "OPEN", "labels": ["bug"], "updated_since": "next Tuesday", "x": 1}


def best_us(fn: Callable[[], Any], number: int, rounds: int) -> float:
    return min(timeit.repeat(fn, number=number, repeat=rounds)) / number * 1e6


def contenders() -> dict[str, Callable[[dict[str, Any]], Any]]:
    out: dict[str, Callable[[dict[str, Any]], Any]] = {}
    tool = tk.Tool(contract=tk.ToolContract(name="search", description="d", args_schema=SCHEMA), parameters=None)
    out["toolkit validate()"] = lambda args: validate(tool, args)
    out["toolkit tool.validate()"] = tool.validate
    check = compiled(tool)

    def bare(args: dict[str, Any]) -> Any:
        run = Run()
        return check(args, None, run), run.errors

    out["toolkit compiled check only"] = bare
    try:
        import jsonschema_rs

        rs = jsonschema_rs.validator_for(SCHEMA, validate_formats=True)
        out["jsonschema-rs iter_errors"] = lambda args: list(rs.iter_errors(args))
        out["jsonschema-rs is_valid"] = rs.is_valid
    except ImportError:
        print("jsonschema-rs not installed (pip install jsonschema-rs): skipped", file=sys.stderr)
    from jsonschema import Draft202012Validator, FormatChecker

    py = Draft202012Validator(SCHEMA, format_checker=FormatChecker())
    out["python-jsonschema iter_errors"] = lambda args: list(py.iter_errors(args))
    out["pydantic TypeAdapter strict"] = pydantic_contender()
    return out


def pydantic_contender() -> Callable[[dict[str, Any]], Any]:
    from typing import Annotated, Literal

    from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

    class Search(BaseModel):
        model_config = ConfigDict(strict=True, extra="forbid")
        query: Annotated[str, Field(min_length=1)]
        limit: Annotated[int, Field(ge=1, le=100)] = 20
        state: Literal["open", "closed", "all"] | None = None
        labels: Annotated[list[str], Field(max_length=10)] | None = None
        # strict Python mode refuses the text "2026-08-07" for a date, so the format is a pattern here
        updated_since: Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$")] | None = None

    adapter = TypeAdapter(Search)

    def run(args: dict[str, Any]) -> Any:
        try:
            return adapter.validate_python(args, strict=True)
        except ValidationError as exc:
            return exc.errors()

    return run


def part_one(number: int, rounds: int) -> None:
    print(f"Part 1: one typical 5-parameter call, best of {rounds} x {number} (µs per call)\n")
    found = contenders()
    rows = [(name, best_us(lambda f=fn: f(VALID), number, rounds), best_us(lambda f=fn: f(INVALID), number, rounds))
            for name, fn in found.items()]  # fmt: skip
    base = {n: (v, i) for n, v, i in rows}.get("jsonschema-rs iter_errors")
    print(f"{'validator':32} {'valid':>9} {'ratio':>7} {'invalid':>9} {'ratio':>7}")
    for name, ok, bad in rows:
        ratio_ok = f"{ok / base[0]:6.1f}x" if base else "    -"
        ratio_bad = f"{bad / base[1]:6.1f}x" if base else "    -"
        print(f"{name:32} {ok:9.2f} {ratio_ok:>7} {bad:9.2f} {ratio_bad:>7}")
    print("\nratios are against jsonschema-rs iter_errors (all errors, like the toolkit validator);")
    print("'compiled check only' is the toolkit validator without parsing and without building the ToolResult\n")


def battery(path: Path, namespace: str) -> tuple[int, int, int, float]:
    toolset = tk.from_openapi(path, namespace, select="all")
    start = time.perf_counter()
    fixtures = failures = 0
    for tool in toolset:
        report = tk.fire(tool)
        fixtures += len(report.rows)
        failures += len(report.failures)
    return len(toolset.tools), fixtures, failures, time.perf_counter() - start


def part_two(everything: bool) -> None:
    print("Part 2: the fixture battery (generate + fire) over every tool of a spec, select='all'\n")
    if not CORPUS.is_dir():
        print(f"corpus not found at {CORPUS}: skipped")
        return
    names = ["github-3.0.json"] if not everything else sorted(p.name for p in CORPUS.iterdir())
    specs = [
        CORPUS / "stripe.json",
        *[CORPUS / n for n in names if n.endswith((".json", ".yaml")) and n != "stripe.json"],
    ]
    print(f"{'spec':36} {'tools':>6} {'fixtures':>9} {'failed':>7} {'seconds':>8}")
    total = [0, 0, 0, 0.0]
    for spec in specs:
        tools, fixtures, failures, seconds = battery(spec, "bench")
        total = [total[0] + tools, total[1] + fixtures, total[2] + failures, total[3] + seconds]
        print(f"{spec.name:36} {tools:6} {fixtures:9} {failures:7} {seconds:8.2f}")
    print(f"{'all':36} {total[0]:6} {total[1]:9} {total[2]:7} {total[3]:8.2f}")
    print("\n(from_openapi refuses operations with form bodies, which is every Stripe operation: see .rejected)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds; Stripe and GitHub only")
    options = parser.parse_args()
    part_one(number=2_000 if options.quick else 20_000, rounds=3 if options.quick else 7)
    part_two(everything=not options.quick)


if __name__ == "__main__":
    main()
