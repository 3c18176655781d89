"""``toolkit fixtures TARGET``: fire the ugly fixtures at each tool's strict validator and show the report.

    toolkit fixtures toolkit.examples:search_issues
    toolkit fixtures specs/orders.yaml --op createRefund --json
    toolkit fixtures specs/orders.yaml --nested-cap all

Nested fields (object properties, array items) get a bounded sample of fixtures per tool: --nested-cap N
changes the bound (default 64), --nested-cap all fires every one.

Exit code 1 when a fixture's actual verdict differs from the expected one.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from toolkit._commands import add_target_arguments, plain_text, progress, stale_pin_notices, write_json
from toolkit._display import mimebundle
from toolkit._fixtures import NESTED_CAP, fire, fixtures
from toolkit._targets import load_tools, pick

if TYPE_CHECKING:
    from rich.console import Console


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "fixtures",
        help="fire ugly fixtures at the validator",
        description=plain_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_target_arguments(parser)
    parser.add_argument(
        "--nested-cap",
        type=_nested_cap,
        default=NESTED_CAP,
        metavar="N|all",
        help=f"most fixtures of nested fields per tool (default {NESTED_CAP}; all: every one)",
    )


def _nested_cap(text: str) -> int | None:
    if text == "all":
        return None
    if text.isdigit():
        return int(text)
    raise argparse.ArgumentTypeError(f"{text!r} is not a count of fixtures (a whole number, or all)")


def _render(console: Console, name: str, report: Any) -> None:
    console.rule(name)
    console.print(mimebundle(report, include=("text/plain",))["text/plain"], markup=False)


def run(args: argparse.Namespace, console: Console) -> int:
    stale_pin_notices(args.target)

    tools = pick(load_tools(args.target, namespace=args.namespace, overrides=args.overrides), args.op)
    reports = []
    with progress(console, "firing fixtures", len(tools)) as advance:
        for tool in tools:
            reports.append((tool.name, fire(tool, fixtures(tool, nested_cap=args.nested_cap))))
            advance()
    if args.json:
        write_json(console, {name: report.to_dict() for name, report in reports})
    else:
        for name, report in reports:
            _render(console, name, report)
    return 1 if any(report.failures for _, report in reports) else 0
