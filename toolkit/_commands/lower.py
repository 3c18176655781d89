"""``toolkit lower TARGET``: the exact declaration each tool sends to the model, with losses and lints.

    toolkit lower toolkit.examples:search_issues
    toolkit lower specs/orders.yaml --op getOrder
    toolkit lower spec.json --all --summary        # every operation, summarised (losses and refusals by kind,
                                                   # each declaration's size: bytes, ~tokens = bytes / 4, the total)
    toolkit lower specs/orders.yaml --dialect openai   # the payload another provider's SDK sends

On a terminal the declaration soft-wraps; piped, the same text is printed unstyled and unwrapped (``--json``
prints JSON records). A pinned spec that changed since its pin is still lowered, with a notice on stderr.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from toolkit._canonical import pretty
from toolkit._commands import add_target_arguments, plain_text, progress, stale_pin_notices, write_json
from toolkit._diff._text import plural
from toolkit._lowering import DIALECTS
from toolkit._openapi import summarise
from toolkit._openapi._refusal import SLUGS
from toolkit._targets import is_spec, load_spec, load_tools, pick
from toolkit._tool import Toolset

if TYPE_CHECKING:
    from rich.console import Console

    from toolkit._tool import Tool


_SEVERITY = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "lower",
        help="show declarations, losses and lints",
        description=plain_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_target_arguments(parser)
    parser.add_argument("--all", action="store_true", help="specs: every operation, not only the opted-in ones")
    parser.add_argument("--summary", action="store_true", help="one summary instead of every declaration")
    parser.add_argument(
        "--dialect", choices=list(DIALECTS), default="gemini", help="whose payload to show (default: gemini)"
    )


def tool_record(tool: Tool, dialect: str = "gemini") -> dict[str, Any]:
    """What ``lower --json`` prints for one tool: its payload in ``dialect`` (``declaration``; ``null`` and a
    ``refusal`` when the dialect cannot express it), the name the provider sees, and every loss."""
    payload = tool.payload(dialect)
    return {
        "name": tool.name,
        "dialect": dialect,
        "sent_as": payload.name,
        "declaration": payload.body,
        "refusal": None if payload.refusal is None else payload.refusal.to_dict(),
        "losses": [loss.to_dict() for loss in (*tool.contract.source_losses, *payload.losses)],
        "lints": [lint.to_dict() for lint in tool.lints],
        "effect": tool.effect,
        "confirm": tool.confirm,
        "binding": tool.binding,
        "operation_id": tool.operation_id,
    }


def _render(console: Console, tool: Tool, dialect: str = "gemini") -> None:
    """The title, the declaration as JSON and the losses and lints. Nothing is ever cut: long lines soft-wrap
    on a terminal (the terminal folds them; a copy gives the JSON back whole), and without a terminal the
    declaration is plain JSON, unstyled and unwrapped."""
    # rich loads when a command runs, so `toolkit --help` stays fast.
    from rich.highlighter import JSONHighlighter
    from rich.text import Text

    payload = tool.payload(dialect)
    title = f"{tool.name}  ({tool.effect}{', confirm' if tool.confirm else ''})"
    if dialect != "gemini":
        renamed = f", sent as {payload.name}" if payload.name != tool.name else ""
        title += f"  [{dialect}{renamed}{'' if payload.strict is None else f', strict {payload.strict}'.lower()}]"
    if payload.refusal is not None:
        console.print(f"{title}: refused [{payload.refusal.slug}]: {payload.refusal.message}", markup=False)
        return
    console.print(title, style="bold", markup=False, soft_wrap=True)
    console.print(JSONHighlighter()(Text(pretty(payload.body).rstrip())), soft_wrap=True)
    if tool.binding:
        console.print("binding: " + ", ".join(f"{k} → {v}" for k, v in tool.binding.items()), markup=False)
    losses = (*tool.contract.source_losses, *payload.losses)
    if losses:
        heading = f"{plural(len(losses), 'loss', 'losses')}: dropped or changed in the declaration, still enforced"
        console.print(heading, style="italic", markup=False)
        for loss in losses:
            console.print(f"  {loss.path or '/'}  {loss.keyword}={loss.value!r}: {loss.reason}", markup=False)
    if tool.lints:
        console.print(plural(len(tool.lints), "lint"), style="italic", markup=False)
        for lint in tool.lints:
            style = _SEVERITY.get(lint.severity, "")
            text = f"{lint.severity} {lint.code} {lint.slug} at {lint.path or '(tool)'}"
            console.print(text, style=style, markup=False)
            console.print(f"  {lint.message}\n  fix: {lint.fix}", markup=False)
    if not (losses or tool.lints):
        console.print("no losses, no lints")
    console.print()


def _summary_table(console: Console, target: str, summary: dict[str, Any]) -> None:
    """The spec's summary as a table: tools built, then each refusal slug and lost keyword with its count."""
    # rich loads when a command runs, so `toolkit --help` stays fast.
    from rich.table import Table

    refused = sum(summary["refusals"].values())
    title = (
        f"{target}: {plural(summary['operations'], 'operation')}, {plural(summary['tools'], 'tool')}, "
        f"{plural(refused, 'refusal')}"
    )
    caption = "lost: dropped from the declarations, still enforced by the validator" if summary["losses"] else None
    columns = ("", "slug or keyword", "count", "meaning") if refused else ("", "keyword", "count")
    table = Table(*columns, title=title, title_justify="left", caption=caption)
    for slug, count in summary["refusals"].items():
        table.add_row("refused", slug, str(count), SLUGS.get(slug, ""))
    for keyword, count in summary["losses"].items():
        table.add_row("lost", keyword, str(count), *([""] if refused else []))
    if table.row_count:
        console.print(table)
    else:
        console.print(title, markup=False)
        console.print("no refusals, no losses")


