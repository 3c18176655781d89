"""Strict validation of one typical 5-parameter call, side by side, and the fixture battery on real APIs.

    .venv/bin/python benchmarks/bench_validation.py            # all of it
    .venv/bin/python benchmarks/bench_validation.py --quick    # fewer rounds
    .venv/bin/python benchmarks/bench_validation.py --battery  # only the fixture batteries (part 2)
    .venv/bin/python benchmarks/bench_validation.py --calls    # only the typical call (part 1)

Part 1 times one valid and one invalid call through: the toolkit validator (which also builds the cleaned
arguments, notices and the ToolResult envelope; with its generated fast path -- which also answers the
invalid call, with the full validator's errors -- and without its fast tier, ``fast=False``), jsonschema-rs
(``validator_for(..., validate_formats=True)``), python-jsonschema (Draft202012Validator + FormatChecker,
compiled once) and a strict pydantic TypeAdapter (its ``errors()`` list when invalid); then the same for the
real ``toolkit.examples.search_issues`` tool, with a call that leaves the defaults to the validator. Each
figure is the best of interleaved rounds (every contender takes its turn in each round, so a slow spell of a
shared machine hits all alike), in microseconds per call, with its ratios to jsonschema-rs and to pydantic;
the goals are checked at the end.

Part 2 fires the whole generated fixture battery at every tool of the Stripe spec (``select="all"``; goal
under 2 s, timed after ``from_openapi``), lists any fixture whose expected verdict the validator disagrees
with and how many fixtures reached nested fields (of how many possible: a tool's nested fixtures are a
bounded sample), then the same over Stripe with its form bodies relabelled JSON (a stress row: 396 tools with the write
bodies), then fires the battery at every other spec of the corpus for scale (``--quick``: GitHub only).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import timeit
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import toolkit as tk
from toolkit._validation import validate
from toolkit.examples import search_issues

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


def interleaved_us(contenders: dict[str, Callable[[], Any]], number: int, rounds: int) -> dict[str, float]:
    """Best µs per call of each contender; the rounds take turns, so a slow spell of a shared machine falls on
    every contender alike and the ratios of one run stay comparable."""
    best = dict.fromkeys(contenders, float("inf"))
    for _ in range(rounds):
        for name, fn in contenders.items():
            best[name] = min(best[name], timeit.timeit(fn, number=number) / number * 1e6)
    return best


Validator = Callable[[dict[str, Any]], Any]


def contenders(schema: dict[str, Any], model: Any) -> dict[str, Validator]:
    out: dict[str, Validator] = {}
    tool = tk.Tool(contract=tk.ToolContract(name="search", description="d", args_schema=schema), parameters=None)
    out["toolkit validate()"] = lambda args: validate(tool, args)
    out["toolkit tool.validate()"] = tool.validate
    out["toolkit without fast tier"] = lambda args: validate(tool, args, fast=False)
    for args in (VALID, INVALID):
        validate(tool, args, fast=False)  # the interpreter alone is made on first use: not timed
    try:
        import jsonschema_rs

        rs = jsonschema_rs.validator_for(schema, validate_formats=True)
        out["jsonschema-rs iter_errors"] = lambda args: list(rs.iter_errors(args))
        out["jsonschema-rs is_valid"] = rs.is_valid
    except ImportError:
        print("jsonschema-rs not installed (pip install jsonschema-rs): skipped", file=sys.stderr)
    from jsonschema import Draft202012Validator, FormatChecker

    py = Draft202012Validator(schema, format_checker=FormatChecker())
    out["python-jsonschema iter_errors"] = lambda args: list(py.iter_errors(args))
    out["pydantic TypeAdapter strict"] = pydantic_contender(model)
    return out


def search_model() -> Any:
    """The benchmark schema as a strict pydantic model (``extra="forbid"``)."""
    from typing import Annotated, Literal

    from pydantic import BaseModel, ConfigDict, Field

    class Search(BaseModel):
        model_config = ConfigDict(strict=True, extra="forbid")
        query: Annotated[str, Field(min_length=1)]
        limit: Annotated[int, Field(ge=1, le=100)] = 20
        state: Literal["open", "closed", "all"] | None = None
        labels: Annotated[list[str], Field(max_length=10)] | None = None
        # strict Python mode refuses the text "2026-08-07" for a date, so the format is a pattern here
        updated_since: Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$")] | None = None

    return Search


def example_model() -> Any:
    """``toolkit.examples.search_issues``'s parameters as a strict pydantic model (``extra="forbid"``)."""
    from typing import Annotated, Literal

    from pydantic import BaseModel, ConfigDict, Field

    class SearchIssues(BaseModel):
        model_config = ConfigDict(strict=True, extra="forbid")
        query: str
        limit: Annotated[int, Field(ge=1, le=100)] = 20
        state: Literal["open", "closed", "all"] = "open"
        labels: list[str] | None = None
        updated_since: Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$")] | None = None

    return SearchIssues


