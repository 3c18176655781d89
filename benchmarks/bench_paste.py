"""Benchmark: the paste box's update latency, from an edit of the text to every panel redrawn.

One update is what a keystroke pause costs in the paste box (``PasteBox.refresh``): the text parsed, the tools
built, fixtures fired at each tool whose contract changed, the classified diff against the previous version,
and the declaration, lints, losses and fixture summary drawn. Each update edits a parameter's description (so
the contract changes and that tool's fixtures fire again, as typing in a docstring does); the previous version
stays the first one.

Cases: a Python function; a one-operation OpenAPI fragment and a 50-operation fragment cut from a corpus spec
(GitHub by default, the first 50 operations in document order), each pasted as JSON and as YAML. Median and p90
of ``--updates`` updates after ``--warmup`` ones, in ms, in process, after imports::

    .venv/bin/python benchmarks/bench_paste.py [--updates 30] [--warmup 3] [--spec github-3.0.json]
    .venv/bin/python benchmarks/bench_paste.py --profile CASE     # cProfile of one case's updates

A corpus case is skipped (with a line saying so) when the shared corpus is absent.
"""

from __future__ import annotations

import argparse
import copy
import cProfile
import json
import pstats
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from toolkit._openapi._parse import parse_text
from toolkit._paste import cut
from toolkit.widgets.editor import PasteBox

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "openapi"
METHODS = ("get", "put", "post", "delete", "patch", "options", "head", "trace")
ONE = ("/repos/{owner}/{repo}/issues", "post")
"""The one-operation case on GitHub: create an issue (a body with nested objects and oneOf); elsewhere the first
GET operation."""

FUNCTION = '''from datetime import date
from typing import Literal


def create_ticket(title: str, due_on: date, labels: list[str] | None = None,
                  priority: Literal["low", "normal", "high"] = "normal", assignee: str | None = None) -> dict:
    """Open a support ticket for the user's problem. Use it once the user has described the problem.

    Args:
        title: One line saying what is wrong, for example "Login times out" {edit}.
        due_on: Calendar day the ticket must be answered by (ISO 8601, YYYY-MM-DD).
        labels: Labels to file the ticket under, for example ["login", "mobile"].
        priority: How urgent the ticket is.
        assignee: Login of the person to assign, when the user named one.
    """
    return {{"title": title}}
'''

Edit = Callable[[int], str]


def _function_case() -> tuple[str, Edit]:
    return "function", lambda n: FUNCTION.format(edit=f"(edit {n})")


def _operations(document: dict[str, Any]) -> list[tuple[str, str]]:
    return [
        (path, method)
        for path, item in document.get("paths", {}).items()
        for method in METHODS
        if isinstance(item, dict) and method in item
    ]


def _fragment_edits(fragment: dict[str, Any], dump: Callable[[Any], str]) -> Edit:
    """Edits of the first GET operation: the description of a query parameter it gains, typed a word at a time."""
    fragment = copy.deepcopy(fragment)  # cut() shares its operations with the document
    operations = _operations(fragment)
    path, method = next((op for op in operations if op[1] == "get"), operations[0])
    operation = fragment["paths"][path][method]
    note = {"name": "note", "in": "query", "schema": {"type": "string"}, "description": ""}
    operation["parameters"] = [*operation.get("parameters", []), note]

    def edit(n: int) -> str:
        note["description"] = f"A note for the reviewer (edit {n})."
        return dump(fragment)

    return edit


def _dumps() -> dict[str, Callable[[Any], str]]:
    return {
        "json": lambda value: json.dumps(value, indent=2),
        "yaml": lambda value: yaml.safe_dump(value, sort_keys=False, allow_unicode=True, width=120),
    }


def _corpus_cases(spec: Path) -> list[tuple[str, Edit]] | str:
    if not spec.is_file():
        return f"skipped: {spec} is absent (the shared corpus holds the specs)"
    document = parse_text(spec.read_bytes())
    operations = _operations(document)
    one = ONE if ONE in operations else next((op for op in operations if op[1] == "get"), operations[0])
    cases: list[tuple[str, Edit]] = []
    for name, dump in _dumps().items():
        cases.append((f"1 operation ({name})", _fragment_edits(cut(document, [one]), dump)))
        cases.append((f"50 operations ({name})", _fragment_edits(cut(document, operations[:50]), dump)))
    return cases


def _run(edit: Edit, updates: int, warmup: int) -> tuple[list[float], PasteBox]:
    box = PasteBox(delay=0)
    box.all_operations.value = True  # corpus operations carry no x-agent-tool
    box.set_text(edit(0))
    if box.draft.problem is not None:
        raise SystemExit(f"the first version does not build: {box.draft.problem.message}")
    times = []
    for n in range(1, warmup + updates + 1):
        text = edit(n)
        started = time.perf_counter()
        box.set_text(text)
        spent = time.perf_counter() - started
        if n > warmup:
            times.append(spent * 1000)
    return times, box


def _p90(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--spec", default="github-3.0.json", help="a file in the shared corpus, or a path")
    parser.add_argument("--profile", metavar="CASE", help="profile the case whose name starts with CASE")
    args = parser.parse_args()
    spec = Path(args.spec) if Path(args.spec).is_file() else CORPUS / args.spec
    cases = [_function_case()]
    corpus = _corpus_cases(spec)
    if isinstance(corpus, str):
        print(corpus)
    else:
        cases += corpus
    if args.profile:
        chosen = [(name, edit) for name, edit in cases if name.startswith(args.profile)]
        if not chosen:
            raise SystemExit(f"no case starts with {args.profile!r}; cases: {', '.join(n for n, _ in cases)}")
        profiler = cProfile.Profile()
        profiler.enable()
        _run(chosen[0][1], args.updates, args.warmup)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(35)
        return
    print(f"spec: {spec.name}; {args.updates} updates after {args.warmup} warm-up ones")
    print(f"{'case':24} {'KB':>7} {'tools':>5} {'median ms':>10} {'p90 ms':>8} {'diff':>12}")
    for name, edit in cases:
        times, box = _run(edit, args.updates, args.warmup)
        verdict = box.draft.diff.verdict if box.draft.diff is not None else "-"
        size = len(box.text.value.encode()) / 1024
        print(
            f"{name:24} {size:7.1f} {len(box.draft.tools):5d} {statistics.median(times):10.1f} "
            f"{_p90(times):8.1f} {verdict:>12}"
        )


if __name__ == "__main__":
    main()
