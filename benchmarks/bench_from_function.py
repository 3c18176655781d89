"""Time ``from_function`` over the test catalogue, next to pydantic's own ``model_json_schema`` as the floor.

Run: ``.venv/bin/python benchmarks/bench_from_function.py [--repeat N]``

Three numbers per run, side by side, with ratios:

* **pydantic floor**: ``create_model`` + ``model_json_schema`` for the same parameters (what any pydantic-based
  derivation must pay);
* **args_schema**: the floor plus signature reading, docstring parsing and schema cleaning;
* **from_function**: the whole pipeline (args_schema, lowering to the Gemini subset, lints, Tool bundle).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from function_catalogue import CASES, Case

from toolkit import from_function
from toolkit._from_python import _arguments_model, _docstring, _params
from toolkit._from_python._args_schema import args_schema_of
from toolkit._from_python._signature import callable_target


def pydantic_floor(case: Case) -> None:
    """Only what pydantic does: build the arguments model and ask it for its JSON Schema."""
    params, _ = _params(case.fn, {}, "bench", None, {})
    _arguments_model(params, "bench").model_json_schema()


def args_schema_only(case: Case) -> None:
    doc = _docstring(callable_target(case.fn))
    params, _ = _params(case.fn, doc.params, "bench", None, {})
    args_schema_of(_arguments_model(params, "bench"))


def whole_tool(case: Case) -> None:
    from_function(case.fn, **case.options)


def per_call_us(job: Callable[[Case], None], repeat: int) -> float:
    """Median over ``repeat`` sweeps of the mean time per catalogue function, in microseconds."""
    sweeps = []
    for _ in range(repeat):
        start = time.perf_counter()
        for case in CASES:
            job(case)
        sweeps.append((time.perf_counter() - start) / len(CASES) * 1e6)
    return statistics.median(sweeps)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="sweeps over the catalogue (median is reported)")
    args = parser.parse_args(argv)
    for case in CASES:  # warm imports and caches once, outside the timings
        from_function(case.fn, **case.options)
    floor = per_call_us(pydantic_floor, args.repeat)
    schema = per_call_us(args_schema_only, args.repeat)
    full = per_call_us(whole_tool, args.repeat)
    print(f"catalogue: {len(CASES)} functions, median of {args.repeat} sweeps, time per function")
    print(f"{'stage':<36}{'µs/call':>12}{'× floor':>10}")
    for label, value in (
        ("pydantic create_model+json_schema", floor),
        ("args_schema (signature+docs+clean)", schema),
        ("from_function (+lower, lints, Tool)", full),
    ):
        print(f"{label:<36}{value:>12.0f}{value / floor:>10.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
