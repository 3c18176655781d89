"""``toolkit lower TARGET``: the exact declaration each tool sends to the model, with losses and lints.

toolkit lower toolkit/examples.py:search_issues
toolkit lower specs/orders.yaml --op getOrder
toolkit lower spec.json --all --summary        # every operation, summarised (losses and refusals by kind)
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from toolkit._canonical import pretty
from toolkit._commands import add_target_arguments, progress, write_json
from toolkit._exceptions import ToolkitError
from toolkit._openapi import summarise
from toolkit._targets import is_spec, load_spec, load_tools, pick

if TYPE_CHECKING:
    from rich.console import Console

    from toolkit._tool import Tool


_SEVERITY = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "lower",
        help="show declarations, losses and lints",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_target_arguments(parser)
    parser.add_argument("--all", action="store_true", help="specs: every operation, not only the opted-in ones")
    parser.add_argument("--summary", action="store_true", help="specs: one summary instead of every declaration")


def tool_record(tool: Tool) -> dict[str, Any]:
    """What ``lower --json`` prints for one tool."""
    return {
        "name": tool.name,
        "declaration": tool.declaration,
        "losses": [loss.to_dict() for loss in tool.losses],
        "lints": [lint.to_dict() for lint in tool.lints],
        "effect": tool.effect,
        "confirm": tool.confirm,
        "binding": tool.binding,
        "operation_id": tool.operation_id,
    }


def _render(console: Console, tool: Tool) -> None:
    # rich loads when a command runs, so `toolkit --help` stays fast.
    from rich.panel import Panel
    from rich.syntax import Syntax

    title = f"{tool.name}  ({tool.effect}{', confirm' if tool.confirm else ''})"
    console.print(
        Panel(Syntax(pretty(tool.declaration).rstrip(), "json", theme="ansi_dark", word_wrap=True), title=title)
    )
    if tool.binding:
        console.print("binding: " + ", ".join(f"{k} → {v}" for k, v in tool.binding.items()), markup=False)
    if tool.losses:
        console.print(f"losses ({len(tool.losses)}): dropped from the declaration, still enforced", style="italic")
        for loss in tool.losses:
            console.print(f"  {loss.path or '/'}  {loss.keyword}={loss.value!r}: {loss.reason}", markup=False)
    if tool.lints:
        console.print(f"lints ({len(tool.lints)})", style="italic")
        for lint in tool.lints:
            style = _SEVERITY.get(lint.severity, "")
            console.print(f"{lint.severity} {lint.code} {lint.slug} at {lint.path or '(tool)'}", style=style)
            console.print(f"  {lint.message}\n  fix: {lint.fix}", markup=False)
    if not (tool.losses or tool.lints):
        console.print("no losses, no lints")


def _summary(console: Console, args: argparse.Namespace) -> int:

    with progress(console, f"lowering {args.target}", None):
        select = "all" if args.all else "extension"
        toolset = load_spec(args.target, args.namespace, select=select, overrides=args.overrides)
        summary = summarise(toolset)
    data = summary.to_dict() if hasattr(summary, "to_dict") else summary
    if args.json or isinstance(data, dict | list):
        write_json(console, data)
    else:
        console.print(str(summary), markup=False)
    return 0


def run(args: argparse.Namespace, console: Console) -> int:
    if args.summary:
        if not is_spec(args.target):
            raise ToolkitError("--summary needs an OpenAPI spec target (spec.yaml or spec.json)", slug="usage")
        return _summary(console, args)
    select = "all" if args.all else "extension"
    with progress(console, f"lowering {args.target}", None):
        tools = pick(
            load_tools(args.target, namespace=args.namespace, select=select, overrides=args.overrides), args.op
        )
    if args.json:
        write_json(console, [tool_record(t) for t in tools])
        return 0
    for tool in tools:
        _render(console, tool)
    if not tools:
        console.print("no tools: opt operations in with x-agent-tool, or pass --all")
    return 0