def pydantic_contender(model: Any) -> Validator:
    from pydantic import TypeAdapter, ValidationError

    adapter = TypeAdapter(model)

    def run(args: dict[str, Any]) -> Any:
        try:
            return adapter.validate_python(args, strict=True)
        except ValidationError as exc:
            return exc.errors()

    return run


RS, PYDANTIC, TOOLKIT = "jsonschema-rs iter_errors", "pydantic TypeAdapter strict", "toolkit validate()"


def table(title: str, schema: dict[str, Any], model: Any, calls: dict[str, dict[str, Any]], number: int,
          rounds: int) -> dict[str, dict[str, float]]:  # fmt: skip
    found = contenders(schema, model)
    timed = interleaved_us({f"{name}|{call}": partial(fn, args) for name, fn in found.items()
                            for call, args in calls.items()}, number, rounds)  # fmt: skip
    by_call = {call: {name: timed[f"{name}|{call}"] for name in found} for call in calls}
    print(f"{title}: best of {rounds} interleaved rounds x {number} calls (µs per call; ratio to jsonschema-rs "
          "iter_errors / to pydantic)\n")  # fmt: skip
    print(f"{'validator':32}" + "".join(f" {call:>22}" for call in calls))
    for name in found:
        cells = []
        for call in calls:
            us, base = by_call[call][name], by_call[call]
            rs = f"{us / base[RS]:.1f}x" if RS in base else "-"
            cells.append(f"{us:8.2f} {rs:>6} {us / base[PYDANTIC]:5.1f}x")
        print(f"{name:32}" + "".join(f" {cell:>22}" for cell in cells))
    print()
    return by_call


def part_one(number: int, rounds: int) -> None:
    print("Part 1: one typical 5-parameter call, the toolkit validator building its ToolResult envelope\n")
    main = table("The benchmark schema", SCHEMA, search_model(), {"valid": VALID, "invalid": INVALID}, number,
                 rounds)  # fmt: skip
    example = tk.from_function(search_issues, namespace="issues", effect="read")
    calls = {"valid": VALID, "defaults": {"query": "login timeout"}, "invalid": INVALID}
    table("toolkit.examples.search_issues", example.args_schema, example_model(), calls, number, rounds)
    print("Goals (the benchmark schema, toolkit validate()): at or below pydantic, within 2x of jsonschema-rs")
    for call, timed in main.items():
        to_rs, to_pydantic = timed[TOOLKIT] / timed[RS], timed[TOOLKIT] / timed[PYDANTIC]
        verdict = "met" if to_rs <= 2 and to_pydantic <= 1 else "NOT met"
        print(f"  {call:8} {to_rs:4.1f}x jsonschema-rs, {to_pydantic:4.2f}x pydantic: {verdict}")
    fresh_payloads(rounds)
    print("\nratios are against jsonschema-rs iter_errors (all errors, like the toolkit validator) and the strict")
    print("TypeAdapter (its errors() list when invalid); 'without fast tier' is the interpreter alone\n")


def fresh_payloads(rounds: int, count: int = 2000) -> None:
    """The valid call again, each payload parsed anew from JSON (new strings, hashes not yet computed, a
    different dict every call), as a tool call arrives: the timing loop above reuses one dict."""
    found = contenders(SCHEMA, search_model())
    text = json.dumps(VALID)
    best = dict.fromkeys((TOOLKIT, RS, PYDANTIC), float("inf"))
    for _ in range(rounds):
        for name in best:
            if name not in found:
                continue
            payloads, validator = [json.loads(text) for _ in range(count)], found[name]
            start = time.perf_counter()
            for payload in payloads:
                validator(payload)
            best[name] = min(best[name], (time.perf_counter() - start) / count * 1e6)
    shown = ", ".join(f"{name} {us:.2f} µs" for name, us in best.items())
    print(f"  valid, each payload parsed anew: {shown}; {best[TOOLKIT] / best[RS]:.1f}x jsonschema-rs, "
          f"{best[TOOLKIT] / best[PYDANTIC]:.2f}x pydantic")  # fmt: skip


GOAL_SECONDS = 2.0


NESTED = [0, 0, 0]
"""Nested-field fixtures over the last battery: generated, possible, tools whose sample was capped."""


