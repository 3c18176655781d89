"""``toolkit golden check|update``: keep ``golden/<tool>.json`` in step with the tools' declarations.

    toolkit golden check                      # the tools listed in golden/golden.toml (CI runs this)
    toolkit golden update                     # accept the current declarations after review
    toolkit golden check --dir golden specs/orders.yaml --namespace orders

Which tools are under golden control is explicit: ``<dir>/golden.toml`` lists the sources, e.g. ::

    [[spec]]
    path = "../specs/orders.yaml"      # relative to golden.toml
    namespace = "orders"

    [[function]]
    target = "toolkit.examples:search_issues"
    namespace = "issues"
    effect = "read"                    # any from_function option: namespace, name, effect, confirm

    [[module]]
    target = "mypackage.tools"         # every Tool and Toolset at the module's top level (or "../tools.py")

A ``[[spec]]`` may also set ``select = "all"`` to put every operation under control; a file target
(``"../tools.py:ping"``) is relative to golden.toml too. An entry's ``dialects = ["openai", "mcp"]`` also keeps
each tool's payload in those dialects as ``<dir>/<dialect>/<tool>.json``.
Exit code 1 when ``check`` finds a missing, stale or orphaned golden file, or a spec under golden control that
changed since it was pinned (review it, then ``toolkit pin SPEC``).
"""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit import _golden
from toolkit._commands import plain_text, progress, write_json
from toolkit._openapi._pin import stale_pin
from toolkit._targets import is_spec, load_tools

if TYPE_CHECKING:
    from rich.console import Console

    from toolkit._tool import Tool


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "golden",
        help="check or update golden declaration files",
        description=plain_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "action", choices=("check", "update"), help="check: compare and report drift; update: rewrite the files"
    )
    parser.add_argument(
        "targets", nargs="*", default=[], help=f"tool sources (default: the ones in <dir>/{_golden.MANIFEST})"
    )
    parser.add_argument("--dir", default="golden", help="golden folder (default: golden)")
    parser.add_argument("--namespace", help="tool-name prefix for the targets given on the command line")
    parser.add_argument("--prune", action="store_true", help="update: also delete orphaned golden files")
    parser.add_argument("--json", action="store_true", help="machine-readable JSON on stdout")


def _tools(args: argparse.Namespace) -> _golden.Manifest:
    if not args.targets:
        return _golden.load_manifest(Path(args.dir) / _golden.MANIFEST)
    tools: list[Tool] = []
    for target in args.targets:
        tools += load_tools(target, namespace=args.namespace)
    stale = (stale_pin(Path(t)) for t in args.targets if is_spec(t))
    return _golden.Manifest(tuple(tools), {}, tuple(s for s in stale if s is not None))


def update_command(args: argparse.Namespace) -> str:
    """The ``golden update`` command that accepts what this ``golden check`` found (same targets and folder)."""
    words = ["toolkit", "golden", "update", *args.targets]
    if args.dir != "golden" or args.targets:
        words += ["--dir", args.dir]
    if args.namespace:
        words += ["--namespace", args.namespace]
    return shlex.join(words)


def run(args: argparse.Namespace, console: Console) -> int:
    with progress(console, "building tools", None):
        manifest = _tools(args)
    tools, pins = manifest.tools, manifest.pins
    if args.action == "update":
        result = _golden.update(tools, args.dir, prune=args.prune, pins=pins)
        if args.json:
            write_json(console, result.to_dict())
        else:
            console.print(
                f"golden update ({args.dir}): {len(result.written)} written, {len(result.removed)} removed, "
                f"{len(result.unchanged)} unchanged"
            )
            for name in result.written:
                console.print(f"  wrote   {name}.json")
            for name in result.removed:
                console.print(f"  removed {name}.json")
            for stale in manifest.stale:
                console.print(f"notice: {stale.message} (`toolkit golden check` fails until then)", markup=False)
        return 0
    report = _golden.check(tools, args.dir, pins=pins)
    passed = report.passed and not manifest.stale
    if args.json:
        records = [{"spec": str(s.path), "pinned": s.pinned, "actual": s.actual} for s in manifest.stale]
        write_json(console, {**report.to_dict(), "passed": passed, "stale_pins": records})
        return 0 if passed else 1
    for changed in manifest.stale:
        console.print(f"golden FAILED: {changed.message}", style="red", markup=False)
    style = "green" if report.passed else "red"
    lines = report.to_text(update_command(args)).splitlines()
    console.print(lines[0], style=style, markup=False)
    for line in lines[1:]:
        console.print(line, markup=False)
    return 0 if passed else 1