def _sizes_table(console: Console, sizes: dict[str, Any]) -> None:
    """Each tool's declaration size (bytes of compact JSON, approximate tokens), what its budget cut, and
    the total."""
    # rich loads when a command runs, so `toolkit --help` stays fast.
    from rich.table import Table

    if not sizes["tools"]:
        return
    cut = f"; {plural(sizes['reduced'], 'tool')} reduced to fit, {sizes['cut']:,} bytes cut" if sizes["reduced"] else ""
    if sizes["over"]:
        cut += f"; {plural(sizes['over'], 'tool')} over the default budget with every reduction, sent whole (TK504)"
    budget = f" (toolset budget {sizes['toolset_budget']:,})" if sizes["toolset_budget"] is not None else ""
    title = f"declarations: {sizes['bytes']:,} bytes, ~{sizes['tokens']:,} tokens{budget}{cut}"
    caption = "~tokens: an approximate count, bytes / 4"
    console.print(title, markup=False, soft_wrap=True)
    table = Table(caption=caption)
    table.add_column("tool", overflow="fold")
    for header in ("bytes", "~tokens", "before"):
        table.add_column(header, justify="right")
    table.add_column("reduced by", overflow="fold")
    for name, row in sizes["tools"].items():
        before = f"{row['before']:,}" if row["reductions"] else ""
        table.add_row(name, f"{row['bytes']:,}", f"{row['tokens']:,}", before, ", ".join(row["reductions"]))
    table.add_row("total", f"{sizes['bytes']:,}", f"{sizes['tokens']:,}", f"{sizes['before']:,}", "", style="bold")
    console.print(table)


def _summary(console: Console, args: argparse.Namespace) -> int:
    stale_pin_notices(args.target)
    with progress(console, f"lowering {args.target}", None):
        select = "all" if args.all else "extension"
        if is_spec(args.target):
            toolset = load_spec(args.target, args.namespace, select=select, overrides=args.overrides)
        else:  # functions: the same summary over the tools the target names
            tools = load_tools(args.target, namespace=args.namespace, select=select, overrides=args.overrides)
            toolset = Toolset(args.namespace or "functions", tuple(tools))
        summary = summarise(toolset)
    if args.json:
        write_json(console, summary)
    else:
        _summary_table(console, args.target, summary)
        _sizes_table(console, summary["declarations"])
    return 0


def run(args: argparse.Namespace, console: Console) -> int:
    if args.summary:
        return _summary(console, args)
    select = "all" if args.all else "extension"
    stale_pin_notices(args.target)
    with progress(console, f"lowering {args.target}", None):
        tools = pick(
            load_tools(args.target, namespace=args.namespace, select=select, overrides=args.overrides), args.op
        )
    if args.json:
        write_json(console, [tool_record(t, args.dialect) for t in tools])
        return 0
    for tool in tools:
        _render(console, tool, args.dialect)
    if not tools:
        console.print("no tools: opt operations in with x-agent-tool, or pass --all")
    return 0