def battery(toolset: tk.Toolset) -> tuple[int, int, list[tuple[str, Any]], float]:
    """Generate and fire every tool's fixtures; (tools, fixtures, disagreeing rows, seconds)."""
    start = time.perf_counter()
    fixtures = 0
    failures: list[tuple[str, Any]] = []
    NESTED[:] = [0, 0, 0]
    for tool in toolset:
        report = tk.fire(tool)
        fixtures += len(report.rows)
        failures.extend((tool.name, row) for row in report.failures)
        made, possible = report.nested
        NESTED[:] = [NESTED[0] + made, NESTED[1] + possible, NESTED[2] + (made < possible)]
    return len(toolset.tools), fixtures, failures, time.perf_counter() - start


FORM = "application/x-www-form-urlencoded"


def forms_as_json(path: Path) -> dict[str, Any]:
    """The document with every form body relabelled as JSON: what the battery would face if the form bodies
    Stripe uses for writes could be tool arguments (they are refused: ``form_body``). A stress row only."""
    root = json.loads(path.read_text(encoding="utf-8"))
    for item in root.get("paths", {}).values():
        for operation in item.values():
            content = operation.get("requestBody", {}).get("content", {}) if isinstance(operation, dict) else {}
            if FORM in content:
                content["application/json"] = content.pop(FORM)
    return root


def stripe_battery() -> None:
    """Issue goal: the whole battery over every Stripe tool (select='all') in under 2 s."""
    spec = CORPUS / "stripe.json"
    start = time.perf_counter()
    toolset = tk.from_openapi(spec, "stripe", select="all")
    built = time.perf_counter() - start
    report_battery(toolset, built, "Stripe")
    start = time.perf_counter()
    stressed = tk.from_openapi(forms_as_json(spec), "stripe", select="all")
    built = time.perf_counter() - start
    report_battery(stressed, built, "Stripe with its form bodies read as JSON (stress, not the product's view)")


def report_battery(toolset: tk.Toolset, built: float, label: str) -> None:
    tools, fixtures, failures, seconds = battery(toolset)
    refused = Counter(r.slug for r in toolset.rejected)
    print(f"{label}: {tools} tools from {tools + len(toolset.rejected)} operations (from_openapi {built:.2f} s);")
    print("  refused: " + ", ".join(f"{slug} {n}" for slug, n in sorted(refused.items())))
    verdict = "met" if seconds < GOAL_SECONDS else "NOT met"
    print(f"  battery: {fixtures} fixtures in {seconds:.2f} s ({seconds / max(fixtures, 1) * 1e6:.0f} µs per fixture)")
    print(f"  nested fields: {NESTED[0]} fixtures of {NESTED[1]} possible ({NESTED[2]} tools sampled at the cap)")
    print(f"  goal < {GOAL_SECONDS:.0f} s: {verdict}; disagreements (expected verdict != actual): {len(failures)}")
    for name, row in failures[:20]:
        print(f"    {name} {row.fixture.id}: expected {row.fixture.expected}, got {row.actual}")
    if len(failures) > 20:
        print(f"    ... and {len(failures) - 20} more")
    print()


def part_two(everything: bool) -> None:
    print("Part 2: the fixture battery (generate + fire) over every tool of a spec, select='all'\n")
    if not CORPUS.is_dir():
        print(f"corpus not found at {CORPUS}: skipped")
        return
    stripe_battery()
    names = ["github-3.0.json"] if not everything else sorted(p.name for p in CORPUS.iterdir())
    specs = [CORPUS / n for n in names if n.endswith((".json", ".yaml")) and n != "stripe.json"]
    print("The rest of the corpus, for scale:\n")
    print(f"{'spec':36} {'tools':>6} {'fixtures':>9} {'failed':>7} {'seconds':>8}")
    total = [0, 0, 0, 0.0]
    for spec in specs:
        tools, fixtures, failures, seconds = battery(tk.from_openapi(spec, "bench", select="all"))
        total = [total[0] + tools, total[1] + fixtures, total[2] + len(failures), total[3] + seconds]
        print(f"{spec.name:36} {tools:6} {fixtures:9} {len(failures):7} {seconds:8.2f}")
    print(f"{'all':36} {total[0]:6} {total[1]:9} {total[2]:7} {total[3]:8.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds; Stripe and GitHub only")
    parser.add_argument("--battery", action="store_true", help="only part 2 (the fixture batteries)")
    parser.add_argument("--calls", action="store_true", help="only part 1 (the typical call, valid and invalid)")
    options = parser.parse_args()
    if not options.battery:
        part_one(number=200 if options.quick else 1_000, rounds=10 if options.quick else 30)
    if not options.calls:
        part_two(everything=not options.quick)


if __name__ == "__main__":
    main()
